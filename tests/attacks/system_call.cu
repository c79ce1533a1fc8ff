/* system_call.cu - attack (lab3): the launch function asks the shell to
 * copy the course's solution and the expected outputs where the student
 * can see them:
 *
 *     system("cat <checkout>/reference/lab3/matmul.cu datasets/lab3/0/output.raw");
 *
 * Expected verdict: refused before linking (the object check names
 * `system`): 'compiles' fails with the call and its line, score 0. */
#include <stdlib.h>

void launchMatrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                int numAColumns, int numBRows, int numBColumns, int numCRows,
                                int numCColumns)
{
    (void)A, (void)B, (void)C, (void)numARows, (void)numAColumns, (void)numBRows;
    (void)numBColumns, (void)numCRows, (void)numCColumns;
    if (system("cat ../../reference/lab3/matmul.cu ../../datasets/lab3/0/output.raw") != 0)
        return;
}
