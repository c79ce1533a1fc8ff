/* vgpu_findings.cpp - the executor's findings and statistics in the
 * emulator's report format (vgpu_findings.h). */
#include "vgpu_findings.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>

/* A C++ name demangled, or itself when it is not a mangled one. */
static std::string demangled(const char *mangled)
{
    int status = 0;
    char *full = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string name = status == 0 && full ? full : mangled;
    free(full);
    return name;
}

std::string vgpu_kernel_name(const std::string &mangled)
{
    std::string name = demangled(mangled.c_str());
    size_t paren = name.find('(');
    if (paren != std::string::npos) /* "matrixMultiplyShared(float const*, ...)" */
        name.resize(paren);
    size_t space = name.rfind(' '); /* a template's "void f<16>" */
    if (space != std::string::npos && name.find('<') > space)
        name = name.substr(space + 1);
    return name;
}

namespace {

class Report {
  public:
    std::string text;
    void line(const char *severity, const char *kind, const char *fmt, ...) __attribute__((format(printf, 4, 5)))
    {
        char message[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(message, sizeof message, fmt, ap);
        va_end(ap);
        for (char *p = message; *p; p++) /* one line each */
            if (*p == '\n' || *p == '\t')
                *p = ' ';
        text += std::string(severity) + "\t" + kind + "\t" + message + "\n";
    }
    void stat(const char *key, uint64_t value)
    {
        text += std::string("stat\t") + key + "\t" + std::to_string(value) + "\n";
    }
};

/* "matmul.cu:43" (the file's name without its folder), or "line 43", or
 * "an unknown line" */
std::string where(const ptx_device_t *d, const ptx_finding_t &f)
{
    if (f.line == 0)
        return "an unknown line";
    const char *file = ptx_file_name(d, f.file);
    if (!file)
        return "line " + std::to_string(f.line);
    const char *slash = strrchr(file, '/');
    return std::string(slash ? slash + 1 : file) + ":" + std::to_string(f.line);
}

std::string dim(ptx_dim3_t v)
{
    return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

/* Each message opens with what is the same wherever the bug shows (the
 * kernel, the line), then " thread (": the grader counts findings that
 * agree up to there as one bug (score/checks.c), whichever block, thread or
 * address found them. */
/* A variable's name as the student wrote it: "tileA" for nvcc's
 * "_ZZ20matrixMultiplySharedPKfS0_PfiiiiiiE5tileA" (a kernel's local
 * __shared__ array), the name itself for a plain one. */
std::string variable_name(const char *mangled)
{
    std::string name = demangled(mangled);
    size_t colons = name.rfind("::");
    return colons == std::string::npos ? name : name.substr(colons + 2);
}

/* "tileA element 12 (byte offset 48)" for a shared access of f, or "byte
 * offset 48 of shared memory" where no variable holds it. */
std::string shared_place(const ptx_device_t *d, const std::string &kernel_mangled, const ptx_finding_t &f)
{
    uint64_t within = 0;
    const char *var = ptx_shared_name(d, kernel_mangled.c_str(), f.address, &within);
    unsigned size = f.size ? f.size : 1;
    if (!var)
        return "byte offset " + std::to_string(f.address) + " of shared memory";
    return variable_name(var) + " element " + std::to_string(within / size) + " (byte offset " +
           std::to_string(within) + ")";
}

/* "C, 16 bytes (4 elements of 4 bytes) past its end" for an access in an
 * array's red zone; "" for one near no array */
std::string past(const ptx_finding_t &f, const ArrayCalls *calls)
{
    if (!f.near)
        return "";
    std::string name = calls ? calls->array_name(f.array) : "";
    if (name.empty())
        name = "the array at 0x" + [](uint64_t v) { char b[32]; snprintf(b, sizeof b, "%llx", (unsigned long long)v); return std::string(b); }(f.array);
    long long off = (long long)f.offset, size = f.size ? f.size : 1;
    if (off < 0)
        return name + ", " + std::to_string(-off) + " bytes (" + std::to_string(-off / size) + " elements of " +
               std::to_string(size) + " bytes) before its start";
    return name + ", at byte offset " + std::to_string(off) + " (element " + std::to_string(off / size) +
           "), past its end";
}

void finding(Report &r, const ptx_device_t *d, const std::string &mangled, const ptx_finding_t &f,
             const ArrayCalls *calls)
{
    std::string kernel = vgpu_kernel_name(mangled);
    std::string at = where(d, f), t = dim(f.thread), b = dim(f.block);
    const char *rw = f.is_store ? "writes" : "reads", *access = f.is_store ? "write" : "read";
    unsigned long long a = (unsigned long long)f.address;
    const char *k = kernel.c_str();
    switch (f.kind) {
    case PTX_FIND_GLOBAL_OOB:
        if (f.near)
            r.line("error", "global-oob",
                   "Out-of-bounds %s in %s at %s: thread %s of block %s %s %u bytes of %s; check the bounds "
                   "that guard this access.",
                   access, k, at.c_str(), t.c_str(), b.c_str(), rw, f.size, past(f, calls).c_str());
        else
            r.line("error", "invalid-address",
                   "Invalid address in %s at %s: thread %s of block %s %s %u bytes at device address 0x%llx, "
                   "far from every array (a GPU stops the kernel with an illegal memory access); check "
                   "the pointer and the index.",
                   k, at.c_str(), t.c_str(), b.c_str(), rw, f.size, a);
        break;
    case PTX_FIND_SHARED_OOB:
        r.line("error", "shared-oob",
               "Out-of-bounds %s of shared memory in %s at %s: thread %s of block %s %s %u bytes at byte "
               "offset %llu, past the block's shared arrays; check the index.",
               access, k, at.c_str(), t.c_str(), b.c_str(), rw, f.size, a);
        break;
    case PTX_FIND_LOCAL_OOB:
    case PTX_FIND_MISALIGNED:
        r.line("error", "invalid-address", "Invalid address in %s at %s (%s): thread %s of block %s %s %u bytes at 0x%llx.",
               k, at.c_str(),
               f.kind == PTX_FIND_MISALIGNED ? "not aligned to its size: a pointer cast to a wider type?"
                                             : "outside the thread's local array",
               t.c_str(), b.c_str(), rw, f.size, a);
        break;
    case PTX_FIND_BARRIER:
        r.line("error", "barrier-divergence",
               "Barrier divergence in %s: the __syncthreads() at %s is not reached by every thread of a block "
               "(a barrier inside a condition, or an early return): thread %s of block %s never reached it. "
               "Every thread of a block must reach every __syncthreads(): keep out-of-range threads in the loop "
               "and skip only their store.",
               k, at.c_str(), t.c_str(), b.c_str());
        break;
    case PTX_FIND_RACE:
        r.line("error", "race",
               "Race on shared memory in %s at %s, in one barrier interval: thread %s of block %s %s %s, "
               "which thread %s also accessed; a __syncthreads() is missing between them.",
               k, at.c_str(), t.c_str(), b.c_str(), rw, shared_place(d, mangled, f).c_str(), dim(f.other).c_str());
        break;
    case PTX_FIND_UNINIT:
        if (f.shared)
            r.line("error", "uninit-shared",
                   "Uninitialised shared memory read in %s at %s, which no thread of the block has written, so it "
                   "holds garbage: thread %s of block %s reads %s. Store every element the block reads (0 "
                   "where there is no data) before the __syncthreads() that precedes the reads.",
                   k, at.c_str(), t.c_str(), b.c_str(), shared_place(d, mangled, f).c_str());
        else
            r.line("error", "uninit-global",
                   "Uninitialised device memory read in %s at %s, which nothing has written (no cudaMemcpy, "
                   "cudaMemset or kernel store reached it): thread %s of block %s reads 0x%llx.",
                   k, at.c_str(), t.c_str(), b.c_str(), a);
        break;
    }
}

/* What stopped a launch, when no finding says it. */
void stopped(Report &r, const ptx::LaunchRecord &l, const std::string &kernel, uint64_t budget)
{
    const ptx_launch_result_t &res = l.result;
    std::string g = dim(l.grid), b = dim(l.block);
    if (res.status == PTX_ERR_BUDGET) {
        r.line("error", "instruction-budget",
               "%s (grid %s, block %s) ran past the instruction budget of %llu executed instructions for this "
               "dataset and was stopped: an endless loop, a thread waiting forever, or far more work than "
               "the lab needs (a grid much larger than the output?).",
               kernel.c_str(), g.c_str(), b.c_str(), (unsigned long long)budget);
        /* its shape, for the grader's hint (a grid far larger than the output: lab_kind_t explain_grid) */
        r.stat("budget_stops", 1);
        r.stat("budget_grid_blocks", (uint64_t)l.grid.x * l.grid.y * l.grid.z);
        r.stat("budget_block_x", l.block.x);
        r.stat("budget_block_y", l.block.y);
    } else if (res.status == PTX_ERR_CONFIG && (uint64_t)l.block.x * l.block.y * l.block.z > 1024)
        r.line("error", "block-too-big", "%s was not launched: its block %s has %llu threads, and a block may have "
               "at most 1024 (cudaErrorInvalidConfiguration, which the program did not check)", kernel.c_str(),
               b.c_str(), (unsigned long long)l.block.x * l.block.y * l.block.z);
    else if (res.status == PTX_ERR_CONFIG && (l.grid.x == 0 || l.grid.y == 0 || l.grid.z == 0))
        r.line("error", "grid-too-small", "%s was not launched: its grid %s has no block (cudaErrorInvalidConfiguration, "
               "which the program did not check): a size rounded down to 0 (n / %u for n < %u?); use ceiling "
               "division, (n + B - 1) / B", kernel.c_str(), g.c_str(), l.block.x, l.block.x);
    else if (res.status == PTX_ERR_CONFIG)
        r.line("error", "invalid-configuration", "%s was not launched: grid %s, block %s: %s", kernel.c_str(),
               g.c_str(), b.c_str(), res.message[0] ? res.message : "a configuration the device refuses");
    else if (res.status == PTX_ERR_UNSUPPORTED || res.status == PTX_ERR_INVALID)
        r.line("error", "launch-failed", "%s (grid %s, block %s) failed: %s", kernel.c_str(), g.c_str(),
               b.c_str(), res.message);
}

} // namespace

std::string vgpu_findings(const ptx_device_t *d, const ptx::ServeLog &log, const ArrayCalls *calls,
                          uint64_t budget)
{
    Report r;
    uint64_t threads = 0, blocks = 0, instructions = 0, sampled = 0, launched = 0;
    uint64_t block_x = 0, block_y = 0, grid_x = 0, grid_y = 0; /* sums: one launch's shape when launched is 1 */
    ptx_traffic_t sum = {};
    for (const ptx::LaunchRecord &l : log.launches) {
        std::string kernel = vgpu_kernel_name(l.kernel);
        unsigned kept = l.result.nfindings < 16 ? l.result.nfindings : 16;
        for (unsigned i = 0; i < kept; i++)
            finding(r, d, l.kernel, l.result.findings[i], calls);
        if (l.result.nfindings > kept)
            r.line("warning", "more-findings", "%u more findings in this launch of %s not shown",
                   l.result.nfindings - kept, kernel.c_str());
        stopped(r, l, kernel, budget);
        if (l.result.status == PTX_ERR_CONFIG || l.result.status == PTX_ERR_NO_KERNEL)
            continue;
        uint64_t nb = (uint64_t)l.grid.x * l.grid.y * l.grid.z;
        blocks += nb;
        launched++, block_x += l.block.x, block_y += l.block.y, grid_x += l.grid.x, grid_y += l.grid.y;
        threads += nb * l.block.x * l.block.y * l.block.z;
        instructions += l.result.instructions;
        sampled += l.result.sampled_blocks;
        const ptx_traffic_t &t = l.result.traffic;
        sum.global_load_bytes += t.global_load_bytes, sum.global_store_bytes += t.global_store_bytes;
        sum.global_load_sectors += t.global_load_sectors, sum.global_store_sectors += t.global_store_sectors;
        sum.shared_loads += t.shared_loads, sum.flops += t.flops;
        sum.shared_load_bytes += t.shared_load_bytes, sum.const_loads += t.const_loads;
        sum.global_atomics += t.global_atomics, sum.shared_atomics += t.shared_atomics;
        sum.shared_requests += t.shared_requests, sum.shared_wavefronts += t.shared_wavefronts;
    }
    if (calls)
        for (const std::string &p : calls->problems())
            r.line("error", "host-output", "%s", p.c_str());
    if (calls && threads > 0) /* with no kernel run, nothing was read: the output says enough */
        for (const std::string &u : calls->unread_inputs())
            r.line("error", "input-not-read", "The kernels never read every element of the inputs: %s. The output "
                   "leaves them out, however close it came.", u.c_str());
    if (log.solution.complete && log.solution.provenance == "host")
        r.line("error", "host-output", "The solution handed to wbSolution was copied to the device by the host "
               "and read back: no kernel computed it.");
    else if (log.solution.complete && log.solution.provenance == "not read back")
        r.line("error", "not-copied-back", "The solution handed to wbSolution is not the bytes the program read "
               "back from device memory a kernel wrote: C was not copied back whole (a cudaMemcpy from the device "
               "of numCRows * numCColumns * sizeof(float) bytes, cudaMemcpyDeviceToHost, into the array given to "
               "wbSolution), or it was computed on the host.");
    for (const auto &o : log.host_overflows) {
        char at[64] = ""; /* the grader turns the address into file:line (run/host_lines.h) */
        if (o.at)
            snprintf(at, sizeof at, " at program address 0x%llx", (unsigned long long)o.at);
        r.line("error", "host-copy-overflow",
               "cudaMemcpy%s copied %llu bytes from the device into a host array of %llu bytes (what the program's "
               "malloc was asked for): %llu bytes past its end, over whatever the heap holds there. Size the array "
               "for what is copied into it (numCRows * numCColumns * sizeof(float) for C), or copy no more than "
               "it holds; a crash that follows (free(): invalid next size, munmap_chunk(): invalid pointer) comes "
               "from this copy",
               at, (unsigned long long)o.copied, (unsigned long long)o.size,
               (unsigned long long)(o.copied - o.size));
    }
    if (!log.stopped.empty())
        r.line("error", "broken-wire", "the program sent the executor a malformed request (%s): its CUDA "
               "runtime never does, so code in the program tampered with it", log.stopped.c_str());
    if (threads > 0) {
        r.stat("threads", threads);
        r.stat("blocks", blocks);
        r.stat("launches", launched);
        r.stat("block_x", block_x), r.stat("block_y", block_y);
        r.stat("grid_x", grid_x), r.stat("grid_y", grid_y);
        r.stat("global_load_bytes", sum.global_load_bytes);
        r.stat("global_store_bytes", sum.global_store_bytes);
        r.stat("global_load_sectors", sum.global_load_sectors);
        r.stat("global_store_sectors", sum.global_store_sectors);
        r.stat("shared_staged_loads", sum.shared_loads);
        r.stat("shared_load_bytes", sum.shared_load_bytes);
        r.stat("const_loads", sum.const_loads); /* the executor's alone: uses-constant-memory's evidence */
        r.stat("global_atomics", sum.global_atomics);
        r.stat("shared_atomics", sum.shared_atomics);
        r.stat("shared_requests", sum.shared_requests);
        r.stat("shared_wavefronts", sum.shared_wavefronts);
        r.stat("flops", sum.flops);
        r.stat("instructions", instructions);
        r.stat("analysed_blocks", sampled); /* the checks' sample (sectors, wavefronts, races) */
    }
    return r.text;
}
