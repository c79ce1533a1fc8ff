/* rules.h - a lab's rules (lab.json "rules"), enforced on what a submission
 * builds rather than trusted. One rule exists:
 *
 *   fp32-simt   FP32 arithmetic on the CUDA cores only (the challenge lab):
 *               no tensor cores (wmma, mma.sync, wgmma, tcgen05; TF32), no
 *               reduced precision (half, bfloat16, FP8 types in the kernel's
 *               math), no library GEMM (cuBLAS, cuBLASLt, cuDNN, CUTLASS/CuTe,
 *               Thrust).
 *
 * It is checked at each stage of a build (build_rules.h):
 *   source    the submission's file and the files of its folder it includes,
 *             before anything is compiled: the headers it includes
 *             (<mma.h>, <cublas_v2.h>, <cuda_fp16.h>, <cutlass/...>), the
 *             names it uses (wmma::, cublasSgemm, __half, ...tf32...) and
 *             its inline assembly (mma.sync, wgmma, .f16). So on the
 *             emulator, which has no <mma.h>, the rule is named before the
 *             compile error.
 *   object    the compiled object's symbols (nm: cublas*, cudnn*, cutlass::,
 *             thrust::), and on the gpu backend its SASS (cuobjdump -sass: no
 *             tensor-core instruction, i.e. no opcode ending in MMA: HMMA,
 *             IMMA, DMMA, BMMA, QMMA, OMMA, Hopper's HGMMA/IGMMA/QGMMA/BGMMA,
 *             Blackwell's UTC*MMA; HFMA2.MMA is an FP16 FMA that ptxas also
 *             uses to load constants in FP32 code, so it is judged from the
 *             PTX instead) and its PTX (cuobjdump -ptx: no mma/wmma/wgmma/
 *             tcgen05 instruction, no .f16/.bf16/.e4m3/.e5m2/.tf32 type).
 *   program   the linked program's shared libraries (readelf -d: no
 *             libcublas, libcublasLt, libcudnn, libnvblas).
 * A broken rule is not a compile error: the build goes on (the object
 * check, objcheck.h, may still refuse what it refuses), correctness is
 * graded as usual, and the performance test scores 0 with the rule's
 * message (pipeline/grade_perf.c). */
#ifndef CUGRADE_RULES_H
#define CUGRADE_RULES_H

#include <limits.h>
#include <stddef.h>

typedef enum { RULE_FP32_SIMT = 0, RULE_COUNT } rule_id_t;

#define RULE_BIT(id) (1u << (id))

/* "fp32-simt", as lab.json spells it. */
const char *rule_name(rule_id_t id);
/* 0 and *out set when name is a rule's, else -1. */
int rule_parse(const char *name, rule_id_t *out);
/* "fp32-simt, ..." for messages. */
void rule_names(char *buf, size_t len);
/* What the rule allows, one sentence for the student. */
const char *rule_summary(rule_id_t id);

/* What broke a rule, and where. */
typedef struct {
    rule_id_t rule;
    char what[96];        /* "uses tensor cores", "uses cuBLAS, a library GEMM", ... */
    char evidence[320];   /* "#include <mma.h>", "HMMA.16816.F32 in the SASS of ..." */
    char file[PATH_MAX];  /* the source file it was found in ("" for the object or program) */
    int line;             /* its line there (0: none) */
    char token[96];       /* an object's finding: the name to look for in the source
                           * ("cublasSgemm", "cutlass"; "" for an instruction) */
} rule_finding_t;

/* "rule fp32-simt: the submission uses tensor cores (sgemm.cu:3: #include
 * <mma.h>)". */
void rule_message(const rule_finding_t *f, char *buf, size_t len);

/* The checks on text, for the rules in mask (RULE_BIT of each). 1 with f
 * filled at the first finding, else 0. */

/* Source text (a file's bytes; file names it in the finding). */
int rules_scan_source(unsigned mask, const char *text, size_t len, const char *file,
                      rule_finding_t *f);
/* nm -P's lines ("name type ..."), defined and undefined symbols. */
int rules_scan_symbols(unsigned mask, const char *nm_out, rule_finding_t *f);
/* readelf -d's dynamic section ("(NEEDED) Shared library: [libcublas.so.13]"). */
int rules_scan_needed(unsigned mask, const char *dynamic, rule_finding_t *f);
/* cuobjdump -sass's listing ("Function : name", then one instruction a line,
 * after its address in a comment: "HMMA.16816.F32 R4, R12, R16, R4 ;"). */
int rules_scan_sass(unsigned mask, const char *sass, rule_finding_t *f);
/* cuobjdump -ptx's listing. */
int rules_scan_ptx(unsigned mask, const char *ptx, rule_finding_t *f);

/* The checks on files: 0 clean, 1 broken (f filled), -1 the check could not
 * run (a grader fault; err says why). */

/* The submission's file src and the files of its own folder it includes. */
int rules_check_source(unsigned mask, const char *src, rule_finding_t *f, char *err,
                       size_t errlen);
/* The compiled object; with cuobjdump (the gpu backend's; NULL on the
 * emulator, whose object is host code only) its SASS and PTX too. */
int rules_check_object(unsigned mask, const char *obj, const char *cuobjdump, rule_finding_t *f,
                       char *err, size_t errlen);
/* The linked program. */
int rules_check_program(unsigned mask, const char *program, rule_finding_t *f, char *err,
                        size_t errlen);

#endif
