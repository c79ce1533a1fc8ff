/* reads_hidden_expected.cu - attack (issue 14): the launch function looks
 * for the hidden datasets' expected outputs where the grader makes them,
 * next to the scratch folder that holds its run folder (its working folder
 * <scratch>/run-hidden-K, so <scratch>-hidden/K/output.raw), and copies
 * what it finds into C. It calls open/readlink, which the object check
 * refuses: the test turns the check off (CUGRADE_OBJCHECK=off) to try the
 * sandbox alone. Expected verdict: the folder is not there for the program,
 * so every hidden dataset is never written and the score is 0. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

/* Reads a libwb .raw matrix of rows*cols values into out (at most cap). */
static int read_expected(const char *path, float *out, int cap)
{
    FILE *f = std::fopen(path, "r");
    if (!f)
        return 0;
    int rows = 0, cols = 0, n = 0;
    if (std::fscanf(f, "%d %d", &rows, &cols) == 2)
        while (n < rows * cols && n < cap && std::fscanf(f, "%f", &out[n]) == 1)
            n++;
    std::fclose(f);
    std::printf("READ-HIDDEN-OK %s\n", path);
    return n;
}

__global__ void matrixMultiplyShared(const float *, const float *, float *, int, int, int, int,
                                     int, int)
{
}

void launchMatrixMultiplyShared(const float *, const float *, float *deviceC, int, int, int, int,
                                int numCRows, int numCColumns)
{
    char cwd[4096], path[4200];
    ssize_t len = readlink("/proc/self/cwd", cwd, sizeof cwd - 1);
    if (len <= 0)
        return;
    cwd[len] = '\0';
    char *slash = std::strrchr(cwd, '/');
    if (!slash || std::strncmp(slash + 1, "run-hidden-", 11) != 0)
        return;
    *slash = '\0';
    std::snprintf(path, sizeof path, "%s-hidden/%s/output.raw", cwd, slash + 12);
    int count = numCRows * numCColumns;
    float *values = (float *)std::malloc(sizeof(float) * (size_t)count);
    if (values && read_expected(path, values, count) == count)
        cudaMemcpy(deviceC, values, sizeof(float) * (size_t)count, cudaMemcpyHostToDevice);
    std::free(values);
}
