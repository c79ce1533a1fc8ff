/* launch.cpp - kernel launches: validation like a real device, the
 * per-kernel attributes that change it (cudaFuncSetAttribute), and handing
 * a valid launch to the scheduler; a block larger than the kernel's
 * __launch_bounds__ is found by the kernel's first thread, which has the
 * launch refused from inside (__cudaEmuLaunchBoundsExceeded).
 *
 * A launch the device would refuse does not run: the last error becomes
 * cudaErrorInvalidValue (what an H200 with CUDA 13 returns) and a `launch`
 * diagnostic says why, e.g. "block (64,64,1) has 4096 threads, the limit is
 * 1024". Launches run synchronously, one at a time (a mutex serialises host
 * threads), and CUGRADE_EMU_SCHEDULE=forward|reverse|shuffle:SEED picks
 * the order in which threads and blocks run. In the checking mode (check.h)
 * the launch is bracketed by check_launch_begin/check_launch_end. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "check.h"

namespace cugrade::emu {
namespace {

std::mutex g_launch_mutex;
std::mutex g_attr_mutex;
/* cudaFuncAttributeMaxDynamicSharedMemorySize per kernel, where it was set. */
std::unordered_map<const void *, int> g_max_dynamic_smem;
thread_local bool t_in_kernel;
unsigned long long g_launches;
unsigned long long g_rejected;
/* A thread of the running launch found its block larger than the kernel's
 * __launch_bounds__ (__cudaEmuLaunchBoundsExceeded). */
bool g_bounds_refused;


int max_dynamic_smem(const void *kernel)
{
    std::lock_guard<std::mutex> lock(g_attr_mutex);
    auto it = g_max_dynamic_smem.find(kernel);
    return it == g_max_dynamic_smem.end() ? -1 : it->second;
}

/* Each check writes the reason into why and returns false when it fails. */
bool check_dims(const launch_config &c, char *why, size_t n)
{
    const dim3 &b = c.block, &g = c.grid;
    unsigned long long threads = 1ull * b.x * b.y * b.z;
    if (b.x == 0 || b.y == 0 || b.z == 0)
        snprintf(why, n, "block (%u,%u,%u) has a zero dimension", b.x, b.y, b.z);
    else if (g.x == 0 || g.y == 0 || g.z == 0)
        snprintf(why, n, "grid (%u,%u,%u) has a zero dimension", g.x, g.y, g.z);
    else if (threads > kMaxThreadsPerBlock)
        snprintf(why, n, "block (%u,%u,%u) has %llu threads, the limit is %u", b.x, b.y, b.z, threads,
                 kMaxThreadsPerBlock);
    else if (b.z > kMaxBlockDimZ)
        snprintf(why, n, "block (%u,%u,%u) has z = %u, the limit is %u", b.x, b.y, b.z, b.z, kMaxBlockDimZ);
    else if (g.x > kMaxGridDimX)
        snprintf(why, n, "grid (%u,%u,%u) has x = %u, the limit is %u", g.x, g.y, g.z, g.x, kMaxGridDimX);
    else if (g.y > kMaxGridDimYZ || g.z > kMaxGridDimYZ)
        snprintf(why, n, "grid (%u,%u,%u) has y or z above the limit of %u", g.x, g.y, g.z, kMaxGridDimYZ);
    else
        return true;
    return false;
}

bool check_shared(const launch_site &s, const launch_config &c, char *why, size_t n)
{
    size_t stat = static_shared_size();
    size_t dyn = c.shmem;
    int raised = max_dynamic_smem(s.kernel);
    if (raised < 0 && stat + dyn > kSharedPerBlock)
        snprintf(why, n,
                 "it uses %zu bytes of static and %zu bytes of dynamic shared memory, more than the %zu "
                 "bytes a block may use unless cudaFuncSetAttribute(%s, "
                 "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) raises the limit",
                 stat, dyn, kSharedPerBlock, s.name);
    else if (raised >= 0 && dyn > size_t(raised))
        snprintf(why, n,
                 "it asks for %zu bytes of dynamic shared memory, more than the %d bytes set with "
                 "cudaFuncAttributeMaxDynamicSharedMemorySize",
                 dyn, raised);
    else if (stat + dyn > kSharedPerBlockOptin)
        snprintf(why, n, "it uses %zu bytes of shared memory, the limit is %zu", stat + dyn,
                 kSharedPerBlockOptin);
    else
        return true;
    return false;
}

cudaError_t reject(const launch_site &s, cudaError_t err, const char *why)
{
    g_rejected++;
    diag_report(severity::error, diag_kind::launch, "Launch of %s at %s:%d failed with %s: %s.", s.name,
                s.file, s.line, cudaGetErrorName(err), why);
    return record_error(err);
}

cudaError_t validate(const launch_site &s, const launch_config &c)
{
    char why[512];
    if (!check_dims(c, why, sizeof why) || !check_shared(s, c, why, sizeof why))
        return reject(s, cudaErrorInvalidValue, why);
    if (!stream_is_valid(c.stream))
        return reject(s, cudaErrorInvalidResourceHandle, "its stream is not a live stream");
    if (!fiber_stacks_reserve(c.block.x * c.block.y * c.block.z))
        return reject(s, cudaErrorMemoryAllocation, "the emulator could not map the threads' stacks");
    return cudaSuccess;
}

/* Runs the grid, with the checking mode's bracket around it when it is on. */
void run_checked(const grid_job &job, const launch_config &config, const launch_args *args)
{
    if (!job.checking) {
        run_grid(job);
        return;
    }
    launch_args none{0, nullptr, nullptr, nullptr, 0};
    check_launch_begin(*job.site, config.grid, config.block, config.shmem, args ? *args : none);
    run_grid(job);
    check_launch_end();
}

cudaError_t run_validated(const launch_site &site, const launch_config &config, kernel_invoker invoke,
                          const void *call, const launch_args *args)
{
    diag_launch_begin();
    cudaError_t err = validate(site, config);
    if (err == cudaSuccess) {
        guard_install();
        grid_job job{&site, config.grid, config.block, config.shmem, invoke, call, schedule_from_env(),
                     checks_enabled()};
        t_in_kernel = true;
        g_bounds_refused = false;
        run_checked(job, config, args);
        t_in_kernel = false;
        if (g_bounds_refused) /* refused from inside (already reported and recorded) */
            err = cudaErrorInvalidValue;
        else
            g_launches++;
    }
    diag_launch_end(site);
    return err;
}

} // namespace

schedule schedule_from_env()
{
    const char *s = getenv("CUGRADE_EMU_SCHEDULE");
    if (s && strcmp(s, "reverse") == 0)
        return schedule{schedule_order::reverse, 0};
    if (s && strncmp(s, "shuffle", 7) == 0 && (s[7] == '\0' || s[7] == ':'))
        return schedule{schedule_order::shuffle, s[7] ? strtoull(s + 8, nullptr, 0) : 0};
    return schedule{schedule_order::forward, 0};
}

void launch_reset_attributes()
{
    std::lock_guard<std::mutex> lock(g_attr_mutex);
    g_max_dynamic_smem.clear();
}

} // namespace cugrade::emu

using namespace cugrade::emu;

cudaError_t cugrade::launch(const launch_site &site, const launch_config *config, kernel_invoker invoke,
                            const void *call, const launch_args *args)
{
    if (t_in_kernel) {
        diag_report(severity::error, diag_kind::launch,
                    "Launch of %s at %s:%d from inside a kernel failed: the emulator does not support "
                    "dynamic parallelism.",
                    site.name, site.file, site.line);
        return record_error(cudaErrorNotSupported);
    }
    std::lock_guard<std::mutex> lock(g_launch_mutex);
    if (!config) {
        diag_launch_begin();
        return reject(site, cudaErrorMissingConfiguration, "the launch has no <<<grid, block>>> configuration");
    }
    return run_validated(site, *config, invoke, call, args);
}

cugrade::emu_stats cugrade::stats()
{
    run_counters r = scheduler_counters();
    return emu_stats{g_launches, g_rejected, r.blocks, r.threads, r.barriers, diag_total()};
}

unsigned long long cugrade::launch_count() { return g_launches; }

/* Called by every thread of a block larger than its kernel's
 * __launch_bounds__(max) (cugrade_device.h), which then returns at once:
 * the first call refuses the launch as a GPU refuses it (no thread has done
 * anything yet); the other blocks still start, but their threads return as
 * soon as they begin. Returns 1 (0 outside a kernel). */
extern "C" int __cudaEmuLaunchBoundsExceeded(unsigned long long max_threads_per_block)
{
    const cugrade::launch_site *site;
    uint3 block, thread;
    if (!running_thread(&site, &block, &thread))
        return 0;
    if (!g_bounds_refused) {
        g_bounds_refused = true;
        const dim3 &b = __cugrade_blockDim;
        char why[256];
        snprintf(why, sizeof why,
                 "block (%u,%u,%u) has %llu threads, more than the %llu that the kernel's __launch_bounds__ "
                 "allows",
                 b.x, b.y, b.z, 1ull * b.x * b.y * b.z, max_threads_per_block);
        reject(*site, cudaErrorInvalidValue, why);
    }
    return 1;
}

extern "C" cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value)
{
    if (!func)
        return record_error(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return value >= -1 && value <= 100 ? cudaSuccess : record_error(cudaErrorInvalidValue);
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize)
        return record_error(cudaErrorInvalidValue);
    if (value < 0 || static_shared_size() + size_t(value) > kSharedPerBlockOptin)
        return record_error(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(g_attr_mutex);
    g_max_dynamic_smem[func] = value;
    return cudaSuccess;
}

extern "C" cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func)
{
    if (!attr || !func)
        return record_error(cudaErrorInvalidValue);
    int raised = max_dynamic_smem(func);
    size_t stat = static_shared_size();
    *attr = cudaFuncAttributes{};
    attr->sharedSizeBytes = stat;
    attr->maxThreadsPerBlock = int(kMaxThreadsPerBlock);
    attr->numRegs = 32;
    attr->ptxVersion = 90;
    attr->binaryVersion = 90;
    attr->maxDynamicSharedSizeBytes = raised >= 0 ? raised : int(kSharedPerBlock > stat ? kSharedPerBlock - stat : 0);
    return cudaSuccess;
}

extern "C" cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache config)
{
    (void)config;
    return func ? cudaSuccess : record_error(cudaErrorInvalidDeviceFunction);
}
