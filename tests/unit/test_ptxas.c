/* test_ptxas.c - nvcc's -Xptxas -v report (as nvcc 13 prints it for the
 * lab 3 reference) summarised per kernel, and removed from the compiler
 * messages shown to students. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "build/ptxas.h"

static const char *report =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z20matrixMultiplySharedPKfS0_Pfiiiiii' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z20matrixMultiplySharedPKfS0_Pfiiiiii\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 1 barriers, 2048 bytes smem\n"
    "ptxas info    : Compiling entry function 'helper_kernel' for 'sm_90'\n"
    "ptxas info    : Function properties for helper_kernel\n"
    "    24 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 255 registers, 0 bytes smem, 400 bytes cmem[0]\n"
    "ptxas info    : Compile time = 10.763 ms\n";

Test(ptxas, one_line_per_kernel)
{
    strbuf_t out = {0};
    cr_assert_eq(ptxas_summarise(report, &out), 2);
    cr_assert_str_eq(sb_str(&out),
                     "kernel matrixMultiplyShared: 32 registers, 2048 B static shared memory, 0 B "
                     "stack, no spills\n"
                     "kernel helper_kernel: 255 registers, 0 B static shared memory, 24 B stack, "
                     "spills 8 B stored / 12 B loaded (registers ran out: slow)\n");
    sb_free(&out);
}

Test(ptxas, nothing_found_in_other_logs)
{
    strbuf_t out = {0};
    cr_assert_eq(ptxas_summarise("matmul.cu(27): error: expected a \";\"\n", &out), 0);
    cr_assert_str_eq(sb_str(&out), "");
    sb_free(&out);
}

Test(ptxas, stripped_from_the_compiler_messages)
{
    strbuf_t out = {0};
    char log[2048];
    snprintf(log, sizeof log, "matmul.cu(5): warning #177-D: variable \"x\" was declared but never "
                              "referenced\n%s  after\n", report);
    ptxas_strip(log, &out);
    cr_assert_str_eq(sb_str(&out), "matmul.cu(5): warning #177-D: variable \"x\" was declared but "
                                   "never referenced\n  after\n");
    sb_free(&out);
}
