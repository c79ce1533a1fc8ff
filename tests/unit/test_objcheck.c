/* test_objcheck.c - the allow-list check of a student's object
 * (build/objcheck.h) on small objects compiled here with gcc, and on the
 * references compiled by bin/emucc as the grader compiles submissions:
 * what they may call passes, each refused construct is named. Runs from
 * the repository root. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build/build.h"
#include "build/objcheck.h"
#include "run/runner.h"
#include "util/util.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-objcheck-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void) { rm_rf(dir); }

/* Compiles C text with cc (or a .cu file with bin/emucc) into an object. */
static const char *compile_with(const char *compiler, const char *src, const char *text)
{
    static char obj[128];
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, text ? "s.c" : "s.cu");
    snprintf(obj, sizeof obj, "%s/s.o", dir);
    if (text)
        cr_assert_eq(write_file_atomic(path, text, strlen(text), NULL, 0), 0);
    char cc[4096];
    if (strcmp(compiler, "cc") == 0)
        cr_assert_eq(find_program("cc", cc, sizeof cc), 0, "no cc on PATH");
    else
        snprintf(cc, sizeof cc, "%s", compiler);
    char *argv[] = {cc, "-c", "-O2", "-Ilabs/common", (char *)(text ? path : src),
                    "-o", obj, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 120};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s failed: %s", compiler, r.output);
    run_result_free(&r);
    return obj;
}

static int check_c(const char *text, objcheck_result_t *r)
{
    return objcheck_object(compile_with("cc", NULL, text), r);
}

TestSuite(objcheck, .init = setup, .fini = teardown);

Test(objcheck, printing_memory_and_libm_are_allowed)
{
    objcheck_result_t r;
    int rc = check_c("#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n"
                     "float f(float x) { float *p = malloc(4); *p = sqrtf(x) + fabsf(x);"
                     " printf(\"%g\\n\", *p); fprintf(stderr, \"x\\n\"); float y = *p; free(p);"
                     " return y; }\n", &r);
    cr_assert_eq(rc, 0, "%s", r.what);
}

Test(objcheck, opening_a_file_is_refused_by_name)
{
    objcheck_result_t r;
    cr_assert_eq(check_c("#include <stdio.h>\nvoid f(void) { FILE *f = fopen(\"x\", \"w\");"
                         " fputs(\"y\", f); }\n", &r), 1);
    cr_assert_not_null(strstr(r.what, "calls fopen, which a submission may not use"), "%s",
                       r.what);
}

Test(objcheck, the_environment_processes_and_raw_calls_are_refused)
{
    const char *calls[][2] = {{"getenv(\"HOME\")", "getenv"}, {"system(\"ls\")", "system"},
                              {"syscall(1)", "syscall"}, {"(long)dlopen(\"x\", 1)", "dlopen"},
                              {"fork()", "fork"}, {"(long)mmap(0, 4, 3, 34, -1, 0)", "mmap"}};
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "#include <stdlib.h>\n#include <unistd.h>\n#include <dlfcn.h>\n"
                 "#include <sys/mman.h>\n#include <sys/syscall.h>\nlong f(void) { return (long)%s; }\n",
                 calls[i][0]);
        objcheck_result_t r;
        cr_expect_eq(check_c(text, &r), 1, "%s", calls[i][1]);
        char want[64];
        snprintf(want, sizeof want, "calls %s,", calls[i][1]);
        cr_expect_not_null(strstr(r.what, want), "%s: %s", calls[i][1], r.what);
    }
}

Test(objcheck, a_destructor_of_its_own_is_refused)
{
    objcheck_result_t r;
    cr_assert_eq(check_c("#include <stdio.h>\n__attribute__((destructor)) static void d(void)"
                         " { puts(\"bye\"); }\n", &r), 1);
    cr_assert_not_null(strstr(r.what, "has a destructor of its own"), "%s", r.what);
}

Test(objcheck, a_constructor_of_its_own_is_refused)
{
    objcheck_result_t r;
    cr_assert_eq(check_c("#include <stdio.h>\n__attribute__((constructor)) static void c(void)"
                         " { puts(\"hi\"); }\n", &r), 1);
    cr_assert_not_null(strstr(r.what, "has a constructor of its own"), "%s", r.what);
}

Test(objcheck, a_system_call_instruction_is_refused)
{
    objcheck_result_t r;
    cr_assert_eq(check_c("long f(void) { long rc; __asm__ volatile(\"syscall\" : \"=a\"(rc) :"
                         " \"a\"(39L)); return rc; }\n", &r), 1);
    cr_assert_not_null(strstr(r.what, "contains a system-call instruction (syscall"), "%s",
                       r.what);
}

Test(objcheck, file_streams_of_the_cpp_library_are_refused)
{
    cr_assert_not(objcheck_symbol_allowed("_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode"));
    cr_assert(objcheck_symbol_allowed("_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm"));
    cr_assert(objcheck_symbol_allowed("printf@GLIBC_2.2.5"));
    cr_assert(objcheck_symbol_allowed("expf"));
    cr_assert_not(objcheck_symbol_allowed("expand"));
}

Test(objcheck, the_references_as_the_emulator_compiles_them_pass, .timeout = 120)
{
    const char *refs[] = {"reference/lab2/matmul.cu", "reference/lab3/matmul.cu",
                          "reference/dotprod/dotprod.cu", "student/lab3/matmul.cu"};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        objcheck_result_t r;
        int rc = objcheck_object(compile_with("bin/emucc", refs[i], NULL), &r);
        cr_expect_eq(rc, 0, "%s: %s", refs[i], r.what);
    }
}

Test(objcheck, an_unreadable_object_is_a_grader_fault)
{
    objcheck_result_t r;
    cr_assert_eq(objcheck_object("/nonexistent/s.o", &r), -1);
    cr_assert_not_null(strstr(r.what, "could not read the compiled submission"), "%s", r.what);
}

/* A submission that declares the emulator's internals itself (to write or
 * erase findings) is refused: only the entry points emucc's code calls are
 * allowed, by exact name. */
Test(objcheck, the_emulators_internals_are_refused)
{
    cr_assert_not(objcheck_symbol_allowed("_ZN7cugrade3emu9diag_statEPKcy"));
    cr_assert_not(objcheck_symbol_allowed("_ZN7cugrade3emu11finding_addENS0_9diag_kindEmmPKcz"));
    cr_assert_not(objcheck_symbol_allowed("__cugrade_findings"));
    cr_assert_not(objcheck_symbol_allowed("cugrade_fiber_switch"));
    cr_assert_not(objcheck_symbol_allowed("cudaGraphDebugDotPrint"));
    cr_assert(objcheck_symbol_allowed(
        "_ZN7cugrade6launchERKNS_11launch_siteEPKNS_13launch_configEPFvPKvES7_PKNS_11launch_argsE"));
    cr_assert(objcheck_symbol_allowed("__cugrade_syncthreads"));
    cr_assert(objcheck_symbol_allowed("__tsan_read4"));
    cr_assert(objcheck_symbol_allowed("cudaMemcpy"));
    cr_assert(objcheck_symbol_allowed("cugrade_wb_import"));
}

/* The refusal names the line of the first call, not a comment or a string
 * that mentions it, nor a longer name that contains it. */
Test(objcheck, the_refused_call_is_located_in_the_source)
{
    const char *text = "#include <stdio.h>\n"                  /* 1 */
                       "/* fopen is not allowed here */\n"      /* 2 */
                       "static const char *s = \"fopen(\";\n"   /* 3 */
                       "int my_fopen2(void) { return 0; }\n"    /* 4 */
                       "void f(void) {\n"                       /* 5 */
                       "    FILE *f = fopen(s, \"r\");\n"       /* 6 */
                       "    fclose(f);\n"                       /* 7 */
                       "}\n";
    objcheck_result_t r;
    cr_assert_eq(check_c(text, &r), 1);
    cr_assert_not_null(strstr(r.what, "calls fclose, fopen,"), "%s", r.what);
    char src[128];
    snprintf(src, sizeof src, "%s/s.c", dir);
    cr_assert_eq(objcheck_locate(src, &r), 6);

    /* a constructor: the attribute's line */
    cr_assert_eq(check_c("#include <stdio.h>\n\n__attribute__((constructor))\nstatic void c(void)"
                         " { puts(\"hi\"); }\n", &r), 1);
    cr_assert_eq(objcheck_locate(src, &r), 3);

    /* a name the source does not spell (built by a macro): no line */
    cr_assert_eq(check_c("#include <stdlib.h>\n#define CAT(a, b) a##b\n"
                         "const char *f(void) { return CAT(get, env)(\"HOME\"); }\n", &r), 1);
    cr_assert_eq(objcheck_locate(src, &r), 0);
}

/* nvcc's host code (registration, launch stubs, atexit for the fat binary)
 * passes; skipped without nvcc. */
Test(objcheck, the_references_as_nvcc_compiles_them_pass, .timeout = 300)
{
    char nvcc[4096];
    if (find_program("nvcc", nvcc, sizeof nvcc) != 0)
        cr_skip("nvcc not found");
    const char *refs[] = {"reference/lab3/matmul.cu", "reference/dotprod/dotprod.cu",
                          "reference/lab3-wb/template.cu"};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        char obj[128];
        snprintf(obj, sizeof obj, "%s/g.o", dir);
        char *argv[] = {nvcc, "-c", "-O3", "-arch=sm_90", "-Ilabs/common", (char *)refs[i], "-o",
                        obj, NULL};
        run_spec_t spec = {.argv = argv, .timeout_s = 240};
        run_result_t rr;
        run_one(&spec, &rr);
        cr_assert(rr.exited && rr.exit_code == 0, "nvcc failed: %s", rr.output);
        run_result_free(&rr);
        objcheck_result_t r;
        cr_expect_eq(objcheck_object(obj, &r), 0, "%s: %s", refs[i], r.what);
    }
}

/* A stream made with flags (or a priority) may be one that does not wait for
 * the default stream, where the harness times and checks the launches
 * (tests/attacks/waits_on_own_stream.cu): refused, and why; cudaStreamCreate's
 * streams wait for it. */
Test(objcheck, streams_that_need_not_wait_for_the_default_stream_are_refused)
{
    cr_assert_not(objcheck_symbol_allowed("cudaStreamCreateWithFlags"));
    cr_assert_not(objcheck_symbol_allowed("cudaStreamCreateWithPriority"));
    cr_assert(objcheck_symbol_allowed("cudaStreamCreate"));
    cr_assert(objcheck_symbol_allowed("cudaStreamSynchronize"));
    objcheck_result_t r;
    cr_assert_eq(check_c("typedef struct s *stream_t;\n"
                         "int cudaStreamCreateWithFlags(stream_t *, unsigned);\n"
                         "int f(stream_t *s) { return cudaStreamCreateWithFlags(s, 1u); }\n",
                         &r),
                 1);
    cr_assert_not_null(strstr(r.what, "calls cudaStreamCreateWithFlags, which a submission may "
                                      "not use"),
                       "%s", r.what);
    cr_assert_not_null(strstr(r.what, "a stream of its own must wait for the default stream"),
                       "%s", r.what);
}

/* The device's limits are the harness's: with L2 set aside for persisting
 * lines (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, ...)) and an
 * access window on its inputs, a submission would keep them in L2 across the
 * timing's flush before each rep. Refused, and why. */
Test(objcheck, changing_the_devices_limits_is_refused)
{
    cr_assert_not(objcheck_symbol_allowed("cudaDeviceSetLimit"));
    cr_assert(objcheck_symbol_allowed("cudaDeviceGetLimit"));
    objcheck_result_t r;
    cr_assert_eq(check_c("int cudaDeviceSetLimit(int, unsigned long);\n"
                         "int f(void) { return cudaDeviceSetLimit(6, 1ul << 25); }\n",
                         &r),
                 1);
    cr_assert_not_null(strstr(r.what, "calls cudaDeviceSetLimit, which a submission may not use"),
                       "%s", r.what);
    cr_assert_not_null(strstr(r.what, "; the device's limits are the harness's: L2 set aside for "
                                      "persisting lines would keep its inputs across the cache "
                                      "flush before each timed launch)"),
                       "%s", r.what);
    cr_assert_null(strstr(r.what, "a stream of its own"), "only the reason of what it calls: %s",
                   r.what);
}
