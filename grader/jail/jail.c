/* jail.c - bin/cugrade-jail, the last trusted code before student code runs
 * (a lab program, or a compiler reading a submission). The grader's runner
 * starts it inside bubblewrap, or alone where bubblewrap cannot run
 * (run/sandbox.h), and it:
 *
 *   1. closes every descriptor but 0, 1, 2 and the ones named by --keep;
 *   2. as root, drops to --uid/--gid (the bounding set emptied first);
 *   3. with --userns, enters a user namespace of its own;
 *   4. drops every capability left, sets no_new_privs, and checks that
 *      nothing is left (uid 0, a capability, a descriptor);
 *   5. loads the seccomp filter of --policy (jail/policy.h);
 *   6. writes one byte on --started and closes it: the sandbox is set up,
 *      and whatever happens from here on is the program's doing;
 *   7. runs the program in its own place (execv), with the environment it
 *      was given.
 *
 * A step that fails ends it with status 125 and a line "cugrade-jail: ..."
 * before the byte: the runner counts that as the machine's fault, never the
 * submission's (runner.h sandbox_failed).
 *
 *   cugrade-jail [--uid N --gid N] [--userns] [--policy program|tool]
 *                [--no-seccomp] [--keep FD]... [--started FD] -- PROGRAM [ARG]...
 */
#include "jail/policy.h"
#include "jail/privilege.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define JAIL_FAILED 125
#define MAX_KEEP 16

typedef struct {
    long uid, gid; /* -1: not given */
    int userns;
    int no_filter; /* --no-seccomp: the TA's CUGRADE_SECCOMP=off (run/sandbox.h) */
    policy_t policy;
    int keep[MAX_KEEP];
    int nkeep;
    int started; /* -1: none */
    char **program;
} jail_opts_t;

static void die(const char *what, const char *why)
{
    dprintf(2, "cugrade-jail: %s%s%s\n", what, why ? ": " : "", why ? why : "");
    _exit(JAIL_FAILED);
}

static long number(const char *text, const char *option)
{
    char *end;
    errno = 0;
    long v = strtol(text ? text : "", &end, 10);
    if (!text || errno || *end || end == text || v < 0)
        die(option, "needs a number");
    return v;
}

static void parse(int argc, char **argv, jail_opts_t *o)
{
    *o = (jail_opts_t){.uid = -1, .gid = -1, .policy = POLICY_PROGRAM, .started = -1};
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(opt, "--userns") == 0 || strcmp(opt, "--no-seccomp") == 0) {
            *(opt[2] == 'u' ? &o->userns : &o->no_filter) = 1;
            continue;
        }
        i++;
        if (strcmp(opt, "--uid") == 0)
            o->uid = number(val, opt);
        else if (strcmp(opt, "--gid") == 0)
            o->gid = number(val, opt);
        else if (strcmp(opt, "--started") == 0)
            o->started = (int)number(val, opt);
        else if (strcmp(opt, "--keep") == 0 && o->nkeep < MAX_KEEP)
            o->keep[o->nkeep++] = (int)number(val, opt);
        else if (strcmp(opt, "--policy") == 0 && val && policy_from_name(val, &o->policy) == 0)
            ;
        else
            die("unknown option or value", opt);
    }
    if (i + 1 >= argc)
        die("usage", "cugrade-jail [options] -- PROGRAM [ARG]...");
    if ((o->uid < 0) != (o->gid < 0))
        die("--uid and --gid", "go together");
    o->program = argv + i + 1;
}

/* Steps 1 to 4: what the program will not have. */
static void take_privileges(jail_opts_t *o)
{
    char why[256];
    int keep[MAX_KEEP + 1];
    memcpy(keep, o->keep, sizeof o->keep);
    keep[o->nkeep] = o->started;
    if (keep_only_fds(keep, o->nkeep + (o->started >= 0), why, sizeof why) != 0)
        die("cannot close the descriptors", why);
    if (o->uid >= 0) {
        if (geteuid() != 0)
            die("--uid", "needs root");
        if (drop_root((uid_t)o->uid, (gid_t)o->gid, why, sizeof why) != 0)
            die("cannot drop root", why);
    } else if (geteuid() == 0 || getuid() == 0) {
        die("refusing to run student code as root", "give --uid and --gid");
    }
    if (o->userns && enter_user_namespace(why, sizeof why) != 0)
        die("cannot enter a user namespace", why);
    if (drop_capabilities(why, sizeof why) != 0)
        die("cannot drop the capabilities", why);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        die("cannot set no_new_privs", strerror(errno));
    if (check_unprivileged(why, sizeof why) != 0)
        die("privileges are left", why);
}

int main(int argc, char **argv)
{
    jail_opts_t o;
    parse(argc, argv, &o);
    umask(022); /* what it writes, the next sandbox's uid may read (the program) */
    take_privileges(&o);
    char why[256];
    if (!o.no_filter && policy_install(o.policy, why, sizeof why) != 0)
        die("cannot load the seccomp filter", why);
    if (o.started >= 0) {
        if (write(o.started, ".", 1) != 1)
            die("cannot say that the sandbox started", strerror(errno));
        close(o.started);
    }
    execv(o.program[0], o.program);
    dprintf(2, "cugrade: cannot run %s: %s\n", o.program[0], strerror(errno));
    return 127;
}
