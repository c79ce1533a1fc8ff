/* sandbox_tier.c - which of the sandbox's tiers runs here (run/sandbox.h):
 * a trial run of `true` through bubblewrap and the jail, else the jail
 * alone as root, as CUGRADE_SANDBOX allows, probed once; the report's words
 * for it; and what each tier gives or guards (the grading's uid, its
 * folders, the course's own in the second). */
#include "run/sandbox_argv.h"
#include "run/sandbox_jail.h"
#include "run/sandbox_tier.h"
#include "util/cugrade.h"
#include "util/util.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A grading asks from several threads at once (its emulator build, a
 * retry, its datasets); probe_lock guards the probes' answers. */
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static char bwrap_path[PATH_MAX];
static char jail[PATH_MAX];          /* bin/cugrade-jail, absolute */
static int tier = -1;                /* sandbox_tier_t, once probed */
static int jail_userns;              /* root in bubblewrap: the jail makes a user namespace */
static char tier_why[256];           /* why not the first tier (or none) */

/* CUGRADE_SANDBOX: "none", "bwrap" or "uid" (one tier only), else the best there is. */
static int mode_is(const char *mode)
{
    const char *v = getenv("CUGRADE_SANDBOX");
    return v && strcmp(v, mode) == 0;
}

static int find_bwrap(void) { return find_program("bwrap", bwrap_path, sizeof bwrap_path) == 0; }

/* The first tier that runs `true` here, as CUGRADE_SANDBOX allows. */
static sandbox_tier_t probe_tier(void)
{
    jail_settle();
    if (mode_is("none"))
        return SANDBOX_OFF;
    if (!jail_find(jail, sizeof jail)) {
        snprintf(tier_why, sizeof tier_why, "bin/cugrade-jail is missing (run make)");
        return SANDBOX_MISSING;
    }
    int root = geteuid() == 0;
    if (!mode_is("uid")) {
        if (!find_bwrap())
            snprintf(tier_why, sizeof tier_why, "no bwrap on PATH");
        else if (root && (jail_userns = 1, sandbox_trial_run(bwrap_path, jail, jail_userns, NULL)))
            return SANDBOX_BWRAP;
        else if ((jail_userns = 0, sandbox_trial_run(bwrap_path, jail, jail_userns, NULL)))
            return SANDBOX_BWRAP;
        else
            snprintf(tier_why, sizeof tier_why, "bubblewrap cannot make its namespaces here");
    }
    if (mode_is("bwrap"))
        return SANDBOX_MISSING;
    if (mode_is("uid"))
        snprintf(tier_why, sizeof tier_why, "chosen by CUGRADE_SANDBOX=uid");
    if (!root) {
        snprintf(tier_why + strlen(tier_why), sizeof tier_why - strlen(tier_why),
                 "%sand the grader is not root, so it cannot run student code as another user",
                 tier_why[0] ? ", " : "");
        return SANDBOX_MISSING;
    }
    if (sandbox_trial_run(NULL, jail, 0, NULL))
        return SANDBOX_UID;
    snprintf(tier_why + strlen(tier_why), sizeof tier_why - strlen(tier_why),
             "%sand bin/cugrade-jail cannot drop root here", tier_why[0] ? ", " : "");
    return SANDBOX_MISSING;
}

/* The second tier: the course's own folders of the tree, the grader's alone. */
static void guard_course(void)
{
    static const char *const course[] = {"reference", ".cugrade", NULL};
    for (int i = 0; course[i]; i++) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.4000s/%s", cugrade_root(), course[i]);
        sandbox_guard(dir);
    }
}

sandbox_tier_t sandbox_tier(void)
{
    pthread_mutex_lock(&probe_lock);
    int probed = tier < 0;
    if (probed)
        __atomic_store_n(&tier, (int)probe_tier(), __ATOMIC_RELEASE);
    sandbox_tier_t t = (sandbox_tier_t)tier;
    pthread_mutex_unlock(&probe_lock);
    if (probed && t == SANDBOX_UID)
        guard_course();
    return t;
}

sandbox_tier_t sandbox_tier_probed(void)
{
    int t = __atomic_load_n(&tier, __ATOMIC_ACQUIRE);
    return t < 0 ? SANDBOX_MISSING : (sandbox_tier_t)t;
}

int sandbox_available(void) { return sandbox_tier() == SANDBOX_BWRAP; }

const char *sandbox_description(void)
{
    static char text[400];
    switch (sandbox_tier()) {
    case SANDBOX_BWRAP:
        if (sandbox_seccomp_off())
            return "sandbox: bubblewrap (without its seccomp filter: CUGRADE_SECCOMP=off)";
        return jail_userns || geteuid() != 0
                   ? "sandbox: bubblewrap"
                   : "sandbox: bubblewrap (no user namespace of its own here)";
    case SANDBOX_UID:
        snprintf(text, sizeof text, "sandbox: uid (the second tier: %s; an unprivileged uid, "
                 "%srlimits, no namespaces)", tier_why,
                 sandbox_seccomp_off() ? "no seccomp (CUGRADE_SECCOMP=off), " : "seccomp and ");
        return text;
    case SANDBOX_OFF:
        return "sandbox: none (disabled by CUGRADE_SANDBOX=none: rlimits and a process group only)";
    default:
        snprintf(text, sizeof text, "sandbox: none can run here (%s)", tier_why);
        return text;
    }
}

const char *tier_bwrap_path(void) { return bwrap_path; }

const char *tier_jail_path(void) { return jail; }

int tier_jail_userns(void) { return jail_userns; }

/* 1 if this bwrap has --unsetenv (0.5 and later). */
int tier_bwrap_unsets(void)
{
    static int unsets = -1;
    static const char *const option[] = {"--unsetenv", "CUGRADE_TRIAL", NULL};
    pthread_mutex_lock(&probe_lock);
    if (unsets < 0)
        unsets = sandbox_trial_run(bwrap_path, jail, jail_userns, option);
    int yes = unsets;
    pthread_mutex_unlock(&probe_lock);
    return yes;
}

unsigned sandbox_uid(void)
{
    sandbox_tier(); /* the probe settles it */
    return jail_uid();
}

void sandbox_open_way(const char *path)
{
    if (geteuid() == 0 && sandbox_tier_probed() == SANDBOX_UID) /* in the child: no lock */
        jail_open_way(path);
}

int sandbox_give_folder(const char *dir, int with_contents)
{
    if (geteuid() != 0 || !dir)
        return 0;
    sandbox_tier_t t = sandbox_tier_probed(); /* in the runner's child: no lock, one thread */
    if (t != SANDBOX_BWRAP && t != SANDBOX_UID)
        return 0;
    return jail_give_folder(dir, with_contents);
}

void sandbox_guard(const char *dir)
{
    struct stat st;
    if (geteuid() != 0 || !dir || sandbox_tier() != SANDBOX_UID || lstat(dir, &st) != 0 ||
        !S_ISDIR(st.st_mode) || st.st_uid != 0 || !(st.st_mode & 077))
        return;
    chmod(dir, st.st_mode & 07700);
}

