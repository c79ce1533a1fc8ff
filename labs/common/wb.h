/* wb.h - libwb's API for course programs, header-only, written for cugrade.
 *
 * Most CUDA courses (ECE408, the GPU Teaching Kit) give students a whole
 * program, template.cu, written against libwb and run as
 *
 *     ./prog -e output.raw -i input0.raw,input1.raw -o out.raw -t matrix
 *
 * This header lets such a program compile unchanged with nvcc (a GPU) and
 * with bin/emucc (the CPU emulator), and grade under cugrade:
 *
 *   wbArg_read(argc, argv)                 -e FILE, -i F1,F2,..., -o FILE, -t TYPE
 *   wbArg_getInputFile(args, i), wbArg_getInputCount(args),
 *   wbArg_getOutputFile(args), wbArg_getExpectedOutputFile(args),
 *   wbArg_getType(args), wbArg_delete(args)
 *   wbImport(file, &rows, &cols)           a matrix (header "rows cols"), malloc'd
 *   wbImport(file, &n)                     a vector (header "n")
 *   wbTime_start(KIND, msg...)             KIND: Generic IO GPU Copy Driver
 *   wbTime_stop(KIND, msg...)                    CopyAsync Compute CPUGPUOverlap
 *   wbLog(LEVEL, args...)                  LEVEL: OFF FATAL ERROR WARN INFO DEBUG TRACE
 *   wbSolution(args, data, rows, cols)     write -o, compare with -e if readable
 *   wbSolution(args, data, n)              the same for a vector
 *   wbExit()                               exit(1), as libwb's
 *
 * and, unlike libwb, fills every cudaMalloc'd buffer with 0xFF bytes (the
 * float bit pattern 0xFFFFFFFF, matbin.h's POISON_BITS, a NaN) so that the
 * grader can tell output elements the kernel never wrote. Templates define
 * wbCheck themselves; this header does not.
 *
 * docs/libwb.md describes every function, the libwb quirks kept and the ones
 * fixed. Fatal errors (bad arguments, an input file missing or malformed, an
 * output file that cannot be written) print one line naming the file and
 * line to stderr and exit with status 2, the harness's "I/O error" status
 * (labs/common/harness.h).
 *
 * What touches files, the clock or the environment (wbImport, wbSolution,
 * the wbTime timers) is not in this header: it is compiled in the harness's
 * own object, labs/common/wb_io.cu, which the grader links with the
 * program, so that a program's own object needs no file I/O at all (a
 * submission's object may not call open/fopen/getenv: grader/build/
 * objcheck.h, docs/security.md). To build a libwb program by hand:
 *
 *     nvcc -Ilabs/common template.cu labs/common/wb_io.cu -o prog
 *
 * The rest is static inline or a template; internals live in namespace
 * cugrade_wb. Compiles as C++17 with nvcc and with g++ against the
 * emulator's cuda_runtime.h. */
#ifndef CUGRADE_WB_H
#define CUGRADE_WB_H

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sstream>
#include <string>

#define CUGRADE_WB_EXIT_IO 2 /* harness.h's HARNESS_EXIT_IO */

/* ---- internals ------------------------------------------------------------ */

namespace cugrade_wb {

/* Largest accepted file: each dimension and the element count (as the
 * grader's reader, grader/dataset/rawio.h, allows for the element count). */
static const long kMaxElements = 1L << 28;

static inline const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : (path ? path : "?");
}

[[noreturn]] static inline void fatal(const std::string &msg)
{
    fflush(stdout);
    fprintf(stderr, "%s\n", msg.c_str());
    fflush(stderr);
    exit(CUGRADE_WB_EXIT_IO);
}

/* Concatenation as by an ostream (wbLog, wbTime): strings, numbers,
 * characters; a null C string prints as (null) instead of failing the
 * stream. */
static inline void put(std::ostringstream &os, const char *s) { os << (s ? s : "(null)"); }
static inline void put(std::ostringstream &os, char *s) { os << (s ? s : "(null)"); }
template <class T> static inline void put(std::ostringstream &os, const T &v) { os << v; }

template <class... A> static inline std::string concat(const A &...args)
{
    std::ostringstream os;
    (put(os, args), ...);
    return os.str();
}

} // namespace cugrade_wb

/* ---- arguments -------------------------------------------------------------- */

/* What wbArg_read found. The strings point into argv, except the input
 * names (malloc'd copies; wbArg_delete frees them). */
struct cugrade_wbArg {
    int inputCount;
    char **inputFiles;
    char *outputFile;
    char *expectedOutputFile;
    char *type;
};
typedef struct cugrade_wbArg wbArg_t;

/* The harness's side (labs/common/wb_io.cu): reading a .raw file (fatal,
 * with file:line, when missing or malformed), writing and checking the
 * solution, and the timers (kind: a wbTimerKind_t). */
extern "C" {
float *cugrade_wb_import(const char *file, int *rows, int *cols);
int cugrade_wb_solution(const wbArg_t *args, const void *data, int rows, int cols, int vector);
void cugrade_wb_timer_start(int kind, const char *msg);
void cugrade_wb_timer_stop(int kind, const char *msg, const char *file, int line);
}

/* Parses -e FILE, -i F1,F2,..., -o FILE, -t TYPE in any order (and libwb's
 * -s SESSION, ignored). Unlike libwb, which logs an unknown option and goes
 * on (and reads past argv when a flag's value is missing), an unknown
 * option, a stray argument or a flag without its value is a usage error:
 * one line on stderr, exit status 2. */
static inline wbArg_t wbArg_read(int argc, char **argv)
{
    wbArg_t args = {0, NULL, NULL, NULL, NULL};
    const char *prog = argc > 0 && argv[0] ? cugrade_wb::base_name(argv[0]) : "program";
    const std::string usage = cugrade_wb::concat(
        "usage: ", prog, " -i INPUT0[,INPUT1...] [-e EXPECTED] [-o OUTPUT] [-t TYPE]");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool known = strcmp(a, "-e") == 0 || strcmp(a, "-i") == 0 || strcmp(a, "-o") == 0 ||
                     strcmp(a, "-t") == 0 || strcmp(a, "-s") == 0;
        if (!known)
            cugrade_wb::fatal(cugrade_wb::concat("wbArg_read: ", a[0] == '-' ? "unknown option '" : "unexpected argument '",
                                                 a, "'; ", usage));
        if (i + 1 >= argc)
            cugrade_wb::fatal(cugrade_wb::concat("wbArg_read: option ", a, " needs a value; ", usage));
        char *value = argv[++i];
        switch (a[1]) {
        case 'e': args.expectedOutputFile = value; break;
        case 'o': args.outputFile = value; break;
        case 't': args.type = value; break;
        case 's': break;
        case 'i': {
            for (int k = 0; k < args.inputCount; k++) /* a second -i replaces the first */
                free(args.inputFiles[k]);
            free(args.inputFiles);
            args.inputCount = 0;
            args.inputFiles = (char **)malloc((strlen(value) / 2 + 2) * sizeof(char *));
            if (!args.inputFiles)
                cugrade_wb::fatal("wbArg_read: out of memory");
            const char *p = value;
            while (*p) {
                const char *comma = strchr(p, ',');
                size_t len = comma ? size_t(comma - p) : strlen(p);
                if (len > 0) { /* "a,,b" is a and b, as in libwb */
                    char *name = (char *)malloc(len + 1);
                    if (!name)
                        cugrade_wb::fatal("wbArg_read: out of memory");
                    memcpy(name, p, len);
                    name[len] = '\0';
                    args.inputFiles[args.inputCount++] = name;
                }
                p += len + (comma ? 1 : 0);
            }
            break;
        }
        }
    }
    return args;
}

static inline int wbArg_getInputCount(wbArg_t args) { return args.inputCount; }

/* The i-th -i file, or NULL when there is none (wbImport then says so). */
static inline char *wbArg_getInputFile(wbArg_t args, int i)
{
    return i >= 0 && i < args.inputCount ? args.inputFiles[i] : NULL;
}
static inline char *wbArg_getOutputFile(wbArg_t args) { return args.outputFile; }
static inline char *wbArg_getExpectedOutputFile(wbArg_t args) { return args.expectedOutputFile; }
static inline char *wbArg_getType(wbArg_t args) { return args.type; }

static inline void wbArg_delete(wbArg_t args)
{
    for (int k = 0; k < args.inputCount; k++)
        free(args.inputFiles[k]);
    free(args.inputFiles);
}

/* ---- wbImport ----------------------------------------------------------------- */

/* A matrix: header "rows cols", then rows*cols values, whitespace-separated
 * and wrapped over any lines ("4.", "-0.5", "1e-3", CRLF all fine). A
 * header with one number n reads as n x 1, as in libwb. Unlike libwb, a
 * 1 x N matrix stays 1 x N (libwb turns it into N x 1). Returns a malloc'd
 * array (free it); a missing or malformed file is fatal, with file:line. */
static inline float *wbImport(const char *file, int *rows, int *cols)
{
    int r = 0, c = 0;
    float *data = cugrade_wb_import(file, &r, &c);
    if (rows)
        *rows = r;
    if (cols)
        *cols = c;
    return data;
}

/* A vector: libwb's vector files have a header with ONE number, the length.
 * A two-number header is read too; *length is then rows * cols. */
static inline float *wbImport(const char *file, int *length)
{
    int r = 0, c = 0;
    float *data = cugrade_wb_import(file, &r, &c);
    if (length)
        *length = r * c;
    return data;
}

/* ---- wbLog ------------------------------------------------------------------- */

enum wbLogLevel_t {
    wbLogLevel_OFF = 0,
    wbLogLevel_FATAL,
    wbLogLevel_ERROR,
    wbLogLevel_WARN,
    wbLogLevel_INFO,
    wbLogLevel_DEBUG,
    wbLogLevel_TRACE
};

namespace cugrade_wb {
/* "[TRACE] template.cu:42  message" on stdout, flushed (the line survives a
 * crash that follows). OFF means no message. */
static inline void log_line(wbLogLevel_t level, const char *name, const std::string &msg, const char *file,
                            int line)
{
    if (level == wbLogLevel_OFF)
        return;
    printf("[%s] %s:%d  %s\n", name, base_name(file), line, msg.c_str());
    fflush(stdout);
}
} // namespace cugrade_wb

#define wbLog(level, ...)                                                                          \
    ::cugrade_wb::log_line(wbLogLevel_##level, #level, ::cugrade_wb::concat(__VA_ARGS__), __FILE__, \
                           __LINE__)

/* ---- wbTime ------------------------------------------------------------------ */

enum wbTimerKind_t {
    wbTimerKind_Generic,
    wbTimerKind_IO,
    wbTimerKind_GPU,
    wbTimerKind_Copy,
    wbTimerKind_Driver,
    wbTimerKind_CopyAsync,
    wbTimerKind_Compute,
    wbTimerKind_CPUGPUOverlap
};

#define wbTime_start(kind, ...)                                                                    \
    cugrade_wb_timer_start(wbTimerKind_##kind, ::cugrade_wb::concat(__VA_ARGS__).c_str())
#define wbTime_stop(kind, ...)                                                                     \
    cugrade_wb_timer_stop(wbTimerKind_##kind, ::cugrade_wb::concat(__VA_ARGS__).c_str(), __FILE__, \
                          __LINE__)

/* ---- wbSolution -------------------------------------------------------------- */

/* Writes the rows x cols float matrix to the -o file (libwb .raw: "rows
 * cols", then one row per line, %.9g; NaNs and infinities as strtof reads
 * them back, the poison as -nan(0x7fffff)), then, when the -e file can be
 * read, compares like libwb and prints "Solution is correct." or the first
 * wrong element. Returns true only when it compared and all matched. */
static inline bool wbSolution(wbArg_t args, const void *data, int rows, int cols)
{
    return cugrade_wb_solution(&args, data, rows, cols, 0) != 0;
}

/* The same for a vector of n floats ("n", then one value per line). */
static inline bool wbSolution(wbArg_t args, const void *data, int n)
{
    return cugrade_wb_solution(&args, data, n, 1, 1) != 0;
}

/* libwb's wbExit(): leave now, with status 1. */
static inline void wbExit(void)
{
    fflush(stdout);
    exit(1);
}

/* ---- CUDA helpers -------------------------------------------------------------- */

/* CUDA 13 removed cudaThreadSynchronize (deprecated since CUDA 4), which the
 * course templates still call; the emulator's shim keeps it. */
#if !defined(__CUGRADE_EMU__) && defined(CUDART_VERSION) && CUDART_VERSION >= 13000
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
#endif

/* cudaMalloc, poisoned: the program's cudaMalloc (a macro from here on, as
 * libwb's own wb.h also redefines it) allocates with the real call and then
 * fills the buffer with 0xFF bytes, so that every float in it holds the bit
 * pattern 0xFFFFFFFF (POISON_BITS in matbin.h) until something writes it: an
 * output element the kernel never wrote reaches the output file as
 * -nan(0x7fffff) and the grader reports it as never written. Works for
 * cudaMalloc((void **)&d, n) and cudaMalloc(&d, n) with any T *d. Returns
 * the real call's error (the fill's, in the unlikely case that it fails).
 *
 * On a GPU the fill is a cudaMemset followed by a device synchronization,
 * so that it is done before the program's own work whatever stream that
 * uses. On the emulator device memory is host memory: a plain memset, which
 * the checking mode does not count as a write, so reading a buffer nothing
 * wrote is still reported (uninit-global). */
template <class T> static inline cudaError_t cugrade_wbPoisonedMalloc(T **devPtr, size_t size)
{
    cudaError_t err = cudaMalloc((void **)devPtr, size);
    if (err != cudaSuccess || !devPtr || !*devPtr || size == 0)
        return err;
#ifdef __CUGRADE_EMU__
    memset((void *)*devPtr, 0xFF, size);
#else
    cudaError_t fill = cudaMemset((void *)*devPtr, 0xFF, size);
    if (fill == cudaSuccess)
        fill = cudaDeviceSynchronize();
    if (fill != cudaSuccess)
        return fill;
#endif
    return err;
}
#define cudaMalloc cugrade_wbPoisonedMalloc

#endif
