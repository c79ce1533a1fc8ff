/* test_rules.c - a lab's rules (build/rules.h), rule fp32-simt: the text
 * checks on samples of what each tool prints (cuobjdump -sass with HMMA and
 * the other tensor-core opcodes against FFMA and HFMA2.MMA, cuobjdump -ptx,
 * nm -P, readelf -d) and on source text, then the checks on real files: a
 * submission's folder, objects and programs built here with cc (and, where
 * nvcc and cuobjdump are installed, a CUDA object with wmma). Runs from the
 * repository root. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/rules.h"
#include "run/runner.h"
#include "util/util.h"

#define FP32 RULE_BIT(RULE_FP32_SIMT)

static rule_finding_t f;

static int sass(const char *text) { return rules_scan_sass(FP32, text, &f); }
static int ptx(const char *text) { return rules_scan_ptx(FP32, text, &f); }
static int nm(const char *text) { return rules_scan_symbols(FP32, text, &f); }
static int src(const char *text) { return rules_scan_source(FP32, text, strlen(text), "s.cu", &f); }

static void expect(const char *what, const char *evidence)
{
    cr_expect_str_eq(f.what, what);
    cr_expect(strstr(f.evidence, evidence), "evidence '%s' lacks '%s'", f.evidence, evidence);
}

/* ---- names ------------------------------------------------------------------------- */

Test(rules, names)
{
    rule_id_t id;
    cr_assert_eq(rule_parse("fp32-simt", &id), 0);
    cr_assert_eq(id, RULE_FP32_SIMT);
    cr_assert_str_eq(rule_name(id), "fp32-simt");
    cr_assert_eq(rule_parse("fp32", &id), -1);
    char names[64];
    rule_names(names, sizeof names);
    cr_assert_str_eq(names, "fp32-simt");
    cr_assert(strstr(rule_summary(RULE_FP32_SIMT), "tensor cores"));
}

Test(rules, message_names_the_rule_and_where)
{
    char msg[512];
    cr_assert_eq(src("#include <cuda_runtime.h>\n#include <mma.h>\n"), 1);
    rule_message(&f, msg, sizeof msg);
    cr_assert_str_eq(msg, "rule fp32-simt: the submission uses tensor cores (s.cu:2: #include "
                          "<mma.h>)");
    cr_assert_eq(sass("\t\tFunction : _Z1kPf\n        /*0010*/  HMMA.16816.F32 R4, R4, R8, R4 ;\n"),
                 1);
    rule_message(&f, msg, sizeof msg);
    cr_assert_str_eq(msg, "rule fp32-simt: the submission uses tensor cores (HMMA.16816.F32 in "
                          "the SASS of _Z1kPf)");
}

/* ---- SASS -------------------------------------------------------------------------- */

#define SASS_HEAD "\n\tcode for sm_90\n\t\tFunction : _Z3k16PK6__halfS1_Pf\n"
#define SASS_LINE(addr, insn) "        /*" addr "*/                   " insn " ;   /* 0x0 */\n"

Test(rules, sass_fp32_code_passes)
{
    const char *listing = SASS_HEAD SASS_LINE("0000", "LDC R1, c[0x0][0x28]")
        SASS_LINE("0150", "HFMA2.MMA R2, -RZ, RZ, 0, 0") SASS_LINE("0160", "FFMA R4, R8, R9, R4")
        SASS_LINE("0170", "@P0 LDGSTS.E.BYPASS.128 [R3], desc[UR4][R4.64]")
        SASS_LINE("0180", "LDS.128 R8, [R2+0x400]") SASS_LINE("0190", "EXIT");
    cr_assert_eq(sass(listing), 0, "HFMA2.MMA loads constants in FP32 code: %s", f.evidence);
    cr_assert_eq(sass(""), 0);
    cr_assert_eq(rules_scan_sass(0, SASS_HEAD SASS_LINE("0010", "HMMA.16816.F32 R4, R4, R8, R4"),
                                 &f), 0, "no rule, no finding");
}

Test(rules, sass_tensor_core_opcodes)
{
    const char *insns[] = {"HMMA.16816.F32 R20, R4.reuse, R16, RZ", "HMMA.1684.F32.TF32 R4, R10, R0, RZ",
                           "IMMA.16816.S8.S8 R8, R4.ROW, R9.COL, RZ", "DMMA.8x8x4 R4, R4, R6, RZ",
                           "BMMA.88128.AND.POPC R4, R4, R6, RZ",
                           "HGMMA.64x16x8.F32.TF32 R24, gdesc[UR4], RZ, !UPT, gsb0",
                           "IGMMA.64x64x32.S8.S8 R24, gdesc[UR4], RZ", "QGMMA.64x64x32.F32.E4M3.E4M3 R24, gdesc[UR4], RZ",
                           "UTCHMMA gdesc[UR4], gdesc[UR6], tmem[UR8], tmem[UR10], idesc[UR12], UPT",
                           NULL};
    for (int i = 0; insns[i]; i++) {
        char listing[512];
        snprintf(listing, sizeof listing, SASS_HEAD "        /*00a0*/    %s ;  /* 0x0 */\n", insns[i]);
        cr_expect_eq(sass(listing), 1, "%s not found", insns[i]);
        cr_expect_eq(strncmp(f.evidence, insns[i], strcspn(insns[i], " ")), 0, "%s: %s", insns[i],
                     f.evidence);
    }
    cr_assert_eq(sass(SASS_HEAD SASS_LINE("00b0", "@!P1 HMMA.1688.F32.TF32 R8, R8, R6, RZ")), 1,
                 "predicated");
    expect("uses tensor cores", "HMMA.1688.F32.TF32 in the SASS of _Z3k16PK6__halfS1_Pf");
    cr_assert_eq(sass(SASS_HEAD "        /*00c0*/  { HMMA.16816.F32 R4, R4, R8, R4 ;  /* 0x0 */\n"), 1,
                 "a dual-issue brace");
}

/* ---- PTX --------------------------------------------------------------------------- */

Test(rules, ptx_fp32_code_passes)
{
    const char *text = ".version 9.0\n.target sm_90\n.visible .entry _Z5sgemmPKfS0_Pf(\n"
                       "\tld.shared.v4.f32 {%f1697, %f1698, %f1699, %f1700}, [%r875+38016];\n"
                       "\tfma.rn.f32 %f2032, %f1692, %f1724, %f1856;\n"
                       "\tcp.async.ca.shared.global [%r1], [%rd2], 4, %r3;\n"
                       "\t// mma.sync and .f16 in a comment\n"
                       "$L__BB0_2:\n\tst.global.f32 [%rd4], %f1;\n";
    cr_assert_eq(ptx(text), 0, "%%f1692 is a register, not .f16: %s", f.evidence);
}

Test(rules, ptx_tensor_cores_half_and_tf32)
{
    cr_assert_eq(ptx(".visible .entry _Z4kptxPfPKjS1_(\n\tmma.sync.aligned.m16n8k8.row.col.f32.tf32"
                     ".tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};\n"),
                 1);
    expect("uses tensor cores", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 in the PTX of "
                                "_Z4kptxPfPKjS1_");
    cr_assert_eq(ptx("\twmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2}, [%rd6], %r1;\n"), 1);
    expect("uses tensor cores", "wmma.load.a");
    cr_assert_eq(ptx("\twgmma.fence.sync.aligned;\n"), 1);
    cr_assert_eq(ptx("\t{fma.rn.f16x2 %r1,%r2,%r3,%r4;\n"), 1);
    expect("uses reduced precision (FP16, BF16 or FP8 types)", "fma.rn.f16x2");
    cr_assert_eq(ptx("\t@%p1 cvt.rn.bf16.f32 %rs1, %f1;\n"), 1);
    expect("uses reduced precision (FP16, BF16 or FP8 types)", "cvt.rn.bf16.f32");
    cr_assert_eq(ptx("\tcvt.rna.tf32.f32 %r1, %f1;\n"), 1);
    expect("uses TF32 (tensor cores at reduced precision)", "cvt.rna.tf32.f32");
}

/* ---- symbols and libraries ----------------------------------------------------------- */

Test(rules, nm_library_symbols)
{
    cr_assert_eq(nm("cudaMalloc U\n_Z11sgemmKernelPKfS0_Pfiii T 0 10\nmemset U\n"
                    "_Z7executev T 0 4\nprintf U\n"), 0, "%s", f.evidence);
    cr_assert_eq(nm("cudaMalloc U\ncublasSgemm_v2 U\n"), 1);
    expect("uses cuBLAS, a library", "calls cublasSgemm_v2, in its compiled object");
    cr_assert_eq(nm("cublasLtMatmul@libcublasLt.so.13 U\n"), 1);
    expect("uses cuBLASLt, a library", "calls cublasLtMatmul");
    cr_assert_eq(nm("cudnnConvolutionForward U\n"), 1);
    expect("uses cuDNN, a library", "cudnnConvolutionForward");
    cr_assert_eq(nm("_ZN7cutlass4gemm6device4GemmIfE3runEv W 0 40\n"), 1);
    expect("uses CUTLASS, a library", "contains _ZN7cutlass4gemm");
    cr_assert_eq(nm("_ZN4cute4gemmIfEEvv W 0 4\n"), 1);
    expect("uses CUTLASS (CuTe), a library", "_ZN4cute");
    cr_assert_eq(nm("_ZN6thrust6detail13inner_productIfEEvv W 0 4\n"), 1);
    expect("uses Thrust, a library", "_ZN6thrust");
}

Test(rules, readelf_needed_libraries)
{
    const char *fine = "Dynamic section at offset 0x2d98 contains 28 entries:\n"
                       "  Tag        Type                         Name/Value\n"
                       " 0x0000000000000001 (NEEDED)             Shared library: [libstdc++.so.6]\n"
                       " 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]\n"
                       " 0x000000000000000c (INIT)               0x1000\n";
    cr_assert_eq(rules_scan_needed(FP32, fine, &f), 0);
    cr_assert_eq(rules_scan_needed(FP32, " 0x1 (NEEDED)  Shared library: [libcublas.so.13]\n", &f),
                 1);
    expect("uses cuBLAS, a library", "the linked program needs libcublas.so.13");
    cr_assert_eq(rules_scan_needed(FP32, " 0x1 (NEEDED)  Shared library: [libcudnn.so.9]\n", &f), 1);
    expect("uses cuDNN, a library", "libcudnn.so.9");
}

/* ---- source -------------------------------------------------------------------------- */

Test(rules, source_fp32_code_passes)
{
    const char *text = "#include <cuda_runtime.h>\n#include <cuda_pipeline.h>\n"
                       "// no wmma, no #include <mma.h>, no __half, no cublasSgemm here\n"
                       "/* tf32 */ __global__ void k(const float4 *a, float *c, int n) {\n"
                       "  int half = n / 2; float x = 1e5f + 0x1fp3 + 2.5e-3f;\n"
                       "  float cute = 0, thrust = 1; c[half] = a[0].x * x + cute + thrust;\n"
                       "  printf(\"wmma and cuBLAS are not used\\n\");\n}\n"
                       "void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K) {}\n";
    cr_assert_eq(src(text), 0, "%s", f.evidence);
}

Test(rules, source_headers)
{
    struct { const char *text, *what, *evidence; int line; } cases[] = {
        {"\n#include <mma.h>\n", "uses tensor cores", "#include <mma.h>", 2},
        {"#  include   <crt/mma.h>\n", "uses tensor cores", "<crt/mma.h>", 1},
        {"%:include <cublas_v2.h>\n", "uses cuBLAS, a library", "#include <cublas_v2.h>", 1},
        {"#include \"cublasLt.h\"\n", "uses cuBLAS, a library", "#include \"cublasLt.h\"", 1},
        {"#include <cutlass/gemm/device/gemm.h>\n", "uses CUTLASS, a library", "<cutlass/", 1},
        {"#include <thrust/inner_product.h>\n", "uses Thrust, a library", "<thrust/", 1},
        {"#include <cudnn.h>\n", "uses cuDNN, a library", "<cudnn.h>", 1},
        {"#include <cuda_fp16.h>\n", "uses reduced precision (FP16, BF16 or FP8 types)",
         "<cuda_fp16.h>", 1},
        {"#include <cuda_bf16.h>\n", "uses reduced precision (FP16, BF16 or FP8 types)",
         "<cuda_bf16.h>", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_expect_eq(src(cases[i].text), 1, "%s", cases[i].text);
        expect(cases[i].what, cases[i].evidence);
        cr_expect_eq(f.line, cases[i].line, "%s", cases[i].text);
        cr_expect_str_eq(f.file, "s.cu");
    }
}

Test(rules, source_names)
{
    struct { const char *text, *what, *evidence; } cases[] = {
        {"using namespace nvcuda;\n", "uses tensor cores", "nvcuda"},
        {"wmma::fragment<wmma::matrix_a, 16, 16, 16, float> a;", "uses tensor cores", "wmma::"},
        {"x = __hmma_m16n16k16_mma_f32f32(a, b);", "uses tensor cores", "__hmma_m16n16k16"},
        {"cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);", "uses cuBLAS, a library", "cublasSetMathMode"},
        {"cublasSgemm(h, a, b);", "uses cuBLAS, a library", "cublasSgemm"},
        {"float y = __float_to_tf32(x);", "uses TF32 (tensor cores at reduced precision)",
         "__float_to_tf32"},
        {"__half h = x;", "uses reduced precision (FP16, BF16 or FP8 types)", "__half"},
        {"__nv_bfloat162 v;", "uses reduced precision (FP16, BF16 or FP8 types)", "__nv_bfloat162"},
        {"y = __float2half_rn(x);", "uses reduced precision (FP16, BF16 or FP8 types)",
         "__float2half_rn"},
        {"thrust::device_vector<float> v;", "uses Thrust, a library", "thrust::"},
        {"cute :: Tensor t;", "uses CUTLASS (CuTe), a library", "cute::"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_expect_eq(src(cases[i].text), 1, "%s", cases[i].text);
        expect(cases[i].what, cases[i].evidence);
        cr_expect_eq(f.line, 1);
    }
}

Test(rules, source_inline_ptx)
{
    cr_assert_eq(src("void f() {\n  asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32"
                     ".f32 {%0}, {%1}, {%2}, {%0};\" : \"+f\"(c) : \"r\"(a), \"r\"(b));\n}\n"), 1);
    expect("uses tensor cores", "\"mma.sync\" in a string literal (inline PTX)");
    cr_assert_eq(f.line, 2);
    cr_assert_eq(src("asm(\"wg\" \"mma\" \".fence.sync.aligned;\");"), 1, "joined literals");
    expect("uses tensor cores", "wgmma");
    cr_assert_eq(src("asm(\"fma.rn.f16x2 %0, %1, %2, %3;\" : \"=r\"(d) : \"r\"(a));"), 1);
    expect("uses reduced precision (FP16, BF16 or FP8 types)", "\".f16\"");
    cr_assert_eq(src("asm(\"fma.rn.f32 %0, %1, %2, %3;\" : \"=f\"(d) : \"f\"(a), \"f\"(b), "
                     "\"f\"(c));"), 0, "FP32 inline PTX: %s", f.evidence);
}

/* ---- files ----------------------------------------------------------------------------- */

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-rules-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void) { rm_rf(dir); }

static const char *put(const char *name, const char *text)
{
    static char path[4][128];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 128, "%s/%s", dir, name);
    cr_assert_eq(write_file_atomic(p, text, strlen(text), NULL, 0), 0);
    return p;
}

static void run_ok(char *const *argv)
{
    run_spec_t spec = {.argv = argv, .timeout_s = 120};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s failed: %s", argv[0], r.output);
    run_result_free(&r);
}

TestSuite(rules_files, .init = setup, .fini = teardown);

Test(rules_files, source_walks_the_submissions_own_includes)
{
    char err[512] = "";
    put("tiles.h", "#pragma once\n\n#include <mma.h>\n");
    put("helpers.h", "#include \"tiles.h\"\n");
    const char *sgemm = put("sgemm.cu", "#include \"helpers.h\"\n#include \"wb.h\"\n"
                                        "void launchSgemm() {}\n");
    cr_assert_eq(rules_check_source(FP32, sgemm, &f, err, sizeof err), 1, "%s", err);
    cr_assert(strstr(f.file, "tiles.h"), "%s", f.file);
    cr_assert_eq(f.line, 3);
    put("tiles.h", "#pragma once\n");
    cr_assert_eq(rules_check_source(FP32, sgemm, &f, err, sizeof err), 0, "%s", f.evidence);
    cr_assert_eq(rules_check_source(0, sgemm, &f, err, sizeof err), 0);
    put("sgemm.cu", "__half x;\n");
    cr_assert_eq(rules_check_source(FP32, sgemm, &f, err, sizeof err), 1);
    cr_assert_str_eq(f.file, sgemm, "the submission's file as given");
    cr_assert_eq(rules_check_source(FP32, "/nonexistent/sgemm.cu", &f, err, sizeof err), -1);
}

Test(rules_files, object_symbols_and_program_libraries)
{
    char err[512] = "", cc[4096], obj[128], so[128], prog[128], soname[64] = "-Wl,-soname,libcublas.so.99";
    cr_assert_eq(find_program("cc", cc, sizeof cc), 0);
    const char *c = put("s.c", "extern int cublasSgemm_v2(void);\nint f(void) { return cublasSgemm_v2(); }\n");
    snprintf(obj, sizeof obj, "%s/s.o", dir);
    char *compile[] = {cc, "-c", (char *)c, "-o", obj, NULL};
    run_ok(compile);
    cr_assert_eq(rules_check_object(FP32, obj, NULL, &f, err, sizeof err), 1, "%s", err);
    expect("uses cuBLAS, a library", "calls cublasSgemm_v2");
    /* a library that calls itself libcublas, and a program linked with it */
    const char *lib = put("lib.c", "int cublasSgemm_v2(void) { return 0; }\n");
    snprintf(so, sizeof so, "%s/libcublas.so", dir);
    char *shared[] = {cc, "-shared", "-fPIC", soname, (char *)lib, "-o", so, NULL};
    run_ok(shared);
    const char *main_c = put("main.c", "int f(void);\nint main(void) { return f(); }\n");
    snprintf(prog, sizeof prog, "%s/prog", dir);
    char *link[] = {cc, (char *)main_c, obj, so, "-o", prog, NULL};
    run_ok(link);
    cr_assert_eq(rules_check_program(FP32, prog, &f, err, sizeof err), 1, "%s", err);
    expect("uses cuBLAS, a library", "the linked program needs libcublas.so.99");
    const char *clean = put("clean.c", "int main(void) { return 0; }\n");
    char *plain[] = {cc, (char *)clean, "-o", prog, NULL};
    run_ok(plain);
    cr_assert_eq(rules_check_program(FP32, prog, &f, err, sizeof err), 0, "%s", f.evidence);
    cr_assert_eq(rules_check_object(FP32, "/nonexistent.o", NULL, &f, err, sizeof err), -1);
}

/* The challenge's test submissions: what the source stage sees, and what
 * it cannot (hides_mma.cu's PTX is made by the preprocessor: the object
 * stage finds it, test below and tests/gpu/challenge.sh). */
Test(rules_files, the_challenge_submissions_sources)
{
    char err[512] = "";
    const char *dir_ = "tests/submissions/challenge/";
    struct { const char *file; int rc; const char *evidence; } cases[] = {
        {"uses_wmma.cu", 1, "#include <mma.h>"},
        {"calls_cublas.cu", 1, "#include <cublas_v2.h>"},
        {"calls_cublas_hidden.cu", 0, NULL},
        {"tf32_helper.cu", 1, "USE_TF32"},
        {"hides_mma.cu", 0, NULL},
        {"register_tiled.cu", 0, NULL},
        {"assumes_multiple_of_128.cu", 0, NULL},
        {"lab3_tiles.cu", 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s%s", dir_, cases[i].file);
        cr_expect_eq(rules_check_source(FP32, path, &f, err, sizeof err), cases[i].rc, "%s: %s %s",
                     cases[i].file, f.what, f.evidence);
        if (cases[i].evidence)
            cr_expect_str_eq(f.evidence, cases[i].evidence);
    }
    cr_assert_eq(rules_check_source(FP32, "reference/challenge/sgemm.cu", &f, err, sizeof err), 0,
                 "the reference: %s %s", f.what, f.evidence);
    cr_assert_eq(rules_check_source(FP32, "student/challenge/sgemm.cu", &f, err, sizeof err), 0,
                 "the stub, whose comments name what is forbidden: %s %s", f.what, f.evidence);
}

/* The gpu backend's object: nvcc's, with its SASS and PTX, where nvcc and
 * cuobjdump (with nvdisasm) are installed. */
Test(rules_files, cuda_object_sass, .timeout = 300)
{
    char nvcc[4096], cuobjdump[4096], err[512] = "", obj[128];
    if (find_program("nvcc", nvcc, sizeof nvcc) != 0 &&
        find_program("/usr/local/cuda/bin/nvcc", nvcc, sizeof nvcc) != 0)
        cr_skip("nvcc is not installed: the SASS check of a CUDA object is not tested here");
    if (find_program("cuobjdump", cuobjdump, sizeof cuobjdump) != 0 ||
        find_program("nvdisasm", err, sizeof err) != 0)
        cr_skip("cuobjdump or nvdisasm (CUDA toolkit) is not installed: the SASS check of a CUDA "
                "object is not tested here (make gpu-test tests it on a GPU machine)");
    const char *cu = put("w.cu", "#include <mma.h>\nusing namespace nvcuda;\n"
                         "__global__ void k(const float *a, float *c) {\n"
                         "  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, "
                         "wmma::row_major> fa;\n"
                         "  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, "
                         "wmma::row_major> fb;\n"
                         "  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;\n"
                         "  wmma::fill_fragment(fc, 0.0f);\n  wmma::load_matrix_sync(fa, a, 16);\n"
                         "  wmma::load_matrix_sync(fb, a, 16);\n  wmma::mma_sync(fc, fa, fb, fc);\n"
                         "  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);\n}\n");
    snprintf(obj, sizeof obj, "%s/w.o", dir);
    char *compile[] = {nvcc, "-c", "-arch=sm_90", (char *)cu, "-o", obj, NULL};
    run_ok(compile);
    cr_assert_eq(rules_check_object(FP32, obj, cuobjdump, &f, err, sizeof err), 1, "%s", err);
    expect("uses tensor cores", "HMMA.1684.F32.TF32 in the SASS of _Z1kPKfPf");
    /* PTX the source never spells (stringized macro arguments): the SASS has it */
    char *hidden[] = {nvcc, "-c", "-O3", "-arch=sm_90", "tests/submissions/challenge/hides_mma.cu",
                      "-o", obj, NULL};
    run_ok(hidden);
    cr_assert_eq(rules_check_object(FP32, obj, cuobjdump, &f, err, sizeof err), 1, "%s", err);
    expect("uses tensor cores", "HMMA.1688.F32 in the SASS of _Z10sgemmHidesPKfS0_Pfiii");
    /* the challenge's reference: FFMA only (its HFMA2.MMA load constants) */
    char *reference[] = {nvcc, "-c", "-O3", "-arch=sm_90", "reference/challenge/sgemm.cu", "-o", obj,
                         NULL};
    run_ok(reference);
    cr_assert_eq(rules_check_object(FP32, obj, cuobjdump, &f, err, sizeof err), 0, "%s %s",
                 f.what, f.evidence);
}
