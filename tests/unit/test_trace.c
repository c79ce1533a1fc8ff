/* test_trace.c - launch records (replay/trace.h): what is read, what is
 * refused with its file and line, and replay_run (replay/replay.h) doing a
 * record on a pretend device: pointers made the device's own, allocations
 * poisoned and freed, the output captured where the record says. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matbin.h"
#include "replay/replay.h"
#include "replay/trace.h"
#include "test_files.h"

static char dir[64];
static char path[128];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-trace-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/r.trace", dir);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(trace, .init = setup, .fini = teardown);

/* A kernel "twice" of (float *in, float *out, int n) on a 1-block grid. */
static const char *TWICE =
    "cugrade-trace 1\n"
    "alloc 1 16\n"
    "load 1 0 0 16\n"
    "alloc 2 16\n"
    "launch twice 1 1 1 4 1 1 0 3\n"
    "arg 8 0000010000000000 0=1+0\n"
    "arg 8 0000020000000000 0=2+0\n"
    "arg 4 04000000\n"
    "output 2 0 2 2 matrix\n"
    "free 1\n"
    "free 2\n"
    "end\n";

static void expect_error(const char *text, uint64_t blob, const char *message)
{
    write_text(path, text, 0);
    trace_t t;
    char err[512] = "";
    cr_assert_eq(trace_read(path, blob, &t, err, sizeof err), -1, "accepted:\n%s", text);
    char want[600];
    snprintf(want, sizeof want, "%s:%s", path, message);
    cr_assert_str_eq(err, want);
    cr_assert_null(t.ops);
}

Test(trace, a_record_is_read_with_its_pointers_and_output)
{
    write_text(path, TWICE, 0);
    trace_t t;
    char err[512] = "";
    cr_assert_eq(trace_read(path, 0, &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(t.nops, 6);
    cr_assert_eq(t.max_id, 2u);
    cr_assert_eq(t.ninputs, 1);
    const trace_op_t *l = &t.ops[3];
    cr_assert_eq(l->kind, TRACE_LAUNCH);
    cr_assert_str_eq(l->kernel, "twice");
    cr_assert_eq(l->block[0], 4u);
    cr_assert_eq(l->nargs, 3);
    cr_assert_eq(l->args[1].nrelocs, 1);
    cr_assert_eq(l->args[1].relocs[0].id, 2u);
    cr_assert_eq(l->args[2].size, 4u);
    cr_assert_eq(l->args[2].bytes[0], 4);
    cr_assert(t.output.present && !t.output.from_reads);
    cr_assert_eq(t.output.op, 4, "captured before the frees");
    cr_assert_eq(trace_output_bytes(&t), 16u);
    trace_free(&t);
}

Test(trace, broken_records_are_refused_with_their_line)
{
    expect_error("cugrade-trace 2\n", 0, "1: not a launch record (\"cugrade-trace 1\" expected)");
    expect_error("cugrade-trace 1\nalloc 1 16\noutput 1 0 2 2 matrix\n", 0,
                 "3: the file ends before its \"end\" line: cut short");
    expect_error("cugrade-trace 1\nalloc 1 16\nfree 2\nend\n", 0, "3: free names allocation 2, which is not allocated");
    expect_error("cugrade-trace 1\nalloc 1 16\nfree 1\nmemset 1 0 0 4\nend\n", 0,
                 "4: memset names allocation 1, which is not allocated");
    expect_error("cugrade-trace 1\nalloc 1 16\ncopy 1 8 12 0\nend\n", 100,
                 "3: copy: 12 bytes at offset 8 lie outside allocation 1 (16 bytes)");
    expect_error("cugrade-trace 1\nalloc 1 16\ncopy 1 0 16 90\nend\n", 100,
                 "3: copy: bytes 90..106 lie outside the byte file (100 bytes)");
    expect_error("cugrade-trace 1\nalloc 1 16\nalloc 1 16\nend\n", 0, "3: alloc: allocation 1 is not the next number");
    expect_error("cugrade-trace 1\nalloc 1 16\nlaunch k 1 1 1 1 1 1 0 1\narg 8 0000000000000000 4=1+0\nend\n", 0,
                 "4: arg: a pointer (AT=ID+OFFSET, AT a multiple of 8 inside the argument) expected");
    expect_error("cugrade-trace 1\nalloc 1 16\nlaunch k 1 1 1 1 1 1 0 1\narg 4 00000000 0=1+0\nend\n", 0,
                 "4: arg: a pointer (AT=ID+OFFSET, AT a multiple of 8 inside the argument) expected");
    expect_error("cugrade-trace 1\nalloc 1 16\nlaunch k 1 1 1 1 1 1 0 2\narg 4 00000000\nend\n", 0,
                 "5: a launch's argument line (arg SIZE HEX ...) expected");
    expect_error("cugrade-trace 1\nlaunch k;rm 1 1 1 1 1 1 0 0\nend\n", 0, "2: launch: a kernel's (mangled) name expected");
    expect_error("cugrade-trace 1\nlaunch k 0 1 1 1 1 1 0 0\nend\n", 0, "2: launch: a grid or block dimension of 0");
    expect_error("cugrade-trace 1\nalloc 1 16\nread 1 0 8\noutput-read 0 1 2 2 matrix\nend\n", 0,
                 "4: output-read: the reads hold 8 bytes, not the 16 of 2 x 2 floats");
    expect_error("cugrade-trace 1\nalloc 1 16\noutput 1 0 2 2 matrix\noutput 1 0 2 2 matrix\nend\n", 0,
                 "4: a second output");
    expect_error("cugrade-trace 1\nalloc 1 16\nend\n", 0, "3: no output line");
    expect_error("cugrade-trace 1\nalloc 1 16\noutput 1 0 2 2 matrix\nend\nfree 1\n", 0, "5: a line after \"end\"");
    expect_error("cugrade-trace 1\nfly 1\nend\n", 0, "2: unknown step 'fly'");
}

/* ---- a pretend device: memory in a table, addresses far from the record's ---- */

typedef struct {
    uint8_t *mem[8];
    uint64_t size[8];
    int live, launches, fail_launch;
    int skip_after;      /* > 0: from this launch on, the kernel does nothing (state kept between launches) */
    double ms_each;      /* the time of a run: ms_each times its number (1, 2, ...) */
    int runs;
} fake_t;

#define FAKE_BASE 0x5000000000ull
#define FAKE_STRIDE 0x100000ull

static uint8_t *at(fake_t *f, uint64_t addr)
{
    uint64_t i = (addr - FAKE_BASE) / FAKE_STRIDE;
    cr_assert(i < 8 && f->mem[i], "an address the device never gave: %llx", (unsigned long long)addr);
    return f->mem[i] + (addr - FAKE_BASE) % FAKE_STRIDE;
}

static int fake_alloc(void *self, uint64_t bytes, uint64_t *addr, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    fake_t *f = self;
    for (int i = 0; i < 8; i++)
        if (!f->mem[i]) {
            f->mem[i] = malloc(bytes), f->size[i] = bytes, f->live++;
            *addr = FAKE_BASE + (uint64_t)i * FAKE_STRIDE;
            return 0;
        }
    return -1;
}

static int fake_release(void *self, uint64_t addr, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    fake_t *f = self;
    uint64_t i = (addr - FAKE_BASE) / FAKE_STRIDE;
    free(f->mem[i]);
    f->mem[i] = NULL, f->live--;
    return 0;
}

static int fake_to(void *self, uint64_t addr, const void *src, uint64_t n, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    memcpy(at(self, addr), src, n);
    return 0;
}

static int fake_from(void *self, void *dst, uint64_t addr, uint64_t n, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    memcpy(dst, at(self, addr), n);
    return 0;
}

static int fake_fill(void *self, uint64_t addr, int value, uint64_t n, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    memset(at(self, addr), value, n);
    return 0;
}

/* "twice": out[i] = 2 * in[i], i < n, with the pointers it was given */
static int fake_launch(void *self, const trace_op_t *op, void **args, char *err, size_t errlen)
{
    fake_t *f = self;
    f->launches++;
    if (f->fail_launch) {
        snprintf(err, errlen, "an illegal address");
        return 1;
    }
    cr_assert_str_eq(op->kernel, "twice");
    if (f->skip_after > 0 && f->launches > f->skip_after)
        return 0;
    uint64_t in, out;
    int n;
    memcpy(&in, args[0], 8), memcpy(&out, args[1], 8), memcpy(&n, args[2], 4);
    const float *a = (const float *)at(f, in);
    float *c = (float *)at(f, out);
    for (int i = 0; i < n; i++)
        c[i] = 2 * a[i];
    return 0;
}

static double fake_ms(void *self)
{
    fake_t *f = self;
    return f->ms_each * ++f->runs;
}

/* the module's variables: memory of the device's own, never released */
static int fake_global(void *self, const char *name, uint64_t bytes, uint64_t *addr, char *err, size_t errlen)
{
    if (strcmp(name, "Mc") != 0)
        return snprintf(err, errlen, "no variable %s", name), -1;
    return fake_alloc(self, bytes, addr, err, errlen);
}

static const replay_device_t *fake_device(fake_t *f)
{
    static replay_device_t dev = {0,           fake_alloc,  fake_release, fake_to, fake_from,
                                  fake_fill,   fake_launch, fake_ms,      fake_global};
    memset(f, 0, sizeof *f);
    dev.self = f;
    return &dev;
}

static trace_t read_ok(const char *text, uint64_t blob)
{
    write_text(path, text, 0);
    trace_t t;
    char err[512] = "";
    cr_assert_eq(trace_read(path, blob, &t, err, sizeof err), 0, "%s", err);
    return t;
}

Test(trace, a_replay_runs_the_kernel_on_the_devices_own_addresses)
{
    const float in[4] = {1, 2, 3, 4};
    char ds[128];
    snprintf(ds, sizeof ds, "%s/input0.bin", dir);
    cr_assert_eq(matbin_write(ds, in, 2, 2, -1.0), 0);
    trace_t t = read_ok(TWICE, 0);
    fake_t f;
    const replay_device_t *dev = fake_device(&f);
    matrix_t out;
    char err[512] = "";
    cr_assert_eq(replay_run(&t, NULL, dir, dev, &out, err, sizeof err), 0, "%s", err);
    cr_assert_eq(out.rows, 2);
    cr_assert_eq(out.cols, 2);
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(out.data[i], 2 * in[i], 0, "C[%d]", i);
    cr_assert_eq(f.launches, 1);
    cr_assert_eq(f.live, 0, "everything freed");
    matrix_free(&out);

    cr_assert_eq(matbin_write(ds, in, 1, 2, -1.0), 0); /* another dataset's input */
    cr_assert_eq(replay_run(&t, NULL, dir, fake_device(&f), &out, err, sizeof err), 2);
    cr_assert_str_eq(err, "line 3: input 0 has 8 bytes where the record loaded 16: another dataset");
    cr_assert_eq(f.live, 0, "freed on failure too");
    trace_free(&t);
}

Test(trace, a_kernel_that_fails_on_replay_is_the_submissions_and_names_its_line)
{
    const float in[4] = {1, 2, 3, 4};
    char ds[128];
    snprintf(ds, sizeof ds, "%s/input0.bin", dir);
    cr_assert_eq(matbin_write(ds, in, 2, 2, -1.0), 0);
    trace_t t = read_ok(TWICE, 0);
    fake_t f;
    const replay_device_t *dev = fake_device(&f);
    f.fail_launch = 1;
    matrix_t out;
    char err[512] = "";
    cr_assert_eq(replay_run(&t, NULL, dir, dev, &out, err, sizeof err), 1);
    cr_assert_str_eq(err, "twice failed: an illegal address");
    cr_assert_null(out.data);
    trace_free(&t);
}

Test(trace, an_output_read_back_in_pieces_is_joined_and_new_memory_is_poisoned)
{
    /* a program's copies: in from the byte file; the kernel never runs on
     * the last element's allocation, so it reads back the poison */
    const float in[2] = {5, 6};
    char bytes[128];
    snprintf(bytes, sizeof bytes, "%s/r.trace.bytes", dir);
    FILE *b = fopen(bytes, "wb");
    cr_assert_not_null(b);
    fwrite(in, sizeof in, 1, b);
    fclose(b);
    trace_t t = read_ok("cugrade-trace 1\n"
                        "alloc 1 8\n"
                        "copy 1 0 8 0\n"
                        "alloc 2 12\n"
                        "launch twice 1 1 1 2 1 1 0 3\n"
                        "arg 8 0000010000000000 0=1+0\n"
                        "arg 8 0000020000000000 0=2+0\n"
                        "arg 4 02000000\n"
                        "read 2 0 4\n"
                        "read 2 4 8\n"
                        "output-read 0 2 1 3 vector\n"
                        "end\n",
                        8);
    fake_t f;
    matrix_t out;
    char err[512] = "";
    cr_assert_eq(replay_run(&t, (const uint8_t *)in, NULL, fake_device(&f), &out, err, sizeof err), 0, "%s", err);
    cr_assert_eq(out.vector, 1);
    cr_assert_float_eq(out.data[0], 10, 0);
    cr_assert_float_eq(out.data[1], 12, 0);
    cr_assert(matbin_is_poison(out.data[2]), "never written: 0xFF");
    cr_assert_eq(f.live, 0, "what the program never freed is freed");
    matrix_free(&out);
    trace_free(&t);
}

Test(trace, an_unreplayable_record_says_why)
{
    trace_t t = read_ok("cugrade-trace 1\nunreplayable argument 1 of k points at a module's variable\nend\n", 0);
    fake_t f;
    matrix_t out;
    char err[512] = "";
    cr_assert_eq(replay_run(&t, NULL, NULL, fake_device(&f), &out, err, sizeof err), 2);
    cr_assert_str_eq(err, "the record cannot be replayed: argument 1 of k points at a module's variable");
    trace_free(&t);
}

/* replay_time: the submission's record against the reference's, each
 * replayed fresh, interleaved; a kernel that stops working after its first
 * launches (a __device__ counter) is wrong in the replays that follow. */
static void write_input(void)
{
    const float in[4] = {1, 2, 3, 4};
    char ds[128];
    snprintf(ds, sizeof ds, "%s/input0.bin", dir);
    cr_assert_eq(matbin_write(ds, in, 2, 2, -1.0), 0);
}

Test(trace, a_record_is_timed_against_the_references_and_every_output_checked)
{
    write_input();
    trace_t t = read_ok(TWICE, 0);
    fake_t fs, fr;
    replay_device_t ds = *fake_device(&fs), dr = *fake_device(&fr);
    ds.self = &fs, dr.self = &fr;
    fs.ms_each = 1.0, fr.ms_each = 2.0;
    replay_side_t sides[2] = {{&t, NULL, dir, &ds, .who = "the submission's"}, {&t, NULL, dir, &dr, .who = "the reference's"}};
    replay_side_t *a = &sides[0];
    replay_times_t times[2], *ta = &times[0], *tb = &times[1];
    char err[512] = "";
    cr_assert_eq(replay_time(sides, 2, 5, REPLAY_COMPARE_ELEMENTS, 1e-3, 1e-3, times, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ta->reps, 5);
    cr_assert_eq(ta->wrong, 0);
    cr_assert_eq(ta->wrong_reps, 0);
    /* the warm-up is run 1; the timed runs 2..6: 2, 3, 4, 5, 6 ms */
    cr_assert_float_eq(ta->median_ms, 4.0, 1e-12);
    cr_assert_float_eq(ta->q1_ms, 3.0, 1e-12);
    cr_assert_float_eq(ta->mean_ms, 4.0, 1e-12);
    cr_assert_float_eq(tb->median_ms, 8.0, 1e-12, "the reference timed on its own device");
    cr_assert_eq(fs.runs, 6);
    cr_assert_eq(fr.runs, 6);
    cr_assert_eq(fs.live + fr.live, 0);

    replay_device_t dk = *fake_device(&fs);
    dk.self = &fs;
    fs.skip_after = 2; /* right on the first two launches, then nothing */
    a->dev = &dk;
    cr_assert_eq(replay_time(sides, 2, 5, REPLAY_COMPARE_ELEMENTS, 1e-3, 1e-3, times, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ta->wrong, 4, "the whole output left as the poison");
    cr_assert_eq(ta->wrong_reps, 4, "replays 3 to 6 of 6");
    fs.skip_after = 0, fs.runs = 0; /* right again: compared by their sums, which agree */
    cr_assert_eq(replay_time(sides, 2, 3, REPLAY_COMPARE_SUM, 1e-6, 0, times, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ta->wrong, 0);
    fs.skip_after = fs.launches + 1; /* the warm-up right, then nothing: its sums are NaN */
    cr_assert_eq(replay_time(sides, 2, 3, REPLAY_COMPARE_SUM, 1e-6, 0, times, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ta->wrong, 1, "one wrong sum");
    cr_assert_eq(ta->wrong_reps, 3);
    trace_free(&t);
}

/* A module's variable (a __constant__ array the program wrote with
 * cudaMemcpyToSymbol): the record's "global" line is the device's own
 * variable, written and read like an allocation, never freed; a device
 * without the variable, or a record that frees one, is refused */
Test(trace, a_modules_variable_is_the_devices_own)
{
    const float mask[4] = {0.5f, 0.25f, 2, 4};
    const char *text = "cugrade-trace 1\nglobal 1 16 Mc\ncopy 1 0 16 0\nread 1 0 16\n"
                       "output-read 0 1 2 2 matrix\nend\n";
    write_text(path, text, 0);
    trace_t t;
    char err[512] = "";
    cr_assert_eq(trace_read(path, sizeof mask, &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(t.ops[0].kind, TRACE_GLOBAL);
    cr_assert_str_eq(t.ops[0].kernel, "Mc");
    fake_t f;
    matrix_t out;
    cr_assert_eq(replay_run(&t, (const uint8_t *)mask, dir, fake_device(&f), &out, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(out.data[i], mask[i], 0);
    cr_assert_eq(f.live, 1, "the variable stays: the module's, not the record's to free");
    matrix_free(&out);
    trace_free(&t);
    write_text(path, "cugrade-trace 1\nglobal 1 16 Other\ncopy 1 0 16 0\nread 1 0 16\n"
                     "output-read 0 1 2 2 matrix\nend\n", 0);
    cr_assert_eq(trace_read(path, sizeof mask, &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(replay_run(&t, (const uint8_t *)mask, dir, fake_device(&f), &out, err, sizeof err), 2);
    cr_assert(strstr(err, "line 2: the module's variable Other: no variable Other"), "%s", err);
    trace_free(&t);
    expect_error("cugrade-trace 1\nglobal 1 16 a-b\nend\n", 0,
                 "2: global: a variable's name expected, and nothing after it");
    write_text(path, "cugrade-trace 1\nglobal 1 16 Mc\nfree 1\nalloc 2 16\noutput 2 0 2 2 matrix\nend\n", 0);
    cr_assert_eq(trace_read(path, 0, &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(replay_run(&t, NULL, dir, fake_device(&f), &out, err, sizeof err), 2);
    cr_assert(strstr(err, "line 3: a module's variable is never freed"), "%s", err);
    trace_free(&t);
}

/* An int array's input goes to the device as 32-bit ints ("load-int") and
 * an int output comes back as its values ("output ... int"), the poison's
 * bits kept as the poison */
Test(trace, int_arrays_go_as_ints_and_come_back_as_values)
{
    const float in[4] = {1, 2, 300, -4};
    char ds[128];
    snprintf(ds, sizeof ds, "%s/input0.bin", dir);
    cr_assert_eq(matbin_write(ds, in, 2, 2, -1.0), 0);
    write_text(path, "cugrade-trace 1\nalloc 1 16\nload-int 1 0 0 16\nread 1 0 16\noutput-read 0 1 2 2 matrix int\nend\n",
               0);
    trace_t t;
    char err[512] = "";
    cr_assert_eq(trace_read(path, 0, &t, err, sizeof err), 0, "%s", err);
    cr_assert(t.output.is_int && t.ops[1].value == 1);
    fake_t f;
    matrix_t out;
    cr_assert_eq(replay_run(&t, NULL, dir, fake_device(&f), &out, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(out.data[i], in[i], 0, "element %d", i);
    matrix_free(&out);
    trace_free(&t);
    write_text(path, "cugrade-trace 1\nalloc 1 16\nread 1 0 16\noutput-read 0 1 2 2 matrix int\nend\n", 0);
    cr_assert_eq(trace_read(path, 0, &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(replay_run(&t, NULL, dir, fake_device(&f), &out, err, sizeof err), 0, "%s", err);
    uint32_t poison;
    memcpy(&poison, &out.data[3], sizeof poison);
    cr_assert_eq(poison, 0xFFFFFFFFu, "never written stays the poison");
    matrix_free(&out);
    trace_free(&t);
    expect_error("cugrade-trace 1\nalloc 1 16\noutput 1 0 2 2 matrix float\nend\n", 0,
                 "3: output: ... ROWS COLS matrix|vector [int] expected");
}
