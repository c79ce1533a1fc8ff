/* read_expected.cu - lab 3 test submission: the launch function tries to
 * read the expected output, datasets/lab3/0/output.raw, from the cugrade tree
 * (found through /proc/self/cwd's ancestors, CUGRADE_SANDBOX_TEST_DS, and the
 * working folder) and prints "READ-EXPECTED-OK" if any open succeeds.
 * Expected verdict: the message never appears; datasets fail (no output). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static bool try_open(const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return false;
    std::fclose(f);
    std::printf("READ-EXPECTED-OK %s\n", path.c_str());
    return true;
}

void launchMatrixMultiplyShared(const float *, const float *, float *, int, int, int, int, int, int)
{
    const char *ds = std::getenv("CUGRADE_SANDBOX_TEST_DS");
    if (ds)
        try_open(std::string(ds) + "/0/output.raw");
    std::string dir = "/proc/self/cwd";
    for (int up = 0; up < 8; up++) {
        try_open(dir + "/datasets/lab3/0/output.raw");
        dir += "/..";
    }
}
