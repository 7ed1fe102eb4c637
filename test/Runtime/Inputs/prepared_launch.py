"""The prepared-launch C ABI of libTirXRuntime.so (TirXRuntime.h), called
through ctypes; one line per check, "<check>: <status> <message>".
  prepared_launch.py LIBRARY            checks that need no GPU
  prepared_launch.py LIBRARY PTX        and, on a GPU, those that need one
                                        (PTX: affine_relu's, 2 parameters)"""
import ctypes
import sys

STATUS = {0: "SUCCESS", 1: "NO_DEVICE", 2: "INVALID_IMAGE", 3: "NOT_FOUND",
          4: "INVALID_ARGUMENT", 5: "LAUNCH", 6: "CUDA"}


class Prepared(ctypes.Structure):
    _fields_ = [("name", ctypes.c_void_p), ("function", ctypes.c_void_p),
                ("context", ctypes.c_void_p), ("grid", ctypes.c_uint * 3),
                ("block", ctypes.c_uint * 3), ("sharedMemBytes", ctypes.c_uint),
                ("stream", ctypes.c_void_p), ("args", ctypes.POINTER(ctypes.c_void_p)),
                ("numArgs", ctypes.c_size_t)]


lib = ctypes.CDLL(sys.argv[1])
lib.tirxGetLastErrorMessage.restype = ctypes.c_char_p
lib.tirxModuleLoadDataOnDevice.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int,
                                           ctypes.c_void_p]
lib.tirxModuleGetKernel.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
lib.tirxKernelPrepareLaunch.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t,
                                        ctypes.c_void_p]
lib.tirxPointerGetDevice.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
lib.tirxPreparedLaunchSetSharedBytes.argtypes = [ctypes.c_void_p, ctypes.c_uint]


def report(check, status):
    print("%s: %s %s" % (check, STATUS.get(status, status),
                         lib.tirxGetLastErrorMessage().decode()), flush=True)
    return status


device = ctypes.c_int()
report("null-get-device", lib.tirxGetDevice(None))
report("null-pointer-device", lib.tirxPointerGetDevice(None, None))
report("null-load-on-device", lib.tirxModuleLoadDataOnDevice(None, 0, 0, None))
report("null-prepare", lib.tirxKernelPrepareLaunch(None, 0, 0, None))
report("null-launch", lib.tirxLaunchPrepared(None))
report("null-shared", lib.tirxPreparedLaunchSetSharedBytes(None, 0))
fake = Prepared(function=1, context=1)  # never reaches the driver
report("zero-grid", lib.tirxLaunchPrepared(ctypes.byref(fake)))
if len(sys.argv) < 3:
    sys.exit(0)

ptx = open(sys.argv[2], "rb").read()
report("current-device", lib.tirxGetDevice(ctypes.byref(device)))
count = ctypes.c_int()
lib.tirxGetDeviceCount(ctypes.byref(count))
module, kernel = ctypes.c_void_p(), ctypes.c_void_p()
report("load-on-missing-device",
       lib.tirxModuleLoadDataOnDevice(ptx, len(ptx), count.value, ctypes.byref(module)))
report("load-on-device", lib.tirxModuleLoadDataOnDevice(ptx, len(ptx), 0, ctypes.byref(module)))
report("kernel", lib.tirxModuleGetKernel(module, b"affine_relu", ctypes.byref(kernel)))
prepared = Prepared()
report("prepare-wrong-count", lib.tirxKernelPrepareLaunch(kernel, 0, 1, ctypes.byref(prepared)))
report("prepare-missing-device",
       lib.tirxKernelPrepareLaunch(kernel, count.value, 2, ctypes.byref(prepared)))
report("prepare", lib.tirxKernelPrepareLaunch(kernel, 0, 2, ctypes.byref(prepared)))
print("prepared: grid %s block %s args %d" % (tuple(prepared.grid), tuple(prepared.block),
                                             prepared.numArgs))
host = ctypes.create_string_buffer(64)
report("host-pointer-device", lib.tirxPointerGetDevice(ctypes.addressof(host),
                                                       ctypes.byref(device)))
a, b = ctypes.c_void_p(), ctypes.c_void_p()
report("malloc", lib.tirxMalloc(ctypes.byref(a), 1024) | lib.tirxMalloc(ctypes.byref(b), 1024))
report("device-pointer-device", lib.tirxPointerGetDevice(a, ctypes.byref(device)))
print("device of a: %d" % device.value)
values = (ctypes.c_void_p * 2)(a.value, b.value)
slots = (ctypes.c_void_p * 2)(ctypes.addressof(values) , ctypes.addressof(values) + 8)
inputs = (ctypes.c_float * 256)(*[(i - 128) / 32.0 for i in range(256)])
lib.tirxMemcpyHostToDevice(a, inputs, 1024)
prepared.args = slots
prepared.block[0] = 2048  # more threads than a block may have
report("huge-block", lib.tirxLaunchPrepared(ctypes.byref(prepared)))
prepared.block[0] = 64
# Dynamic shared memory: past the device's limit the opt-in fails; within
# it (64 KiB, past the 48 KiB default) launches pass it.
report("huge-shared", lib.tirxPreparedLaunchSetSharedBytes(ctypes.byref(prepared), 1 << 20))
report("shared", lib.tirxPreparedLaunchSetSharedBytes(ctypes.byref(prepared), 64 << 10))
print("shared bytes: %d" % prepared.sharedMemBytes)
report("launch", lib.tirxLaunchPrepared(ctypes.byref(prepared)))
report("sync", lib.tirxDeviceSynchronize())
outputs = (ctypes.c_float * 256)()
lib.tirxMemcpyDeviceToHost(outputs, b, 1024)
wrong = sum(outputs[i] != max(inputs[i] * 2 + 1, 0) for i in range(256))
print("results: %d mismatches of 256" % wrong)
