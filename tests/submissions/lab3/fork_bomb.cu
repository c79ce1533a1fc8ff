/* fork_bomb.cu - lab 3 test submission: the launch function forks in a loop
 * and every child sleeps forever. Capped at 3000 forks (pid_max may be 32768
 * and root ignores RLIMIT_NPROC) so a failed containment cannot take the
 * machine down. Expected verdict: every dataset fails by the time limit, and
 * no process of it survives the grading. */
#include <unistd.h>

void launchMatrixMultiplyShared(const float *, const float *, float *, int, int, int, int, int, int)
{
    for (int i = 0; i < 3000; i++) {
        pid_t pid = fork();
        if (pid == 0)
            for (;;)
                pause();
    }
    for (;;)
        pause();
}
