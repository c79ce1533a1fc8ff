/* privilege.c - taking a process's privileges away for good, in the order
 * the kernel allows it: the bounding set while root can still empty it,
 * then the groups and ids, then (in a new user namespace, where a process
 * holds every capability again) the capability sets once more. */
#include "jail/privilege.h"
#include "util/fds.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fail(char *why, size_t whylen, const char *what)
{
    snprintf(why, whylen, "%s: %s", what, strerror(errno));
    return -1;
}

int keep_only_fds(const int *keep, int nkeep, char *why, size_t whylen)
{
    close_fds_except(keep, nkeep);
    int left = fd_left_open(keep, nkeep);
    if (left < 0)
        return 0;
    snprintf(why, whylen, "descriptor %d is still open", left);
    return -1;
}

/* The highest capability number this kernel knows. */
static int last_cap(void)
{
    int last = CAP_LAST_CAP;
    FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
    if (f) {
        if (fscanf(f, "%d", &last) != 1)
            last = CAP_LAST_CAP;
        fclose(f);
    }
    return last;
}

/* Empties the bounding set where a capability is still in it. */
static int drop_bounding_set(char *why, size_t whylen)
{
    for (int cap = 0; cap <= last_cap(); cap++) {
        int in = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
        if (in > 0 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
            char what[64];
            snprintf(what, sizeof what, "cannot drop capability %d from the bounding set", cap);
            return fail(why, whylen, what);
        }
    }
    return 0;
}

int drop_root(uid_t uid, gid_t gid, char *why, size_t whylen)
{
    if (uid == 0 || gid == 0) {
        snprintf(why, whylen, "the sandbox's uid and gid must not be 0");
        return -1;
    }
    if (drop_bounding_set(why, whylen) != 0)
        return -1;
    if (setgroups(0, NULL) != 0)
        return fail(why, whylen, "setgroups");
    if (setresgid(gid, gid, gid) != 0)
        return fail(why, whylen, "setresgid");
    if (setresuid(uid, uid, uid) != 0)
        return fail(why, whylen, "setresuid");
    uid_t r, e, s;
    if (getresuid(&r, &e, &s) != 0 || r != uid || e != uid || s != uid) {
        snprintf(why, whylen, "the uid is not %u after setresuid", (unsigned)uid);
        return -1;
    }
    return 0;
}

static int write_proc(const char *path, const char *text, char *why, size_t whylen)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(why, whylen, path);
    ssize_t n = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    if (n != (ssize_t)strlen(text))
        return fail(why, whylen, path);
    return 0;
}

int enter_user_namespace(char *why, size_t whylen)
{
    uid_t uid = geteuid();
    gid_t gid = getegid();
    /* a process that changed its uid is not dumpable, and its /proc/self
     * files (uid_map among them) stay root's: dumpable again until exec */
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
        return fail(why, whylen, "cannot make the process dumpable");
    if (unshare(CLONE_NEWUSER) != 0)
        return fail(why, whylen, "cannot make a user namespace (unshare)");
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (write_proc("/proc/self/uid_map", map, why, whylen) != 0 ||
        write_proc("/proc/self/setgroups", "deny", why, whylen) != 0)
        return -1;
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    return write_proc("/proc/self/gid_map", map, why, whylen);
}

int drop_capabilities(char *why, size_t whylen)
{
    if (drop_bounding_set(why, whylen) != 0)
        return -1;
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, 0, 0, 0) >= 0 &&
        prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
        return fail(why, whylen, "cannot clear the ambient capabilities");
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[2];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &header, none) != 0)
        return fail(why, whylen, "capset");
    return 0;
}

int check_unprivileged(char *why, size_t whylen)
{
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct caps[2];
    if (syscall(SYS_capget, &header, caps) != 0)
        return fail(why, whylen, "capget");
    for (int i = 0; i < 2; i++)
        if (caps[i].effective || caps[i].permitted || caps[i].inheritable) {
            snprintf(why, whylen, "capabilities are left (effective %08x, permitted %08x)",
                     caps[i].effective, caps[i].permitted);
            return -1;
        }
    for (int cap = 0; cap <= last_cap(); cap++) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) > 0) {
            snprintf(why, whylen, "capability %d is left in the bounding set", cap);
            return -1;
        }
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0) > 0) {
            snprintf(why, whylen, "capability %d is left in the ambient set", cap);
            return -1;
        }
    }
    if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
        snprintf(why, whylen, "no_new_privs is not set");
        return -1;
    }
    if (geteuid() == 0 || getuid() == 0) {
        snprintf(why, whylen, "the process is still uid 0");
        return -1;
    }
    return 0;
}
