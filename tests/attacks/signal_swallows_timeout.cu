/* signal_swallows_timeout.cu - attack (lab3): the launch function ignores
 * every signal a time limit might send (SIGTERM, SIGINT, SIGALRM, SIGXCPU,
 * SIGHUP) and then loops forever on the host, hoping the grader waits.
 *
 * Expected verdict: refused before linking (the object check names
 * `signal`). Behind that check (CUGRADE_OBJCHECK=off): the run is killed at
 * its time limit with SIGKILL, which cannot be caught; every dataset fails
 * with "time limit" and the grading ends. */
#include <signal.h>

void launchMatrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                int numAColumns, int numBRows, int numBColumns, int numCRows,
                                int numCColumns)
{
    (void)A, (void)B, (void)C, (void)numARows, (void)numAColumns, (void)numBRows;
    (void)numBColumns, (void)numCRows, (void)numCColumns;
    const int sigs[] = {SIGTERM, SIGINT, SIGALRM, SIGXCPU, SIGHUP};
    for (int i = 0; i < 5; i++)
        signal(sigs[i], SIG_IGN);
    for (volatile unsigned long spin = 0;; spin++) {
    }
}
