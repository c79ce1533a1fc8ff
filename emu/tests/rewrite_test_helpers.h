/* rewrite_test_helpers.h - what the rewriter's and emucc's Criterion tests
 * (test_rewrite.c, test_emucc.c) share: strings, files, shell commands,
 * scratch directories, and the stand-in runtime header that lets rewritten
 * code compile and run without the real emulator runtime. */
#ifndef CUGRADE_REWRITE_TEST_HELPERS_H
#define CUGRADE_REWRITE_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static inline int count_newlines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* printf into a new string (tests free it or let the test process end). */
__attribute__((format(printf, 1, 2))) static inline char *strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    cr_assert_geq(n, 0);
    return s;
}

static inline void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* Runs a shell command; returns its exit status and its stdout+stderr. */
static inline int run_shell(const char *cmd, char *out, size_t outlen)
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

/* The repository root: three levels above build/emu-tests/<test binary>. */
static inline char *repo_root(void)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    cr_assert_gt(len, 0);
    exe[len] = '\0';
    return strf("%s", dirname(dirname(dirname(exe))));
}

static inline char *make_temp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = strf("%s/test_rewrite-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
    return dir;
}

static inline void remove_dir(char *dir)
{
    char out[256];
    char *cmd = strf("rm -rf '%s'", dir);
    run_shell(cmd, out, sizeof out);
    free(cmd);
    free(dir);
}

/* A stand-in for cugrade_emu.h: just enough runtime (dim3, the built-in
 * indices, kernel_launch running blocks in a loop, a parameter registry that
 * prints what it gets) for rewritten code to compile and run. */
static const char stub_runtime_header[] =
    "#include <cstdio>\n#include <cstddef>\n"
    "struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };\n"
    "inline dim3 threadIdx, blockIdx, blockDim, gridDim;\n"
    "inline char __cugrade_dynamic_smem[4096];\n"
    "extern \"C\" inline int cugrade_register_kernel_params(const char *k, const char *p)\n"
    "{ std::printf(\"params %s(%s)\\n\", k, p); return 0; }\n"
    "#define __global__\n"
    "#define __launch_bounds__(...)\n"
    "inline bool __cugrade_launch_bounds_exceeded(unsigned long long) { return false; }\n"
    "#define CUGRADE_PRAGMA(text) _Pragma(#text)\n"
    "#define __cugrade_unroll(n) CUGRADE_PRAGMA(GCC unroll n)\n"
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

#endif
