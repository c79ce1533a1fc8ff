/* errors.cpp - CUDA error codes in the emulator: the per-thread "last error"
 * (set by any failing runtime call or launch, read by cudaGetLastError and
 * cudaPeekAtLastError), and CUDA's names and texts for each code. */
#include "emu_internal.h"

namespace cugrade::emu {
namespace {

/* The runtime keeps one last error per host thread, like CUDA's. */
thread_local cudaError_t t_last_error = cudaSuccess;

struct error_text {
    cudaError_t code;
    const char *name;
    const char *text;
};

const error_text kErrorTexts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration",
     "__global__ function call is not configured"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const error_text *find_error(cudaError_t code)
{
    for (const error_text &e : kErrorTexts)
        if (e.code == code)
            return &e;
    return nullptr;
}

} // namespace

cudaError_t record_error(cudaError_t err)
{
    if (err != cudaSuccess)
        t_last_error = err;
    return err;
}

} // namespace cugrade::emu

using namespace cugrade::emu;

extern "C" cudaError_t cudaGetLastError(void)
{
    cudaError_t err = t_last_error;
    t_last_error = cudaSuccess;
    return err;
}

extern "C" cudaError_t cudaPeekAtLastError(void) { return t_last_error; }

extern "C" const char *cudaGetErrorString(cudaError_t error)
{
    const error_text *e = find_error(error);
    return e ? e->text : "unrecognized error code";
}

extern "C" const char *cudaGetErrorName(cudaError_t error)
{
    const error_text *e = find_error(error);
    return e ? e->name : "unrecognized error code";
}
