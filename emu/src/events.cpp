/* events.cpp - CUDA events and streams in the emulator.
 *
 * All work (launches, copies) has finished when the call that queued it
 * returns, so a stream is only a handle, synchronising is a no-op, and an
 * event records the wall-clock time (CLOCK_MONOTONIC) at cudaEventRecord:
 * the time between two events around a launch is the kernel's run time.
 * Handles are kept in registries so that a bad or destroyed handle gives
 * cudaErrorInvalidResourceHandle rather than a crash. */
#include <mutex>
#include <set>
#include <time.h>

#include "emu_internal.h"

struct CUevent_st {
    unsigned flags;
    bool recorded;
    double ms; /* CLOCK_MONOTONIC at the last record, in milliseconds */
};

struct CUstream_st {
    unsigned flags;
};

namespace cugrade::emu {
namespace {

std::mutex g_handle_mutex;
std::set<const CUevent_st *> g_events;
std::set<const CUstream_st *> g_streams;

double now_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

bool event_is_valid(cudaEvent_t event)
{
    std::lock_guard<std::mutex> lock(g_handle_mutex);
    return event && g_events.count(event) > 0;
}

} // namespace

bool stream_is_valid(cudaStream_t stream)
{
    if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return true;
    std::lock_guard<std::mutex> lock(g_handle_mutex);
    return g_streams.count(stream) > 0;
}

} // namespace cugrade::emu

using namespace cugrade::emu;

extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event || flags > (cudaEventBlockingSync | cudaEventDisableTiming))
        return record_error(cudaErrorInvalidValue);
    cudaEvent_t e = new CUevent_st{flags, false, 0.0};
    std::lock_guard<std::mutex> lock(g_handle_mutex);
    g_events.insert(e);
    *event = e;
    return cudaSuccess;
}

extern "C" cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    if (!event_is_valid(event) || !stream_is_valid(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    event->ms = now_ms();
    event->recorded = true;
    return cudaSuccess;
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return event_is_valid(event) ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return event_is_valid(event) ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return record_error(cudaErrorInvalidValue);
    if (!event_is_valid(start) || !event_is_valid(end))
        return record_error(cudaErrorInvalidResourceHandle);
    if ((start->flags | end->flags) & cudaEventDisableTiming || !start->recorded || !end->recorded)
        return record_error(cudaErrorInvalidResourceHandle);
    *ms = float(end->ms - start->ms);
    return cudaSuccess;
}

extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    std::lock_guard<std::mutex> lock(g_handle_mutex);
    if (!event || g_events.erase(event) == 0)
        return record_error(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}

extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    if (!stream || flags > cudaStreamNonBlocking)
        return record_error(cudaErrorInvalidValue);
    cudaStream_t s = new CUstream_st{flags};
    std::lock_guard<std::mutex> lock(g_handle_mutex);
    g_streams.insert(s);
    *stream = s;
    return cudaSuccess;
}

extern "C" cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    return stream_is_valid(stream) ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return stream_is_valid(stream) ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    (void)flags;
    if (!stream_is_valid(stream) || !event_is_valid(event))
        return record_error(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    std::lock_guard<std::mutex> lock(g_handle_mutex);
    if (!stream || g_streams.erase(stream) == 0)
        return record_error(cudaErrorInvalidResourceHandle);
    delete stream;
    return cudaSuccess;
}
