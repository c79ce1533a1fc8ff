/* datasets_made.h - datasets made from the manifest on first use (those
 * marked "generated": too large to ship; datasets_made.c). */
#ifndef CUGRADE_DATASETS_MADE_H
#define CUGRADE_DATASETS_MADE_H

#include <stddef.h>

#include "course/lab.h"

/* Makes every "generated" dataset of dir/manifest.txt whose folder is
 * missing. 0 if none was missing or all were made; -1 with err naming the
 * manifest's line or the folder. */
int datasets_make_missing(const char *dir, const lab_t *lab, char *err, size_t errlen);

/* 1 when dir/manifest.txt marks dataset folder name "generated" (made from
 * its line, never shipped: an export leaves it out), else 0. */
int datasets_is_generated(const char *dir, const char *name);

#endif
