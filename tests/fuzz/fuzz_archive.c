/* fuzz_archive.c - libFuzzer harness of the submission archive reader
 * (batch/archive.c on libarchive): the input is checked from memory
 * (archive_walk without a destination, archive_read_open_memory), then
 * unpacked from memory into a scratch folder that is emptied after each
 * input. Besides the sanitizers, it checks the promises: an archive that
 * unpacks was accepted by the check pass too, and what lands on disk is only
 * regular files and folders, at most ARCHIVE_MAX_ENTRIES files (folders
 * made on the way count too: at most ARCHIVE_MAX_DEPTH per entry), at most
 * ARCHIVE_MAX_FILE_BYTES each and ARCHIVE_MAX_BYTES in all, all inside the
 * folder; every refusal names the archive. */
#include "batch/archive.h"
#include "fuzz_common.h"
#include "util/util.h"

#include <dirent.h>

typedef struct {
    int files, dirs;
    long long bytes;
} tally_t;

/* Walks what was unpacked (never following a link) and checks the caps. */
static void tally(const char *dir, tally_t *t, int depth)
{
    DIR *d = opendir(dir);
    if (!d || depth > ARCHIVE_MAX_DEPTH + 1)
        abort();
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[4096];
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (path_join(path, sizeof path, dir, e->d_name) != 0 || lstat(path, &st) != 0)
            abort();
        if (!(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
            abort();
        if (S_ISREG(st.st_mode) ? ++t->files > ARCHIVE_MAX_ENTRIES
                                : ++t->dirs > ARCHIVE_MAX_ENTRIES * ARCHIVE_MAX_DEPTH)
            abort();
        if (S_ISREG(st.st_mode) && (st.st_size > ARCHIVE_MAX_FILE_BYTES ||
                                    (t->bytes += st.st_size) > ARCHIVE_MAX_BYTES))
            abort();
        if (S_ISDIR(st.st_mode))
            tally(path, t, depth + 1);
    }
    closedir(d);
}

/* Nothing but out/ in the scratch folder: no entry escaped one level up. */
static void check_nothing_beside(const char *scratch)
{
    DIR *d = opendir(scratch);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (!d || n != 1)
        abort();
    closedir(d);
}

static void check_refusal(int rc, const char *err)
{
    if (rc != 0 && strncmp(err, "fuzz.zip: ", 10) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dest[128];
    char err[512];
    if (!dest[0]) {
        snprintf(dest, sizeof dest, "%s/out", fuzz_scratch());
        if (mkdir(dest, 0755) != 0)
            abort();
    }
    archive_src_t src = {.label = "fuzz.zip", .data = data, .len = size};
    int checked = archive_walk(&src, NULL, err, sizeof err);
    check_refusal(checked, err);
    int unpacked = archive_walk(&src, dest, err, sizeof err);
    check_refusal(unpacked, err);
    if (unpacked == 0 && checked != 0)
        abort();
    tally_t t = {0, 0, 0};
    tally(dest, &t, 0);
    check_nothing_beside(fuzz_scratch());
    if (t.files + t.dirs > 0 && (rm_rf(dest) != 0 || mkdir(dest, 0755) != 0))
        abort(); /* emptied only when something landed: most inputs are refused */
    return 0;
}
