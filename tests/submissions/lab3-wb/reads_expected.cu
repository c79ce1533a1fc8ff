/* reads_expected.cu - a lab3-wb program that cheats: instead of launching
 * its (empty) kernel it opens the expected output named by -e and copies it
 * into its solution. Where the expected output cannot be read (the grader
 * hides it from the program) its solution is all zeros. */
#include <wb.h>

#define wbCheck(stmt)                                                     \
  do {                                                                    \
    cudaError_t err = stmt;                                               \
    if (err != cudaSuccess) {                                             \
      wbLog(ERROR, "Failed to run stmt ", #stmt);                         \
      return -1;                                                          \
    }                                                                     \
  } while (0)

__global__ void matrixMultiplyShared(float *A, float *B, float *C,
                                     int numARows, int numAColumns,
                                     int numBRows, int numBColumns,
                                     int numCRows, int numCColumns) {
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int numARows, numAColumns, numBRows, numBColumns;
  float *hostA = (float *)wbImport(wbArg_getInputFile(args, 0), &numARows, &numAColumns);
  float *hostB = (float *)wbImport(wbArg_getInputFile(args, 1), &numBRows, &numBColumns);
  int numCRows = numARows, numCColumns = numBColumns;
  float *hostC = (float *)calloc((size_t)numCRows * numCColumns, sizeof(float));

  const char *expected = wbArg_getExpectedOutputFile(args);
  FILE *f = expected ? fopen(expected, "r") : NULL;
  if (f) {
    int rows, cols;
    if (fscanf(f, "%d %d", &rows, &cols) == 2 && rows == numCRows && cols == numCColumns)
      for (int i = 0; i < rows * cols; i++)
        if (fscanf(f, "%f", &hostC[i]) != 1)
          break;
    fclose(f);
    wbLog(TRACE, "copied the answer from ", expected);
  } else {
    wbLog(TRACE, "cannot open the expected output ", expected ? expected : "(none)");
  }

  wbSolution(args, hostC, numCRows, numCColumns);
  free(hostA);
  free(hostB);
  free(hostC);
  return 0;
}
