/* root.c - where the cugrade tree is: $CUGRADE_ROOT, else the folder above
 * the running bin/cugrade. */
#include "util/cugrade.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *cugrade_root(void)
{
    static char root[PATH_MAX];
    if (root[0])
        return root;
    const char *env = getenv("CUGRADE_ROOT");
    if (env && *env) {
        snprintf(root, sizeof root, "%s", env);
        return root;
    }
    ssize_t n = readlink("/proc/self/exe", root, sizeof root - 1);
    if (n <= 0) {
        snprintf(root, sizeof root, ".");
        return root;
    }
    root[n] = '\0';
    for (int i = 0; i < 2; i++) { /* strip "/cugrade", then "/bin" */
        char *slash = strrchr(root, '/');
        if (slash && slash != root)
            *slash = '\0';
    }
    return root;
}
