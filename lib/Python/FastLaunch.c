/*===- FastLaunch.c - The launcher's fast path, in C ----------------------===*
 *
 * tirx._fastlaunch: the per-call work of python/tirx/runtime's Launcher
 * for PyTorch tensors, without the interpreter's per-bytecode cost. A
 * Launcher object is made once per compiled kernel from a description of
 * its parameters; each call checks every argument exactly as the Python
 * fast path does (the tensor's type, device, dtype, contiguity, shape, size
 * variables and alignment; each scalar's type and range), writes the values
 * into the kernel's argument slots (ctypes objects owned by the Python
 * Launcher, addressed here by their buffers), sets the grid and PyTorch's
 * current stream in the device's TirxPreparedLaunch, and calls the
 * runtime's tirxLaunchPrepared through its address. Anything it does not
 * accept goes to the Python general path, which raises the error that names
 * the wrong argument: nothing reaches the GPU before every check passed.
 *
 * Built against Python's limited API (3.11), so one binary serves every
 * CPython from 3.11 on (the bundle's and the wheel's `_fastlaunch.abi3.so`).
 * docs/python.md describes the launch path; test/python/test_launch.py runs
 * every check on both paths.
 *
 *===----------------------------------------------------------------------===*/

#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "TirX/Runtime/TirXRuntime.h"

#include <stdint.h>
#include <string.h>

enum { MaxDevices = 64, MaxParams = 256, MaxDims = 8 };

typedef int (*LaunchFunction)(const TirxPreparedLaunch *);

/* One parameter's check and argument slot. */
typedef enum { ParamTensor, ParamFloat, ParamInt, ParamOther } ParamKind;

typedef struct {
  ParamKind kind;
  void *slot; /* the ctypes value's buffer the kernel argument is read from */
  /* Tensors. */
  PyObject *dtype; /* torch's dtype object, after bind() */
  int rank;
  long long dims[MaxDims]; /* >= 0: a static extent; < 0: -(size var + 1) */
  long long alignment;
  /* Scalars: the slot's width in bytes and the accepted range. */
  int bytes;
  int isUnsigned;
  long long low;
  unsigned long long high;
  double limit; /* floats: |x| <= limit */
} Param;

typedef struct {
  PyObject ob_base;     /* PyObject_HEAD, spelled out */
  PyObject *general;    /* general(args): the checked path, raises errors */
  PyObject *failed;     /* failed(): raises the GPUError of a failed launch */
  PyObject *gridFor;    /* gridFor(key): checks and caches a dynamic grid */
  PyObject *grids;      /* dict: sizes tuple -> (c_uint * 3), or NULL */
  PyObject *tensorType; /* torch.Tensor, after bind() */
  PyObject *stream;     /* torch._C._cuda_getCurrentRawStream, after bind() */
  LaunchFunction launch;
  unsigned long owner; /* the thread whose calls may use the slots */
  int hasOwner;
  int numParams;
  int numSizes;
  Param *params;
  void **sizeSlots;      /* int64 slots of the size variables */
  long long *multipleOf; /* per size variable */
  long long *atMost;     /* per size variable; 0: no largest value */
  TirxPreparedLaunch *prepared[MaxDevices];
} Launcher;

static PyObject *nameIsCuda, *nameDtype, *nameIsContiguous, *nameGetDevice,
    *nameShape, *nameDataPtr;

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

/* A parameter's description, a tuple made by tirx/runtime:
 *   ("tensor", slot, dims, alignment)   dims: ints, a size variable as -(k+1)
 *   ("float", slot, bytes, limit)
 *   ("int", slot, bytes, low, high)
 *   ("other", slot)                     always the general path */
static int parseParam(PyObject *spec, Param *param, int numSizes) {
  memset(param, 0, sizeof(*param));
  if (!PyTuple_Check(spec) || PyTuple_Size(spec) < 2) {
    PyErr_SetString(PyExc_TypeError,
                    "a parameter is a tuple (kind, slot, ...)");
    return -1;
  }
  PyObject *kind = PyTuple_GetItem(spec, 0);
  param->slot = getAddress(spec, 1);
  if (!param->slot)
    return PyErr_Occurred()
               ? -1
               : (PyErr_SetString(PyExc_ValueError, "null slot"), -1);
  if (PyUnicode_CompareWithASCIIString(kind, "tensor") == 0 &&
      PyTuple_Size(spec) == 4) {
    param->kind = ParamTensor;
    PyObject *dims = PyTuple_GetItem(spec, 2);
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
    if (getLongLong(spec, 3, &param->alignment) < 0)
      return -1;
    if (param->alignment < 1) {
      PyErr_SetString(PyExc_ValueError, "an alignment is at least 1");
      return -1;
    }
    return 0;
  }
  long long bytes = 0;
  if (PyUnicode_CompareWithASCIIString(kind, "float") == 0 &&
      PyTuple_Size(spec) == 4) {
    param->kind = ParamFloat;
    if (getLongLong(spec, 2, &bytes) < 0)
      return -1;
    param->limit = PyFloat_AsDouble(PyTuple_GetItem(spec, 3));
    if (PyErr_Occurred())
      return -1;
  } else if (PyUnicode_CompareWithASCIIString(kind, "int") == 0 &&
             PyTuple_Size(spec) == 5) {
    param->kind = ParamInt;
    if (getLongLong(spec, 2, &bytes) < 0 ||
        getLongLong(spec, 3, &param->low) < 0)
      return -1;
    param->high = PyLong_AsUnsignedLongLong(PyTuple_GetItem(spec, 4));
    if (PyErr_Occurred())
      return -1;
    param->isUnsigned = param->low >= 0;
  } else if (PyUnicode_CompareWithASCIIString(kind, "other") == 0) {
    param->kind = ParamOther;
    return 0;
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

/* Drops every Python reference; a cleared Launcher takes the general path
 * (there is none: calls raise). */
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
  PyMem_Free(self->params);
  PyMem_Free(self->sizeSlots);
  PyMem_Free(self->multipleOf);
  PyMem_Free(self->atMost);
  freefunc release = (freefunc)PyType_GetSlot(type, Py_tp_free);
  release(self);
  Py_DECREF(type);
}

/* Launcher(general, failed, params, sizes, grids, grid_for)
 *   sizes: ((slot, multiple_of, at_most), ...), one per size variable
 *     (at_most 0: none declared);
 *   grids: the dict of checked dynamic grids (None for a static grid). */
static int Launcher_init(Launcher *self, PyObject *args, PyObject *kwargs) {
  PyObject *general, *failed, *params, *sizes, *grids, *gridFor;
  if (kwargs && PyDict_Size(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "Launcher takes no keyword arguments");
    return -1;
  }
  if (self->params) {
    PyErr_SetString(PyExc_RuntimeError, "a Launcher is initialized once");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "OOO!O!OO", &general, &failed, &PyTuple_Type,
                        &params, &PyTuple_Type, &sizes, &grids, &gridFor))
    return -1;
  /* (A call keeps per-parameter and per-size values on its stack.) */
  if (PyTuple_Size(params) > MaxParams || PyTuple_Size(sizes) > MaxParams) {
    PyErr_SetString(PyExc_ValueError,
                    "too many parameters or size variables (at most 256)");
    return -1;
  }
  if (grids != Py_None && !PyDict_Check(grids)) {
    PyErr_SetString(PyExc_TypeError, "grids is a dict or None");
    return -1;
  }
  self->numParams = (int)PyTuple_Size(params);
  self->numSizes = (int)PyTuple_Size(sizes);
  self->params =
      PyMem_Calloc(self->numParams ? self->numParams : 1, sizeof(Param));
  self->sizeSlots =
      PyMem_Calloc(self->numSizes ? self->numSizes : 1, sizeof(void *));
  self->multipleOf =
      PyMem_Calloc(self->numSizes ? self->numSizes : 1, sizeof(long long));
  self->atMost =
      PyMem_Calloc(self->numSizes ? self->numSizes : 1, sizeof(long long));
  if (!self->params || !self->sizeSlots || !self->multipleOf || !self->atMost) {
    PyErr_NoMemory();
    return -1;
  }
  for (int i = 0; i < self->numParams; ++i)
    if (parseParam(PyTuple_GetItem(params, i), &self->params[i],
                   self->numSizes) < 0)
      return -1;
  for (int k = 0; k < self->numSizes; ++k) {
    PyObject *size = PyTuple_GetItem(sizes, k);
    if (!PyTuple_Check(size) || PyTuple_Size(size) != 3) {
      PyErr_SetString(PyExc_TypeError,
                      "a size variable is (slot, multiple_of, at_most)");
      return -1;
    }
    self->sizeSlots[k] = getAddress(size, 0);
    if (!self->sizeSlots[k] || getLongLong(size, 1, &self->multipleOf[k]) < 0 ||
        self->multipleOf[k] < 1 || getLongLong(size, 2, &self->atMost[k]) < 0 ||
        self->atMost[k] < 0)
      return PyErr_Occurred()
                 ? -1
                 : (PyErr_SetString(PyExc_ValueError, "a bad size variable"),
                    -1);
  }
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

/* set_owner(ident): the thread whose calls may use the argument slots. */
static PyObject *Launcher_set_owner(Launcher *self, PyObject *ident) {
  unsigned long owner = PyLong_AsUnsignedLong(ident);
  if (owner == (unsigned long)-1 && PyErr_Occurred())
    return NULL;
  self->owner = owner;
  self->hasOwner = 1;
  Py_RETURN_NONE;
}

/*===-- The call ----------------------------------------------------------===*/

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

/* Checks a tensor argument; 1 when the fast path takes it. */
static int checkTensor(Launcher *self, const Param *param, PyObject *arg,
                       long long *device, long long *sizes,
                       unsigned char *bound, uint64_t *pointer) {
  if ((PyObject *)Py_TYPE(arg) != self->tensorType)
    return 0;
  PyObject *value = fetch(arg, nameIsCuda, 0);
  int ok = value == Py_True;
  Py_XDECREF(value);
  if (!ok)
    return 0;
  value = fetch(arg, nameDtype, 0);
  ok = value && value == param->dtype;
  Py_XDECREF(value);
  if (!ok)
    return 0;
  value = fetch(arg, nameIsContiguous, 1);
  ok = value == Py_True;
  Py_XDECREF(value);
  if (!ok)
    return 0;
  long long where;
  value = fetch(arg, nameGetDevice, 1);
  ok = readIndex(value, &where) && where >= 0 && where < MaxDevices &&
       (*device < 0 || where == *device);
  Py_XDECREF(value);
  if (!ok)
    return 0;
  *device = where;
  PyObject *shape = fetch(arg, nameShape, 0);
  ok = shape && PyTuple_Check(shape) && PyTuple_Size(shape) == param->rank;
  for (int dim = 0; ok && dim < param->rank; ++dim) {
    long long extent;
    ok = readIndex(PyTuple_GetItem(shape, dim), &extent);
    if (!ok)
      break;
    long long expected = param->dims[dim];
    if (expected >= 0) {
      ok = extent == expected;
      continue;
    }
    int size = (int)(-expected - 1);
    if (bound[size]) {
      ok = extent == sizes[size];
      continue;
    }
    ok = extent >= 1 && extent % self->multipleOf[size] == 0 &&
         (self->atMost[size] == 0 || extent <= self->atMost[size]);
    sizes[size] = extent;
    bound[size] = 1;
  }
  Py_XDECREF(shape);
  if (!ok)
    return 0;
  value = fetch(arg, nameDataPtr, 1);
  unsigned long long address = 0;
  if (value && PyLong_Check(value)) {
    address = PyLong_AsUnsignedLongLong(value);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      address = 0;
    }
  }
  Py_XDECREF(value);
  if (!address || address % (unsigned long long)param->alignment)
    return 0;
  *pointer = address;
  return 1;
}

/* Checks a scalar argument and encodes it in `bits` (the slot's bytes);
 * 1 when the fast path takes it. */
static int checkScalar(const Param *param, PyObject *arg, uint64_t *bits) {
  if (param->kind == ParamFloat) {
    double value;
    if (PyFloat_CheckExact(arg)) {
      value = PyFloat_AsDouble(arg);
    } else if (PyLong_CheckExact(arg)) {
      value = PyLong_AsDouble(arg);
      if (value == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
      }
    } else {
      return 0;
    }
    if (!(-param->limit <= value && value <= param->limit))
      return 0; /* NaN too: the general path decides */
    if (param->bytes == 4) {
      float narrow = (float)value;
      memcpy(bits, &narrow, 4);
    } else {
      memcpy(bits, &value, 8);
    }
    return 1;
  }
  if (param->kind != ParamInt || !PyLong_CheckExact(arg))
    return 0;
  if (param->isUnsigned) {
    unsigned long long value = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return 0;
    }
    if (value > param->high)
      return 0;
    *bits = value;
    return 1;
  }
  long long value = PyLong_AsLongLong(arg);
  if (value == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return 0;
  }
  /* low <= value <= high, in unsigned arithmetic (no signed overflow). */
  unsigned long long offset =
      (unsigned long long)value - (unsigned long long)param->low;
  if (value < param->low ||
      offset > param->high - (unsigned long long)param->low)
    return 0;
  *bits = (uint64_t)value;
  return 1;
}

static PyObject *takeGeneralPath(Launcher *self, PyObject *args) {
  if (!self->general) {
    PyErr_SetString(PyExc_RuntimeError, "the launcher was cleared");
    return NULL;
  }
  return PyObject_CallFunctionObjArgs(self->general, args, NULL);
}

/* The dynamic grid of `sizes`: from the dict, else checked by gridFor. */
static int setGrid(Launcher *self, const long long *sizes,
                   TirxPreparedLaunch *launch) {
  PyObject *key = PyTuple_New(self->numSizes);
  if (!key)
    return -1;
  for (int k = 0; k < self->numSizes; ++k) {
    PyObject *size = PyLong_FromLongLong(sizes[k]);
    if (!size) {
      Py_DECREF(key);
      return -1;
    }
    PyTuple_SetItem(key, k, size);
  }
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
  if (!PyTuple_Check(args) || PyTuple_Size(args) != self->numParams ||
      !self->tensorType || !self->hasOwner ||
      PyThread_get_thread_ident() != self->owner)
    return takeGeneralPath(self, args);
  uint64_t values[MaxParams];
  long long sizes[MaxParams];
  unsigned char bound[MaxParams];
  memset(bound, 0, (size_t)self->numSizes);
  long long device = -1;
  for (int i = 0; i < self->numParams; ++i) {
    const Param *param = &self->params[i];
    PyObject *arg = PyTuple_GetItem(args, i);
    int ok = param->kind == ParamTensor ? checkTensor(self, param, arg, &device,
                                                      sizes, bound, &values[i])
                                        : checkScalar(param, arg, &values[i]);
    if (!ok)
      return takeGeneralPath(self, args);
  }
  if (device < 0 || !self->prepared[device] || !self->stream)
    return takeGeneralPath(self, args);
  for (int k = 0; k < self->numSizes; ++k)
    if (!bound[k]) /* in no tensor's shape: the general path says so */
      return takeGeneralPath(self, args);
  TirxPreparedLaunch *launch = self->prepared[device];
  if (self->grids && setGrid(self, sizes, launch) < 0)
    return NULL;
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
    memcpy(self->sizeSlots[k], &sizes[k], 8);
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
    {NULL, NULL, 0, NULL}};

static char LauncherDoc[] =
    "The launch fast path of one compiled kernel (tirx/runtime).";

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
    "The launcher's fast path in C (python/tirx/runtime).",
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
