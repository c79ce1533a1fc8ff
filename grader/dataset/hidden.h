/* hidden.h - the secret behind a lab's hidden datasets, and the seeds drawn
 * from it. The secret is a file of random bytes in the grader's checkout
 * (.cugrade/hidden-seed, made on first use, mode 0600, git-ignored) that no
 * student program ever sees: the hidden datasets are new to the submission,
 * and a different checkout (the TA's) grades with different ones. */
#ifndef CUGRADE_HIDDEN_H
#define CUGRADE_HIDDEN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define HIDDEN_SEED_FILE ".cugrade/hidden-seed" /* under the checkout (cugrade_root()) */
#define HIDDEN_SEED_ENV "CUGRADE_HIDDEN_SEED_FILE"
#define HIDDEN_SECRET_NEW 32    /* bytes of a new secret, from getrandom */
#define HIDDEN_SECRET_MIN 16    /* a shorter file is refused */
#define HIDDEN_SECRET_MAX 4096  /* a longer one too */

typedef struct {
    unsigned char bytes[HIDDEN_SECRET_MAX];
    size_t len;
    char digest[65];     /* SHA-256 of a label and the secret: names it (batch --resume
                          * keys) without giving it away */
    char path[PATH_MAX]; /* the file it was read from */
    int created;         /* 1: made by this call */
} hidden_secret_t;

/* The secret's file: given (--hidden-seed) if not NULL, else
 * $CUGRADE_HIDDEN_SEED_FILE if set, else <root>/.cugrade/hidden-seed.
 * *is_default says it is the last, the one made on first use. */
void hidden_secret_path(const char *root, const char *given, char *path, size_t len,
                        int *is_default);

/* Reads the secret (hidden_secret_path). The default file is made when it
 * is missing: 32 bytes of getrandom, mode 0600, in a folder of mode 0700,
 * written whole (a rival grading reads all of it or makes its own first).
 * A given file must exist. -1 with err naming the file on failure. */
int hidden_secret_load(const char *root, const char *given, hidden_secret_t *s, char *err,
                       size_t errlen);

/* The seed of the lab's hidden dataset `index` (0-based): the first 64 bits
 * of SHA-256 of a label, the secret, the lab's name and the index. */
uint64_t hidden_seed(const hidden_secret_t *s, const char *lab, int index);

#endif
