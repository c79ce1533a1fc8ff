/* test_rewrite_kernels.c - tests of what the rewriter, emu_rewrite(), does
 * for the kernels of a tiled SGEMM: `#pragma unroll N` becomes
 * __cugrade_unroll(N) (g++'s pragma) when N is a number and a loop follows,
 * any other `#pragma unroll` is dropped, other pragmas stay; a kernel with
 * __launch_bounds__(MAX, ...) (before or after the return type, in a
 * template, MAX an expression) gets its block-size check first in its body,
 * one without or a declaration does not; line numbers never move. The rest
 * of the rewriter: test_rewrite.c. */
#include "launch_rewrite.h"
#include "rewrite_test_helpers.h"

#define HEADER "#line 1 \"t.cu\"\n"
#define BOUNDS(max) " if (__cugrade_launch_bounds_exceeded( " max " )) return;"

/* Asserts that src rewrites (as t.cu) to HEADER followed by expected, with
 * as many lines as src. */
static void expect_rewrite(const char *src, const char *expected)
{
    char err[512] = "";
    char *out = emu_rewrite(src, strlen(src), "t.cu", err, sizeof err);
    cr_assert_not_null(out, "rewrite failed: %s", err);
    char *want = strf(HEADER "%s", expected);
    cr_assert_str_eq(out, want);
    free(want);
    free(out);
}

static void expect_unchanged(const char *src) { expect_rewrite(src, src); }

/* ---- #pragma unroll ------------------------------------------------------------ */

Test(unroll, a_number_before_a_loop_becomes_gccs_pragma)
{
    expect_rewrite("void f(float *a) {\n#pragma unroll 4\n    for (;;) a[0]++;\n}\n",
                   "void f(float *a) {\n__cugrade_unroll(4)\n    for (;;) a[0]++;\n}\n");
    expect_rewrite("  #  pragma   unroll 16 // comment\nwhile (x) {}\n", "  __cugrade_unroll(16)\nwhile (x) {}\n");
    expect_rewrite("#pragma unroll 1\n/* why */\ndo {} while (0);\n", "__cugrade_unroll(1)\n/* why */\ndo {} while (0);\n");
}

Test(unroll, other_forms_are_dropped)
{
    expect_rewrite("#pragma unroll\nfor (;;) {}\n", "\nfor (;;) {}\n");
    expect_rewrite("#pragma unroll TM\nfor (;;) {}\n", "\nfor (;;) {}\n");
    expect_rewrite("#pragma unroll (2 * TN)\nfor (;;) {}\n", "\nfor (;;) {}\n");
    expect_rewrite("#pragma unroll 4u\nfor (;;) {}\n", "\nfor (;;) {}\n");
    expect_rewrite("#pragma unroll 99999\nfor (;;) {}\n", "\nfor (;;) {}\n");
    expect_rewrite("#pragma unroll 4\nx = 1;\n", "\nx = 1;\n");
    expect_rewrite("#pragma unroll 4\n#pragma unroll 2\nfor (;;) {}\n", "\n__cugrade_unroll(2)\nfor (;;) {}\n");
}

Test(unroll, line_breaks_inside_the_directive_stay)
{
    expect_rewrite("#pragma unroll \\\n 4\nfor (;;) {}\n", "__cugrade_unroll(4)\n\nfor (;;) {}\n");
    expect_rewrite("#pragma unroll /* a\nb */ 2\nfor (;;) {}\n", "__cugrade_unroll(2)\n\nfor (;;) {}\n");
}

Test(unroll, other_pragmas_and_text_stay)
{
    expect_unchanged("#pragma once\n#pragma GCC unroll 4\nfor (;;) {}\n#pragma nv_diag_suppress 177\n");
    expect_unchanged("const char *s = \"#pragma unroll 4\";\n// #pragma unroll 4\nint x = a # b;\n");
    expect_unchanged("#define UNROLL _Pragma(\"unroll\")\n");
}

/* ---- __launch_bounds__ -------------------------------------------------------------- */

Test(bounds, template_kernel_with_an_expression)
{
    expect_rewrite("template <int BM, int BN, int TM>\n"
                   "__global__ void __launch_bounds__((BM * BN) / (TM * 4), 1)\n"
                   "sgemm(const float *A, float *C)\n"
                   "{\n"
                   "    C[0] = A[0];\n"
                   "}\n",
                   "template <int BM, int BN, int TM>\n"
                   "__global__ void __launch_bounds__((BM * BN) / (TM * 4), 1)\n"
                   "sgemm(const float *A, float *C)\n"
                   "{" BOUNDS("(BM * BN) / (TM * 4)") "\n"
                   "    C[0] = A[0];\n"
                   "}\n"
                   "static const int __cugrade_params_0 = ::cugrade_register_kernel_params(\"sgemm\", \"A,C\");\n");
}

Test(bounds, comments_and_line_breaks_in_the_attribute)
{
    expect_rewrite("__launch_bounds__(MAX(64, /* at least */\n 32)) __global__ void k(int n) { }\n",
                   "__launch_bounds__(MAX(64, /* at least */\n 32)) __global__ void k(int n) {" BOUNDS("MAX(64, 32)")
                   " }\n"
                   "static const int __cugrade_params_0 = ::cugrade_register_kernel_params(\"k\", \"n\");\n");
}

Test(bounds, static_and_extern_c_before_the_attribute)
{
    expect_rewrite("extern \"C\" __launch_bounds__(128) static __global__ void k() {}\n",
                   "extern \"C\" __launch_bounds__(128) static __global__ void k() {" BOUNDS("128") "}\n"
                   "static const int __cugrade_params_0 = ::cugrade_register_kernel_params(\"k\", \"\");\n");
}

Test(bounds, no_attribute_declaration_or_another_functions_attribute)
{
    expect_rewrite("__global__ void __launch_bounds__(256) k(int n);\n"
                   "__global__ void plain(int n) {}\n"
                   "__device__ __launch_bounds__(32) int helper();\n"
                   "void f() __attribute__((cold)); __global__ void g() {}\n",
                   "__global__ void __launch_bounds__(256) k(int n);\n"
                   "__global__ void plain(int n) {}\n"
                   "__device__ __launch_bounds__(32) int helper();\n"
                   "void f() __attribute__((cold)); __global__ void g() {}\n"
                   "static const int __cugrade_params_0 = ::cugrade_register_kernel_params(\"plain\", \"n\");\n"
                   "static const int __cugrade_params_1 = ::cugrade_register_kernel_params(\"g\", \"\");\n");
}

Test(bounds, rewritten_kernel_compiles_and_launches)
{
    char out[8192];
    char *dir = make_temp_dir();
    char *stub = strf("%s/stub.h", dir), *cpp = strf("%s/k.cpp", dir), *exe = strf("%s/k", dir);
    write_text(stub, stub_runtime_header);
    const char *src = "template <int N> __global__ void __launch_bounds__(N * 2) twice(int *a)\n"
                      "{\n"
                      "#pragma unroll 2\n"
                      "    for (int i = 0; i < N; i++) a[threadIdx.x] += i;\n"
                      "}\n"
                      "int main() { int a[4] = {0}; twice<4><<<1, 4>>>(a); std::printf(\"%d\\n\", a[3]); }\n";
    char err[256];
    char *text = emu_rewrite(src, strlen(src), "k.cu", err, sizeof err);
    cr_assert_not_null(text, "%s", err);
    write_text(cpp, text);
    char *cmd = strf("g++ -std=c++17 -Wall -Wextra -Werror -x c++ -include '%s' '%s' -o '%s' && '%s'", stub, cpp, exe,
                     exe);
    int rc = run_shell(cmd, out, sizeof out);
    remove_dir(dir);
    cr_assert_eq(rc, 0, "%s\n%s", out, text);
    cr_assert(strstr(out, "launch twice<4> k.cu:6\n6\n"), "%s", out);
    free(text);
}
