/* datasets_made.c - the dataset stage's first step: a lab's datasets that
 * are too large to ship in the repository are listed in its manifest
 * (datasets/<lab>/manifest.txt: "folder shape seed values [generated]") with
 * the word "generated", kept out of git, and made here from the manifest
 * with the lab kind's generator on first use, under a lock, each written
 * whole (a folder appears complete or not at all). */
#include "pipeline/datasets_made.h"
#include "kinds/kind.h"
#include "util/util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* One manifest line; 0 if it is a dataset line marked "generated". */
static int generated_line(char *line, char **name, char **shape, uint64_t *seed, char **values)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *save, *fields[5] = {0};
    int n = 0;
    for (char *t = strtok_r(line, " \t\r", &save); t && n < 5; t = strtok_r(NULL, " \t\r", &save))
        fields[n++] = t;
    if (n != 5 || strcmp(fields[4], "generated") != 0)
        return -1;
    *name = fields[0];
    *shape = fields[1];
    *seed = strtoull(fields[2], NULL, 0);
    *values = fields[3];
    return 0;
}

static int make_one(const char *dir, const lab_t *lab, int line_no, char *name, char *shape,
                    uint64_t seed, char *values, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path || is_dir(path))
        return 0;
    value_kind_t kind;
    dataset_t d;
    if (value_kind_parse(values, &kind) != 0)
        return fail(err, errlen, "%s/manifest.txt:%d: values must be course or signed, not '%s'",
                    dir, line_no, values);
    char why[512];
    if (lab->kind->generate(lab, shape, seed, kind, &d, why, sizeof why) != 0)
        return fail(err, errlen, "%s/manifest.txt:%d: %s", dir, line_no, why);
    fprintf(stderr, "cugrade: making dataset %s (%s %s) from %s/manifest.txt, once\n", name,
            lab->kind->name, shape, dir);
    int rc = dataset_write(path, d.inputs, d.ninputs, &d.expected, err, errlen);
    dataset_free(&d);
    return rc;
}

int datasets_make_missing(const char *dir, const lab_t *lab, char *err, size_t errlen)
{
    char manifest[PATH_MAX], lock[PATH_MAX];
    snprintf(manifest, sizeof manifest, "%s/manifest.txt", dir);
    snprintf(lock, sizeof lock, "%s/.generate.lock", dir);
    char *text = is_file(manifest) ? read_file(manifest, NULL, err, errlen) : NULL;
    if (!text)
        return is_file(manifest) ? -1 : 0;
    int fd = -1, rc = 0, line_no = 0;
    for (char *line = text, *next; line && rc == 0; line = next) { /* every line counted, blank ones too */
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_no++;
        char *name, *shape, *values, path[PATH_MAX];
        uint64_t seed;
        if (generated_line(line, &name, &shape, &seed, &values) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (is_dir(path))
            continue;
        if (fd < 0 && ((fd = open(lock, O_CREAT | O_RDWR, 0644)) < 0 || flock(fd, LOCK_EX) != 0)) {
            rc = fail(err, errlen, "%s: cannot lock to make the generated datasets", lock);
            break;
        }
        rc = make_one(dir, lab, line_no, name, shape, seed, values, err, errlen);
    }
    if (fd >= 0)
        close(fd);
    free(text);
    return rc;
}

int datasets_is_generated(const char *dir, const char *name)
{
    char manifest[PATH_MAX], err[256];
    snprintf(manifest, sizeof manifest, "%s/manifest.txt", dir);
    char *text = is_file(manifest) ? read_file(manifest, NULL, err, sizeof err) : NULL;
    int found = 0;
    for (char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL; line && !found;
         line = strtok_r(NULL, "\n", &save)) {
        char *folder, *shape, *values;
        uint64_t seed;
        found = generated_line(line, &folder, &shape, &seed, &values) == 0 && strcmp(folder, name) == 0;
    }
    free(text);
    return found;
}
