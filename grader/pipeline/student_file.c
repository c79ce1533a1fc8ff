/* student_file.c - finding a submission's student file (student_file.h): the
 * places a student puts it, then a search a few folders deep, then the one
 * .cu file there is; and, when none is found, what was near. */
#include "pipeline/student_file.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_NEAR 5

typedef struct {
    const char *file;     /* the lab's student file name */
    char best[PATH_MAX];  /* the shallowest file of that name */
    int best_depth, count;
    char only_cu[PATH_MAX]; /* a .cu file, and how many there are */
    int cu_count;
    char near[MAX_NEAR][PATH_MAX]; /* names like it: Matmul.cu, matmul.cpp, matmul.cu.txt */
    int nnear;
} search_t;

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A name a student may have meant for file: the same but for case, the same
 * stem with another extension, or file with more after it. */
static int near_miss(const char *name, const char *file)
{
    const char *dot = strrchr(file, '.');
    size_t stem = dot ? (size_t)(dot - file) : strlen(file);
    if (strcmp(name, file) == 0)
        return 0;
    return strcasecmp(name, file) == 0 || strncasecmp(name, file, strlen(file)) == 0 ||
           (strncasecmp(name, file, stem) == 0 && name[stem] == '.');
}

/* Depth-first over dir (hidden folders and __MACOSX skipped). */
static void search(const char *dir, int depth, search_t *s)
{
    DIR *d = depth <= STUDENT_FILE_DEPTH ? opendir(dir) : NULL;
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[PATH_MAX];
        if (e->d_name[0] == '.' || strcmp(e->d_name, "__MACOSX") == 0 ||
            path_join(path, sizeof path, dir, e->d_name) != 0)
            continue;
        if (is_dir(path)) {
            search(path, depth + 1, s);
            continue;
        }
        if (!is_file(path))
            continue;
        if (strcmp(e->d_name, s->file) == 0) {
            s->count++;
            if (depth < s->best_depth || (depth == s->best_depth && strcmp(path, s->best) < 0))
                snprintf(s->best, sizeof s->best, "%s", path), s->best_depth = depth;
        } else if (near_miss(e->d_name, s->file) && s->nnear < MAX_NEAR) {
            snprintf(s->near[s->nnear++], PATH_MAX, "%s", path);
        }
        if (has_suffix(e->d_name, ".cu") && s->cu_count++ == 0)
            snprintf(s->only_cu, sizeof s->only_cu, "%s", path);
    }
    closedir(d);
}

/* The place a student puts it: <dir>/<lab>/<file>, then <dir>/<file>. */
static int usual_place(const char *dir, const char *lab, const char *file, char *out,
                       size_t outlen)
{
    size_t len = strlen(dir);
    const char *sep = (len && dir[len - 1] == '/') ? "" : "/";
    snprintf(out, outlen, "%s%s%s/%s", dir, sep, lab, file);
    if (is_file(out))
        return 0;
    snprintf(out, outlen, "%s%s%s", dir, sep, file);
    return is_file(out) ? 0 : -1;
}

/* Where it looked and, when there are some, the near misses, into note. */
static void not_found(const char *dir, const char *lab, const search_t *s, char *note,
                      size_t len)
{
    int n = snprintf(note, len, "no %s found in %s (looked for %s/%s/%s and %s/%s, then "
                                "%d folders deep; no .cu file there or more than one)",
                     s->file, dir, dir, lab, s->file, dir, s->file, STUDENT_FILE_DEPTH);
    for (int i = 0; i < s->nnear && n > 0 && (size_t)n < len; i++)
        n += snprintf(note + n, len - (size_t)n, "%s%s", i == 0 ? "; there is " : ", ",
                      s->near[i] + strlen(dir) + 1);
    if (s->nnear && n > 0 && (size_t)n < len)
        snprintf(note + n, len - (size_t)n, ": rename it %s", s->file);
}

int student_file_find(const char *submission, const char *lab, const char *file, char *out,
                      size_t outlen, char *note, size_t notelen)
{
    note[0] = '\0';
    if (is_file(submission)) {
        snprintf(out, outlen, "%s", submission);
        return 0;
    }
    if (!is_dir(submission)) {
        snprintf(note, notelen, "%s is neither a file nor a folder", submission);
        return -1;
    }
    if (usual_place(submission, lab, file, out, outlen) == 0)
        return 0;
    search_t *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->file = file;
    s->best_depth = STUDENT_FILE_DEPTH + 1;
    search(submission, 1, s);
    size_t skip = strlen(submission) + (submission[strlen(submission) - 1] != '/');
    int rc = 0;
    if (s->count > 0) {
        snprintf(out, outlen, "%s", s->best);
        if (s->count == 1)
            snprintf(note, notelen, "took %s (the only %s in the submission)\n", s->best + skip,
                     file);
        else
            snprintf(note, notelen, "took %s (the shallowest of %d files named %s)\n",
                     s->best + skip, s->count, file);
    } else if (s->cu_count == 1) {
        snprintf(out, outlen, "%s", s->only_cu);
        snprintf(note, notelen, "took %s as %s (the only .cu file in the submission)\n",
                 s->only_cu + skip, file);
    } else {
        not_found(submission, lab, s, note, notelen);
        rc = -1;
    }
    free(s);
    return rc;
}
