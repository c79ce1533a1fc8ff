/* incbin_expected.cu - attack: the assembler's .incbin copies dataset 0's
 * expected output into the program while it is compiled (gas reads the
 * path relative to the compiler's folder, the checkout when graded from
 * it); the launch function prints it, so it would reach results.json. The
 * directive is split over two literals, which the compiler joins.
 * Expected verdict: refused before compiling: "compiles" fails with
 * "incbin_expected.cu:17: refused: the submission has the assembler
 * directive .incbin ...", score 0, no expected output anywhere. */
#include <stdio.h>

#define TILE_WIDTH 16

asm(".section .rodata\n"
    ".global cugrade_stolen\n"
    "cugrade_stolen:\n"
    ".inc"
    "bin \"datasets/lab3/0/output.raw\"\n"
    ".byte 0\n"
    ".text\n");
extern "C" const char cugrade_stolen[];

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                     int numAColumns, int numBRows, int numBColumns, int numCRows,
                                     int numCColumns)
{
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    printf("%s\n", cugrade_stolen);
}
