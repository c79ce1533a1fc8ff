/* scheduler.cpp - runs a launch's blocks, one after another, on the calling
 * OS thread; inside a block every CUDA thread is a fiber.
 *
 * A block runs in rounds. In a round each live fiber runs, in schedule
 * order (forward: thread 0 first; reverse: last thread first), until it
 * reaches __syncthreads() or returns; a fiber at the barrier switches
 * straight to the next one (one switch per thread per barrier), and the last
 * one switches back here. When the round ends every live thread waits at the
 * barrier, so the barrier opens and the next round starts. If some threads
 * have returned while others wait (a divergent barrier), the waiting ones
 * are released all the same, as on a current GPU, and an error diagnostic
 * names the two groups; threads waiting at different __syncthreads() calls
 * get a warning. The block ends when a round ends with no thread waiting.
 * shuffle:SEED runs the threads of each block in a random order drawn from
 * SEED and the block index (the same every run), blocks forward.
 *
 * In the checking mode the scheduler keeps g_exec (check.h) current: the
 * running thread at every switch, the block, and a new barrier interval
 * (epoch) at each block start and barrier release, and tells the checkers
 * (check_block_begin, check_barrier, check_block_end). */
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "check.h"

extern "C" {
uint3 __cugrade_threadIdx;
uint3 __cugrade_blockIdx;
dim3 __cugrade_blockDim;
dim3 __cugrade_gridDim;
void cugrade_fiber_switch(void **save_sp, void *next_sp);
[[noreturn]] void cugrade_fiber_main();
}

namespace cugrade::emu {
namespace {

struct fiber {
    void *sp;             /* saved stack pointer while switched out */
    uint3 tid;            /* threadIdx */
    unsigned linear;      /* x + y * bx + z * bx * by */
    bool done;            /* returned from the kernel */
    int bar_pred;         /* predicate given to __syncthreads_count/_and/_or */
    const char *bar_file; /* where it waits */
    int bar_line;
};

/* The block being run. order[0..count) are the live fibers of this round
 * in schedule order; order[pos] is running. */
struct block_state {
    fiber **order;
    int count;
    int pos;
    void *sched_sp;
    bool running;
    int exited;          /* fibers of this block that have returned */
    int last_pred_count; /* at the last barrier: threads with a true predicate */
    int last_arrived;    /* at the last barrier: threads that arrived */
    bool divergence_reported;
    bool mismatch_reported;
};

block_state g_block;
const grid_job *g_job;
std::vector<fiber> g_fibers;        /* in thread order: linear index x + y*bx + z*bx*by */
std::vector<fiber *> g_first_order; /* every fiber, in schedule order */
std::vector<fiber *> g_order;
uint32_t g_fp_control;
run_counters g_counters;

/* Leaves the running fiber (waiting or finished) for the next one of the
 * round, or for the scheduler after the last one. */
inline void switch_to_next(fiber *self)
{
    block_state &b = g_block;
    int next = ++b.pos;
    void *target = b.sched_sp;
    if (next < b.count) {
        fiber *f = b.order[next];
        __cugrade_threadIdx = f->tid;
        g_exec.thread_linear = f->linear;
        target = f->sp;
    }
    cugrade_fiber_switch(&self->sp, target);
}

inline void arrive_at_barrier(int pred, const char *file, int line)
{
    fiber *self = g_block.order[g_block.pos];
    self->bar_pred = pred;
    self->bar_file = file;
    self->bar_line = line;
    switch_to_next(self);
}

bool same_site(const fiber *a, const fiber *b)
{
    return a->bar_line == b->bar_line &&
           (a->bar_file == b->bar_file || strcmp(a->bar_file, b->bar_file) == 0);
}

/* The first and last fiber (in thread order) that has returned (done) or
 * still runs, and how many there are. */
struct fiber_group {
    const fiber *first = nullptr, *last = nullptr;
    int count = 0;
};

fiber_group group_of(bool done)
{
    fiber_group g;
    for (const fiber &f : g_fibers)
        if (f.done == done) {
            g.first = g.first ? g.first : &f;
            g.last = &f;
            g.count++;
        }
    return g;
}

/* "thread (3,0,0)" or "threads (0,2,0) to (15,15,0)" (first and last in thread order) */
void describe_group(char *buf, size_t len, const fiber_group &g)
{
    const uint3 &a = g.first->tid, &b = g.last->tid;
    if (g.first == g.last)
        snprintf(buf, len, "thread (%u,%u,%u)", a.x, a.y, a.z);
    else
        snprintf(buf, len, "threads (%u,%u,%u) to (%u,%u,%u)", a.x, a.y, a.z, b.x, b.y, b.z);
}

void report_divergence()
{
    const launch_site &s = *g_job->site;
    fiber_group waiting = group_of(false), returned = group_of(true);
    char waiters[96], quitters[96];
    describe_group(waiters, sizeof waiters, waiting);
    describe_group(quitters, sizeof quitters, returned);
    uint3 b = __cugrade_blockIdx;
    diag_report(severity::error, diag_kind::barrier_divergence,
                "Barrier divergence in kernel %s launched at %s:%d, block (%u,%u,%u): %d of %zu threads (%s) wait "
                "at the __syncthreads() at %s:%d, but %d (%s) have already returned without reaching it; the "
                "waiting threads were released as on a current GPU, but the kernel is wrong and may hang or "
                "compute garbage on other GPUs. Every thread of a block must reach every __syncthreads(): do "
                "not return early or put a barrier in a branch some threads skip; skip only the work.",
                s.name, s.file, s.line, b.x, b.y, b.z, waiting.count, g_fibers.size(), waiters,
                waiting.first->bar_file, waiting.first->bar_line, returned.count, quitters);
}

void report_mismatch(const fiber *first, const fiber *other, int at_first, int at_other)
{
    const launch_site &s = *g_job->site;
    uint3 b = __cugrade_blockIdx;
    diag_report(severity::warning, diag_kind::barrier_mismatch,
                "Barrier mismatch in kernel %s launched at %s:%d, block (%u,%u,%u): thread (%u,%u,%u) and %d "
                "more wait at the __syncthreads() at %s:%d while thread (%u,%u,%u) and %d more wait at the one "
                "at %s:%d; they were treated as one barrier, which CUDA does not promise: make every thread "
                "reach the same __syncthreads() calls.",
                s.name, s.file, s.line, b.x, b.y, b.z, first->tid.x, first->tid.y, first->tid.z, at_first - 1,
                first->bar_file, first->bar_line, other->tid.x, other->tid.y, other->tid.z, at_other - 1,
                other->bar_file, other->bar_line);
}

/* After a round: drops finished fibers from the order, opens the barrier
 * for the rest and checks it. Returns the number still live. */
int end_round()
{
    block_state &b = g_block;
    int live = 0, preds = 0, at_other = 0;
    const fiber *other_site = nullptr;
    for (int i = 0; i < b.count; i++) {
        fiber *f = b.order[i];
        if (f->done)
            continue;
        if (live > 0 && !same_site(b.order[0], f)) {
            other_site = other_site ? other_site : f;
            at_other += same_site(other_site, f);
        }
        preds += f->bar_pred;
        b.order[live++] = f;
    }
    b.count = live;
    if (live == 0)
        return 0;
    g_counters.barriers++;
    b.last_pred_count = preds;
    b.last_arrived = live;
    if (b.exited > 0 && !b.divergence_reported) {
        b.divergence_reported = true;
        report_divergence();
    }
    if (other_site && !b.mismatch_reported) {
        b.mismatch_reported = true;
        int at_first = 0;
        for (int i = 0; i < live; i++)
            at_first += same_site(b.order[0], b.order[i]);
        report_mismatch(b.order[0], other_site, at_first, at_other);
    }
    return live;
}

/* The schedule order of the threads of the block about to run. */
void order_threads(const schedule &order)
{
    g_order = g_first_order;
    if (order.order != schedule_order::shuffle)
        return;
    uint3 bi = __cugrade_blockIdx;
    uint64_t state = order.seed ^ (0x9E3779B97F4A7C15ull * (1 + bi.x + 65536ull * (bi.y + 65536ull * bi.z)));
    for (size_t i = g_order.size(); i > 1; i--) { /* Fisher-Yates with splitmix64 */
        state += 0x9E3779B97F4A7C15ull;
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        std::swap(g_order[i - 1], g_order[size_t(z % i)]);
    }
}

/* The checking mode's view of the block: its index, a new barrier interval. */
void begin_block_checks()
{
    g_exec.block_idx = __cugrade_blockIdx;
    g_exec.block_epoch = ++g_exec.epoch;
    check_block_begin();
}

void run_block()
{
    block_state &b = g_block;
    for (size_t i = 0; i < g_fibers.size(); i++) {
        g_fibers[i].sp = fiber_initial_frame(unsigned(i), g_fp_control);
        g_fibers[i].done = false;
    }
    order_threads(g_job->order);
    b.order = g_order.data();
    b.count = int(g_order.size());
    b.exited = 0;
    b.divergence_reported = false;
    b.mismatch_reported = false;
    b.running = true;
    if (g_job->checking)
        begin_block_checks();
    for (;;) {
        b.pos = 0;
        fiber *first = b.order[0];
        __cugrade_threadIdx = first->tid;
        g_exec.thread_linear = first->linear;
        cugrade_fiber_switch(&b.sched_sp, first->sp);
        if (end_round() == 0)
            break;
        if (g_job->checking) { /* the barrier opens: a new interval */
            g_exec.epoch++;
            check_barrier();
        }
    }
    if (g_job->checking)
        check_block_end();
    b.running = false;
}

void prepare_fibers(dim3 block, bool reverse)
{
    size_t n = size_t(block.x) * block.y * block.z;
    g_fibers.assign(n, fiber{});
    for (size_t i = 0; i < n; i++) {
        g_fibers[i].tid = uint3{unsigned(i % block.x), unsigned(i / block.x % block.y),
                                unsigned(i / (size_t(block.x) * block.y))};
        g_fibers[i].linear = unsigned(i);
    }
    g_first_order.resize(n);
    for (size_t i = 0; i < n; i++)
        g_first_order[i] = &g_fibers[reverse ? n - 1 - i : i];
}

uint3 block_index(unsigned long long linear, dim3 grid)
{
    return uint3{unsigned(linear % grid.x), unsigned(linear / grid.x % grid.y),
                 unsigned(linear / (1ull * grid.x * grid.y))};
}

} // namespace

void run_grid(const grid_job &job)
{
    g_job = &job;
    bool reverse = job.order.order == schedule_order::reverse;
    prepare_fibers(job.block, reverse);
    g_fp_control = fiber_current_fp_control();
    __cugrade_blockDim = job.block;
    __cugrade_gridDim = job.grid;
    unsigned long long blocks = 1ull * job.grid.x * job.grid.y * job.grid.z;
    for (unsigned long long k = 0; k < blocks; k++) {
        __cugrade_blockIdx = block_index(reverse ? blocks - 1 - k : k, job.grid);
        poison_shared(job.shmem);
        run_block();
    }
    g_counters.blocks += blocks;
    g_counters.threads += blocks * g_fibers.size();
    __cugrade_threadIdx = uint3{0, 0, 0};
    __cugrade_blockIdx = uint3{0, 0, 0};
    g_job = nullptr;
}

bool running_thread(const launch_site **site, uint3 *block, uint3 *thread)
{
    if (!g_job || !g_block.running)
        return false;
    *site = g_job->site;
    *block = __cugrade_blockIdx;
    *thread = __cugrade_threadIdx;
    return true;
}

run_counters scheduler_counters() { return g_counters; }

} // namespace cugrade::emu

using namespace cugrade::emu;

/* Entered (through cugrade_fiber_start) by each fiber's first switch. */
extern "C" void cugrade_fiber_main()
{
    g_job->invoke(g_job->call);
    if (g_pipeline_used)
        pipeline_thread_exit(); /* its asynchronous copies land at the latest now */
    fiber *self = g_block.order[g_block.pos];
    self->done = true;
    g_block.exited++;
    switch_to_next(self);
    __builtin_unreachable();
}

extern "C" void __cugrade_syncthreads(const char *file, int line)
{
    if (g_block.running)
        arrive_at_barrier(0, file, line);
}

extern "C" int __cugrade_syncthreads_reduce(int predicate, int op, const char *file, int line)
{
    if (!g_block.running)
        return predicate;
    arrive_at_barrier(predicate, file, line);
    if (op == 1)
        return g_block.last_pred_count == g_block.last_arrived;
    if (op == 2)
        return g_block.last_pred_count > 0;
    return g_block.last_pred_count;
}
