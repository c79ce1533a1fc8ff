/* prints_environment.cu - attack (lab3): prints every environment variable
 * (the TA's tokens, LD_PRELOAD, paths to the grader's files) into its own
 * output, hoping the report shows them:
 *
 *     extern char **environ; for (char **e = environ; *e; e++) printf("%s\n", *e);
 *
 * Expected verdict: refused before linking (the object check names
 * `environ`). Behind that check (CUGRADE_OBJCHECK=off): the sandboxed run's
 * environment holds only PATH, the locale, CUDA's and a few of cugrade's
 * own settings, HOME=/tmp and TMPDIR=/tmp; no TA variable, no LD_PRELOAD. */
#include <stdio.h>

extern char **environ;

void launchMatrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                int numAColumns, int numBRows, int numBColumns, int numCRows,
                                int numCColumns)
{
    (void)A, (void)B, (void)C, (void)numARows, (void)numAColumns, (void)numBRows;
    (void)numBColumns, (void)numCRows, (void)numCColumns;
    for (char **e = environ; *e; e++)
        printf("ENV %s\n", *e);
}
