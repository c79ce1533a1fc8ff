/* write_results.cu - lab 3 test submission: the launch function tries to
 * create a file in the results folder named by CUGRADE_SANDBOX_TEST_RESULTS
 * (set by the test) and prints "WRITE-RESULTS-OK" if it succeeds.
 * Expected verdict: the file is never created; datasets fail (no output). */
#include <cstdio>
#include <cstdlib>
#include <string>

void launchMatrixMultiplyShared(const float *, const float *, float *, int, int, int, int, int, int)
{
    const char *dir = std::getenv("CUGRADE_SANDBOX_TEST_RESULTS");
    if (!dir)
        return;
    FILE *f = std::fopen((std::string(dir) + "/stray.txt").c_str(), "w");
    if (f) {
        std::fputs("written by a student\n", f);
        std::fclose(f);
        std::printf("WRITE-RESULTS-OK\n");
    }
}
