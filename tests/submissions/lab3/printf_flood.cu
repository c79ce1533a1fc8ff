/* printf_flood.cu - lab 3 test submission: the launch function prints 1 GB
 * (16384 lines of 64 KiB) and computes nothing. Expected verdict: grading
 * finishes, the output kept is cut at the cap, and every dataset fails. */
#include <cstdio>
#include <cstring>

void launchMatrixMultiplyShared(const float *, const float *, float *, int, int, int, int, int, int)
{
    static char line[65536];
    std::memset(line, 'x', sizeof line - 1);
    line[sizeof line - 2] = '\n';
    for (int i = 0; i < 16384; i++)
        std::fputs(line, stdout);
}
