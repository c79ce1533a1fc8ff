/* emucc_pch.h - the emulator's header, precompiled for g++: two thirds of a
 * student file's compile is parsing cugrade_emu.h. `emucc --pch` (make)
 * writes <root>/build/emu-pch/<plain|checks>/cugrade_emu.h.gch, one for each
 * way emucc compiles a .cu file, beside a cugrade_emu.h that includes the
 * real one. A .cu compile force-includes that file instead of cugrade_emu.h
 * when pch_dir() says the .gch may serve it: g++ (no CUGRADE_CXX), no flag of
 * the user's that could change what the header means (only -I, -iquote,
 * warnings, and -O2 where emucc gives -O2 itself), the .gch newer than every
 * emulator header, and CUGRADE_EMU_PCH not "off". g++ checks the rest itself
 * and, when it rejects the .gch, reads the file beside it: the same header,
 * so the object is the same either way, only slower. Header-only, included
 * once, by emu/tools/emucc.c. */
#ifndef CUGRADE_EMUCC_PCH_H
#define CUGRADE_EMUCC_PCH_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emucc_args.h"

#define PCH_HEADER "cugrade_emu.h"

/* <root>/build/emu-pch/plain or .../checks (malloc'd). */
static char *pch_folder(const char *root, bool checks)
{
    char *dir;
    if (asprintf(&dir, "%s/build/emu-pch/%s", root, checks ? "checks" : "plain") < 0)
        die_oom();
    return dir;
}

/* A flag of the user's that cannot change what the header means. */
static bool pch_flag_harmless(const char *f, bool checks)
{
    if (starts_with(f, "-I") || starts_with(f, "-iquote"))
        return true;
    if (starts_with(f, "-W") && !strchr(f, ',')) /* not -Wp,-D... */
        return true;
    return !checks && strcmp(f, "-O2") == 0;
}

/* Whether file's modification time is at or after every file's in dir. */
static bool newer_than_all(const char *file, const char *dir)
{
    struct stat fs, hs;
    DIR *d = opendir(dir);
    if (!d || stat(file, &fs) != 0) {
        if (d)
            closedir(d);
        return false;
    }
    bool fresh = true;
    for (struct dirent *e; fresh && (e = readdir(d));) {
        char *path;
        if (e->d_name[0] == '.' || asprintf(&path, "%s/%s", dir, e->d_name) < 0)
            continue;
        fresh = !(stat(path, &hs) == 0 && hs.st_mtime > fs.st_mtime);
        free(path);
    }
    closedir(d);
    return fresh;
}

/* The folder whose cugrade_emu.h a .cu compile may force-include, its .gch
 * serving it; NULL: the header itself. */
static char *pch_dir(const options *o, const char *root)
{
    const char *off = getenv("CUGRADE_EMU_PCH"), *cxx = getenv("CUGRADE_CXX");
    if ((off && strcmp(off, "off") == 0) || (cxx && *cxx))
        return NULL;
    const arglist *lists[] = {&o->common_flags, &o->compile_flags};
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->n; i++)
            if (!pch_flag_harmless(lists[l]->v[i], o->checks))
                return NULL;
    char *dir = pch_folder(root, o->checks), *gch, *header, *inc;
    if (asprintf(&gch, "%s/%s.gch", dir, PCH_HEADER) < 0 ||
        asprintf(&header, "%s/%s", dir, PCH_HEADER) < 0 || asprintf(&inc, "%s/emu/include", root) < 0)
        die_oom();
    bool ok = access(gch, R_OK) == 0 && access(header, R_OK) == 0 && newer_than_all(gch, inc);
    free(gch);
    free(header);
    free(inc);
    if (!ok) {
        free(dir);
        return NULL;
    }
    return dir;
}

#endif
