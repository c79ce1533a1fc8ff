/* rules.c - a lab's rules (rules.h): their names and messages, the object
 * and program stages (nm, readelf -d, cuobjdump -sass and -ptx, each read
 * as text), and the tools run to get that text. The source stage is
 * rules_source.c. */
#include "build/rules.h"
#include "run/runner.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL_TIMEOUT_S 120
#define LISTING_CAP ((size_t)64 << 20) /* of a tool's text; a larger listing is not checked */

static const char *const rule_names_[RULE_COUNT] = {"fp32-simt"};

static const char *const rule_summaries[RULE_COUNT] = {
    "FP32 arithmetic on the CUDA cores only (FFMA): no tensor cores (wmma, mma.sync, wgmma, "
    "TF32), no half, bfloat16 or FP8 math, and no library GEMM (cuBLAS, cuBLASLt, cuDNN, "
    "CUTLASS, Thrust): the kernel is the submission's own",
};

const char *rule_name(rule_id_t id) { return id < RULE_COUNT ? rule_names_[id] : "?"; }

const char *rule_summary(rule_id_t id) { return id < RULE_COUNT ? rule_summaries[id] : ""; }

int rule_parse(const char *name, rule_id_t *out)
{
    for (int i = 0; i < RULE_COUNT; i++)
        if (strcmp(name, rule_names_[i]) == 0) {
            *out = (rule_id_t)i;
            return 0;
        }
    return -1;
}

void rule_names(char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < RULE_COUNT && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", rule_names_[i]);
}

void rule_message(const rule_finding_t *f, char *buf, size_t len)
{
    char where[PATH_MAX + 32] = "";
    if (f->file[0] && f->line > 0)
        snprintf(where, sizeof where, "%.4000s:%d: ", f->file, f->line);
    else if (f->file[0])
        snprintf(where, sizeof where, "%.4000s: ", f->file);
    snprintf(buf, len, "rule %s: the submission %s (%s%s)", rule_name(f->rule), f->what, where,
             f->evidence);
}

static void found(rule_finding_t *f, const char *what, const char *evidence)
{
    memset(f, 0, sizeof *f);
    f->rule = RULE_FP32_SIMT;
    snprintf(f->what, sizeof f->what, "%s", what);
    snprintf(f->evidence, sizeof f->evidence, "%s", evidence);
}

/* The next line of text at *p (moved past it) into line; 0 at the end. */
static int next_line(const char **p, char *line, size_t len)
{
    if (!*p || !**p)
        return 0;
    const char *nl = strchr(*p, '\n');
    size_t n = nl ? (size_t)(nl - *p) : strlen(*p);
    snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1), *p);
    *p = nl ? nl + 1 : *p + n;
    return 1;
}

/* ---- symbols (nm -P) -------------------------------------------------------------- */

/* The library a C symbol belongs to, or NULL. */
static const char *c_library(const char *name)
{
    static const char *const libs[][2] = {{"cublasLt", "cuBLASLt"}, {"cublas", "cuBLAS"},
                                          {"cudnn", "cuDNN"},       {"nvblas", "NVBLAS"},
                                          {NULL, NULL}};
    for (int i = 0; libs[i][0]; i++)
        if (strncmp(name, libs[i][0], strlen(libs[i][0])) == 0)
            return libs[i][1];
    return NULL;
}

/* The library of a mangled C++ symbol: one of its <length><name> parts is
 * a library's namespace. */
static const char *mangled_library(const char *name)
{
    static const char *const spaces[][2] = {{"cutlass", "CUTLASS"}, {"cute", "CUTLASS (CuTe)"},
                                            {"thrust", "Thrust"},   {"cublas", "cuBLAS"},
                                            {NULL, NULL}};
    if (strncmp(name, "_Z", 2) != 0)
        return NULL;
    for (const char *p = name + 2; *p;) {
        if (*p < '1' || *p > '9') {
            p++;
            continue;
        }
        char *end;
        long n = strtol(p, &end, 10);
        if (n <= 0 || (size_t)n > strlen(end)) {
            p = end;
            continue;
        }
        for (int i = 0; spaces[i][0]; i++)
            if ((size_t)n == strlen(spaces[i][0]) && strncmp(end, spaces[i][0], (size_t)n) == 0)
                return spaces[i][1];
        p = end + n;
    }
    return NULL;
}

/* What names a library symbol in the source: a C name without cuBLAS's
 * "_v2" (cublasSgemm is a macro for cublasSgemm_v2), or a C++ symbol's
 * library namespace. */
static void source_token(const char *name, char *token, size_t len)
{
    static const char *const spaces[] = {"cutlass", "cute", "thrust", "cublas", NULL};
    if (strncmp(name, "_Z", 2) == 0) {
        token[0] = '\0';
        for (int i = 0; spaces[i] && !token[0]; i++) {
            char part[48];
            snprintf(part, sizeof part, "%zu%s", strlen(spaces[i]), spaces[i]);
            if (strstr(name, part))
                snprintf(token, len, "%s", spaces[i]);
        }
        return;
    }
    size_t n = strlen(name);
    if (n > 3 && strcmp(name + n - 3, "_v2") == 0)
        n -= 3;
    snprintf(token, len, "%.*s", (int)n, name);
}

int rules_scan_symbols(unsigned mask, const char *nm_out, rule_finding_t *f)
{
    char line[1024];
    if (!(mask & RULE_BIT(RULE_FP32_SIMT)))
        return 0;
    for (const char *p = nm_out; next_line(&p, line, sizeof line);) {
        char name[600], type[8] = "";
        if (sscanf(line, "%599s %7s", name, type) < 1)
            continue;
        char *at = strchr(name, '@');
        if (at)
            *at = '\0';
        const char *lib = c_library(name);
        if (!lib)
            lib = mangled_library(name);
        if (!lib)
            continue;
        char what[96], evidence[320];
        snprintf(what, sizeof what, "uses %s, a library", lib);
        snprintf(evidence, sizeof evidence, "%s %.200s, in its compiled object",
                 strcmp(type, "U") == 0 ? "calls" : "contains", name);
        found(f, what, evidence);
        source_token(name, f->token, sizeof f->token);
        return 1;
    }
    return 0;
}

/* ---- shared libraries (readelf -d) -------------------------------------------------- */

int rules_scan_needed(unsigned mask, const char *dynamic, rule_finding_t *f)
{
    static const char *const libs[][2] = {{"libcublasLt", "cuBLASLt"}, {"libcublas", "cuBLAS"},
                                          {"libcudnn", "cuDNN"},       {"libnvblas", "NVBLAS"},
                                          {"libcutlass", "CUTLASS"},   {NULL, NULL}};
    char line[1024];
    if (!(mask & RULE_BIT(RULE_FP32_SIMT)))
        return 0;
    for (const char *p = dynamic; next_line(&p, line, sizeof line);) {
        const char *open = strchr(line, '[');
        if (!strstr(line, "(NEEDED)") || !open)
            continue;
        for (int i = 0; libs[i][0]; i++)
            if (strncmp(open + 1, libs[i][0], strlen(libs[i][0])) == 0) {
                char what[96], evidence[320], lib[256];
                snprintf(lib, sizeof lib, "%.*s", (int)strcspn(open + 1, "]"), open + 1);
                snprintf(what, sizeof what, "uses %s, a library", libs[i][1]);
                snprintf(evidence, sizeof evidence, "the linked program needs %s", lib);
                found(f, what, evidence);
                return 1;
            }
    }
    return 0;
}

/* ---- SASS (cuobjdump -sass) ----------------------------------------------------------- */

/* The opcode of a SASS instruction line (its address in a comment, then
 * "@P0 HMMA.16816.F32 R4, ..."), modifiers included, into op; 0 when the
 * line is no instruction. */
static int sass_opcode(const char *line, char *op, size_t len)
{
    const char *p = line + strspn(line, " \t");
    if (strncmp(p, "/*", 2) != 0 || !strchr("0123456789abcdef", p[2]))
        return 0;
    p = strstr(p, "*/");
    if (!p)
        return 0;
    p += 2;
    p += strspn(p, " \t{");
    if (*p == '@') /* a predicate: @P0, @!UP1, @PT */
        p += strcspn(p, " \t"), p += strspn(p, " \t");
    if (*p < 'A' || *p > 'Z')
        return 0;
    size_t n = strcspn(p, " \t;");
    snprintf(op, len, "%.*s", (int)(n < len ? n : len - 1), p);
    return 1;
}

/* A tensor-core instruction: its opcode, before the modifiers, ends in MMA
 * (HMMA, IMMA, DMMA, BMMA, QMMA, OMMA, HGMMA, IGMMA, QGMMA, BGMMA,
 * UTCHMMA, ...). HFMA2.MMA is HFMA2, an FMA of the FP32/FP16 pipes. */
static int is_tensor_opcode(const char *op)
{
    size_t n = strcspn(op, ".");
    return n >= 3 && strncmp(op + n - 3, "MMA", 3) == 0;
}

int rules_scan_sass(unsigned mask, const char *sass, rule_finding_t *f)
{
    char line[1024], function[160] = "", op[96];
    if (!(mask & RULE_BIT(RULE_FP32_SIMT)))
        return 0;
    for (const char *p = sass; next_line(&p, line, sizeof line);) {
        const char *fn = strstr(line, "Function : ");
        if (fn) {
            snprintf(function, sizeof function, "%.150s", fn + strlen("Function : "));
            continue;
        }
        if (!sass_opcode(line, op, sizeof op) || !is_tensor_opcode(op))
            continue;
        char evidence[320];
        snprintf(evidence, sizeof evidence, "%s in the SASS of %s", op,
                 function[0] ? function : "its kernels");
        found(f, "uses tensor cores", evidence);
        return 1;
    }
    return 0;
}

/* ---- PTX (cuobjdump -ptx) ------------------------------------------------------------- */

/* What a PTX opcode ("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
 * "cvt.rn.f16.f32") breaks: "uses ..." or NULL. */
static const char *ptx_breaks(const char *op)
{
    char copy[160];
    snprintf(copy, sizeof copy, "%s", op);
    const char *what = NULL;
    int first = 1;
    for (char *save = NULL, *part = strtok_r(copy, ".", &save); part;
         part = strtok_r(NULL, ".", &save), first = 0) {
        if (first && (strcmp(part, "mma") == 0 || strcmp(part, "wmma") == 0 ||
                      strcmp(part, "wgmma") == 0 || strcmp(part, "tcgen05") == 0))
            return "uses tensor cores";
        if (strcmp(part, "tf32") == 0)
            what = "uses TF32 (tensor cores at reduced precision)";
        else if (!what && (strncmp(part, "f16", 3) == 0 || strncmp(part, "bf16", 4) == 0 ||
                           strncmp(part, "e4m3", 4) == 0 || strncmp(part, "e5m2", 4) == 0 ||
                           strncmp(part, "e2m1", 4) == 0 || strncmp(part, "e2m3", 4) == 0 ||
                           strncmp(part, "e3m2", 4) == 0))
            what = "uses reduced precision (FP16, BF16 or FP8 types)";
    }
    return what;
}

/* Each instruction of a PTX line (';'-separated, braces and a predicate
 * skipped): the first that breaks the rule, with its opcode in op. */
static const char *ptx_line_breaks(char *line, char *op, size_t oplen)
{
    char *comment = strstr(line, "//");
    if (comment)
        *comment = '\0';
    for (char *save = NULL, *insn = strtok_r(line, ";", &save); insn;
         insn = strtok_r(NULL, ";", &save)) {
        insn += strspn(insn, " \t{}");
        if (*insn == '@')
            insn += strcspn(insn, " \t"), insn += strspn(insn, " \t");
        if (*insn == '.' || *insn == '$' || *insn == '\0')
            continue; /* a directive, a label */
        snprintf(op, oplen, "%.*s", (int)strcspn(insn, " \t,{}"), insn);
        const char *what = ptx_breaks(op);
        if (what)
            return what;
    }
    return NULL;
}

int rules_scan_ptx(unsigned mask, const char *ptx, rule_finding_t *f)
{
    char line[2048], function[160] = "", op[160];
    if (!(mask & RULE_BIT(RULE_FP32_SIMT)))
        return 0;
    for (const char *p = ptx; next_line(&p, line, sizeof line);) {
        const char *entry = strstr(line, ".entry ");
        if (!entry)
            entry = strstr(line, ".func ");
        if (entry) {
            entry = strchr(entry, ' ') + 1;
            snprintf(function, sizeof function, "%.*s", (int)strcspn(entry, " ("), entry);
            continue;
        }
        const char *what = ptx_line_breaks(line, op, sizeof op);
        if (!what)
            continue;
        char evidence[320];
        snprintf(evidence, sizeof evidence, "%.120s in the PTX of %s", op,
                 function[0] ? function : "its kernels");
        found(f, what, evidence);
        return 1;
    }
    return 0;
}

/* ---- the tools ------------------------------------------------------------------------- */

/* The text a tool prints (malloc'd; *cut when it was larger than the cap),
 * or NULL with err saying why. */
static char *tool_text(char *const *argv, int *cut, char *err, size_t errlen)
{
    run_spec_t spec = {.argv = argv, .timeout_s = TOOL_TIMEOUT_S, .output_cap = LISTING_CAP,
                       .stop_after_bytes = LISTING_CAP};
    run_result_t rr;
    run_one(&spec, &rr);
    *cut = rr.output_truncated || rr.output_stopped;
    if (!*cut && (!rr.exited || rr.exit_code != 0)) {
        char why[160];
        run_describe(&rr, &spec, why, sizeof why);
        snprintf(err, errlen, "%s %s %s (checking the lab's rules): %.300s", argv[0], argv[1], why,
                 rr.output ? rr.output : "");
        run_result_free(&rr);
        return NULL;
    }
    char *out = rr.output;
    rr.output = NULL;
    run_result_free(&rr);
    return out;
}

typedef int (*scan_fn)(unsigned, const char *, rule_finding_t *);

/* Runs tool (found in PATH unless a path) with opt on file and scans its
 * text: 0, 1 (f), -1 (err). A listing past the cap cannot be checked: the
 * rule counts as broken, since nothing says it holds. */
static int scan_tool(unsigned mask, const char *tool, const char *opt, const char *file,
                     scan_fn scan, rule_finding_t *f, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (strchr(tool, '/'))
        snprintf(path, sizeof path, "%s", tool);
    else if (find_program(tool, path, sizeof path) != 0) {
        snprintf(err, errlen, "%s is not installed: the lab's rules cannot be checked", tool);
        return -1;
    }
    char *argv[] = {path, (char *)opt, (char *)file, NULL};
    int cut = 0;
    char *text = tool_text(argv, &cut, err, errlen);
    if (!text)
        return -1;
    int rc = scan(mask, text, f);
    if (!rc && cut) {
        char evidence[320];
        snprintf(evidence, sizeof evidence, "%s %s printed more than %zu MiB, too much to check",
                 path_base(path), opt, LISTING_CAP >> 20);
        found(f, "cannot be checked", evidence);
        rc = 1;
    }
    free(text);
    return rc;
}

int rules_check_object(unsigned mask, const char *obj, const char *cuobjdump, rule_finding_t *f,
                       char *err, size_t errlen)
{
    if (!mask)
        return 0;
    int rc = scan_tool(mask, "nm", "-P", obj, rules_scan_symbols, f, err, errlen);
    if (rc == 0 && cuobjdump)
        rc = scan_tool(mask, cuobjdump, "-sass", obj, rules_scan_sass, f, err, errlen);
    if (rc == 0 && cuobjdump)
        rc = scan_tool(mask, cuobjdump, "-ptx", obj, rules_scan_ptx, f, err, errlen);
    return rc;
}

int rules_check_program(unsigned mask, const char *program, rule_finding_t *f, char *err,
                        size_t errlen)
{
    if (!mask)
        return 0;
    return scan_tool(mask, "readelf", "-d", program, rules_scan_needed, f, err, errlen);
}
