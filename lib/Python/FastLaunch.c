/*===- FastLaunch.c - The launch-argument checker and fast path, in C ----===*
 *
 * tirx._fastlaunch: every check of a launch's arguments, and the per-call
 * work of python/tirx/runtime's Launcher for PyTorch tensors. A Launcher
 * object is made once per compiled kernel from a descriptor of its
 * parameters (runtime/_plan.py builds it from the compile result): each
 * parameter's name, kind, argument slot and constraints (dtype, rank,
 * static extents and size variables with their multiple_of and at_most,
 * alignment; a scalar's type and range), the size variables, and the TMA
 * tensor maps the kernel takes after its parameters.
 *
 * The checks exist once, here, with the messages users see:
 * - the fast path (a call of the Launcher) reads PyTorch tensors through
 *   their attributes and runs them; what it does not take (another
 *   protocol, another thread, a first call on a device, an argument a
 *   check refuses) goes to the Python general path;
 * - the general path (runtime/_launcher.py) reads each argument through its
 *   protocol (PyTorch, __cuda_array_interface__, DLPack) and calls the same
 *   checks (check_tensor, check_scalar, check_device, check_count), which
 *   raise the error that names the parameter.
 * TMA tensor maps are encoded here too (tirxTensorMapEncodeTyped, reached
 * through its address): the fast path keeps one map per box in the
 * Launcher's buffers and re-encodes it only when the tensor's pointer,
 * shape or strides changed; the general path encodes into its own buffers.
 * The fast path sets the grid and PyTorch's current stream in the device's
 * TirxPreparedLaunch and calls tirxLaunchPrepared through its address.
 * Nothing reaches the GPU before every check passed.
 *
 * Built against Python's limited API (3.11), so one binary serves every
 * CPython from 3.11 on (the bundle's and the wheel's `_fastlaunch.abi3.so`).
 * docs/python.md describes the launch path; test/python/test_launch.py runs
 * every check, test_fastlaunch.py the descriptor and the map cache.
 *
 *===----------------------------------------------------------------------===*/

#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "TirX/Runtime/TirXRuntime.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { MaxDevices = 64, MaxParams = 256, MaxDims = 8, MaxMaps = 64 };

typedef int (*LaunchFunction)(const TirxPreparedLaunch *);
typedef int (*EncodeFunction)(void *, const void *, unsigned, const char *,
                              unsigned, const unsigned long long *,
                              const unsigned long long *, const unsigned *,
                              unsigned);
typedef const char *(*ErrorFunction)(void);

/* How the general path read a tensor (what element type names it accepts). */
enum { ReadTorch = 0, ReadInterface = 1, ReadDLPack = 2 };

/* One parameter's checks and argument slot. */
typedef enum { ParamTensor, ParamFloat, ParamInt, ParamOther } ParamKind;

typedef struct {
  ParamKind kind;
  void *slot; /* the ctypes value's buffer the kernel argument is read from */
  PyObject *name;     /* str: the parameter's name */
  PyObject *typeName; /* str: the dtype's name ("float32") */
  /* Tensors. */
  PyObject *dtype;   /* torch's dtype object, after bind() */
  PyObject *typestr; /* str: the element type's typestr ("<f4") */
  int isBfloat16;    /* __cuda_array_interface__ also says <V2 or <f2 */
  int itemsize;
  int rank;
  long long dims[MaxDims]; /* >= 0: a static extent; < 0: -(size var + 1) */
  long long alignment;
  /* Scalars: the slot's width in bytes and the accepted range. */
  int bytes;
  int isUnsigned;
  int isFloat; /* ParamOther: a float type (else an integer one) */
  long long low;
  unsigned long long high;
  PyObject *lowObject, *highObject; /* ints: the range, as Python ints */
  double limit;                     /* floats: finite |x| <= limit */
} Param;

typedef struct {
  void *slot;
  PyObject *name;
  long long multipleOf;
  long long atMost; /* 0: no largest value */
} SizeVar;

/* One TMA tensor map: the fast path's copy lives in `buffer` (the Python
 * Launcher's, 64-byte aligned) and is re-encoded only when its key changes. */
typedef struct {
  int param;
  int rank;
  unsigned box[MaxDims];
  unsigned swizzle;
  char element[8]; /* "" (bits) or a reduction's type ("f32") */
  void *buffer;
  /* The key of the map in `buffer`. */
  int valid;
  unsigned long long pointer;
  unsigned long long extents[MaxDims];
  unsigned long long strides[MaxDims];
  long long encodes; /* how many times `buffer` was encoded (test hook) */
} TensorMap;

typedef struct {
  PyObject ob_base;     /* PyObject_HEAD, spelled out */
  PyObject *general;    /* general(args): the general path, raises errors */
  PyObject *failed;     /* failed(): raises the GPUError of a failed launch */
  PyObject *kernelName; /* str */
  PyObject *gridFor;    /* gridFor(key): checks and caches a dynamic grid */
  PyObject *grids;      /* dict: sizes tuple -> (c_uint * 3), or NULL */
  PyObject *tensorType; /* torch.Tensor, after bind() */
  PyObject *stream;     /* torch._C._cuda_getCurrentRawStream, after bind() */
  LaunchFunction launch;
  EncodeFunction encode;
  ErrorFunction lastError;
  int fast;            /* 0: every call takes the general path */
  unsigned long owner; /* the thread whose calls may use the slots */
  int hasOwner;
  int numParams;
  int numSizes;
  int numMaps;
  Param *params;
  SizeVar *sizes;
  TensorMap *maps;
  TirxPreparedLaunch *prepared[MaxDevices];
} Launcher;

/* The size variables a call has bound so far. */
typedef struct {
  long long value[MaxParams];
  int param[MaxParams];
  int dim[MaxParams];
  unsigned char bound[MaxParams];
} Sizes;

static PyObject *nameIsCuda, *nameDtype, *nameIsContiguous, *nameGetDevice,
    *nameShape, *nameDataPtr, *numbersReal, *numbersIntegral;

/*===-- Construction ------------------------------------------------------===*/

static int getLongLong(PyObject *tuple, Py_ssize_t index, long long *value) {
  PyObject *item = PyTuple_GetItem(tuple, index);
  if (!item)
    return -1;
  *value = PyLong_AsLongLong(item);
  return (*value == -1 && PyErr_Occurred()) ? -1 : 0;
}

static void *getAddress(PyObject *tuple, Py_ssize_t index) {
  PyObject *item = PyTuple_GetItem(tuple, index);
  return item ? PyLong_AsVoidPtr(item) : NULL;
}

/* A new reference to the str at `index`, or NULL with an error. */
static PyObject *getString(PyObject *tuple, Py_ssize_t index) {
  PyObject *item = PyTuple_GetItem(tuple, index);
  if (!item)
    return NULL;
  if (!PyUnicode_Check(item)) {
    PyErr_SetString(PyExc_TypeError, "a name or type is a str");
    return NULL;
  }
  Py_INCREF(item);
  return item;
}

static int isKind(PyObject *kind, const char *name) {
  return PyUnicode_Check(kind) &&
         PyUnicode_CompareWithASCIIString(kind, name) == 0;
}

/* A parameter's description, a tuple made by runtime/_plan.py:
 *   ("tensor", slot, name, dims, alignment, typestr, dtype_name, itemsize)
 *       dims: ints, a size variable k as -(k+1)
 *   ("float", slot, name, type_name, bytes, limit)
 *   ("int", slot, name, type_name, bytes, low, high)
 *   ("other", slot, name, type_name, is_float)  a type no launch passes */
static int parseParam(PyObject *spec, Param *param, int numSizes) {
  if (!PyTuple_Check(spec) || PyTuple_Size(spec) < 4) {
    PyErr_SetString(PyExc_TypeError,
                    "a parameter is a tuple (kind, slot, name, ...)");
    return -1;
  }
  PyObject *kind = PyTuple_GetItem(spec, 0);
  Py_ssize_t size = PyTuple_Size(spec);
  param->slot = getAddress(spec, 1);
  if (!param->slot)
    return PyErr_Occurred()
               ? -1
               : (PyErr_SetString(PyExc_ValueError, "null slot"), -1);
  if (!(param->name = getString(spec, 2)))
    return -1;
  if (isKind(kind, "tensor") && size == 8) {
    param->kind = ParamTensor;
    PyObject *dims = PyTuple_GetItem(spec, 3);
    if (!PyTuple_Check(dims) || PyTuple_Size(dims) > MaxDims) {
      PyErr_SetString(PyExc_ValueError,
                      "a tensor's dims: a tuple of at most 8");
      return -1;
    }
    param->rank = (int)PyTuple_Size(dims);
    for (int dim = 0; dim < param->rank; ++dim) {
      if (getLongLong(dims, dim, &param->dims[dim]) < 0)
        return -1;
      if (param->dims[dim] < -numSizes) {
        PyErr_SetString(PyExc_ValueError, "a dimension names no size variable");
        return -1;
      }
    }
    long long itemsize;
    if (getLongLong(spec, 4, &param->alignment) < 0 ||
        !(param->typestr = getString(spec, 5)) ||
        !(param->typeName = getString(spec, 6)) ||
        getLongLong(spec, 7, &itemsize) < 0)
      return -1;
    if (param->alignment < 1) {
      PyErr_SetString(PyExc_ValueError, "an alignment is at least 1");
      return -1;
    }
    if (itemsize < 1 || itemsize > 8) {
      PyErr_SetString(PyExc_ValueError, "an element is 1 to 8 bytes");
      return -1;
    }
    param->itemsize = (int)itemsize;
    param->isBfloat16 =
        PyUnicode_CompareWithASCIIString(param->typeName, "bfloat16") == 0;
    return 0;
  }
  if (!(param->typeName = getString(spec, 3)))
    return -1;
  long long bytes = 0;
  if (isKind(kind, "float") && size == 6) {
    param->kind = ParamFloat;
    param->isFloat = 1;
    if (getLongLong(spec, 4, &bytes) < 0)
      return -1;
    param->limit = PyFloat_AsDouble(PyTuple_GetItem(spec, 5));
    if (PyErr_Occurred())
      return -1;
  } else if (isKind(kind, "int") && size == 7) {
    param->kind = ParamInt;
    if (getLongLong(spec, 4, &bytes) < 0 ||
        getLongLong(spec, 5, &param->low) < 0)
      return -1;
    param->high = PyLong_AsUnsignedLongLong(PyTuple_GetItem(spec, 6));
    if (PyErr_Occurred())
      return -1;
    param->isUnsigned = param->low >= 0;
    param->lowObject = PyLong_FromLongLong(param->low);
    param->highObject = PyLong_FromUnsignedLongLong(param->high);
    if (!param->lowObject || !param->highObject)
      return -1;
  } else if (isKind(kind, "other") && size == 5) {
    param->kind = ParamOther;
    param->isFloat = PyObject_IsTrue(PyTuple_GetItem(spec, 4));
    return param->isFloat < 0 ? -1 : 0;
  } else {
    PyErr_SetString(PyExc_ValueError, "unknown parameter kind");
    return -1;
  }
  if ((param->kind == ParamFloat && bytes != 4 && bytes != 8) ||
      (param->kind == ParamInt && bytes != 1 && bytes != 2 && bytes != 4 &&
       bytes != 8)) {
    PyErr_SetString(PyExc_ValueError, "a scalar slot of an unsupported width");
    return -1;
  }
  param->bytes = (int)bytes;
  return 0;
}

/* A tensor map's description: (param, box, swizzle, element, buffer). */
static int parseMap(Launcher *self, PyObject *spec, TensorMap *map) {
  long long param, swizzle;
  if (!PyTuple_Check(spec) || PyTuple_Size(spec) != 5) {
    PyErr_SetString(PyExc_TypeError,
                    "a tensor map is (param, box, swizzle, element, buffer)");
    return -1;
  }
  if (getLongLong(spec, 0, &param) < 0 || getLongLong(spec, 2, &swizzle) < 0)
    return -1;
  PyObject *box = PyTuple_GetItem(spec, 1);
  PyObject *element = PyTuple_GetItem(spec, 3);
  map->buffer = getAddress(spec, 4);
  if (PyErr_Occurred())
    return -1;
  if (param < 0 || param >= self->numParams ||
      self->params[param].kind != ParamTensor || !PyTuple_Check(box) ||
      PyTuple_Size(box) != self->params[param].rank ||
      !PyUnicode_Check(element) || !map->buffer ||
      (uintptr_t)map->buffer % TIRX_TENSOR_MAP_ALIGNMENT || swizzle < 0) {
    PyErr_SetString(PyExc_ValueError,
                    "a tensor map names no tensor parameter of its rank, or "
                    "its buffer is not 64-byte aligned");
    return -1;
  }
  Py_ssize_t length;
  const char *text = PyUnicode_AsUTF8AndSize(element, &length);
  if (!text)
    return -1;
  if (length >= (Py_ssize_t)sizeof(map->element)) {
    PyErr_SetString(PyExc_ValueError, "a tensor map's element type is long");
    return -1;
  }
  memcpy(map->element, text, (size_t)length + 1);
  map->param = (int)param;
  map->rank = self->params[param].rank;
  map->swizzle = (unsigned)swizzle;
  for (int dim = 0; dim < map->rank; ++dim) {
    long long extent;
    if (getLongLong(box, dim, &extent) < 0)
      return -1;
    map->box[dim] = (unsigned)extent;
  }
  return 0;
}

static void clearParam(Param *param) {
  Py_CLEAR(param->dtype);
  Py_CLEAR(param->name);
  Py_CLEAR(param->typeName);
  Py_CLEAR(param->typestr);
  Py_CLEAR(param->lowObject);
  Py_CLEAR(param->highObject);
}

/* The Python objects a Launcher holds: the Python Launcher's general path
 * refers back to this object, so the cycle is the collector's to break. */
static int Launcher_traverse(Launcher *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE((PyObject *)self));
  Py_VISIT(self->general);
  Py_VISIT(self->failed);
  Py_VISIT(self->gridFor);
  Py_VISIT(self->grids);
  Py_VISIT(self->tensorType);
  Py_VISIT(self->stream);
  if (self->params)
    for (int i = 0; i < self->numParams; ++i)
      Py_VISIT(self->params[i].dtype);
  return 0;
}

/* Drops the Python references that can make cycles; a cleared Launcher
 * has no general path (calls raise). */
static int Launcher_clear(Launcher *self) {
  Py_CLEAR(self->general);
  Py_CLEAR(self->failed);
  Py_CLEAR(self->gridFor);
  Py_CLEAR(self->grids);
  Py_CLEAR(self->tensorType);
  Py_CLEAR(self->stream);
  if (self->params)
    for (int i = 0; i < self->numParams; ++i)
      Py_CLEAR(self->params[i].dtype);
  return 0;
}

static void Launcher_dealloc(Launcher *self) {
  PyTypeObject *type = Py_TYPE((PyObject *)self);
  PyObject_GC_UnTrack(self);
  Launcher_clear(self);
  if (self->params)
    for (int i = 0; i < self->numParams; ++i)
      clearParam(&self->params[i]);
  if (self->sizes)
    for (int k = 0; k < self->numSizes; ++k)
      Py_CLEAR(self->sizes[k].name);
  Py_CLEAR(self->kernelName);
  PyMem_Free(self->params);
  PyMem_Free(self->sizes);
  PyMem_Free(self->maps);
  freefunc release = (freefunc)PyType_GetSlot(type, Py_tp_free);
  release(self);
  Py_DECREF(type);
}

/* Launcher(general, failed, name, params, sizes, maps, grids, grid_for, fast)
 *   sizes: ((slot, name, multiple_of, at_most), ...), one per size variable
 *     (at_most 0: none declared);
 *   maps: ((param, box, swizzle, element, buffer), ...);
 *   grids: the dict of checked dynamic grids (None for a static grid);
 *   fast: False sends every call to the general path. */
static int Launcher_init(Launcher *self, PyObject *args, PyObject *kwargs) {
  PyObject *general, *failed, *name, *params, *sizes, *maps, *grids, *gridFor;
  int fast = 1;
  if (kwargs && PyDict_Size(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "Launcher takes no keyword arguments");
    return -1;
  }
  if (self->params) {
    PyErr_SetString(PyExc_RuntimeError, "a Launcher is initialized once");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "OOUO!O!O!OO|p", &general, &failed, &name,
                        &PyTuple_Type, &params, &PyTuple_Type, &sizes,
                        &PyTuple_Type, &maps, &grids, &gridFor, &fast))
    return -1;
  /* (A call keeps per-parameter and per-size values on its stack.) */
  if (PyTuple_Size(params) > MaxParams || PyTuple_Size(sizes) > MaxParams ||
      PyTuple_Size(maps) > MaxMaps) {
    PyErr_SetString(PyExc_ValueError, "too many parameters, size variables "
                                      "(at most 256) or tensor maps (64)");
    return -1;
  }
  if (grids != Py_None && !PyDict_Check(grids)) {
    PyErr_SetString(PyExc_TypeError, "grids is a dict or None");
    return -1;
  }
  self->fast = fast;
  Py_INCREF(name);
  self->kernelName = name;
  self->numParams = (int)PyTuple_Size(params);
  self->numSizes = (int)PyTuple_Size(sizes);
  self->numMaps = (int)PyTuple_Size(maps);
  self->params =
      PyMem_Calloc(self->numParams ? self->numParams : 1, sizeof(Param));
  self->sizes =
      PyMem_Calloc(self->numSizes ? self->numSizes : 1, sizeof(SizeVar));
  self->maps =
      PyMem_Calloc(self->numMaps ? self->numMaps : 1, sizeof(TensorMap));
  if (!self->params || !self->sizes || !self->maps) {
    PyErr_NoMemory();
    return -1;
  }
  for (int i = 0; i < self->numParams; ++i)
    if (parseParam(PyTuple_GetItem(params, i), &self->params[i],
                   self->numSizes) < 0)
      return -1;
  for (int k = 0; k < self->numSizes; ++k) {
    PyObject *size = PyTuple_GetItem(sizes, k);
    SizeVar *var = &self->sizes[k];
    if (!PyTuple_Check(size) || PyTuple_Size(size) != 4) {
      PyErr_SetString(PyExc_TypeError,
                      "a size variable is (slot, name, multiple_of, at_most)");
      return -1;
    }
    var->slot = getAddress(size, 0);
    if (!var->slot || !(var->name = getString(size, 1)) ||
        getLongLong(size, 2, &var->multipleOf) < 0 || var->multipleOf < 1 ||
        getLongLong(size, 3, &var->atMost) < 0 || var->atMost < 0)
      return PyErr_Occurred()
                 ? -1
                 : (PyErr_SetString(PyExc_ValueError, "a bad size variable"),
                    -1);
  }
  for (int k = 0; k < self->numMaps; ++k)
    if (parseMap(self, PyTuple_GetItem(maps, k), &self->maps[k]) < 0)
      return -1;
  Py_INCREF(general);
  self->general = general;
  Py_INCREF(failed);
  self->failed = failed;
  Py_INCREF(gridFor);
  self->gridFor = gridFor;
  if (grids != Py_None) {
    Py_INCREF(grids);
    self->grids = grids;
  }
  return 0;
}

/*===-- Binding what the first call learns --------------------------------===*/

/* bind(tensor_type, stream, dtypes): PyTorch's tensor type, its raw-stream
 * function, and each parameter's torch dtype (None for scalars). */
static PyObject *Launcher_bind(Launcher *self, PyObject *args) {
  PyObject *tensorType, *stream, *dtypes;
  if (!PyArg_ParseTuple(args, "OOO!", &tensorType, &stream, &PyTuple_Type,
                        &dtypes))
    return NULL;
  if (PyTuple_Size(dtypes) != self->numParams) {
    PyErr_SetString(PyExc_ValueError, "one dtype per parameter");
    return NULL;
  }
  for (int i = 0; i < self->numParams; ++i) {
    PyObject *dtype = PyTuple_GetItem(dtypes, i);
    Py_INCREF(dtype);
    Py_XDECREF(self->params[i].dtype);
    self->params[i].dtype = dtype;
  }
  Py_INCREF(tensorType);
  Py_XDECREF(self->tensorType);
  self->tensorType = tensorType;
  Py_INCREF(stream);
  Py_XDECREF(self->stream);
  self->stream = stream;
  Py_RETURN_NONE;
}

/* set_prepared(device, address, launch): the device's TirxPreparedLaunch
 * (a ctypes structure the Python Launcher keeps alive) and the address of
 * tirxLaunchPrepared. */
static PyObject *Launcher_set_prepared(Launcher *self, PyObject *args) {
  int device;
  PyObject *address, *launch;
  if (!PyArg_ParseTuple(args, "iOO", &device, &address, &launch))
    return NULL;
  void *prepared = PyLong_AsVoidPtr(address);
  void *function = PyLong_AsVoidPtr(launch);
  if (PyErr_Occurred())
    return NULL;
  if (device < 0 || device >= MaxDevices || !prepared || !function) {
    PyErr_SetString(PyExc_ValueError, "set_prepared: a bad device or address");
    return NULL;
  }
  self->launch = (LaunchFunction)function;
  self->prepared[device] = prepared;
  Py_RETURN_NONE;
}

/* set_encoder(encode, last_error): the addresses of tirxTensorMapEncodeTyped
 * and tirxGetLastErrorMessage (the runtime library's, or a test's). */
static PyObject *Launcher_set_encoder(Launcher *self, PyObject *args) {
  PyObject *encode, *lastError;
  if (!PyArg_ParseTuple(args, "OO", &encode, &lastError))
    return NULL;
  void *encodeFunction = PyLong_AsVoidPtr(encode);
  void *errorFunction = PyLong_AsVoidPtr(lastError);
  if (PyErr_Occurred())
    return NULL;
  if (!encodeFunction || !errorFunction) {
    PyErr_SetString(PyExc_ValueError, "set_encoder: a null address");
    return NULL;
  }
  self->encode = (EncodeFunction)encodeFunction;
  self->lastError = (ErrorFunction)errorFunction;
  for (int k = 0; k < self->numMaps; ++k)
    self->maps[k].valid = 0; /* another encoder: encode again */
  Py_RETURN_NONE;
}

/* set_owner(ident): the thread whose calls may use the argument slots. */
static PyObject *Launcher_set_owner(Launcher *self, PyObject *ident) {
  unsigned long owner = PyLong_AsUnsignedLong(ident);
  if (owner == (unsigned long)-1 && PyErr_Occurred())
    return NULL;
  self->owner = owner;
  self->hasOwner = 1;
  Py_RETURN_NONE;
}

/*===-- The checks --------------------------------------------------------===*/
/* Each returns 1 when the argument passes, else 0, with the error that
 * names the parameter set when `raise` (the general path), none otherwise
 * (the fast path, which then hands the call to the general path). */

static PyObject *intTuple(const long long *values, int count) {
  PyObject *tuple = PyTuple_New(count);
  for (int k = 0; tuple && k < count; ++k) {
    PyObject *value = PyLong_FromLongLong(values[k]);
    if (!value) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SetItem(tuple, k, value);
  }
  return tuple;
}

/* A declared shape, size variables by name: (n, 4), (n,). */
static PyObject *declaredShape(Launcher *self, const Param *param) {
  PyObject *items = PyList_New(0);
  if (!items)
    return NULL;
  for (int dim = 0; dim < param->rank; ++dim) {
    long long extent = param->dims[dim];
    PyObject *item =
        extent >= 0 ? PyUnicode_FromFormat("%lld", extent)
                    : (Py_INCREF(self->sizes[-extent - 1].name),
                       self->sizes[-extent - 1].name);
    if (!item || PyList_Append(items, item) < 0) {
      Py_XDECREF(item);
      Py_DECREF(items);
      return NULL;
    }
    Py_DECREF(item);
  }
  PyObject *separator = PyUnicode_FromString(", ");
  PyObject *joined = separator ? PyUnicode_Join(separator, items) : NULL;
  Py_XDECREF(separator);
  Py_DECREF(items);
  if (!joined)
    return NULL;
  PyObject *text =
      PyUnicode_FromFormat("(%U%s)", joined, param->rank == 1 ? "," : "");
  Py_DECREF(joined);
  return text;
}

/* Raises `type` with a message, the argument's shape and the declared one
 * formatted in (format's %R: the shape tuple; %U: the declared shape). */
static void raiseShape(Launcher *self, const Param *param, PyObject *type,
                       const char *format, const long long *shape, int rank) {
  PyObject *got = intTuple(shape, rank);
  PyObject *declared = got ? declaredShape(self, param) : NULL;
  if (declared)
    PyErr_Format(type, format, param->name, got, declared);
  Py_XDECREF(got);
  Py_XDECREF(declared);
}

/* The rank, the static extents and the size variables: binds those this
 * argument is the first to use, checks those bound before. */
static int checkShape(Launcher *self, int index, const long long *shape,
                      int rank, Sizes *sizes, int raise) {
  const Param *param = &self->params[index];
  if (rank != param->rank) {
    if (raise) {
      PyObject *declared = declaredShape(self, param);
      if (declared)
        PyErr_Format(PyExc_ValueError,
                     "parameter '%U' has rank %d, expected %d (shape %U)",
                     param->name, rank, param->rank, declared);
      Py_XDECREF(declared);
    }
    return 0;
  }
  for (int dim = 0; dim < rank; ++dim) {
    long long extent = shape[dim], want = param->dims[dim];
    if (want >= 0) {
      if (extent != want) {
        if (raise)
          raiseShape(self, param, PyExc_ValueError,
                     "parameter '%U' has shape %R, expected %U", shape, rank);
        return 0;
      }
      continue;
    }
    int k = (int)(-want - 1);
    const SizeVar *var = &self->sizes[k];
    if (sizes->bound[k]) {
      if (extent != sizes->value[k]) {
        if (raise) {
          PyObject *got = intTuple(shape, rank);
          if (got)
            PyErr_Format(PyExc_ValueError,
                         "parameter '%U' has shape %R, but %U = %lld from "
                         "parameter '%U' (its dimension %d; dimension %d of "
                         "'%U' is %U too)",
                         param->name, got, var->name, sizes->value[k],
                         self->params[sizes->param[k]].name, sizes->dim[k],
                         dim, param->name, var->name);
          Py_XDECREF(got);
        }
        return 0;
      }
      continue;
    }
    if (extent < 1) {
      if (raise) {
        PyObject *got = intTuple(shape, rank);
        if (got)
          PyErr_Format(PyExc_ValueError,
                       "parameter '%U' has shape %R: dimension %d is the size "
                       "variable %U, and a size must be at least 1",
                       param->name, got, dim, var->name);
        Py_XDECREF(got);
      }
      return 0;
    }
    if (extent % var->multipleOf) {
      if (raise)
        PyErr_Format(PyExc_ValueError,
                     "parameter '%U': %U = %lld is not a multiple of %lld, as "
                     "the size variable %U declares",
                     param->name, var->name, extent, var->multipleOf,
                     var->name);
      return 0;
    }
    if (var->atMost && extent > var->atMost) {
      if (raise)
        PyErr_Format(PyExc_ValueError,
                     "parameter '%U': %U = %lld is more than %lld, the most "
                     "the size variable %U declares",
                     param->name, var->name, extent, var->atMost, var->name);
      return 0;
    }
    sizes->value[k] = extent;
    sizes->param[k] = index;
    sizes->dim[k] = dim;
    sizes->bound[k] = 1;
  }
  return 1;
}

/* The element type `got` (a typestr, or what names the type when no
 * typestr does), as read through `protocol`. */
static int checkDtype(Launcher *self, int index, PyObject *got, int protocol,
                      int raise) {
  const Param *param = &self->params[index];
  int equal = PyUnicode_Check(got) ? PyUnicode_Compare(got, param->typestr) == 0
                                   : 0;
  if (!equal && protocol == ReadInterface && param->isBfloat16 &&
      PyUnicode_Check(got))
    equal = PyUnicode_CompareWithASCIIString(got, "<V2") == 0 ||
            PyUnicode_CompareWithASCIIString(got, "<f2") == 0;
  if (PyErr_Occurred())
    return 0;
  if (!equal && raise)
    PyErr_Format(PyExc_TypeError,
                 "parameter '%U' has element type %S, expected %U (%U)",
                 param->name, got, param->typestr, param->typeName);
  return equal;
}

/* Strides in bytes (a sequence, or None: compact) must be row-major compact;
 * a dimension of extent 1 may have any stride. */
static int checkStrides(Launcher *self, int index, const long long *shape,
                        int rank, PyObject *strides, int raise) {
  if (strides == Py_None)
    return 1;
  const Param *param = &self->params[index];
  PyObject *tuple = PySequence_Tuple(strides);
  if (!tuple)
    return 0;
  long long compact[MaxDims], step = param->itemsize;
  for (int dim = rank - 1; dim >= 0; --dim) {
    compact[dim] = step;
    step *= shape[dim];
  }
  int ok = PyTuple_Size(tuple) == rank;
  for (int dim = 0; ok && dim < rank; ++dim) {
    if (shape[dim] <= 1)
      continue;
    PyObject *item = PyTuple_GetItem(tuple, dim);
    long long stride = item && PyLong_Check(item) ? PyLong_AsLongLong(item) : 0;
    if (PyErr_Occurred())
      PyErr_Clear();
    ok = item && PyLong_Check(item) && stride == compact[dim];
  }
  if (!ok && raise) {
    PyObject *expected = intTuple(compact, rank);
    if (expected)
      PyErr_Format(PyExc_ValueError,
                   "parameter '%U' is not contiguous (strides %R bytes, "
                   "expected %R)",
                   param->name, tuple, expected);
    Py_XDECREF(expected);
  }
  Py_DECREF(tuple);
  return ok;
}

/* The data pointer: an int above 0, aligned as declared. */
static int checkPointer(Launcher *self, int index, PyObject *pointer,
                        uint64_t *address, int raise) {
  const Param *param = &self->params[index];
  unsigned long long value = 0;
  if (pointer && PyLong_Check(pointer)) {
    value = PyLong_AsUnsignedLongLong(pointer);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      value = 0;
    }
  }
  if (!value) {
    if (raise)
      PyErr_Format(PyExc_ValueError,
                   "parameter '%U' has no device memory (data pointer %R)",
                   param->name, pointer ? pointer : Py_None);
    return 0;
  }
  if (value % (unsigned long long)param->alignment) {
    if (raise) {
      char hex[32]; /* (PyErr_Format has no %llx before Python 3.12) */
      snprintf(hex, sizeof(hex), "0x%llx", value);
      PyErr_Format(PyExc_ValueError,
                   "parameter '%U' is at address %s, not aligned to the "
                   "declared %lld bytes",
                   param->name, hex, param->alignment);
    }
    return 0;
  }
  *address = value;
  return 1;
}

/* Encodes a scalar argument's value in `bits` (the slot's bytes). The fast
 * path (raise 0) takes exact ints and floats in range; the general path any
 * number of the right kind (Python's numeric tower: an int is a valid float,
 * a float is not an int). Floats: finite values past float32's range are
 * refused for f32, infinities and NaN pass. */
static int checkScalar(Launcher *self, int index, PyObject *arg, uint64_t *bits,
                       PyObject **converted, int raise) {
  const Param *param = &self->params[index];
  int exact = param->isFloat ? PyFloat_CheckExact(arg) || PyLong_CheckExact(arg)
                             : PyLong_CheckExact(arg);
  if (!exact) {
    if (!raise)
      return 0;
    int is = PyObject_IsInstance(arg, param->isFloat ? numbersReal
                                                     : numbersIntegral);
    if (is < 0)
      return 0;
    if (!is) {
      PyObject *typeName = PyType_GetName(Py_TYPE(arg));
      if (typeName)
        PyErr_Format(PyExc_TypeError, "parameter '%U' is a %U scalar, got %U",
                     param->name, param->typeName, typeName);
      Py_XDECREF(typeName);
      return 0;
    }
  }
  if (param->kind == ParamOther) {
    if (raise)
      PyErr_Format(PyExc_TypeError,
                   "parameter '%U': %U scalars cannot be passed yet",
                   param->name, param->typeName);
    return 0;
  }
  if (param->kind == ParamFloat) {
    double value;
    if (PyFloat_CheckExact(arg)) {
      value = PyFloat_AsDouble(arg);
    } else {
      /* float(arg): an int too large for a double raises OverflowError. */
      PyObject *number = PyNumber_Float(arg);
      if (!number) {
        if (!raise)
          PyErr_Clear();
        return 0;
      }
      value = PyFloat_AsDouble(number);
      Py_DECREF(number);
    }
    int fits = raise ? !isfinite(value) || fabs(value) <= param->limit
                     : -param->limit <= value && value <= param->limit;
    if (!fits) {
      if (raise)
        PyErr_Format(PyExc_ValueError,
                     "parameter '%U' = %R is out of range for %U", param->name,
                     arg, param->typeName);
      return 0;
    }
    if (param->bytes == 4) {
      float narrow = (float)value;
      memcpy(bits, &narrow, 4);
    } else {
      memcpy(bits, &value, 8);
    }
    if (converted && !(*converted = PyFloat_FromDouble(value)))
      return 0;
    return 1;
  }
  if (exact && !converted) {
    /* The fast path: an exact int, in range, in C arithmetic. */
    int overflow;
    long long value = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (value == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return 0;
    }
    if (overflow > 0 && param->isUnsigned) {
      unsigned long long wide = PyLong_AsUnsignedLongLong(arg);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
      }
      if (wide > param->high)
        return 0;
      *bits = wide;
      return 1;
    }
    if (overflow || value < param->low ||
        (value >= 0 && (unsigned long long)value > param->high))
      return 0;
    *bits = (uint64_t)value;
    return 1;
  }
  PyObject *number = exact ? (Py_INCREF(arg), arg) : PyNumber_Long(arg);
  if (!number) {
    if (!raise)
      PyErr_Clear();
    return 0;
  }
  int low = PyObject_RichCompareBool(number, param->lowObject, Py_GE);
  int high = low > 0 ? PyObject_RichCompareBool(number, param->highObject, Py_LE)
                     : 0;
  if (low < 0 || high < 0) {
    Py_DECREF(number);
    if (!raise)
      PyErr_Clear();
    return 0;
  }
  if (!low || !high) {
    if (raise)
      PyErr_Format(PyExc_ValueError,
                   "parameter '%U' = %R is out of range for %U", param->name,
                   arg, param->typeName);
    Py_DECREF(number);
    return 0;
  }
  if (param->isUnsigned)
    *bits = PyLong_AsUnsignedLongLong(number);
  else
    *bits = (uint64_t)PyLong_AsLongLong(number);
  if (converted) {
    *converted = number;
    return 1;
  }
  Py_DECREF(number);
  return 1;
}

/* The tensors of a call are on one device: `device` of parameter `index`,
 * against the first placed one (*first < 0: none yet). */
static int checkDevice(Launcher *self, int index, long long device,
                       long long *firstDevice, int *first, int raise) {
  if (*first < 0) {
    *firstDevice = device;
    *first = index;
    return 1;
  }
  if (device == *firstDevice)
    return 1;
  if (raise)
    PyErr_Format(PyExc_ValueError,
                 "parameter '%U' is on cuda:%lld, but parameter '%U' is on "
                 "cuda:%lld; the tensors of a call must be on one device",
                 self->params[*first].name, *firstDevice,
                 self->params[index].name, device);
  return 0;
}

/*===-- Tensor maps -------------------------------------------------------===*/

/* Checks what the verifier could not (a runtime extent: 32-bit box
 * coordinates, 16-byte strides) and encodes map `k` of the tensor at
 * `pointer` of `shape` into `buffer`. With `cache` (the fast path's own
 * buffer), an unchanged key encodes nothing. Raises on failure. */
static int encodeMap(Launcher *self, int k, uint64_t pointer,
                     const long long *shape, void *buffer, int cache) {
  TensorMap *map = &self->maps[k];
  const Param *param = &self->params[map->param];
  unsigned long long extents[MaxDims], strides[MaxDims];
  int rank = map->rank;
  unsigned long long step = (unsigned long long)param->itemsize;
  for (int dim = rank - 1; dim >= 0; --dim) {
    extents[dim] = (unsigned long long)shape[dim];
    if (dim < rank - 1)
      strides[dim] = step;
    step *= (unsigned long long)shape[dim];
  }
  if (cache && map->valid && map->pointer == pointer &&
      memcmp(map->extents, extents, sizeof(extents[0]) * rank) == 0 &&
      (rank < 2 ||
       memcmp(map->strides, strides, sizeof(strides[0]) * (rank - 1)) == 0))
    return 1;
  if (cache)
    map->valid = 0;
  PyObject *box = NULL;
  {
    PyObject *items = PyList_New(0);
    for (int dim = 0; items && dim < rank; ++dim) {
      PyObject *item = PyUnicode_FromFormat("%u", map->box[dim]);
      if (!item || PyList_Append(items, item) < 0)
        Py_CLEAR(items);
      Py_XDECREF(item);
    }
    PyObject *times = items ? PyUnicode_FromString("x") : NULL;
    box = times ? PyUnicode_Join(times, items) : NULL;
    Py_XDECREF(times);
    Py_XDECREF(items);
    if (!box)
      return 0;
  }
  /* A copy's coordinates are 32-bit (PTX .s32): a box anywhere in an extent
   * past 2^31 would wrap (docs/sizes.md). */
  for (int dim = 0; dim < rank; ++dim)
    if (extents[dim] > (1ull << 31)) {
      PyErr_Format(PyExc_ValueError,
                   "parameter '%U': its TMA tensor map (box %U) addresses "
                   "boxes by 32-bit coordinates, but dimension %d has %llu "
                   "elements (more than 2^31)",
                   param->name, box, dim, extents[dim]);
      Py_DECREF(box);
      return 0;
    }
  /* A runtime extent makes a stride that the verifier could not check: TMA
   * needs multiples of 16 bytes (docs/hopper.md). */
  for (int dim = 0; dim < rank - 1; ++dim)
    if (strides[dim] % 16) {
      PyObject *inner = PyList_New(0);
      for (int d = dim + 1; inner && d < rank; ++d) {
        PyObject *item = PyUnicode_FromFormat("%llu", extents[d]);
        if (!item || PyList_Append(inner, item) < 0)
          Py_CLEAR(inner);
        Py_XDECREF(item);
      }
      PyObject *times = inner ? PyUnicode_FromString(" * ") : NULL;
      PyObject *product = times ? PyUnicode_Join(times, inner) : NULL;
      Py_XDECREF(times);
      Py_XDECREF(inner);
      int gcd = param->itemsize % 16 == 0 ? 16
                : param->itemsize % 8 == 0 ? 8
                : param->itemsize % 4 == 0 ? 4
                : param->itemsize % 2 == 0 ? 2
                                           : 1;
      if (product)
        PyErr_Format(PyExc_ValueError,
                     "parameter '%U': its TMA tensor map (box %U) needs the "
                     "stride of dimension %d to be a multiple of 16 bytes, got "
                     "%d bytes * %U = %llu bytes (the extents inside it must "
                     "multiply to a multiple of %d)",
                     param->name, box, dim, param->itemsize, product,
                     strides[dim], 16 / gcd);
      Py_XDECREF(product);
      Py_DECREF(box);
      return 0;
    }
  if (!self->encode) {
    PyErr_SetString(PyExc_RuntimeError, "no tensor map encoder was set");
    Py_DECREF(box);
    return 0;
  }
  int status = self->encode(buffer, (const void *)(uintptr_t)pointer,
                            (unsigned)param->itemsize, map->element,
                            (unsigned)rank, extents, strides, map->box,
                            map->swizzle);
  if (status) {
    /* check-diagnostics: internal, the verifier, the argument checks and
     * the stride check above cover the limits but for a runtime extent past
     * 2^32 (the encoder names it) */
    PyErr_Format(PyExc_ValueError,
                 "parameter '%U': its TMA tensor map (box %U) cannot be "
                 "encoded: %s",
                 param->name, box, self->lastError());
    Py_DECREF(box);
    return 0;
  }
  Py_DECREF(box);
  if (cache) {
    map->valid = 1;
    map->pointer = pointer;
    memcpy(map->extents, extents, sizeof(extents[0]) * rank);
    memcpy(map->strides, strides, sizeof(strides[0]) * (rank ? rank - 1 : 0));
    ++map->encodes;
  }
  return 1;
}

/*===-- The general path's entry points -----------------------------------===*/

static int checkIndex(Launcher *self, int index, int tensor) {
  if (index < 0 || index >= self->numParams ||
      (self->params[index].kind == ParamTensor) != tensor) {
    PyErr_SetString(PyExc_IndexError, tensor ? "no tensor parameter"
                                             : "no scalar parameter");
    return 0;
  }
  return 1;
}

/* The size variables a general-path call has bound, kept by Python in a
 * list: one entry per size variable, None or (extent, parameter, dim). */
static int readSizes(Launcher *self, PyObject *list, Sizes *sizes) {
  if (!PyList_Check(list) || PyList_Size(list) != self->numSizes) {
    PyErr_SetString(PyExc_TypeError, "sizes: a list, one entry per size "
                                     "variable");
    return 0;
  }
  for (int k = 0; k < self->numSizes; ++k) {
    PyObject *entry = PyList_GetItem(list, k);
    sizes->bound[k] = entry != Py_None;
    if (!sizes->bound[k])
      continue;
    long long param, dim;
    if (!PyTuple_Check(entry) || PyTuple_Size(entry) != 3 ||
        getLongLong(entry, 0, &sizes->value[k]) < 0 ||
        getLongLong(entry, 1, &param) < 0 || getLongLong(entry, 2, &dim) < 0 ||
        param < 0 || param >= self->numParams) {
      if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "a bound size is (extent, param, dim)");
      return 0;
    }
    sizes->param[k] = (int)param;
    sizes->dim[k] = (int)dim;
  }
  return 1;
}

static int writeSizes(Launcher *self, PyObject *list, const Sizes *sizes) {
  for (int k = 0; k < self->numSizes; ++k) {
    if (!sizes->bound[k] || PyList_GetItem(list, k) != Py_None)
      continue;
    PyObject *entry = Py_BuildValue("(Lii)", sizes->value[k], sizes->param[k],
                                    sizes->dim[k]);
    if (!entry || PyList_SetItem(list, k, entry) < 0)
      return 0;
  }
  return 1;
}

static int readShape(PyObject *object, long long *shape, int *rank) {
  PyObject *tuple = PySequence_Tuple(object);
  if (!tuple)
    return 0;
  Py_ssize_t size = PyTuple_Size(tuple);
  if (size > MaxDims) {
    /* (No parameter has more: the rank check names it.) */
    size = MaxDims + 1;
  }
  *rank = (int)size;
  for (Py_ssize_t dim = 0; dim < size && dim < MaxDims; ++dim) {
    shape[dim] = PyLong_AsLongLong(PyTuple_GetItem(tuple, dim));
    if (shape[dim] == -1 && PyErr_Occurred()) {
      Py_DECREF(tuple);
      return 0;
    }
  }
  Py_DECREF(tuple);
  return 1;
}

/* check_tensor(index, sizes, shape, got, strides, pointer, masked, protocol
 * [, metadata]) -> the data pointer: every check of a tensor argument, in
 * order (shape and size variables, element type, mask, strides, pointer).
 * metadata True: the shape and element type only (a fake tensor; None). */
static PyObject *Launcher_check_tensor(Launcher *self, PyObject *args) {
  int index, masked, protocol, metadata = 0;
  PyObject *list, *shapeObject, *got, *strides, *pointer;
  if (!PyArg_ParseTuple(args, "iO!OOOOpi|p", &index, &PyList_Type, &list,
                        &shapeObject, &got, &strides, &pointer, &masked,
                        &protocol, &metadata))
    return NULL;
  if (!checkIndex(self, index, 1))
    return NULL;
  Sizes sizes;
  long long shape[MaxDims + 1];
  int rank;
  if (!readSizes(self, list, &sizes) || !readShape(shapeObject, shape, &rank))
    return NULL;
  if (rank > MaxDims) {
    const Param *param = &self->params[index];
    PyObject *declared = declaredShape(self, param);
    if (declared)
      PyErr_Format(PyExc_ValueError,
                   "parameter '%U' has rank %zd, expected %d (shape %U)",
                   param->name, PySequence_Size(shapeObject), param->rank,
                   declared);
    Py_XDECREF(declared);
    return NULL;
  }
  if (!checkShape(self, index, shape, rank, &sizes, 1) ||
      !writeSizes(self, list, &sizes) || !checkDtype(self, index, got, protocol, 1))
    return NULL;
  if (metadata)
    Py_RETURN_NONE;
  if (masked) {
    PyErr_Format(PyExc_ValueError,
                 "parameter '%U' is a masked array; pass the data without a "
                 "mask",
                 self->params[index].name);
    return NULL;
  }
  uint64_t address;
  if (!checkStrides(self, index, shape, rank, strides, 1) ||
      !checkPointer(self, index, pointer, &address, 1))
    return NULL;
  return PyLong_FromUnsignedLongLong(address);
}

/* check_scalar(index, value) -> the value as an int or a float. */
static PyObject *Launcher_check_scalar(Launcher *self, PyObject *args) {
  int index;
  PyObject *arg, *converted = NULL;
  if (!PyArg_ParseTuple(args, "iO", &index, &arg) || !checkIndex(self, index, 0))
    return NULL;
  uint64_t bits;
  if (!checkScalar(self, index, arg, &bits, &converted, 1))
    return NULL;
  return converted;
}

/* check_device(place, index, device): place is [first device, its
 * parameter] of the call so far ([None, None] at first). */
static PyObject *Launcher_check_device(Launcher *self, PyObject *args) {
  PyObject *place;
  int index;
  long long device;
  if (!PyArg_ParseTuple(args, "O!iL", &PyList_Type, &place, &index, &device) ||
      !checkIndex(self, index, 1))
    return NULL;
  if (PyList_Size(place) != 2) {
    PyErr_SetString(PyExc_TypeError, "place: [device, parameter]");
    return NULL;
  }
  long long firstDevice = -1, firstIndex = -1;
  PyObject *tuple = PyList_AsTuple(place);
  if (!tuple)
    return NULL;
  if (PyTuple_GetItem(tuple, 0) != Py_None &&
      (getLongLong(tuple, 0, &firstDevice) < 0 ||
       getLongLong(tuple, 1, &firstIndex) < 0)) {
    Py_DECREF(tuple);
    return NULL;
  }
  Py_DECREF(tuple);
  int first = (int)firstIndex;
  if (!checkDevice(self, index, device, &firstDevice, &first, 1))
    return NULL;
  if (firstIndex < 0) {
    PyObject *d = PyLong_FromLongLong(firstDevice), *i = PyLong_FromLong(first);
    if (!d || !i || PyList_SetItem(place, 0, d) < 0 ||
        PyList_SetItem(place, 1, i) < 0)
      return NULL;
  }
  Py_RETURN_NONE;
}

/* check_count(args): the number of arguments. */
static PyObject *Launcher_check_count(Launcher *self, PyObject *args) {
  if (PyTuple_Check(args) && PyTuple_Size(args) == self->numParams)
    Py_RETURN_NONE;
  Py_ssize_t count = PySequence_Size(args);
  if (count < 0)
    return NULL;
  PyObject *names = PyList_New(self->numParams);
  for (int i = 0; names && i < self->numParams; ++i) {
    Py_INCREF(self->params[i].name);
    PyList_SetItem(names, i, self->params[i].name);
  }
  PyObject *separator = names ? PyUnicode_FromString(", ") : NULL;
  PyObject *joined = separator ? PyUnicode_Join(separator, names) : NULL;
  if (joined)
    PyErr_Format(PyExc_TypeError, "%U() takes %d argument(s) (%U), got %zd",
                 self->kernelName, self->numParams, joined, count);
  Py_XDECREF(names);
  Py_XDECREF(separator);
  Py_XDECREF(joined);
  return NULL;
}

/* not_cuda(index, arg, where): raises that parameter `index` needs a CUDA
 * tensor (where: None, or where `arg` is, e.g. "cpu"). */
static PyObject *Launcher_not_cuda(Launcher *self, PyObject *args) {
  int index;
  PyObject *arg, *where;
  if (!PyArg_ParseTuple(args, "iOO", &index, &arg, &where) ||
      !checkIndex(self, index, 1))
    return NULL;
  PyObject *typeName = PyType_GetName(Py_TYPE(arg));
  if (!typeName)
    return NULL;
  if (where == Py_None)
    PyErr_Format(PyExc_TypeError,
                 "parameter '%U' needs a CUDA tensor (an object with "
                 "__cuda_array_interface__ or __dlpack__), got %U",
                 self->params[index].name, typeName);
  else
    PyErr_Format(PyExc_TypeError,
                 "parameter '%U' needs a CUDA tensor (an object with "
                 "__cuda_array_interface__ or __dlpack__), got %U on %S",
                 self->params[index].name, typeName, where);
  Py_DECREF(typeName);
  return NULL;
}

/* encode_map(k, pointer, shape, address): map k of the tensor at `pointer`
 * of `shape`, encoded into `address` (a general-path call's own buffer). */
static PyObject *Launcher_encode_map(Launcher *self, PyObject *args) {
  int k;
  unsigned long long pointer;
  PyObject *shapeObject, *address;
  if (!PyArg_ParseTuple(args, "iKOO", &k, &pointer, &shapeObject, &address))
    return NULL;
  if (k < 0 || k >= self->numMaps) {
    PyErr_SetString(PyExc_IndexError, "no such tensor map");
    return NULL;
  }
  long long shape[MaxDims + 1];
  int rank;
  void *buffer = PyLong_AsVoidPtr(address);
  if (PyErr_Occurred() || !readShape(shapeObject, shape, &rank))
    return NULL;
  if (rank != self->maps[k].rank || !buffer ||
      (uintptr_t)buffer % TIRX_TENSOR_MAP_ALIGNMENT) {
    PyErr_SetString(PyExc_ValueError,
                    "encode_map: a shape of another rank or a bad buffer");
    return NULL;
  }
  if (!encodeMap(self, k, pointer, shape, buffer, 0))
    return NULL;
  Py_RETURN_NONE;
}

/* map_cache() -> per map (pointer, extents, strides, encodes), pointer None
 * when its buffer holds no valid map: what the fast path's cache holds. */
static PyObject *Launcher_map_cache(Launcher *self, PyObject *unused) {
  (void)unused;
  PyObject *result = PyTuple_New(self->numMaps);
  for (int k = 0; result && k < self->numMaps; ++k) {
    const TensorMap *map = &self->maps[k];
    long long extents[MaxDims], strides[MaxDims];
    for (int dim = 0; dim < map->rank; ++dim) {
      extents[dim] = (long long)map->extents[dim];
      strides[dim] = (long long)map->strides[dim];
    }
    PyObject *entry =
        map->valid
            ? Py_BuildValue("(KNNL)", map->pointer,
                            intTuple(extents, map->rank),
                            intTuple(strides, map->rank ? map->rank - 1 : 0),
                            map->encodes)
            : Py_BuildValue("(OOOL)", Py_None, Py_None, Py_None, map->encodes);
    if (!entry) {
      Py_CLEAR(result);
      break;
    }
    PyTuple_SetItem(result, k, entry);
  }
  return result;
}

/*===-- The fast path -----------------------------------------------------===*/

/* An attribute (or a no-argument method's result, when `call`), or NULL
 * with no error set when the object lacks it. */
static PyObject *fetch(PyObject *object, PyObject *name, int call) {
  PyObject *value = call ? PyObject_CallMethodObjArgs(object, name, NULL)
                         : PyObject_GetAttr(object, name);
  if (!value)
    PyErr_Clear();
  return value;
}

/* 1 when `value` is an int that fits a long long, stored in `out`; 0
 * otherwise (no error set). */
static int readIndex(PyObject *value, long long *out) {
  if (!value || !PyLong_Check(value))
    return 0;
  *out = PyLong_AsLongLong(value);
  if (*out == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return 0;
  }
  return 1;
}

/* A PyTorch tensor argument, read through its attributes and checked (the
 * checks above, not raising); 1 when the fast path takes it. `shape` gets
 * its extents (for the tensor maps). */
static int takeTensor(Launcher *self, int index, PyObject *arg,
                      long long *device, int *first, Sizes *sizes,
                      uint64_t *pointer, long long *shape) {
  const Param *param = &self->params[index];
  if ((PyObject *)Py_TYPE(arg) != self->tensorType)
    return 0;
  PyObject *value = fetch(arg, nameIsCuda, 0);
  int ok = value == Py_True;
  Py_XDECREF(value);
  if (!ok)
    return 0;
  /* The element type: torch's dtype object is the parameter's. */
  value = fetch(arg, nameDtype, 0);
  ok = value && value == param->dtype;
  Py_XDECREF(value);
  if (!ok)
    return 0;
  /* Compact strides: PyTorch's own test is the strides check's. */
  value = fetch(arg, nameIsContiguous, 1);
  ok = value == Py_True;
  Py_XDECREF(value);
  if (!ok)
    return 0;
  long long where;
  value = fetch(arg, nameGetDevice, 1);
  ok = readIndex(value, &where) && where >= 0 && where < MaxDevices &&
       checkDevice(self, index, where, device, first, 0);
  Py_XDECREF(value);
  if (!ok)
    return 0;
  PyObject *shapeObject = fetch(arg, nameShape, 0);
  ok = shapeObject && PyTuple_Check(shapeObject) &&
       PyTuple_Size(shapeObject) == param->rank;
  for (int dim = 0; ok && dim < param->rank; ++dim)
    ok = readIndex(PyTuple_GetItem(shapeObject, dim), &shape[dim]);
  Py_XDECREF(shapeObject);
  if (!ok || !checkShape(self, index, shape, param->rank, sizes, 0))
    return 0;
  value = fetch(arg, nameDataPtr, 1);
  ok = value && checkPointer(self, index, value, pointer, 0);
  Py_XDECREF(value);
  return ok;
}

static PyObject *takeGeneralPath(Launcher *self, PyObject *args) {
  if (!self->general) {
    PyErr_SetString(PyExc_RuntimeError, "the launcher was cleared");
    return NULL;
  }
  return PyObject_CallFunctionObjArgs(self->general, args, NULL);
}

/* The dynamic grid of `sizes`: from the dict, else checked by gridFor. */
static int setGrid(Launcher *self, const Sizes *sizes,
                   TirxPreparedLaunch *launch) {
  PyObject *key = intTuple(sizes->value, self->numSizes);
  if (!key)
    return -1;
  PyObject *grid = PyDict_GetItemWithError(self->grids, key);
  Py_XINCREF(grid);
  if (!grid && !PyErr_Occurred())
    grid = PyObject_CallFunctionObjArgs(self->gridFor, key, NULL);
  Py_DECREF(key);
  if (!grid)
    return -1;
  /* The grid is the Launcher's `(c_uint * 3)`: its buffer holds the
   * extents as the prepared launch does. */
  Py_buffer view;
  int ok = PyObject_GetBuffer(grid, &view, PyBUF_SIMPLE) == 0;
  Py_DECREF(grid);
  if (!ok)
    return -1;
  ok = view.len == (Py_ssize_t)sizeof(launch->grid);
  if (ok)
    memcpy(launch->grid, view.buf, sizeof(launch->grid));
  PyBuffer_Release(&view);
  if (!ok) {
    PyErr_SetString(PyExc_RuntimeError, "a cached grid is not three extents");
    return -1;
  }
  return 0;
}

static PyObject *Launcher_call(Launcher *self, PyObject *callArgs,
                               PyObject *kwargs) {
  if ((kwargs && PyDict_Size(kwargs)) || PyTuple_Size(callArgs) != 1) {
    PyErr_SetString(PyExc_TypeError,
                    "a launch takes one argument, the tuple of arguments");
    return NULL;
  }
  PyObject *args = PyTuple_GetItem(callArgs, 0);
  /* What the fast path needs: a tuple of the right length, PyTorch bound,
   * and the calling thread owning the slots. */
  if (!self->fast || !PyTuple_Check(args) ||
      PyTuple_Size(args) != self->numParams || !self->tensorType ||
      !self->hasOwner || PyThread_get_thread_ident() != self->owner)
    return takeGeneralPath(self, args);
  uint64_t values[MaxParams];
  long long shapes[MaxMaps ? MaxMaps : 1][MaxDims];
  int mapOf[MaxParams];
  for (int i = 0; i < self->numParams; ++i)
    mapOf[i] = -1;
  for (int k = 0; k < self->numMaps; ++k)
    mapOf[self->maps[k].param] = k; /* the shape of any of its maps */
  Sizes sizes;
  memset(sizes.bound, 0, (size_t)self->numSizes);
  long long device = -1, shape[MaxDims];
  int first = -1;
  for (int i = 0; i < self->numParams; ++i) {
    PyObject *arg = PyTuple_GetItem(args, i);
    int ok = self->params[i].kind == ParamTensor
                 ? takeTensor(self, i, arg, &device, &first, &sizes,
                              &values[i], shape)
                 : checkScalar(self, i, arg, &values[i], NULL, 0);
    if (!ok)
      return takeGeneralPath(self, args);
    if (mapOf[i] >= 0)
      memcpy(shapes[mapOf[i]], shape, sizeof(shape));
  }
  if (device < 0 || !self->prepared[device] || !self->stream)
    return takeGeneralPath(self, args);
  for (int k = 0; k < self->numSizes; ++k)
    if (!sizes.bound[k]) /* in no tensor's shape: the general path says so */
      return takeGeneralPath(self, args);
  TirxPreparedLaunch *launch = self->prepared[device];
  if (self->grids && setGrid(self, &sizes, launch) < 0)
    return NULL;
  /* Each map of a parameter: encoded unless its tensor is the last one's. */
  for (int k = 0; k < self->numMaps; ++k) {
    const TensorMap *map = &self->maps[k];
    const long long *extents = shapes[mapOf[map->param]];
    if (!encodeMap(self, k, values[map->param], extents, map->buffer, 1))
      return NULL;
  }
  PyObject *deviceIndex = PyLong_FromLongLong(device);
  if (!deviceIndex)
    return NULL;
  PyObject *stream =
      PyObject_CallFunctionObjArgs(self->stream, deviceIndex, NULL);
  Py_DECREF(deviceIndex);
  if (!stream)
    return NULL;
  void *streamHandle = PyLong_AsVoidPtr(stream);
  Py_DECREF(stream);
  if (PyErr_Occurred())
    return NULL;
  /* Every check passed: the slots, then the launch. */
  for (int i = 0; i < self->numParams; ++i) {
    const Param *param = &self->params[i];
    memcpy(param->slot, &values[i],
           param->kind == ParamTensor ? 8 : (size_t)param->bytes);
  }
  for (int k = 0; k < self->numSizes; ++k)
    memcpy(self->sizes[k].slot, &sizes.value[k], 8);
  launch->stream = streamHandle;
  LaunchFunction function = self->launch;
  /* Other threads run while the driver launches, as through ctypes. */
  PyThreadState *thread = PyEval_SaveThread();
  int status = function(launch);
  PyEval_RestoreThread(thread);
  if (status != 0) {
    PyObject *raised = self->failed ? PyObject_CallNoArgs(self->failed) : NULL;
    Py_XDECREF(raised);
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_RuntimeError, "the launch failed");
    return NULL;
  }
  Py_RETURN_NONE;
}

/*===-- The type and the module -------------------------------------------===*/

static PyMethodDef Launcher_methods[] = {
    {"bind", (PyCFunction)Launcher_bind, METH_VARARGS,
     "bind(tensor_type, raw_stream, dtypes): what PyTorch's tensors are"},
    {"set_prepared", (PyCFunction)Launcher_set_prepared, METH_VARARGS,
     "set_prepared(device, address, launch): the device's prepared launch"},
    {"set_owner", (PyCFunction)Launcher_set_owner, METH_O,
     "set_owner(thread_ident): the thread whose calls use the slots"},
    {"set_encoder", (PyCFunction)Launcher_set_encoder, METH_VARARGS,
     "set_encoder(encode, last_error): the tensor map encoder's address"},
    {"check_count", (PyCFunction)Launcher_check_count, METH_O,
     "check_count(args): the number of arguments"},
    {"check_tensor", (PyCFunction)Launcher_check_tensor, METH_VARARGS,
     "check_tensor(index, sizes, shape, got, strides, pointer, masked, "
     "protocol[, metadata]) -> pointer"},
    {"check_scalar", (PyCFunction)Launcher_check_scalar, METH_VARARGS,
     "check_scalar(index, value) -> the value as an int or float"},
    {"check_device", (PyCFunction)Launcher_check_device, METH_VARARGS,
     "check_device(place, index, device): one device per call"},
    {"not_cuda", (PyCFunction)Launcher_not_cuda, METH_VARARGS,
     "not_cuda(index, arg, where): raises that a CUDA tensor is needed"},
    {"encode_map", (PyCFunction)Launcher_encode_map, METH_VARARGS,
     "encode_map(k, pointer, shape, address): a general-path call's map"},
    {"map_cache", (PyCFunction)Launcher_map_cache, METH_NOARGS,
     "map_cache(): per map (pointer, extents, strides, encodes) (tests)"},
    {NULL, NULL, 0, NULL}};

static char LauncherDoc[] =
    "The launch-argument checks and fast path of one compiled kernel "
    "(tirx/runtime).";

static PyType_Slot LauncherSlots[] = {{Py_tp_doc, LauncherDoc},
                                      {Py_tp_new, PyType_GenericNew},
                                      {Py_tp_init, Launcher_init},
                                      {Py_tp_dealloc, Launcher_dealloc},
                                      {Py_tp_traverse, Launcher_traverse},
                                      {Py_tp_clear, Launcher_clear},
                                      {Py_tp_call, Launcher_call},
                                      {Py_tp_methods, Launcher_methods},
                                      {0, NULL}};

static PyType_Spec LauncherSpec = {
    "tirx._fastlaunch.Launcher", sizeof(Launcher), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, LauncherSlots};

static struct PyModuleDef FastLaunchModule = {
    PyModuleDef_HEAD_INIT,
    "_fastlaunch",
    "The launch-argument checker and fast path in C (python/tirx/runtime).",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL};

PyMODINIT_FUNC PyInit__fastlaunch(void) {
  nameIsCuda = PyUnicode_InternFromString("is_cuda");
  nameDtype = PyUnicode_InternFromString("dtype");
  nameIsContiguous = PyUnicode_InternFromString("is_contiguous");
  nameGetDevice = PyUnicode_InternFromString("get_device");
  nameShape = PyUnicode_InternFromString("shape");
  nameDataPtr = PyUnicode_InternFromString("data_ptr");
  if (!nameIsCuda || !nameDtype || !nameIsContiguous || !nameGetDevice ||
      !nameShape || !nameDataPtr)
    return NULL;
  PyObject *numbers = PyImport_ImportModule("numbers");
  if (!numbers)
    return NULL;
  numbersReal = PyObject_GetAttrString(numbers, "Real");
  numbersIntegral = PyObject_GetAttrString(numbers, "Integral");
  Py_DECREF(numbers);
  if (!numbersReal || !numbersIntegral)
    return NULL;
  PyObject *module = PyModule_Create(&FastLaunchModule);
  if (!module)
    return NULL;
  PyObject *type = PyType_FromSpec(&LauncherSpec);
  if (!type || PyModule_AddObject(module, "Launcher", type) < 0) {
    Py_XDECREF(type);
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
