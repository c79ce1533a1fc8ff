/* test_ptx_checks.cpp - what the executor finds and refuses: a store past
 * an array (each thread that made one, with its block and source line, and
 * nothing written outside), a barrier some threads returned before, a loop
 * that never ends (stopped at the instruction budget, at the same count each
 * time), lanes that branch three ways and meet again, shared-memory races
 * (lab 3 without either of its barriers; none in the reference), reads of
 * what was never written (a tile element a thread skipped, device memory
 * no one wrote; nothing in the reference), the traffic (lab 3's tiles load
 * a sixteenth of lab 2's bytes, coalesced and free of bank conflicts; lab
 * 3 with its thread mapping transposed touches 4 times the sectors and
 * conflicts 8 ways), integer
 * edge cases a real GPU defines (division by zero, INT_MIN / -1), launches a GPU refuses,
 * and PTX that is malformed or cut anywhere: an error naming the line,
 * never a crash. */
#include "ptx_test_helpers.h"

#include <atomic>
#include <climits>
#include <thread>

/* A store just past an array lands in its red zone: a finding, as on a
 * GPU no fault (it writes memory the allocator rounded up to); one far from
 * every array faults (PTX_ERR_ADDRESS, cudaErrorIllegalAddress). */
Test(ptx_checks, a_store_past_the_array_is_found_with_its_thread_and_line)
{
    ptx_device_t *d = device_with("oob_store");
    std::string name = mangled(ptx_text("oob_store"), "storeIndex");
    const int n = 40;
    uint64_t out = ptx_malloc(d, n * sizeof(int)), next = ptx_malloc(d, 64 * sizeof(int));
    cr_assert_eq(ptx_memset(d, next, 0, 64 * sizeof(int)), PTX_OK);
    int count = n;
    void *args[] = {&out, &count};
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {2, 1, 1}, {32, 1, 1}, 0, args, 0, &r), PTX_OK);
    cr_assert_eq(r.nfindings, 24u, "threads 40..63 store outside: %u findings", r.nfindings);
    cr_assert_eq(r.naddress, 24u);
    cr_assert_eq(r.nfault, 0u, "all of them in the red zone");
    const ptx_finding_t &f = r.findings[0];
    cr_assert(f.near);
    cr_assert_eq(f.array, out);
    cr_assert_eq(f.offset, 40 * (int64_t)sizeof(int), "element 40 of a 40-element array");
    cr_assert_eq(f.kind, PTX_FIND_GLOBAL_OOB);
    cr_assert(f.is_store);
    cr_assert_eq(f.block.x, 1u);
    cr_assert_eq(f.thread.x, 8u, "thread 8 of block 1 is i = 40");
    cr_assert_eq(f.line, 7u, "the store's line in oob_store.cu");
    cr_assert_eq(f.address, out + 40 * sizeof(int));
    std::vector<int> got(n), after(64);
    cr_assert_eq(ptx_copy_from_device(d, got.data(), out, n * sizeof(int)), PTX_OK);
    for (int i = 0; i < n; i++)
        cr_assert_eq(got[i], i);
    cr_assert_eq(ptx_copy_from_device(d, after.data(), next, 64 * sizeof(int)), PTX_OK);
    for (int v : after)
        cr_assert_eq(v, 0, "a store outside its array reached the next allocation");
    uint64_t far = out + (256ull << 20); /* in no array's red zone */
    void *far_args[] = {&far, &count};
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {32, 1, 1}, 0, far_args, 0, &r), PTX_ERR_ADDRESS);
    cr_assert_eq(r.nfault, 32u);
    cr_assert(!r.findings[0].near);
    ptx_device_free(d);
}

/* A shared address in a 32-bit register that nvcc built with a negative
 * offset folded in (tile - 4) and adds back in the load ([r + 4]) wraps at
 * 2^32, as on a GPU: no out-of-bounds finding, the guarded neighbour sums
 * right (a tile-8 convolution without its halo was failed memory-safe at
 * "byte offset 4294967296") */
Test(ptx_checks, a_shared_address_that_wraps_at_two_to_the_32_is_no_finding)
{
    ptx_device_t *d = device_with("shared_wrap");
    std::string name = mangled(ptx_text("shared_wrap"), "neighbourSum");
    std::vector<float> ones(64, 1.0f), got(64);
    uint64_t in = ptx_malloc(d, 64 * sizeof(float)), out = ptx_malloc(d, 64 * sizeof(float));
    cr_assert_eq(ptx_copy_to_device(d, in, ones.data(), 64 * sizeof(float)), PTX_OK);
    int r = 2;
    void *args[] = {&in, &out, &r};
    ptx_launch_result_t res;
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {8, 8, 1}, 0, args, 0, &res), PTX_OK);
    cr_assert_eq(res.nfindings, 0u, "%u findings, the first at offset %lld", res.nfindings,
                 res.nfindings ? (long long)res.findings[0].offset : 0LL);
    cr_assert_eq(ptx_copy_from_device(d, got.data(), out, 64 * sizeof(float)), PTX_OK);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) { /* the cells within 2 of (y, x) inside the tile */
            int rows = (y + 2 < 7 ? y + 2 : 7) - (y - 2 > 0 ? y - 2 : 0) + 1;
            int cols = (x + 2 < 7 ? x + 2 : 7) - (x - 2 > 0 ? x - 2 : 0) + 1;
            cr_assert_float_eq(got[y * 8 + x], (float)(rows * cols), 0, "(%d, %d)", y, x);
        }
    ptx_device_free(d);
}

Test(ptx_checks, a_barrier_some_threads_returned_before_is_a_finding)
{
    ptx_device_t *d = device_with("control");
    std::string name = mangled(ptx_text("control"), "earlyReturn");
    uint64_t out = ptx_malloc(d, 64 * sizeof(float));
    int n = 20;
    void *args[] = {&out, &n};
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {64, 1, 1}, 0, args, 0, &r), PTX_ERR_BARRIER);
    cr_assert_eq(r.nbarrier, 1u);
    cr_assert_eq(r.findings[0].kind, PTX_FIND_BARRIER);
    cr_assert_eq(r.findings[0].line, 25u, "the __syncthreads() of control.cu");
    cr_assert_geq(r.findings[0].thread.x, 20u, "a thread that returned");
    std::vector<float> got = from_device(d, out, 20);
    for (int i = 0; i < 20; i++)
        cr_assert_eq(got[i], (float)(n - 1 - i), "out[%d] = %g", i, got[i]);
    n = 64; /* every thread reaches it: nothing to find */
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {64, 1, 1}, 0, args, 0, &r), PTX_OK, "%s", r.message);
    cr_assert_eq(r.nfindings, 0u);
    ptx_device_free(d);
}

Test(ptx_checks, an_endless_loop_stops_at_the_budget_with_the_same_count)
{
    ptx_device_t *d = device_with("control");
    std::string name = mangled(ptx_text("control"), "spin");
    uint64_t flag = ptx_malloc(d, sizeof(int));
    cr_assert_eq(ptx_memset(d, flag, 0, sizeof(int)), PTX_OK);
    void *args[] = {&flag};
    ptx_launch_result_t r1, r2;
    cr_assert_eq(ptx_launch(d, name.c_str(), {4, 1, 1}, {64, 1, 1}, 0, args, 100000, &r1), PTX_ERR_BUDGET);
    cr_assert_eq(ptx_launch(d, name.c_str(), {4, 1, 1}, {64, 1, 1}, 0, args, 100000, &r2), PTX_ERR_BUDGET);
    cr_assert_gt(r1.instructions, 100000u);
    cr_assert_lt(r1.instructions, 100000u + 64u, "stopped within a warp instruction of the budget");
    cr_assert_eq(r1.instructions, r2.instructions);
    cr_assert(strstr(r1.message, "budget of 100000 instructions"), "%s", r1.message);
    ptx_device_free(d);
}

/* spin's launch stopped at a budget, with busy threads beside it or not. */
static ptx_launch_result_t spin_with_load(int busy_threads)
{
    std::atomic<bool> stop{false};
    std::vector<std::thread> busy;
    for (int i = 0; i < busy_threads; i++)
        busy.emplace_back([&stop] {
            volatile unsigned long x = 0;
            while (!stop.load(std::memory_order_relaxed))
                x = x * 6364136223846793005ul + 1;
        });
    ptx_device_t *d = device_with("control");
    std::string name = mangled(ptx_text("control"), "spin");
    uint64_t flag = ptx_malloc(d, sizeof(int));
    cr_assert_eq(ptx_memset(d, flag, 0, sizeof(int)), PTX_OK);
    void *args[] = {&flag};
    ptx_launch_result_t r;
    ptx_launch(d, name.c_str(), {8, 1, 1}, {256, 1, 1}, 0, args, 3000000, &r);
    ptx_device_free(d);
    stop = true;
    for (std::thread &t : busy)
        t.join();
    return r;
}

Test(ptx_checks, the_budget_is_the_same_on_a_loaded_machine)
{
    /* a limit in instructions, not seconds: four busy threads (twice this
     * machine's cores) change nothing of where and how the launch stopped */
    ptx_launch_result_t idle = spin_with_load(0), loaded = spin_with_load(4);
    cr_assert_eq(idle.status, PTX_ERR_BUDGET);
    cr_assert_eq(loaded.status, idle.status);
    cr_assert_eq(loaded.instructions, idle.instructions);
    cr_assert_eq(loaded.warp_instructions, idle.warp_instructions);
    cr_assert_str_eq(loaded.message, idle.message);
}

Test(ptx_checks, lanes_that_branch_apart_meet_again)
{
    ptx_device_t *d = device_with("control");
    std::string name = mangled(ptx_text("control"), "diverge");
    uint64_t out = ptx_malloc(d, 96 * sizeof(int));
    int n = 1000;
    void *args[] = {&out, &n};
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {96, 1, 1}, 0, args, 0, &r), PTX_OK, "%s", r.message);
    std::vector<int> got(96);
    cr_assert_eq(ptx_copy_from_device(d, got.data(), out, sizeof(int) * 96), PTX_OK);
    for (int i = 0; i < 96; i++) {
        int want = (i % 3 == 0 ? i * 10 : i % 3 == 1 ? -i : i) + n;
        cr_assert_eq(got[i], want, "lane %d: %d, want %d", i, got[i], want);
    }
    ptx_device_free(d);
}

Test(ptx_checks, a_warp_is_issued_once_where_its_paths_have_met)
{
    ptx_device_t *d = device_with("control");
    std::string name = mangled(ptx_text("control"), "halfThenTail");
    uint64_t out = ptx_malloc(d, 32 * sizeof(float));
    void *args[] = {&out};
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {32, 1, 1}, 0, args, 0, &r), PTX_OK, "%s", r.message);
    /* the 64 steps after the if are issued once for the 32 lanes, not once a path
     * (the loop itself: 31 iterations at most, a few instructions each) */
    cr_assert_lt(r.warp_instructions, 64u + 31u * 8u + 40u, "%llu warp instructions",
                 (unsigned long long)r.warp_instructions);
    std::vector<float> got = from_device(d, out, 32);
    for (int i = 0; i < 32; i++) {
        float v = (float)i;
        for (int k = 0; k < i && (i & 1); k++)
            v = v * 0.75f + 1.0f;
        for (int k = 0; k < 64; k++)
            v = v * 0.5f + 1.0f;
        cr_assert_eq(got[i], v, "lane %d", i);
    }
    ptx_device_free(d);
}

/* A race check of a matmul kernel at 40x40x40 (3 phases): its races. */
static ptx_launch_result_t races_of(const char *ptx)
{
    ptx_device_t *d = device_with(ptx);
    ptx_set_checks(d, PTX_CHECK_RACES);
    ptx_launch_result_t r;
    Product p = launch_product(d, ptx, "matrixMultiplyShared", 40, 40, 40, r);
    cr_assert(p.status == PTX_OK || p.status == PTX_ERR_ADDRESS, "%s: %s", ptx, r.message);
    ptx_device_free(d);
    return r;
}

Test(ptx_checks, shared_memory_races_between_barriers)
{
    ptx_launch_result_t r = races_of("lab3");
    cr_assert_eq(r.nfindings, 0u, "the reference has no race (%u)", r.nrace);
    const char *missing[] = {"missing_first_barrier", "missing_second_barrier"};
    for (const char *m : missing) {
        r = races_of(m);
        cr_assert_gt(r.nrace, 0u, "%s: no race found", m);
        const ptx_finding_t &f = r.findings[0];
        cr_assert_eq(f.kind, PTX_FIND_RACE);
        cr_assert(f.line >= 40 && f.line <= 45, "%s: line %u, in the phase's loads and inner product", m, f.line);
        cr_assert(f.thread.x != f.other.x || f.thread.y != f.other.y, "two threads");
    }
}

Test(ptx_checks, reads_of_what_was_never_written)
{
    const char *kernels[] = {"lab3", "uninit_shared"};
    for (int i = 0; i < 2; i++) {
        ptx_device_t *d = device_with(kernels[i]);
        ptx_set_checks(d, PTX_CHECK_UNINIT);
        ptx_launch_result_t r;
        for (int shape = 0; shape < 2; shape++) { /* 64 x 64 x 64 is even: nothing skipped */
            int m = shape ? 37 : 64;
            Product p = launch_product(d, kernels[i], "matrixMultiplyShared", m, m, m, r);
            cr_assert_eq(p.status, PTX_OK, "%s: %s", kernels[i], r.message);
            bool want = i == 1 && shape == 1;
            cr_assert_eq(r.nuninit > 0, want, "%s at %d: %u uninitialised reads", kernels[i], m, r.nuninit);
            if (want) {
                cr_assert_eq(r.findings[0].kind, PTX_FIND_UNINIT);
                cr_assert_eq(r.findings[0].line, 46u, "the inner product's read of the tile");
            }
        }
        ptx_device_free(d);
    }
    ptx_device_t *d = device_with("control"); /* out += 1 on memory nothing wrote */
    ptx_set_checks(d, PTX_CHECK_UNINIT);
    std::string name = mangled(ptx_text("control"), "accumulate");
    uint64_t out = ptx_malloc(d, 16 * sizeof(float));
    int n = 16;
    void *args[] = {&out, &n};
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {16, 1, 1}, 0, args, 0, &r), PTX_OK, "%s", r.message);
    cr_assert_eq(r.nuninit, 1u, "one finding a line and block");
    cr_assert_eq(r.findings[0].line, 63u);
    cr_assert_eq(ptx_memset(d, out, 0, 16 * sizeof(float)), PTX_OK); /* written now: nothing to find */
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {16, 1, 1}, 0, args, 0, &r), PTX_OK, "%s", r.message);
    cr_assert_eq(r.nfindings, 0u);
    ptx_device_free(d);
}

static ptx_traffic_t traffic_of(const char *ptx, const char *kernel)
{
    ptx_device_t *d = device_with(ptx);
    ptx_set_checks(d, PTX_CHECK_TRAFFIC);
    ptx_launch_result_t r;
    Product p = launch_product(d, ptx, kernel, 64, 64, 64, r);
    cr_assert_eq(p.status, PTX_OK, "%s: %s", ptx, r.message);
    ptx_device_free(d);
    return r.traffic;
}

Test(ptx_checks, traffic_coalescing_and_bank_conflicts)
{
    ptx_traffic_t basic = traffic_of("lab2", "matrixMultiply"), tiled = traffic_of("lab3", "matrixMultiplyShared");
    ptx_traffic_t swapped = traffic_of("transposed_mapping", "matrixMultiplyShared");
    for (const ptx_traffic_t *t : {&basic, &tiled, &swapped})
        cr_assert_eq(t->flops, 2u * 64 * 64 * 64, "an fma a product term");
    cr_assert_eq(basic.global_load_bytes, 2u * 64 * 64 * 64 * 4, "lab 2: A's row and B's column, every thread");
    cr_assert_eq(tiled.global_load_bytes * 16, basic.global_load_bytes, "tiles of 16: a sixteenth");
    cr_assert_eq(tiled.global_load_sectors * 32, tiled.global_load_bytes, "coalesced");
    cr_assert_eq(tiled.global_store_sectors * 32, tiled.global_store_bytes);
    cr_assert_eq(tiled.shared_wavefronts, tiled.shared_requests, "no bank conflict");
    cr_assert_eq(basic.shared_load_bytes, 0u);
    cr_assert_eq(tiled.shared_load_bytes, 2u * 64 * 64 * 64 * 4, "a float of each tile a multiply-add");
    cr_assert_eq(tiled.shared_load_bytes, 4 * tiled.shared_loads);
    cr_assert_eq(swapped.global_load_bytes, tiled.global_load_bytes);
    cr_assert_geq(swapped.global_load_sectors, 4 * tiled.global_load_sectors, "%llu sectors",
                  (unsigned long long)swapped.global_load_sectors);
    cr_assert_geq(swapped.shared_wavefronts, 4 * swapped.shared_requests / 2, "bank conflicts: %llu of %llu",
                  (unsigned long long)swapped.shared_wavefronts, (unsigned long long)swapped.shared_requests);
}

/* intEdges(a, b): what a GPU gives, without the executor stopping. */
static void int_edges(int a, int b, int *out, unsigned *uout)
{
    ptx_device_t *d = device_with("control");
    std::string name = mangled(ptx_text("control"), "intEdges");
    uint64_t o = ptx_malloc(d, 6 * sizeof(int)), u = ptx_malloc(d, sizeof(unsigned));
    void *args[] = {&o, &u, &a, &b};
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {1, 1, 1}, 0, args, 0, &r), PTX_OK, "%s", r.message);
    cr_assert_eq(ptx_copy_from_device(d, out, o, 6 * sizeof(int)), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, uout, u, sizeof(unsigned)), PTX_OK);
    ptx_device_free(d);
}

Test(ptx_checks, integer_edge_cases)
{
    int out[6];
    unsigned u;
    int_edges(-7, 2, out, &u);
    cr_assert_eq(out[0], -3);
    cr_assert_eq(out[1], -1);
    cr_assert_eq(out[2], -1, "-7 >> 3 is arithmetic");
    cr_assert_eq(u, (unsigned)-7 / 2u);
    cr_assert_eq(out[3], -21);
    cr_assert_eq(out[4], -7);
    cr_assert_eq(out[5], -8, "trunc(-2.75 * 3)");
    int_edges(INT_MIN, -1, out, &u); /* the host would trap; the GPU gives INT_MIN and 0 */
    cr_assert_eq(out[0], INT_MIN);
    cr_assert_eq(out[1], 0);
    int_edges(5, 0, out, &u);
    cr_assert_eq(u, 0xffffffffu, "unsigned division by zero: all ones");
}

Test(ptx_checks, launches_a_gpu_refuses)
{
    ptx_device_t *d = device_with("oob_store");
    std::string name = mangled(ptx_text("oob_store"), "storeIndex");
    uint64_t out = ptx_malloc(d, 4);
    int n = 1;
    void *args[] = {&out, &n};
    ptx_launch_result_t r;
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {1025, 1, 1}, 0, args, 0, &r), PTX_ERR_CONFIG);
    cr_assert_eq(ptx_launch(d, name.c_str(), {0, 1, 1}, {32, 1, 1}, 0, args, 0, &r), PTX_ERR_CONFIG);
    cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {32, 1, 1}, 300 * 1024, args, 0, &r), PTX_ERR_CONFIG);
    cr_assert_eq(ptx_launch(d, "_Z7nothingv", {1, 1, 1}, {1, 1, 1}, 0, args, 0, &r), PTX_ERR_NO_KERNEL);
    char buf[8];
    cr_assert_eq(ptx_copy_from_device(d, buf, out, 8), PTX_ERR_INVALID, "8 bytes of a 4-byte allocation");
    cr_assert_eq(ptx_copy_to_device(d, out + 4 + 64, buf, 1), PTX_ERR_INVALID);
    cr_assert_eq(ptx_free(d, out + 1), PTX_ERR_INVALID);
    cr_assert_eq(ptx_free(d, out), PTX_OK);
    cr_assert_eq(ptx_copy_from_device(d, buf, out, 4), PTX_ERR_INVALID, "freed");
    cr_assert_eq(ptx_malloc(d, (size_t)2 << 30), 0u, "2 GiB in one allocation");
    ptx_device_free(d);
}

Test(ptx_checks, a_kernel_too_large_for_a_gpu_is_refused_before_it_runs)
{
    std::string good = ptx_text("lab3");
    const struct {
        const char *from, *to, *why;
    } cases[] = {
        {".reg .pred 	%p<12>;", ".reg .pred 	%p<12>;\n\t.local .align 4 .b8 big[1073741824];",
         "too much local memory for one thread"},
        {".reg .pred 	%p<12>;", ".reg .pred 	%p<12>;\n\t.reg .b64 	%huge<1000000>;",
         "too many registers for a block of this size"},
    };
    for (const auto &c : cases) {
        std::string text = good;
        size_t at = text.find(c.from);
        cr_assert_neq(at, std::string::npos);
        text.replace(at, strlen(c.from), c.to);
        ptx_device_t *d = ptx_device_new();
        char err[256] = "";
        cr_assert_eq(ptx_load(d, text.data(), text.size(), err, sizeof err), PTX_OK, "%s", err);
        ptx_launch_result_t r;
        Product p = launch_product(d, "lab3", "matrixMultiplyShared", 16, 16, 16, r);
        cr_assert_eq(p.status, PTX_ERR_CONFIG, "%s", c.why);
        cr_assert_str_eq(r.message, c.why);
        ptx_device_free(d);
    }
}

static std::string load_error(const std::string &text)
{
    ptx_device_t *d = ptx_device_new();
    char err[256] = "";
    ptx_status_t s = ptx_load(d, text.data(), text.size(), err, sizeof err);
    ptx_device_free(d);
    return s == PTX_OK ? "" : err;
}

Test(ptx_checks, malformed_ptx_is_an_error_naming_its_line)
{
    std::string good = ptx_text("lab3");
    cr_assert_eq(load_error(good), "");
    std::string bad = good;
    size_t at = bad.find("fma.rn.f32");
    bad.replace(at, 10, "fma.rn.q32");
    int line = 1;
    for (size_t i = 0; i < at; i++)
        line += bad[i] == '\n';
    std::string err = load_error(bad);
    cr_assert(err.find("line " + std::to_string(line) + ":") == 0, "%s (line %d)", err.c_str(), line);
    bad = good;
    bad.replace(bad.find("bar.sync"), 8, "tex.2d.v4");
    cr_assert(load_error(bad).find("is not supported by the executor") != std::string::npos, "%s",
              load_error(bad).c_str());
    bad = good;
    at = bad.find("$L__BB0_2;");
    bad.replace(at, 9, "$L__BB0_99");
    cr_assert(load_error(bad).find("undefined label '$L__BB0_99'") != std::string::npos, "%s",
              load_error(bad).c_str());
}

Test(ptx_checks, ptx_cut_anywhere_never_crashes_the_parser)
{
    std::string text = ptx_text("lab3");
    int errors = 0;
    for (size_t len = 0; len < text.size(); len += 7)
        errors += load_error(text.substr(0, len)) != "";
    cr_assert_gt(errors, 0);
}

/* ptx_set_read_tracking: an input's words no kernel loaded, counted on the
 * fast paths and the general one alike. Lab 2's kernel on a 16 x 20 x 20
 * product with one block of 16 x 16 threads never reaches columns 16..19 of
 * C, so it never reads those columns of B (4 of each of its 20 rows); A is
 * read whole. The output, which no host wrote, is no input. */
Test(ptx_checks, the_words_of_an_input_no_kernel_read)
{
    for (int fast = 0; fast <= 1; fast++) {
        ptx_device_t *d = device_with("lab2");
        ptx_set_fast_paths(d, fast);
        ptx_set_read_tracking(d, 1);
        std::vector<float> a = random_floats(16 * 20, 1), b = random_floats(20 * 20, 2);
        uint64_t da = to_device(d, a), db = to_device(d, b), dc = ptx_malloc(d, 16 * 20 * sizeof(float));
        int m = 16, k = 20, n = 20;
        void *args[] = {&da, &db, &dc, &m, &k, &k, &n, &m, &n};
        ptx_launch_result_t r;
        std::string name = mangled(ptx_text("lab2"), "matrixMultiply");
        cr_assert_eq(ptx_launch(d, name.c_str(), {1, 1, 1}, {16, 16, 1}, 0, args, 0, &r), PTX_OK, "%s", r.message);
        uint64_t count = 0, first = 0;
        cr_assert_eq(ptx_unread(d, da, a.size() * sizeof(float), &count, &first), PTX_OK);
        cr_assert_eq(count, 0u, "A read whole (fast paths %d)", fast);
        cr_assert_eq(ptx_unread(d, db, b.size() * sizeof(float), &count, &first), PTX_OK);
        cr_assert_eq(count, 20u * 4, "B's columns 16..19 (fast paths %d)", fast);
        cr_assert_eq(first, 16u, "row 0, column 16");
        cr_assert_eq(ptx_unread(d, dc, 16 * 20 * sizeof(float), &count, &first), PTX_OK);
        cr_assert_eq(count, 0u, "C: written by the kernel or nobody, no host");
        ptx_set_read_tracking(d, 0);
        uint64_t later = to_device(d, a);
        cr_assert_eq(ptx_unread(d, later, 4, &count, &first), PTX_ERR_INVALID, "made without tracking");
        ptx_device_free(d);
    }
}
