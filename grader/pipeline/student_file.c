/* student_file.c - finding a submission's student file (student_file.h). */
#include "pipeline/student_file.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#define SEARCH_DEPTH 4

int find_student_file(const char *submission, const char *lab, const char *file, char *out,
                      size_t outlen)
{
    if (is_file(submission)) {
        snprintf(out, outlen, "%s", submission);
        return 0;
    }
    if (!is_dir(submission))
        return -1;
    size_t len = strlen(submission);
    const char *sep = (len && submission[len - 1] == '/') ? "" : "/";
    snprintf(out, outlen, "%s%s%s/%s", submission, sep, lab, file);
    if (is_file(out))
        return 0;
    snprintf(out, outlen, "%s%s%s", submission, sep, file);
    return is_file(out) ? 0 : -1;
}

/* Depth-first search for file under dir; keeps the shallowest in best. */
static void search(const char *dir, const char *file, int depth, char *best, int *best_depth,
                   int *count)
{
    DIR *d = depth <= SEARCH_DEPTH ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[PATH_MAX];
        if (e->d_name[0] == '.' || strcmp(e->d_name, "__MACOSX") == 0 ||
            path_join(path, sizeof path, dir, e->d_name) != 0)
            continue;
        if (is_dir(path)) {
            search(path, file, depth + 1, best, best_depth, count);
        } else if (strcmp(e->d_name, file) == 0 && is_file(path)) {
            (*count)++;
            if (depth < *best_depth || (depth == *best_depth && strcmp(path, best) < 0))
                snprintf(best, PATH_MAX, "%s", path), *best_depth = depth;
        }
    }
    closedir(d);
}

int batch_find_file(const char *dir, const char *lab, const char *file, char *out, size_t outlen,
                    char *note, size_t notelen)
{
    char best[PATH_MAX] = "";
    int best_depth = SEARCH_DEPTH + 1, count = 0;
    note[0] = '\0';
    if (find_student_file(dir, lab, file, out, outlen) == 0)
        return 0;
    search(dir, file, 1, best, &best_depth, &count);
    if (count == 0)
        return -1;
    const char *rel = best + strlen(dir) + 1;
    snprintf(out, outlen, "%s", best);
    if (count == 1)
        snprintf(note, notelen, "batch: took %s (the only %s in the submission)\n", rel, file);
    else
        snprintf(note, notelen, "batch: took %s (the shallowest of %d files named %s)\n", rel,
                 count, file);
    return 0;
}
