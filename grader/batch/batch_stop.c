/* batch_stop.c - a stopped batch's last words (batch_stop.h): counters the
 * workers bump, and a line written with write(2) alone, so that a signal
 * handler may say it. */
#include "batch/batch_stop.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static char resume[4096]; /* the command with --resume, made before any signal */
static atomic_int total, graded;

/* Appends s to resume at *n, in single quotes unless it needs none. */
static void add_word(size_t *n, const char *s)
{
    int plain = *s != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789-_./=:,+@%") == strlen(s);
    size_t room = sizeof resume - 1;
    if (*n && *n < room)
        resume[(*n)++] = ' ';
    if (!plain && *n < room)
        resume[(*n)++] = '\'';
    for (; *s && *n + 5 < room; s++) {
        if (*s == '\'' && !plain) {
            memcpy(resume + *n, "'\\''", 4);
            *n += 4;
        } else {
            resume[(*n)++] = *s;
        }
    }
    if (!plain && *n < room)
        resume[(*n)++] = '\'';
    resume[*n] = '\0';
}

void batch_stop_prepare(const char *program, int argc, char *const *argv)
{
    size_t n = 0;
    int has_resume = 0;
    resume[0] = '\0';
    add_word(&n, program);
    for (int i = 0; i < argc; i++) {
        has_resume |= strcmp(argv[i], "--resume") == 0;
        add_word(&n, argv[i]);
    }
    if (!has_resume) /* last: getopt takes an option after the class folder too */
        add_word(&n, "--resume");
}

void batch_stop_set_total(int n) { atomic_store(&total, n); }

void batch_stop_graded_one(void) { atomic_fetch_add(&graded, 1); }

/* Writes the decimal of v on fd. */
static void say_int(int fd, int v)
{
    char buf[16];
    int i = (int)sizeof buf;
    unsigned u = v < 0 ? 0u : (unsigned)v;
    do
        buf[--i] = (char)('0' + u % 10);
    while ((u /= 10) && i > 0);
    (void)!write(fd, buf + i, sizeof buf - (size_t)i);
}

static void say(int fd, const char *s) { (void)!write(fd, s, strlen(s)); }

void batch_stop_say(int fd, int sig)
{
    say(fd, "\ncugrade batch: stopped by signal ");
    say_int(fd, sig);
    say(fd, " after ");
    say_int(fd, atomic_load(&graded));
    say(fd, " of ");
    say_int(fd, atomic_load(&total));
    say(fd, " gradings (the ones under way get no verdict); to grade the rest:\n  ");
    say(fd, resume);
    say(fd, "\n");
}
