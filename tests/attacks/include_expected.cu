/* include_expected.cu - attack: include a dataset's expected output, so that
 * the compiler's error message (shown to the student) prints its first
 * lines: "64 64" and the first row of dataset 0's answer.
 * Expected verdict: refused before compiling: "compiles" fails with
 * "include_expected.cu:9: refused: ... by a path with ".."", score 0, and
 * none of the expected output in the results or the report. */

float stolen[] = {
#include "../../datasets/lab3/0/output.raw"
};

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                     int numAColumns, int numBRows, int numBColumns, int numCRows,
                                     int numCColumns)
{
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
}
