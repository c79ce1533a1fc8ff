/* test_rewrite.c - tests of the CUDA launch rewriter (emu_rewrite) and of the
 * emulator's compiler driver bin/emucc. The driver is tested against a tiny
 * stand-in runtime written by the test (so it needs neither a GPU nor the real
 * runtime) and, once build/libcugrade_emu.a and emu/include/cuda_runtime.h
 * exist, end to end against the real one. */
#include <criterion/criterion.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch_rewrite.h"

#define HEADER "#line 1 \"t.cu\"\n"

/* ---- helpers ----------------------------------------------------------------- */

static char *rewrite_as(const char *src, const char *path)
{
    char err[512] = "";
    char *out = emu_rewrite(src, strlen(src), path, err, sizeof err);
    cr_assert_not_null(out, "rewrite failed: %s", err);
    return out;
}

/* Asserts that src rewrites (as t.cu) to HEADER followed by expected. */
static void expect_rewrite(const char *src, const char *expected)
{
    char *out = rewrite_as(src, "t.cu");
    char *want;
    cr_assert_geq(asprintf(&want, HEADER "%s", expected), 0);
    cr_assert_str_eq(out, want);
    free(want);
    free(out);
}

static void expect_unchanged(const char *src) { expect_rewrite(src, src); }

/* Asserts that src fails to rewrite as path with exactly message. */
static void expect_error(const char *src, const char *path, const char *message)
{
    char err[512] = "";
    char *out = emu_rewrite(src, strlen(src), path, err, sizeof err);
    cr_assert_null(out, "expected an error, got:\n%s", out);
    cr_assert_str_eq(err, message);
}

static int count_newlines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* printf into a new string (tests free it or let the test process end). */
__attribute__((format(printf, 1, 2))) static char *strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    cr_assert_geq(n, 0);
    return s;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* Runs a shell command; returns its exit status and its stdout+stderr. */
static int run_shell(const char *cmd, char *out, size_t outlen)
{
    char *full;
    cr_assert_geq(asprintf(&full, "(%s) 2>&1", cmd), 0);
    FILE *p = popen(full, "r");
    cr_assert_not_null(p);
    size_t n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    free(full);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The repository root: three levels above build/emu-tests/test_rewrite. */
static char *repo_root(void)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    cr_assert_gt(len, 0);
    exe[len] = '\0';
    return strf("%s", dirname(dirname(dirname(exe))));
}

static char *make_temp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = strf("%s/test_rewrite-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
    return dir;
}

static void remove_dir(char *dir)
{
    char out[256];
    char *cmd = strf("rm -rf '%s'", dir);
    run_shell(cmd, out, sizeof out);
    free(cmd);
    free(dir);
}

/* ---- the #line header -------------------------------------------------------- */

Test(rewrite, header_then_source_unchanged)
{
    expect_unchanged("int main() { return 0; }\n");
}

Test(rewrite, header_escapes_quote_and_backslash_in_path)
{
    char *out = rewrite_as("x\n", "odd\"dir\\k.cu");
    cr_assert_str_eq(out, "#line 1 \"odd\\\"dir\\\\k.cu\"\nx\n");
    free(out);
}

/* ---- launch forms ------------------------------------------------------------ */

Test(launch, plain_identifier)
{
    expect_rewrite("k<<<g, b>>>(x);\n", "::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config(g, b)(x);\n");
}

Test(launch, template_kernel_with_stream)
{
    expect_rewrite("k<float, 16><<<g, b, 0, s>>>(p, q);",
                   "::cugrade::kernel_launch(k<float, 16>, \"k<float, 16>\", __FILE__, __LINE__)"
                   ".config(g, b, 0, s)(p, q);");
}

Test(launch, nested_template_lists_closed_by_shifts)
{
    expect_rewrite("k<A<B<int>>><<<1, 1>>>();",
                   "::cugrade::kernel_launch(k<A<B<int>>>, \"k<A<B<int>>>\", __FILE__, __LINE__).config(1, 1)();");
    expect_rewrite("k<(n>>1), f(a, b)><<<1, 1>>>();",
                   "::cugrade::kernel_launch(k<(n>>1), f(a, b)>, \"k<(n>>1), f(a, b)>\", __FILE__, __LINE__)"
                   ".config(1, 1)();");
}

Test(launch, qualified_names)
{
    expect_rewrite("ns::inner::k<<<1, 1>>>();",
                   "::cugrade::kernel_launch(ns::inner::k, \"ns::inner::k\", __FILE__, __LINE__).config(1, 1)();");
    expect_rewrite("::k<<<1, 1>>>();", "::cugrade::kernel_launch(::k, \"::k\", __FILE__, __LINE__).config(1, 1)();");
    expect_rewrite("ns::k<T, 2><<<1, 1>>>();",
                   "::cugrade::kernel_launch(ns::k<T, 2>, \"ns::k<T, 2>\", __FILE__, __LINE__).config(1, 1)();");
}

Test(launch, member_and_function_pointer_forms)
{
    expect_rewrite("obj.member<<<1, 1>>>(a);",
                   "::cugrade::kernel_launch(obj.member, \"obj.member\", __FILE__, __LINE__).config(1, 1)(a);");
    expect_rewrite("ptr->member<<<1, 1>>>(a);",
                   "::cugrade::kernel_launch(ptr->member, \"ptr->member\", __FILE__, __LINE__).config(1, 1)(a);");
    expect_rewrite("(*fp)<<<1, 1>>>(a);",
                   "::cugrade::kernel_launch((*fp), \"(*fp)\", __FILE__, __LINE__).config(1, 1)(a);");
    expect_rewrite("if (ok) (*fp)<<<1, 1>>>(a);",
                   "if (ok) ::cugrade::kernel_launch((*fp), \"(*fp)\", __FILE__, __LINE__).config(1, 1)(a);");
}

Test(launch, nested_parentheses_in_config_and_arguments)
{
    expect_rewrite("k<<<dim3((n+15)/16, (m+15)/16), dim3(16,16)>>>(f(a, b), c);",
                   "::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__)"
                   ".config(dim3((n+15)/16, (m+15)/16), dim3(16,16))(f(a, b), c);");
}

Test(launch, shift_inside_parentheses_does_not_end_config)
{
    expect_rewrite("k<<<(n+255)>>8, 256>>>(d);",
                   "::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config((n+255)>>8, 256)(d);");
}

Test(launch, template_closers_inside_parentheses_do_not_end_config)
{
    expect_rewrite("k<<<blocks(f<A<B<int>>>(n)), 1>>>(x);",
                   "::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config(blocks(f<A<B<int>>>(n)), 1)(x);");
}

Test(launch, launch_nested_in_statement)
{
    expect_rewrite("if (x) k<<<1,1>>>(a); else { f(); }",
                   "if (x) ::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config(1,1)(a); else { f(); }");
    expect_rewrite("c ? a :k<<<1,1>>>(a);",
                   "c ? a : ::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config(1,1)(a);");
}

Test(launch, two_launches_on_one_line)
{
    expect_rewrite("a<<<1,2>>>(x); b<<<3,4>>>(y);",
                   "::cugrade::kernel_launch(a, \"a\", __FILE__, __LINE__).config(1,2)(x); "
                   "::cugrade::kernel_launch(b, \"b\", __FILE__, __LINE__).config(3,4)(y);");
}

Test(launch, spanning_lines_keeps_line_count)
{
    const char *src = "void f() {\n"
                      "    tiled<float,\n"
                      "          16><<<dim3(n / 16,\n"
                      "                     m / 16),\n"
                      "                dim3(16, 16)>>>(\n"
                      "        a, b,\n"
                      "        c);\n"
                      "}\n";
    char *out = rewrite_as(src, "t.cu");
    cr_assert_eq(count_newlines(out), count_newlines(src) + 1, "header plus every source line:\n%s", out);
    cr_assert(strstr(out, "\n    ::cugrade::kernel_launch(tiled<float,\n          16>, \"tiled<float, 16>\", "
                          "__FILE__, __LINE__).config(dim3(n / 16,\n                     m / 16),\n"
                          "                dim3(16, 16))(\n        a, b,\n        c);\n}\n"),
              "%s", out);
    free(out);
}

Test(launch, inside_macro_with_continuations)
{
    expect_rewrite("#define LAUNCH(n) \\\n    k<<<n, \\\n        32>>>(x)\n",
                   "#define LAUNCH(n) \\\n    ::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config(n, \\\n"
                   "        32)(x)\n");
}

Test(launch, spacing_variants)
{
    expect_rewrite("k <<<1,1>>>(a);", "::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config(1,1)(a);");
    expect_rewrite("k<<< 1, 1 >>>(a);", "::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config( 1, 1 )(a);");
    expect_rewrite("k <<< 1,1 >>> (a);",
                   "::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config( 1,1 ) (a);");
    expect_rewrite("a<<<b>>>(c);", "::cugrade::kernel_launch(a, \"a\", __FILE__, __LINE__).config(b)(c);");
    expect_rewrite("k // kernel\n  <<<1,1>>>(a);",
                   "::cugrade::kernel_launch(k // kernel\n  , \"k\", __FILE__, __LINE__).config(1,1)(a);");
}

Test(launch, callee_name_has_whitespace_collapsed)
{
    expect_rewrite("ns :: k < int ,\n  2 > <<<1,1>>>();",
                   "::cugrade::kernel_launch(ns :: k < int ,\n  2 >, \"ns :: k < int , 2 >\", __FILE__, __LINE__)"
                   ".config(1,1)();");
}

/* ---- what must stay untouched ------------------------------------------------ */

Test(untouched, shifts_and_split_angle_brackets)
{
    expect_unchanged("int y = a << b; int z = x >> 2; w = (a<<2)>>1; v = a<< <b>> >(c);\n");
    expect_unchanged("std::vector<std::vector<std::vector<int>>> deep; cout << x << endl;\n");
}

Test(untouched, launches_in_strings_chars_and_comments)
{
    expect_unchanged("const char *s = \"k<<<1,1>>>(a)\";\n"
                     "const char *e = \"\\\"<<<\\\\\"; char c = '<'; char q = '\\'';\n"
                     "// k<<<1,1>>>(a);\n"
                     "/* k<<<1,1>>>(a);\n   k<<<2,2>>>(b); */\n"
                     "// continued comment \\\n   k<<<3,3>>>(c);\n"
                     "int n = 1'000'000;\n");
}

Test(launch, digit_separators_are_not_char_literals)
{
    expect_rewrite("int n = 1'000; k<<<1,1>>>(a); char c = '0';",
                   "int n = 1'000; ::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config(1,1)(a); char c = '0';");
}

Test(launch, apostrophe_in_directive_text_ends_at_line_end)
{
    expect_rewrite("#warning don't forget\nk<<<1,1>>>(a);",
                   "#warning don't forget\n::cugrade::kernel_launch(k, \"k\", __FILE__, __LINE__).config(1,1)(a);");
}

Test(untouched, raw_strings)
{
    expect_unchanged("auto r = R\"(k<<<1,1>>>(a))\";\n"
                     "auto d = R\"xy(k<<<1,1>>>(a) )\" still inside)xy\";\n"
                     "auto u = u8R\"(<<<)\"; auto l = LR\"(<<<\n>>>)\";\n");
}

Test(untouched, templated_operator_shift)
{
    expect_unchanged("friend std::ostream &operator<<<>(std::ostream &, const box<T> &);\n");
}

Test(untouched, plain_shared_and_other_externs)
{
    expect_unchanged("__shared__ float tile[16][16];\n"
                     "extern __shared__ float sized[256];\n"
                     "extern int count;\n"
                     "extern \"C\" { void f(void); }\n");
}

/* ---- malformed launches ------------------------------------------------------ */

Test(malformed, missing_closing_brackets)
{
    expect_error("int a;\n\nk<<<1, 1(x);\nint b;\n", "lab/m.cu", "lab/m.cu:3: malformed kernel launch");
}

Test(malformed, missing_arguments)
{
    expect_error("k<<<1, 1>>>;\n", "m.cu", "m.cu:1: malformed kernel launch");
    expect_error("\nk<<<1, 1>>>(a\n", "m.cu", "m.cu:2: malformed kernel launch");
}

Test(malformed, missing_kernel)
{
    expect_error("x;\n  <<<1, 1>>>(a);\n", "m.cu", "m.cu:2: malformed kernel launch");
}

/* ---- extern __shared__ ------------------------------------------------------- */

Test(shared, plain_dynamic_array)
{
    expect_rewrite("extern __shared__ float s[];\n", "static float *const s = (float *)__cugrade_dynamic_smem;\n");
}

Test(shared, alignment_before_or_after_type)
{
    expect_rewrite("extern __shared__ __align__(16) unsigned char smem[];",
                   "static unsigned char *const smem = (unsigned char *)__cugrade_dynamic_smem;");
    expect_rewrite("extern __shared__ alignas(8) double d[];",
                   "static double *const d = (double *)__cugrade_dynamic_smem;");
    expect_rewrite("extern __shared__ int __align__(8) t[];", "static int *const t = (int *)__cugrade_dynamic_smem;");
    expect_rewrite("extern __shared__ float2 __attribute__((aligned(16))) u[];",
                   "static float2 *const u = (float2 *)__cugrade_dynamic_smem;");
}

Test(shared, spanning_lines_keeps_newlines)
{
    const char *src = "extern __shared__\n    float /* tile */ buf[\n];\nint after;\n";
    char *out = rewrite_as(src, "t.cu");
    cr_assert_eq(count_newlines(out), count_newlines(src) + 1, "%s", out);
    cr_assert_str_eq(out, HEADER "static float *const buf = (float *)__cugrade_dynamic_smem;\n/* tile */\n\n"
                              "int after;\n");
    free(out);
}

Test(shared, inside_kernel_body)
{
    expect_rewrite("__global__ void k() {\n  extern __shared__ T sh[];\n  sh[threadIdx.x] = 0;\n}\n",
                   "__global__ void k() {\n  static T *const sh = (T *)__cugrade_dynamic_smem;\n"
                   "  sh[threadIdx.x] = 0;\n}\n");
}

/* ---- the rewritten forms are valid C++ --------------------------------------- */

static const char stub_runtime_header[] =
    "#include <cstdio>\n#include <cstddef>\n"
    "struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };\n"
    "inline dim3 threadIdx, blockIdx, blockDim, gridDim;\n"
    "inline char __cugrade_dynamic_smem[4096];\n"
    "#define __global__\n"
    "namespace cugrade {\n"
    "template <class F> struct launch {\n"
    "    F f; const char *name, *file; int line; dim3 grid, block;\n"
    "    launch &config(dim3 g, dim3 b, size_t = 0, void * = nullptr) { grid = g; block = b; return *this; }\n"
    "    template <class... A> void operator()(A... a) {\n"
    "        std::printf(\"launch %s %s:%d\\n\", name, file, line);\n"
    "        gridDim = grid; blockDim = block;\n"
    "        for (unsigned bx = 0; bx < grid.x; bx++)\n"
    "            for (unsigned tx = 0; tx < block.x; tx++) { blockIdx = dim3(bx); threadIdx = dim3(tx); f(a...); }\n"
    "    }\n"
    "};\n"
    "template <class F> launch<F> kernel_launch(F f, const char *n, const char *fl, int l)\n"
    "{ return {f, n, fl, l, {}, {}}; }\n"
    "}\n";

static const char many_forms_source[] =
    "namespace ns { __global__ void k(int *a) { a[0] = 1; } }\n"
    "template <typename T, int N> __global__ void tk(T *a) { extern __shared__ __align__(16) T sh[]; a[0] = sh[0] + N; }\n"
    "struct holder { void (*member)(int *); };\n"
    "#define LAUNCH(kern, p) \\\n  kern<<<1, \\\n   1>>>(p)\n"
    "void host(int *p, float *f, holder h, holder *hp, void (*fp)(int *), int n) {\n"
    "    ns::k<<<(n + 255) >> 8, dim3(2, 2)>>>(p);\n"
    "    tk<float, 16><<<1, 1, 64, nullptr>>>(f);\n"
    "    if (n) h.member<<<1, 1>>>(p); else hp->member<<<1,\n 1>>>(p);\n"
    "    (*fp)<<<1, 1>>>(p); n > 0 ? (void)0 :ns::k<<<1, 1>>>(p);\n"
    "    LAUNCH(ns::k, p);\n"
    "}\n";

Test(compile, rewritten_forms_are_valid_cpp)
{
    char out[8192];
    char *dir = make_temp_dir();
    char *stub = strf("%s/stub.h", dir), *cpp = strf("%s/forms.cpp", dir);
    write_text(stub, stub_runtime_header);
    char *text = rewrite_as(many_forms_source, "forms.cu");
    write_text(cpp, text);
    char *cmd = strf("g++ -std=c++17 -fsyntax-only -Wall -x c++ -include '%s' '%s'", stub, cpp);
    int rc = run_shell(cmd, out, sizeof out);
    remove_dir(dir);
    free(stub);
    free(cpp);
    free(cmd);
    cr_assert_eq(rc, 0, "g++ rejected the rewrite:\n%s\n%s", out, text);
    free(text);
}

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

Test(emucc, builds_and_runs_with_stub_runtime)
{
    char out[8192];
    char *emucc = emucc_path(), *dir = make_temp_dir();
    make_stub_root(dir);
    char *src = strf("%s/add.cu", dir);
    write_text(src, add_one_source);
    char *header = strf("%s/increment.h", dir);
    write_text(header, "#define INCREMENT 1\n");
    char *cmd = strf("CUGRADE_ROOT='%s/root' '%s' -O1 '%s' -o '%s/add' && '%s/add'", dir, emucc, src, dir, dir);
    int rc = run_shell(cmd, out, sizeof out);
    char *expected = strf("launch add_one %s:10\nsum=64\n", src);
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
