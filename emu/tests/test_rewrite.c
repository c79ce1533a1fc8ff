/* test_rewrite.c - tests of the CUDA rewriter, emu_rewrite(): kernel
 * launches, extern __shared__, the registrations of the kernels' parameter
 * names appended after the last line, and that the result is valid C++ for
 * the host compiler. bin/emucc has its own tests (test_emucc.c). */
#include "launch_rewrite.h"
#include "rewrite_test_helpers.h"

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

/* A UTF-8 byte-order mark (what editors on Windows write first) is where
 * g++ and nvcc accept it, at the very start of a file; after the #line
 * header it would be a stray character ("does not name a type"), so the
 * rewrite drops it, and the launch after it is still found. */
Test(rewrite, a_byte_order_mark_is_dropped)
{
    char *out = rewrite_as("\xef\xbb\xbfint x;\nvoid f() { k<<<1, 2>>>(x); }\n", "bom.cu");
    cr_assert_null(strstr(out, "\xef\xbb\xbf"), "%s", out);
    const char *start = "#line 1 \"bom.cu\"\nint x;\n";
    cr_assert_eq(strncmp(out, start, strlen(start)), 0, "%s", out);
    cr_assert_null(strstr(out, "<<<"), "the launch after it was rewritten: %s", out);
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
                   "  sh[threadIdx.x] = 0;\n}\n"
                   "static const int __cugrade_params_0 = ::cugrade_register_kernel_params(\"k\", \"\");\n");
}

/* ---- kernel parameter registrations ------------------------------------------- */

/* One registration line, as emu_rewrite appends it after the last line. */
/* What the rewriter puts first in the body of a kernel with __launch_bounds__(max). */
#define BOUNDS(max) " if (__cugrade_launch_bounds_exceeded( " max " )) return;"

#define REG(n, kernel, params)                                                                  \
    "static const int __cugrade_params_" #n " = ::cugrade_register_kernel_params(\"" kernel "\", \"" \
    params "\");\n"

/* Asserts that src rewrites to itself followed by the registration lines regs. */
static void expect_registrations(const char *src, const char *regs)
{
    char *want = strf("%s%s", src, regs);
    expect_rewrite(src, want);
    free(want);
}

Test(params, lab3_signature)
{
    const char *src = "#define TILE_WIDTH 16\n"
                      "__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,\n"
                      "                                     int numARows, int numAColumns, int numBRows, int numBColumns,\n"
                      "                                     int numCRows, int numCColumns)\n"
                      "{\n    C[0] = A[0] * B[0];\n}\n"
                      "void launch(const float *a, const float *b, float *c, int m, int k, int n)\n"
                      "{\n    matrixMultiplyShared<<<1, 1>>>(a, b, c, m, k, k, n, m, n);\n}\n";
    char *out = rewrite_as(src, "t.cu");
    cr_assert_str_eq(out, HEADER "#define TILE_WIDTH 16\n"
                              "__global__ void matrixMultiplyShared(const float *A, const float *B, float *C,\n"
                              "                                     int numARows, int numAColumns, int numBRows, int numBColumns,\n"
                              "                                     int numCRows, int numCColumns)\n"
                              "{\n    C[0] = A[0] * B[0];\n}\n"
                              "void launch(const float *a, const float *b, float *c, int m, int k, int n)\n"
                              "{\n    ::cugrade::kernel_launch(matrixMultiplyShared, \"matrixMultiplyShared\", __FILE__, "
                              "__LINE__).config(1, 1)(a, b, c, m, k, k, n, m, n);\n}\n"
                              "static const int __cugrade_params_0 = ::cugrade_register_kernel_params("
                              "\"matrixMultiplyShared\", "
                              "\"A,B,C,numARows,numAColumns,numBRows,numBColumns,numCRows,numCColumns\");\n");
    free(out);
}

Test(params, restrict_pointers)
{
    expect_registrations("__global__ void saxpy(float *__restrict__ y, const float *__restrict__ x, float a, int n)\n"
                         "{ y[0] = a * x[0] + n; }\n"
                         "__global__ void r(float * __restrict y, const float *restrict const x) {}\n",
                         REG(0, "saxpy", "y,x,a,n") REG(1, "r", "y,x"));
}

Test(params, template_kernel_registers_plain_name)
{
    expect_registrations("template <typename T, int TILE>\n"
                         "__global__ void tiled(const T *a, T *b, std::array<T, TILE> w, int n = TILE)\n{ }\n"
                         "template <> __global__ void tiled<float, 8>(const float *p, float *q, std::array<float, 8> v, int m)\n"
                         "{ }\n",
                         REG(0, "tiled", "a,b,w,n") REG(1, "tiled", "p,q,v,m"));
}

Test(params, declarations_register_nothing)
{
    expect_unchanged("__global__ void matrixMultiplyShared(const float *A, const float *B, float *C, int n);\n"
                     "template <typename T> __global__ void t(T *a);\n"
                     "__global__ void gone(int) = delete;\n"
                     "void host(int n) { (void)n; }\n");
}

Test(params, two_kernels_in_order)
{
    expect_registrations("__global__ void fill(float *out, float v, int n);\n"
                         "__global__ void scale(float *a, float f, int n) { a[0] *= f * n; }\n"
                         "__device__ float twice(float x) { return 2 * x; }\n"
                         "__global__ void fill(float *out, float v, int n) { out[0] = v * n; }\n",
                         REG(0, "scale", "a,f,n") REG(1, "fill", "out,v,n"));
}

Test(params, launch_bounds_before_or_after_the_return_type)
{
    expect_rewrite("__global__ void __launch_bounds__(256) k(float *out, int n) {}\n"
                   "__global__ __launch_bounds__(256, 2) void k2(const float *in) {}\n"
                   "__launch_bounds__(1024) __global__ void k3(int x) {}\n",
                   "__global__ void __launch_bounds__(256) k(float *out, int n) {" BOUNDS("256") "}\n"
                   "__global__ __launch_bounds__(256, 2) void k2(const float *in) {" BOUNDS("256") "}\n"
                   "__launch_bounds__(1024) __global__ void k3(int x) {" BOUNDS("1024") "}\n"
                   REG(0, "k", "out,n") REG(1, "k2", "in") REG(2, "k3", "x"));
}

/* A template's bounds keep their qualified names whole (T::THREADS, not
 * "T : : THREADS", which g++ rejects), and spaces only where the source had. */
Test(params, launch_bounds_with_qualified_names)
{
    expect_rewrite("template <class T> __global__ void __launch_bounds__(T::THREADS, T::MIN) k(int x) {}\n"
                   "__global__ void __launch_bounds__(2 * BLOCK) k2(int y) {}\n",
                   "template <class T> __global__ void __launch_bounds__(T::THREADS, T::MIN) k(int x) {"
                   " if (__cugrade_launch_bounds_exceeded( T::THREADS )) return;}\n"
                   "__global__ void __launch_bounds__(2 * BLOCK) k2(int y) {" BOUNDS("2 * BLOCK") "}\n"
                   REG(0, "k", "x") REG(1, "k2", "y"));
}

Test(params, parameter_list_spanning_lines_keeps_line_numbers)
{
    const char *src = "__global__ void\n"
                      "spread(const float *A,   // the input\n"
                      "       /* the output */ float *C,\n"
                      "       int n)\n"
                      "{\n"
                      "    C[0] = A[0] + n;\n"
                      "}\n";
    char *out = rewrite_as(src, "t.cu");
    cr_assert_eq(count_newlines(out), count_newlines(src) + 2, "header, every source line, one registration:\n%s", out);
    char *want = strf(HEADER "%s" REG(0, "spread", "A,C,n"), src);
    cr_assert_str_eq(out, want);
    free(want);
    free(out);
}

Test(params, unnamed_and_empty_parameter_lists)
{
    expect_registrations("__global__ void u(float *, int, const float *__restrict__, std::size_t, unsigned, const T) {}\n"
                         "__global__ void half(float *named, int) {}\n"
                         "__global__ void v(void) {}\n"
                         "__global__ void e() {}\n",
                         REG(0, "u", ",,,,,") REG(1, "half", "named,") REG(2, "v", "") REG(3, "e", ""));
}

Test(params, declarators_and_default_arguments)
{
    expect_registrations("__global__ void d(float a[16], float (&r)[3], int (*fp)(int), void (*)(int),\n"
                         "                  unsigned n, long long m, int w = max(1, 2), [[maybe_unused]] int x,\n"
                         "                  int y __attribute__((unused)), const __grid_constant__ P p, Ts... rest) {}\n",
                         REG(0, "d", "a,r,fp,,n,m,w,x,y,p,rest"));
}

Test(params, kernels_in_namespaces_register_plain_name)
{
    expect_registrations("namespace lab { namespace detail {\n__global__ void k(int n) {}\n} }\n"
                         "extern \"C\" __global__ void c_kernel(int *p) {}\n"
                         "__global__ void lab::detail::other(int q) {}\n",
                         REG(0, "k", "n") REG(1, "c_kernel", "p") REG(2, "other", "q"));
}

Test(params, global_outside_code_is_ignored)
{
    expect_unchanged("#define KERNEL __global__ void\n"
                     "// __global__ void commented(int a) {}\n"
                     "const char *s = \"__global__ void str(int a) {}\";\n"
                     "void host(int a) { (void)a; }\n");
}

Test(params, source_without_final_newline_gets_one)
{
    expect_rewrite("__global__ void k(int a) {} // last", "__global__ void k(int a) {} // last\n" REG(0, "k", "a"));
}

/* ---- the rewritten forms are valid C++ --------------------------------------- */

static const char many_forms_source[] =
    "namespace ns { __global__ void k(int *a) { a[0] = 1; } }\n"
    "__global__ void __launch_bounds__(64) plain(float *__restrict__ out, const float *, int n = 2) { out[0] = n;\n"
    "#pragma unroll 4\n    for (int i = 0; i < n; i++) out[i] += 1;\n#pragma unroll\n    for (int i = 0; i < 2; i++) out[i] += 1; }\n"
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
    char *cmd = strf("g++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -x c++ -include '%s' '%s'", stub, cpp);
    int rc = run_shell(cmd, out, sizeof out);
    remove_dir(dir);
    free(stub);
    free(cpp);
    free(cmd);
    cr_assert_eq(rc, 0, "g++ rejected the rewrite:\n%s\n%s", out, text);
    free(text);
}

