/* objcheck.c - the allow-list check of a student's object (objcheck.h):
 * nm -u lists what it calls, readelf -S counts its constructors and
 * destructors, objdump -d finds system-call instructions. */
#include "build/objcheck.h"
#include "run/runner.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL_TIMEOUT_S 60
#define TOOL_OUTPUT_CAP (32u << 20)

/* Whole names a submission may call. */
static const char *const allowed_names[] = {
    /* printing to stdout and stderr (no FILE* of its own: fopen is not here) */
    "printf", "puts", "putchar", "fprintf", "fputs", "fputc", "fwrite", "fflush", "vprintf",
    "vfprintf", "snprintf", "sprintf", "vsnprintf", "stdout", "stderr", "__printf_chk",
    "__fprintf_chk", "__sprintf_chk", "__snprintf_chk", "__vfprintf_chk",
    /* memory and strings */
    "malloc", "calloc", "realloc", "free", "memcpy", "memmove", "memset", "memcmp", "strlen",
    "strcmp", "strncmp", "strcpy", "strncpy", "strcat", "strchr", "strrchr", "strstr", "strtol",
    "strtoul", "strtof", "strtod", "atoi", "atof", "abs", "labs", "qsort", "__memcpy_chk",
    "__memset_chk", "__stack_chk_fail", "exit", "abort", "__assert_fail",
    /* the C++ runtime: new and delete, exceptions, local statics, iostream's init */
    "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm", "__gxx_personality_v0",
    "_Unwind_Resume", "__cxa_begin_catch", "__cxa_end_catch", "__cxa_rethrow",
    "__cxa_allocate_exception", "__cxa_free_exception", "__cxa_throw", "__cxa_guard_acquire",
    "__cxa_guard_release", "__cxa_guard_abort", "__cxa_pure_virtual",
    /* exit-time registration: g++ registers static objects' destructors, nvcc
     * its fat binary's unregistration. A function a submission registers
     * runs with this same allow-list, so it can do nothing at exit that its
     * launch function could not do (docs/security.md). */
    "__cxa_atexit", "atexit",
    "__dso_handle", "_ZSt4cout", "_ZSt4cerr", "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
    "_ZNSt8ios_base4InitC1Ev", "_ZNSt8ios_base4InitD1Ev",
    NULL,
};

/* The emulator's public entry points that the code emucc makes calls (its
 * kernel registration, launches and device built-ins): exact names, so a
 * submission cannot declare and call the emulator's internals (which write
 * its findings). */
static const char *const emulator_names[] = {
    "cugrade_register_kernel_params", "cugrade_memcpy_to_symbol", "cugrade_memcpy_from_symbol",
    "__cugrade_threadIdx", "__cugrade_blockIdx", "__cugrade_blockDim", "__cugrade_gridDim",
    "__cugrade_syncthreads", "__cugrade_syncthreads_reduce", "__cugrade_atomic_access",
    "__cugrade_dynamic_smem",
    /* labs/common/wb.h's side in the harness's object (wb_io.cu) */
    "cugrade_wb_import", "cugrade_wb_solution", "cugrade_wb_timer_start", "cugrade_wb_timer_stop",
    NULL,
};

/* Name prefixes a submission may call: the emulator's launch (any kernel
 * signature) and its checking mode's access hooks (-fsanitize=thread's
 * calls, which report accesses and can only add findings), the CUDA
 * runtime and nvcc's registration, C++ library helpers (string, ostream,
 * the throw helpers), and libm's functions (checked by name below). */
static const char *const allowed_prefixes[] = {
    "_ZN7cugrade6launchE", "__tsan_", "cuda", "__cuda",
    "_ZNSt7__cxx1112basic_string", "_ZNSt7__cxx1119basic_ostringstream",
    "_ZNKSt7__cxx1112basic_string", "_ZNKSt7__cxx1115basic_stringbuf", "_ZSt16__ostream_insert",
    "_ZNSo", "_ZNSolsE", "_ZStlsI", "_ZNSt9basic_ios", "_ZSt19__throw_", "_ZSt20__throw_", "_ZSt24__throw_",
    "_ZSt17__throw_", NULL,
};

/* CUDA runtime calls refused whatever the prefix says (names by prefix):
 * those that reach files or the raw driver, and those that would let a
 * submission's kernels escape the timing (docs/gpu.md), with why for the
 * student. */
static const struct {
    const char *prefix, *why; /* why: NULL for the harness's files and processes */
} refused_cuda[] = {
    {"cudaGraphDebugDotPrint", NULL},
    {"cudaGetDriverEntryPoint", NULL},
    {"cudaIpcOpenMemHandle", NULL},
    {"cudaIpcGetMemHandle", NULL},
    {"cudaStreamCreateWith", /* ...Flags, ...Priority */
     "a stream of its own must wait for the default stream, where the harness times and "
     "checks its launches: cudaStreamCreate makes one"},
    {"cudaDeviceSetLimit",
     "the device's limits are the harness's: L2 set aside for persisting lines would keep its "
     "inputs across the cache flush before each timed launch"},
    {NULL, NULL},
};

/* refused_cuda's entry for name, or -1. */
static int refused_cuda_entry(const char *name)
{
    for (int i = 0; refused_cuda[i].prefix; i++)
        if (strncmp(name, refused_cuda[i].prefix, strlen(refused_cuda[i].prefix)) == 0)
            return i;
    return -1;
}

static const char *const libm[] = {
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sin", "cos",
    "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "fabs", "floor", "ceil",
    "round", "trunc", "fmod", "fma", "fmax", "fmin", "hypot", "ldexp", "frexp", "rint",
    "lrint", "lround", "nearbyint", "copysign", "erf", "erfc", NULL,
};

/* A libm function, in double, float (f) or long double (l). */
static int is_libm(const char *s)
{
    size_t n = strlen(s);
    for (int i = 0; libm[i]; i++) {
        size_t k = strlen(libm[i]);
        if (strncmp(s, libm[i], k) == 0 &&
            (n == k || (n == k + 1 && (s[k] == 'f' || s[k] == 'l'))))
            return 1;
    }
    return 0;
}

int objcheck_symbol_allowed(const char *symbol)
{
    char name[256];
    snprintf(name, sizeof name, "%s", symbol);
    char *at = strchr(name, '@'); /* "printf@GLIBC_2.2.5" */
    if (at)
        *at = '\0';
    /* a file stream of the C++ library opens files: refused whatever its prefix */
    if (strstr(name, "fstream") || strstr(name, "filebuf"))
        return 0;
    if (refused_cuda_entry(name) >= 0)
        return 0;
    for (int i = 0; allowed_names[i]; i++)
        if (strcmp(name, allowed_names[i]) == 0)
            return 1;
    for (int i = 0; emulator_names[i]; i++)
        if (strcmp(name, emulator_names[i]) == 0)
            return 1;
    for (int i = 0; allowed_prefixes[i]; i++)
        if (strncmp(name, allowed_prefixes[i], strlen(allowed_prefixes[i])) == 0)
            return 1;
    return is_libm(name);
}

/* Runs a binutils tool on obj; its output (malloc'd) or NULL with why. */
static char *tool_output(const char *tool, const char *opt1, const char *opt2, const char *obj,
                         objcheck_result_t *r)
{
    char path[4096];
    if (find_program(tool, path, sizeof path) != 0) {
        snprintf(r->what, sizeof r->what, "%s (binutils) is not installed: the compiled "
                 "submission cannot be checked", tool);
        return NULL;
    }
    char *argv[] = {path, (char *)opt1, (char *)opt2, (char *)obj, NULL};
    if (!opt2) {
        argv[2] = (char *)obj;
        argv[3] = NULL;
    }
    run_spec_t spec = {.argv = argv, .timeout_s = TOOL_TIMEOUT_S, .output_cap = TOOL_OUTPUT_CAP};
    run_result_t rr;
    run_one(&spec, &rr);
    if (!rr.exited || rr.exit_code != 0 || rr.output_truncated) {
        snprintf(r->what, sizeof r->what, "%s %s could not read the compiled submission: %.160s",
                 tool, opt1, rr.output ? rr.output : "");
        run_result_free(&rr);
        return NULL;
    }
    char *out = rr.output;
    rr.output = NULL;
    run_result_free(&rr);
    return out;
}

/* What to look for in the source for a refused symbol: the C name
 * (__isoc99_fscanf and __printf_chk-style wrappers stripped to fscanf,
 * printf), or a C++ symbol's class or function name without "basic_"
 * (std::basic_ifstream -> ifstream). */
static void source_token(const char *symbol, objcheck_result_t *r)
{
    if (r->ntokens == OBJCHECK_MAX_TOKENS)
        return;
    char *out = r->tokens[r->ntokens];
    size_t outlen = sizeof r->tokens[0];
    r->partial[r->ntokens++] = 0;
    char name[256];
    snprintf(name, sizeof name, "%.255s", symbol);
    char *at = strchr(name, '@');
    if (at)
        *at = '\0';
    const char *s = name;
    if (strncmp(s, "_Z", 2) == 0) {
        /* the longest <length><identifier> run of the mangled name */
        const char *best = NULL;
        int bestlen = 0;
        for (const char *p = s + 2; *p;) {
            if (*p >= '1' && *p <= '9') {
                char *end;
                long n = strtol(p, &end, 10);
                if (n > 0 && (size_t)n <= strlen(end)) {
                    if (n > bestlen) {
                        best = end;
                        bestlen = (int)n;
                    }
                    p = end + n;
                    continue;
                }
            }
            p++;
        }
        if (best && bestlen > 6 && strncmp(best, "basic_", 6) == 0) {
            best += 6;
            bestlen -= 6;
        }
        snprintf(out, outlen, "%.*s", best ? bestlen : 0, best ? best : "");
        r->partial[r->ntokens - 1] = 1;
        return;
    }
    if (strncmp(s, "__isoc99_", 9) == 0)
        s += 9;
    else if (strncmp(s, "__", 2) == 0)
        s += 2;
    snprintf(out, outlen, "%.95s", s);
    size_t n = strlen(out);
    if (n > 4 && strcmp(out + n - 4, "_chk") == 0)
        out[n - 4] = '\0';
}

/* The undefined symbols not on the list, from nm -u -P's "name U" lines:
 * all named (up to OBJCHECK_MAX_TOKENS), each looked for in the source. */
static int check_symbols(const char *nm_out, objcheck_result_t *r)
{
    char names[256] = "";
    int nrefused = 0;
    unsigned reasons = 0; /* refused_cuda entries with a why, by bit */
    for (const char *p = nm_out; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        char *sp = strchr(line, ' ');
        if (sp && sp[1] == 'U') {
            *sp = '\0';
            char *at = strchr(line, '@');
            if (at)
                *at = '\0';
            if (!objcheck_symbol_allowed(line)) {
                int e = refused_cuda_entry(line);
                if (e >= 0 && refused_cuda[e].why)
                    reasons |= 1u << e;
                if (nrefused < OBJCHECK_MAX_TOKENS) {
                    size_t k = strlen(names);
                    snprintf(names + k, sizeof names - k, "%s%.100s", k ? ", " : "", line);
                    source_token(line, r);
                }
                nrefused++;
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    if (nrefused == 0)
        return 0;
    char more[48] = "";
    if (nrefused > OBJCHECK_MAX_TOKENS)
        snprintf(more, sizeof more, " and %d more", nrefused - OBJCHECK_MAX_TOKENS);
    char why[320] = "";
    for (int i = 0; refused_cuda[i].prefix; i++)
        if (reasons & (1u << i)) {
            size_t k = strlen(why);
            snprintf(why + k, sizeof why - k, "; %s", refused_cuda[i].why);
        }
    snprintf(r->what, sizeof r->what,
             "calls %s%s, which a submission may not use (the harness owns files, processes, the "
             "environment and memory mappings%s)", names, more, why);
    return 1;
}

static void set_token(objcheck_result_t *r, const char *token)
{
    snprintf(r->tokens[0], sizeof r->tokens[0], "%s", token);
    r->partial[0] = 0;
    r->ntokens = 1;
}

/* The bytes of section name in readelf -SW's table, 0 when absent. */
static unsigned long section_size(const char *readelf_out, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s ", name);
    const char *p = strstr(readelf_out, key);
    if (!p)
        return 0;
    /* "[Nr] Name Type Address Off Size ...": the size is the 4th field after the name */
    char type[64], addr[64], off[64];
    unsigned long size = 0;
    if (sscanf(p + strlen(key), "%63s %63s %63s %lx", type, addr, off, &size) != 4)
        return 0;
    return size;
}

/* Functions the compiler makes for static initialisation (one per
 * translation unit: the emulator's kernel registration, nvcc's). */
static int compiler_initialisers(const char *nm_defined)
{
    int n = 0;
    for (const char *p = nm_defined; (p = strstr(p, "_GLOBAL__sub_I_")); p++)
        n++;
    for (const char *p = nm_defined; (p = strstr(p, "__sti____cudaRegisterAll")); p++)
        n++;
    return n;
}

static int check_init_fini(const char *sections, const char *nm_defined, objcheck_result_t *r)
{
    if (section_size(sections, ".fini_array") > 0 || section_size(sections, ".dtors") > 0) {
        set_token(r, "destructor");
        snprintf(r->what, sizeof r->what,
                 "has a destructor of its own (__attribute__((destructor)) or a function "
                 "registered to run at exit), which a submission may not have");
        return 1;
    }
    unsigned long entries = section_size(sections, ".init_array") / 8 +
                            section_size(sections, ".ctors") / 8;
    if (entries > (unsigned long)compiler_initialisers(nm_defined)) {
        set_token(r, "constructor");
        snprintf(r->what, sizeof r->what,
                 "has a constructor of its own (__attribute__((constructor))), which a "
                 "submission may not have");
        return 1;
    }
    return 0;
}

/* A system-call instruction in objdump -d's listing. */
static int check_instructions(const char *listing, objcheck_result_t *r)
{
    static const char *const insns[] = {"\tsyscall", "\tsysenter", "\tint    $0x80", NULL};
    for (int i = 0; insns[i]; i++)
        if (strstr(listing, insns[i])) {
            set_token(r, "asm");
            snprintf(r->what, sizeof r->what,
                     "contains a system-call instruction (%s, from inline asm), which a "
                     "submission may not have", insns[i] + 1);
            return 1;
        }
    return 0;
}

int objcheck_object(const char *obj, objcheck_result_t *r)
{
    memset(r, 0, sizeof *r);
    char *undefined = tool_output("nm", "-u", "-P", obj, r);
    char *defined = undefined ? tool_output("nm", "--defined-only", "-P", obj, r) : NULL;
    char *sections = defined ? tool_output("readelf", "-SW", NULL, obj, r) : NULL;
    char *listing = sections ? tool_output("objdump", "-d", "--no-show-raw-insn", obj, r) : NULL;
    int rc = -1;
    if (listing)
        rc = check_symbols(undefined, r) || check_init_fini(sections, defined, r) ||
             check_instructions(listing, r);
    free(undefined);
    free(defined);
    free(sections);
    free(listing);
    return rc;
}

/* Blanks out comments and the contents of string and character literals
 * (keeping line breaks), so that a name in a comment is never taken for
 * the call. */
static void strip_comments_and_strings(char *t)
{
    enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR } st = CODE;
    for (char *p = t; *p; p++) {
        switch (st) {
        case CODE:
            if (p[0] == '/' && p[1] == '/')
                st = LINE_COMMENT;
            else if (p[0] == '/' && p[1] == '*')
                st = BLOCK_COMMENT, *p++ = ' ';
            else if (*p == '"')
                st = STRING;
            else if (*p == '\'')
                st = CHAR;
            if (st == LINE_COMMENT || st == BLOCK_COMMENT)
                *p = ' ';
            break;
        case LINE_COMMENT:
            if (*p == '\n')
                st = CODE;
            else
                *p = ' ';
            break;
        case BLOCK_COMMENT:
            if (p[0] == '*' && p[1] == '/') {
                p[0] = p[1] = ' ';
                p++;
                st = CODE;
            } else if (*p != '\n') {
                *p = ' ';
            }
            break;
        case STRING:
        case CHAR:
            if (*p == '\\' && p[1] && p[1] != '\n')
                *p++ = ' ', *p = ' ';
            else if (*p == (st == STRING ? '"' : '\'') || *p == '\n')
                st = CODE;
            else
                *p = ' ';
            break;
        }
    }
}

static int is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The first line of text (already stripped) naming token; 0 if none. */
static int first_line_of(const char *text, const char *token, int partial)
{
    size_t tlen = strlen(token);
    int line = 1;
    for (const char *p = text; *p && tlen; p++) {
        if (*p == '\n') {
            line++;
            continue;
        }
        /* the token, ending where an identifier ends ("ifstream" inside
         * "std::ifstream" counts, "fopen" inside "my_fopen2" does not) */
        if (strncmp(p, token, tlen) == 0 && !is_ident_char(p[tlen]) &&
            (p == text || !is_ident_char(p[-1]) || partial))
            return line;
    }
    return 0;
}

int objcheck_locate(const char *src, objcheck_result_t *r)
{
    r->line = 0;
    size_t len = 0;
    char *text = r->ntokens ? read_file(src, &len, NULL, 0) : NULL;
    if (!text)
        return 0;
    strip_comments_and_strings(text);
    for (int i = 0; i < r->ntokens; i++) {
        int line = first_line_of(text, r->tokens[i], r->partial[i]);
        if (line > 0 && (r->line == 0 || line < r->line))
            r->line = line;
    }
    free(text);
    return r->line;
}
