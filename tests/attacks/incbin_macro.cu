/* incbin_macro.cu - attack: as incbin_expected.cu, but ".incbin" is spelt
 * by a macro that stringifies its pieces, so no literal in the file holds
 * it: only the compiler's preprocessed output does.
 * Expected verdict: refused before compiling, from the preprocessed output:
 * "incbin_macro.cu:14: refused: ... once macros are expanded", score 0, no
 * expected output anywhere. */
#include <stdio.h>

#define TILE_WIDTH 16
#define S(x) #x

asm(".section .rodata\n.global cugrade_stolen\ncugrade_stolen:\n");
asm(S(.inc) S(bin) " \"datasets/lab3/0/output.raw\"\n");
asm(".byte 0\n.text\n");
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
