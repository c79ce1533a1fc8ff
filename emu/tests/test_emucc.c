/* test_emucc.c - tests of the emulator's compiler driver bin/emucc, its
 * --checks mode included. The driver is tested against a tiny stand-in
 * runtime written by the test (so it needs neither a GPU nor the real
 * runtime) and, once build/libcugrade_emu.a and emu/include/cuda_runtime.h
 * exist, end to end against the real one. */
#include "rewrite_test_helpers.h"

/* ---- emucc ------------------------------------------------------------------- */

static const char add_one_source[] =
    "#include \"increment.h\" // next to the .cu, found through emucc's -iquote\n"
    "__global__ void add_one(int *a, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) a[i] += INCREMENT;\n"
    "}\n"
    "int main()\n"
    "{\n"
    "    int a[64] = {0};\n"
    "    add_one<<<2,\n"
    "              32>>>(a, 64);\n"
    "    int sum = 0;\n"
    "    for (int i = 0; i < 64; i++) sum += a[i];\n"
    "    std::printf(\"sum=%d\\n\", sum);\n"
    "    return 0;\n"
    "}\n";

/* A syntax error on line 7. */
static const char bad_source[] = "#include <cstdio>\n\nint main()\n{\n    int a = 1;\n\n    int x = ;\n}\n";

/* bin/emucc of this tree, or skips the test if it is not built. */
static char *emucc_path(void)
{
    char *root = repo_root();
    char *path = strf("%s/bin/emucc", root);
    free(root);
    if (access(path, X_OK) != 0)
        cr_skip_test("bin/emucc is not built");
    return path;
}

/* A stand-in runtime under dir/root: the stub header and an empty archive. */
static void make_stub_root(const char *dir)
{
    char out[256];
    char *cmd = strf("mkdir -p '%s/root/emu/include' '%s/root/build'", dir, dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 0, "%s", out);
    char *header = strf("%s/root/emu/include/cugrade_emu.h", dir), *lib = strf("%s/root/build/libcugrade_emu.a", dir);
    write_text(header, stub_runtime_header);
    write_text(lib, "!<arch>\n");
    free(cmd);
    free(header);
    free(lib);
}

/* dir/add.cu (add_one_source) and its header; returns the .cu's path. */
static char *write_add_one(const char *dir)
{
    char *src = strf("%s/add.cu", dir), *header = strf("%s/increment.h", dir);
    write_text(src, add_one_source);
    write_text(header, "#define INCREMENT 1\n");
    free(header);
    return src;
}

Test(emucc, builds_and_runs_with_stub_runtime)
{
    char out[8192];
    char *emucc = emucc_path(), *dir = make_temp_dir();
    make_stub_root(dir);
    char *src = write_add_one(dir);
    char *cmd = strf("CUGRADE_ROOT='%s/root' '%s' -O1 '%s' -o '%s/add' && '%s/add'", dir, emucc, src, dir, dir);
    int rc = run_shell(cmd, out, sizeof out);
    char *expected = strf("params add_one(a,n)\nlaunch add_one %s:10\nsum=64\n", src);
    remove_dir(dir);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_str_eq(out, expected);
}

Test(emucc, compile_error_names_student_file_and_line)
{
    char out[8192];
    char *emucc = emucc_path(), *dir = make_temp_dir();
    make_stub_root(dir);
    char *src = strf("%s/bad.cu", dir);
    write_text(src, bad_source);
    char *cmd = strf("CUGRADE_ROOT='%s/root' '%s' '%s' -o '%s/bad'", dir, emucc, src, dir);
    int rc = run_shell(cmd, out, sizeof out);
    char *needle = strf("%s:7:", src);
    remove_dir(dir);
    cr_assert_neq(rc, 0);
    cr_assert(strstr(out, needle), "no %s in:\n%s", needle, out);
}

Test(emucc, malformed_launch_is_reported_and_fails)
{
    char out[8192];
    char *emucc = emucc_path(), *dir = make_temp_dir();
    make_stub_root(dir);
    char *src = strf("%s/m.cu", dir);
    write_text(src, "void k();\n\nvoid f() { k<<<1, 1>>>; }\n");
    char *cmd = strf("cd '%s' && CUGRADE_ROOT='%s/root' '%s' -c m.cu", dir, dir, emucc);
    int rc = run_shell(cmd, out, sizeof out);
    remove_dir(dir);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert_str_eq(out, "m.cu:3: malformed kernel launch\n");
}

/* ---- --checks ---------------------------------------------------------------- */

/* The first line of text that contains every one of the NULL-terminated
 * needles, as a new string; NULL if none does. */
static char *line_with(const char *text, ...)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        char *copy = strndup(line, len);
        bool all = true;
        va_list ap;
        va_start(ap, text);
        for (const char *needle; all && (needle = va_arg(ap, const char *));)
            all = strstr(copy, needle) != NULL;
        va_end(ap);
        if (all)
            return copy;
        free(copy);
        line += len + (line[len] == '\n');
    }
    return NULL;
}

/* ---- the precompiled header (emucc_pch.h) --------------------------------------- */

/* Runs `emucc ARGS` with the stub root (and ENV before it); its output. */
static int emucc_with(const char *dir, const char *env, const char *args, char *out, size_t outlen)
{
    char *emucc = emucc_path();
    char *cmd = strf("%s CUGRADE_ROOT='%s/root' '%s' %s", env, dir, emucc, args);
    int rc = run_shell(cmd, out, outlen);
    free(cmd);
    free(emucc);
    return rc;
}

/* The stub root with its header precompiled by `emucc --pch`. */
static void make_pch_root(const char *dir)
{
    char out[8192];
    make_stub_root(dir);
    cr_assert_eq(emucc_with(dir, "", "--pch", out, sizeof out), 0, "%s", out);
}

/* Compiles add.cu with -v and FLAGS into dir/NAME.o (the rewritten source
 * always in dir/keep, so that two objects can be compared); whether the
 * compile force-included the precompiled header. */
static int compile_used_pch(const char *dir, const char *env, const char *flags, const char *name)
{
    char out[8192];
    char *args = strf("-v -c %s --keep '%s/keep' '%s/add.cu' -o '%s/%s.o'", flags, dir, dir, dir, name);
    int rc = emucc_with(dir, env, args, out, sizeof out);
    free(args);
    cr_assert_eq(rc, 0, "%s", out);
    char *pch = strf("-include %s/root/build/emu-pch/", dir);
    int used = strstr(out, pch) != NULL;
    cr_assert(used || strstr(out, "-include cugrade_emu.h"), "%s", out);
    free(pch);
    return used;
}

static int same_files(const char *a, const char *b)
{
    char out[256];
    char *cmd = strf("cmp '%s' '%s'", a, b);
    int rc = run_shell(cmd, out, sizeof out);
    free(cmd);
    return rc == 0;
}

Test(pch, serves_both_modes_and_builds_the_same_object_as_the_header)
{
    char *dir = make_temp_dir();
    make_pch_root(dir);
    free(write_add_one(dir));
    const char *modes[] = {"", "--checks"};
    for (int m = 0; m < 2; m++) {
        cr_expect(compile_used_pch(dir, "", modes[m], "with"), "mode '%s': no pch", modes[m]);
        cr_expect(!compile_used_pch(dir, "CUGRADE_EMU_PCH=off", modes[m], "without"));
        char *a = strf("%s/with.o", dir), *b = strf("%s/without.o", dir);
        cr_expect(same_files(a, b), "mode '%s': the objects differ", modes[m]);
        free(a);
        free(b);
    }
    remove_dir(dir);
}

/* A flag that could change what the header means, a header newer than the
 * .gch, another compiler: the header itself. -I and warnings keep it. */
Test(pch, not_used_when_it_might_not_be_the_header)
{
    char *dir = make_temp_dir();
    make_pch_root(dir);
    free(write_add_one(dir));
    cr_expect(compile_used_pch(dir, "", "-Wall -I/tmp", "a"));
    cr_expect(!compile_used_pch(dir, "", "-DINCREMENT_TWICE=1", "b"));
    cr_expect(!compile_used_pch(dir, "", "-O0", "c"));
    cr_expect(!compile_used_pch(dir, "", "-Wp,-DX=1", "d"));
    cr_expect(!compile_used_pch(dir, "CUGRADE_CXX=g++", "", "e"));
    char out[256];
    char *touch = strf("touch -d '+1 minute' '%s/root/emu/include/cugrade_emu.h'", dir);
    cr_assert_eq(run_shell(touch, out, sizeof out), 0, "%s", out);
    free(touch);
    cr_expect(!compile_used_pch(dir, "", "", "f"), "a stale .gch was used");
    remove_dir(dir);
}

/* A .gch that g++ rejects (here, not a precompiled header at all): the file
 * beside it includes the header, and the compile succeeds. */
Test(pch, a_gch_that_gcc_rejects_falls_back_to_the_header)
{
    char *dir = make_temp_dir();
    make_pch_root(dir);
    free(write_add_one(dir));
    char *gch = strf("%s/root/build/emu-pch/plain/cugrade_emu.h.gch", dir);
    write_text(gch, "not a precompiled header\n");
    free(gch);
    cr_expect(compile_used_pch(dir, "", "", "x"), "the .gch looked fresh");
    char out[8192];
    char *args = strf("'%s/add.cu' -o '%s/add' && '%s/add'", dir, dir, dir);
    int rc = emucc_with(dir, "", args, out, sizeof out);
    free(args);
    remove_dir(dir);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "sum=64"), "%s", out);
}

Test(pch, only_for_gpp)
{
    char *dir = make_temp_dir();
    make_stub_root(dir);
    char out[8192];
    int rc = emucc_with(dir, "CUGRADE_CXX=clang++", "--pch", out, sizeof out);
    remove_dir(dir);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, "precompiled for g++ only (CUGRADE_CXX=clang++)"), "%s", out);
}

/* Turns dir/root/build/libcugrade_emu.a into an archive that defines every
 * __tsan_* function an instrumented add.cu calls, as empty functions (the
 * real runtime's hooks.cpp defines them for real). */
static void make_stub_hooks(const char *dir, const char *emucc)
{
    char out[8192];
    char *cmd = strf("cd '%s' && CUGRADE_ROOT=\"$PWD/root\" '%s' --checks -c add.cu -o probe.o && "
                     "nm -u probe.o | awk '/__tsan_/ { print \"void \" $2 \"(void) {}\" }' > hooks.c && "
                     "grep -q __tsan_read4 hooks.c && grep -q __tsan_write4 hooks.c && "
                     "gcc -c hooks.c -o hooks.o && rm -f root/build/libcugrade_emu.a && "
                     "ar rcs root/build/libcugrade_emu.a hooks.o",
                     dir, emucc);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 0, "%s", out);
    free(cmd);
}

Test(checks, instruments_cu_files_and_links_without_libtsan)
{
    char log[8192], out[8192];
    char *emucc = emucc_path(), *dir = make_temp_dir();
    make_stub_root(dir);
    char *src = write_add_one(dir);
    make_stub_hooks(dir, emucc);
    char *build = strf("CUGRADE_ROOT='%s/root' '%s' -v --checks -O3 '%s' -o '%s/add'", dir, emucc, src, dir);
    int build_rc = run_shell(build, log, sizeof log);
    char *run = strf("'%s/add' && ! readelf -d '%s/add' | grep libtsan", dir, dir);
    int run_rc = run_shell(run, out, sizeof out);
    remove_dir(dir);
    cr_assert_eq(build_rc, 0, "%s", log);
    char *compile = line_with(log, " -c ", ".cu.cpp", NULL), *link = line_with(log, "libcugrade_emu.a", NULL);
    cr_assert_not_null(compile, "no compile command in:\n%s", log);
    cr_assert(strstr(compile, " -O3 -fsanitize=thread -O1 -g -fno-omit-frame-pointer -gdwarf-4 "),
              "the check flags must follow the user's -O3: %s", compile);
    cr_assert_null(strstr(compile, "-O2"), "%s", compile);
    cr_assert_not_null(link, "no link command in:\n%s", log);
    cr_assert_null(strstr(link, "sanitize"), "the link must not pull in libtsan: %s", link);
    cr_assert_eq(run_rc, 0, "the program failed or needs libtsan:\n%s", out);
    cr_assert(strstr(out, "params add_one(a,n)\n") && strstr(out, "sum=64\n"), "%s", out);
}

Test(checks, without_the_flag_nothing_is_instrumented)
{
    char log[8192];
    char *emucc = emucc_path(), *dir = make_temp_dir();
    make_stub_root(dir);
    write_add_one(dir);
    char *cmd = strf("cd '%s' && CUGRADE_ROOT=\"$PWD/root\" '%s' -v -c add.cu && ! nm -u add.o | grep __tsan_", dir,
                     emucc);
    int rc = run_shell(cmd, log, sizeof log);
    remove_dir(dir);
    cr_assert_eq(rc, 0, "no __tsan_ reference expected:\n%s", log);
    char *compile = line_with(log, " -c ", ".cu.cpp", NULL);
    cr_assert(compile && strstr(compile, " -O2 ") && !strstr(compile, "sanitize"), "%s", log);
}

Test(checks, c_and_cpp_files_are_not_instrumented)
{
    char log[8192];
    char *emucc = emucc_path(), *dir = make_temp_dir();
    make_stub_root(dir);
    char *c = strf("%s/helper.c", dir), *cpp = strf("%s/other.cpp", dir);
    write_text(c, "int helper(int *p) { return *p; }\n");
    write_text(cpp, "int other(int *p) { return *p; }\n");
    char *cmd = strf("cd '%s' && CUGRADE_ROOT=\"$PWD/root\" '%s' -v --checks -c helper.c other.cpp", dir, emucc);
    int rc = run_shell(cmd, log, sizeof log);
    remove_dir(dir);
    cr_assert_eq(rc, 0, "%s", log);
    char *c_line = line_with(log, "helper.c", NULL), *cpp_line = line_with(log, "other.cpp", NULL);
    cr_assert(c_line && strstr(c_line, " -O2 ") && !strstr(c_line, "sanitize"), "%s", log);
    cr_assert(cpp_line && strstr(cpp_line, " -O2 ") && !strstr(cpp_line, "sanitize"), "%s", log);
}

Test(checks, user_sanitizers_are_refused)
{
    char out[8192];
    char *emucc = emucc_path();
    char *cmd = strf("'%s' --checks -fsanitize=address x.cu", emucc);
    int rc = run_shell(cmd, out, sizeof out);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert_str_eq(out, "emucc: --checks cannot be combined with -fsanitize=address\n");
}

/* The real runtime, or skips the test while it is not built. */
static void require_runtime(void)
{
    char *root = repo_root();
    char *lib = strf("%s/build/libcugrade_emu.a", root), *header = strf("%s/emu/include/cuda_runtime.h", root);
    if (access(lib, R_OK) != 0)
        cr_skip_test("build/libcugrade_emu.a is not built yet");
    if (access(header, R_OK) != 0)
        cr_skip_test("emu/include/cuda_runtime.h does not exist yet");
    free(root);
    free(lib);
    free(header);
}

static const char runtime_program[] =
    "#include <cstdio>\n#include <cuda_runtime.h>\n"
    "__global__ void scale(float *a, float f, int n)\n"
    "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) a[i] *= f;\n}\n"
    "__global__ void reverse_block(int *a)\n"
    "{\n    extern __shared__ int buf[];\n    int t = threadIdx.x;\n    buf[t] = a[blockIdx.x * blockDim.x + t];\n"
    "    __syncthreads();\n    a[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t];\n}\n"
    "int main()\n{\n"
    "    const int n = 1000; float h[n]; int r[64];\n"
    "    for (int i = 0; i < n; i++) h[i] = (float)i;\n"
    "    for (int i = 0; i < 64; i++) r[i] = i;\n"
    "    float *d; int *dr;\n"
    "    cudaMalloc((void **)&d, n * sizeof(float)); cudaMalloc((void **)&dr, sizeof r);\n"
    "    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n"
    "    cudaMemcpy(dr, r, sizeof r, cudaMemcpyHostToDevice);\n"
    "    scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);\n"
    "    reverse_block<<<2, 32, 32 * sizeof(int)>>>(dr);\n"
    "    cudaDeviceSynchronize();\n"
    "    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);\n"
    "    cudaMemcpy(r, dr, sizeof r, cudaMemcpyDeviceToHost);\n"
    "    cudaFree(d); cudaFree(dr);\n"
    "    int bad = 0;\n"
    "    for (int i = 0; i < n; i++) bad += h[i] != 2.0f * i;\n"
    "    for (int i = 0; i < 64; i++) bad += r[i] != (i / 32) * 32 + 31 - i % 32;\n"
    "    std::printf(\"bad=%d\\n\", bad);\n"
    "    return bad != 0;\n}\n";

Test(emucc_e2e, program_runs_on_real_runtime, .timeout = 120)
{
    char out[8192];
    char *emucc = emucc_path();
    require_runtime();
    char *dir = make_temp_dir();
    char *src = strf("%s/prog.cu", dir);
    write_text(src, runtime_program);
    char *cmd = strf("env -u CUGRADE_ROOT '%s' '%s' -o '%s/prog' && '%s/prog'", emucc, src, dir, dir);
    int rc = run_shell(cmd, out, sizeof out);
    remove_dir(dir);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "bad=0\n"), "%s", out);
}

Test(emucc_e2e, syntax_error_on_line_7_with_real_runtime, .timeout = 120)
{
    char out[8192];
    char *emucc = emucc_path();
    require_runtime();
    char *dir = make_temp_dir();
    char *src = strf("%s/broken.cu", dir);
    write_text(src, bad_source);
    char *cmd = strf("env -u CUGRADE_ROOT '%s' '%s' -o '%s/broken'", emucc, src, dir);
    int rc = run_shell(cmd, out, sizeof out);
    char *needle = strf("%s:7:", src);
    remove_dir(dir);
    cr_assert_neq(rc, 0, "%s", out);
    cr_assert(strstr(out, needle), "no %s in:\n%s", needle, out);
}

/* The real runtime defines the instrumentation hooks, or skips the test. */
static void require_runtime_hooks(void)
{
    require_runtime();
    char out[256];
    char *root = repo_root();
    char *cmd = strf("nm '%s/build/libcugrade_emu.a' 2>/dev/null | grep -c ' T __tsan_read4$'", root);
    if (run_shell(cmd, out, sizeof out) != 0)
        cr_skip_test("build/libcugrade_emu.a does not define the __tsan_* hooks yet");
    free(cmd);
    free(root);
}

Test(checks_e2e, instrumented_program_uses_the_runtime_hooks, .timeout = 180)
{
    char out[8192];
    char *emucc = emucc_path();
    require_runtime_hooks();
    char *dir = make_temp_dir();
    char *src = strf("%s/prog.cu", dir);
    write_text(src, runtime_program);
    char *cmd = strf("cd '%s' && env -u CUGRADE_ROOT '%s' --checks -c prog.cu && nm -u prog.o | grep -q '__tsan_read4$' && "
                     "env -u CUGRADE_ROOT '%s' --checks prog.o -o prog && nm prog | grep -q ' T __tsan_read4$' && "
                     "! readelf -d prog | grep -q libtsan && ./prog",
                     dir, emucc, emucc);
    int rc = run_shell(cmd, out, sizeof out);
    remove_dir(dir);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "bad=0\n"), "%s", out);
}
