/* archive.c - safe unpacking of submission archives: list the archive with
 * the system unzip or tar (children with a time limit, through runner.h),
 * refuse absolute paths, `..`, links and oversized archives, then unpack and
 * check the unpacked tree once more (sizes a header may have lied about). */
#include "batch/archive.h"
#include "run/runner.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOOL_TIMEOUT_S 60

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

archive_kind_t archive_kind(const char *name, size_t *stem_len)
{
    static const struct { const char *ext; archive_kind_t kind; } exts[] = {
        {".zip", ARCHIVE_ZIP}, {".tar.gz", ARCHIVE_TGZ}, {".tgz", ARCHIVE_TGZ}};
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (ends_with(name, exts[i].ext)) {
            if (stem_len)
                *stem_len = strlen(name) - strlen(exts[i].ext);
            return exts[i].kind;
        }
    return ARCHIVE_NONE;
}

int archive_find_tool(const char *program, char *out, size_t outlen)
{
    const char *path = getenv("PATH");
    char *copy = strdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL;
    int found = -1;
    for (char *d = strtok_r(copy, ":", &save); d && found != 0; d = strtok_r(NULL, ":", &save))
        if (path_join(out, outlen, d, program) == 0 && access(out, X_OK) == 0)
            found = 0;
    free(copy);
    return found;
}

/* Runs tool with args; its output (malloc'd) in *output. */
static int run_tool(char **argv, char **output, char *err, size_t errlen)
{
    run_spec_t spec = {.argv = argv, .timeout_s = TOOL_TIMEOUT_S, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    int ok = r.exited && r.exit_code == 0 && !r.output_truncated;
    if (!ok) {
        char why[160];
        run_describe(&r, &spec, why, sizeof why);
        fail(err, errlen, "%s %s failed (%s%s): %.300s", path_base(argv[0]), argv[1],
             r.output_truncated ? "listing too long, " : "", why, r.output ? r.output : "");
    }
    *output = r.output;
    r.output = NULL;
    run_result_free(&r);
    return ok ? 0 : -1;
}

/* An entry name that would land outside the scratch folder. */
static int unsafe_name(const char *name, char *err, size_t errlen)
{
    if (name[0] == '/' || name[0] == '\\')
        return fail(err, errlen, "absolute path '%s' in the archive", name);
    char *copy = strdup(name), *save = NULL;
    int bad = 0;
    for (char *c = strtok_r(copy, "/\\", &save); c && !bad; c = strtok_r(NULL, "/\\", &save))
        bad = strcmp(c, "..") == 0;
    free(copy);
    return bad ? fail(err, errlen, "path with '..' ('%s') in the archive", name) : 0;
}

/* Checks the one-name-per-line listing: count and names. */
static int check_names(char *listing, char *err, size_t errlen)
{
    int n = 0;
    char *save = NULL;
    for (char *line = strtok_r(listing, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (++n > ARCHIVE_MAX_ENTRIES)
            return fail(err, errlen, "more than %d entries in the archive", ARCHIVE_MAX_ENTRIES);
        if (unsafe_name(line, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* Checks one verbose listing line: type char and the size in field size_field. */
static int check_verbose_line(const char *line, int size_field, long long *total, char *err,
                              size_t errlen)
{
    if (line[0] != '-' && line[0] != 'd')
        return fail(err, errlen, "link or special file in the archive: %.200s", line);
    char copy[1024], *save = NULL, *tok = NULL;
    snprintf(copy, sizeof copy, "%s", line);
    tok = strtok_r(copy, " \t", &save);
    for (int i = 1; i < size_field && tok; i++)
        tok = strtok_r(NULL, " \t", &save);
    *total += tok ? atoll(tok) : 0;
    if (*total > ARCHIVE_MAX_BYTES)
        return fail(err, errlen, "more than %lld MiB unpacked", ARCHIVE_MAX_BYTES >> 20);
    return 0;
}

/* Checks a verbose listing; zip: skip the two header lines and the summary. */
static int check_verbose(char *listing, archive_kind_t kind, char *err, size_t errlen)
{
    long long total = 0;
    int lineno = 0;
    char *save = NULL;
    for (char *line = strtok_r(listing, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (kind == ARCHIVE_ZIP && (lineno <= 2 || strstr(line, " bytes uncompressed")))
            continue;
        if (check_verbose_line(line, kind == ARCHIVE_ZIP ? 4 : 3, &total, err, errlen) != 0)
            return -1;
    }
    return 0;
}

static int tool_for(archive_kind_t kind, char *tool, size_t len, char *err, size_t errlen)
{
    const char *name = kind == ARCHIVE_ZIP ? "unzip" : "tar";
    if (archive_find_tool(name, tool, len) != 0)
        return fail(err, errlen, "cannot unpack the archive: %s is not installed on the grading machine",
                    name);
    return 0;
}

int archive_validate(const char *archive, char *err, size_t errlen)
{
    archive_kind_t kind = archive_kind(archive, NULL);
    char tool[PATH_MAX], *out = NULL;
    if (kind == ARCHIVE_NONE)
        return fail(err, errlen, "%s: not a .zip, .tar.gz or .tgz file", archive);
    if (tool_for(kind, tool, sizeof tool, err, errlen) != 0)
        return -1;
    int zip = kind == ARCHIVE_ZIP;
    /* tar -P: list names as stored, without stripping (and warning about) them */
    char *names[] = {tool, zip ? "-Z1" : "-tPzf", (char *)archive, NULL};
    char *verbose[] = {tool, zip ? "-Z" : "-tvPzf", (char *)archive, zip ? NULL : "--numeric-owner",
                       NULL};
    int rc = run_tool(names, &out, err, errlen);
    if (rc == 0)
        rc = check_names(out, err, errlen);
    free(out);
    out = NULL;
    if (rc == 0 && (rc = run_tool(verbose, &out, err, errlen)) == 0)
        rc = check_verbose(out, kind, err, errlen);
    free(out);
    return rc;
}

/* Walks the unpacked tree: no links, entry and size caps hold. */
static int check_tree(const char *dir, int *entries, long long *bytes, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d)
        return fail(err, errlen, "%s: cannot read the unpacked folder", dir);
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        char path[PATH_MAX];
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (path_join(path, sizeof path, dir, e->d_name) != 0 || lstat(path, &st) != 0)
            rc = fail(err, errlen, "%s: cannot stat", e->d_name);
        else if (++*entries > ARCHIVE_MAX_ENTRIES || (*bytes += st.st_size) > ARCHIVE_MAX_BYTES)
            rc = fail(err, errlen, "the unpacked archive is over the limits (%d entries, %lld MiB)",
                      ARCHIVE_MAX_ENTRIES, ARCHIVE_MAX_BYTES >> 20);
        else if (S_ISDIR(st.st_mode))
            rc = check_tree(path, entries, bytes, err, errlen);
        else if (!S_ISREG(st.st_mode))
            rc = fail(err, errlen, "link or special file '%s' in the archive", e->d_name);
    }
    closedir(d);
    return rc;
}

int archive_unpack(const char *archive, const char *dest, char *err, size_t errlen)
{
    char tool[PATH_MAX], *out = NULL;
    if (archive_validate(archive, err, errlen) != 0)
        return -1;
    archive_kind_t kind = archive_kind(archive, NULL);
    if (tool_for(kind, tool, sizeof tool, err, errlen) != 0)
        return -1;
    char *unzip[] = {tool, "-qq", "-o", (char *)archive, "-d", (char *)dest, NULL};
    char *untar[] = {tool, "-xzf", (char *)archive, "-C", (char *)dest, "--no-same-owner",
                     "--no-same-permissions", NULL};
    int rc = run_tool(kind == ARCHIVE_ZIP ? unzip : untar, &out, err, errlen);
    free(out);
    int entries = 0;
    long long bytes = 0;
    if (rc == 0)
        rc = check_tree(dest, &entries, &bytes, err, errlen);
    return rc;
}
