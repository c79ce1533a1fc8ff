/* fills_disk.cu - attack (lab3): the launch function writes 4 GiB of
 * zeros into its run folder and its /tmp, hoping to fill the grading
 * machine's disk (and stall every other submission of the batch).
 *
 * Expected verdict: refused before linking (the object check names fopen
 * and fwrite). Behind that check (CUGRADE_OBJCHECK=off): no file of the
 * run grows past the sandbox's file-size limit (64 MiB, RLIMIT_FSIZE; the
 * write fails or SIGXFSZ ends the run), its /tmp is a 64 MiB tmpfs of its
 * own, every dataset fails, and the grading ends normally. */
#include <stdio.h>
#include <string.h>

static void fill(const char *path)
{
    static char zeros[1 << 20];
    FILE *f = fopen(path, "wb");
    for (int i = 0; f && i < 4096; i++)
        if (fwrite(zeros, 1, sizeof zeros, f) != sizeof zeros)
            break;
    if (f)
        fclose(f);
}

void launchMatrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                int numAColumns, int numBRows, int numBColumns, int numCRows,
                                int numCColumns)
{
    (void)A, (void)B, (void)C, (void)numARows, (void)numAColumns, (void)numBRows;
    (void)numBColumns, (void)numCRows, (void)numCColumns;
    fill("fill.bin");
    fill("/tmp/fill.bin");
}
