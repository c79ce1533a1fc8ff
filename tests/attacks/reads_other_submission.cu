/* reads_other_submission.cu - attack (lab3, batch): alice's launch function
 * opens bob's submission (the test passes its path in
 * CUGRADE_SANDBOX_TEST_PEER; a real attacker guesses it from the folder
 * layout) and prints it into her own results:
 *
 *     FILE *f = fopen("<submissions>/bob/matmul.cu", "r");
 *
 * Expected verdict: refused before linking (the object check names fopen
 * and getenv). Behind that check (CUGRADE_OBJCHECK=off): the sandbox shows
 * no other submission (nor the submissions folder), so the open fails and
 * bob's text appears nowhere in alice's results. */
#include <stdio.h>
#include <stdlib.h>

void launchMatrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                int numAColumns, int numBRows, int numBColumns, int numCRows,
                                int numCColumns)
{
    (void)A, (void)B, (void)C, (void)numARows, (void)numAColumns, (void)numBRows;
    (void)numBColumns, (void)numCRows, (void)numCColumns;
    const char *peer = getenv("CUGRADE_SANDBOX_TEST_PEER");
    FILE *f = peer ? fopen(peer, "r") : NULL;
    printf("peer %s: %s\n", peer ? peer : "(unset)", f ? "opened" : "not found");
    for (int c; f && (c = fgetc(f)) != EOF;)
        putchar(c);
    if (f)
        fclose(f);
}
