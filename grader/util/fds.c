/* fds.c - closing every descriptor but a few (fds.h). */
#include "util/fds.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int is_kept(int fd, const int *keep, int nkeep)
{
    for (int i = 0; i < nkeep; i++)
        if (keep[i] == fd)
            return 1;
    return 0;
}

/* [from, to], by close_range or one by one (kernels before 5.9). */
static void close_between(unsigned from, unsigned to)
{
    if (syscall(SYS_close_range, from, to, 0) == 0)
        return;
    long max = sysconf(_SC_OPEN_MAX);
    if (max <= 0 || max > 1 << 20)
        max = 1 << 20;
    for (unsigned fd = from; fd <= to && fd < (unsigned long)max; fd++)
        close((int)fd);
}

void close_fds_except(const int *keep, int nkeep)
{
    unsigned from = 3;
    for (;;) { /* the next kept descriptor at or above from */
        long next = -1;
        for (int i = 0; i < nkeep; i++)
            if (keep[i] >= (long)from && (next < 0 || keep[i] < next))
                next = keep[i];
        if (next < 0)
            break;
        if ((unsigned)next > from)
            close_between(from, (unsigned)next - 1);
        from = (unsigned)next + 1;
    }
    close_between(from, ~0U);
}

int fd_left_open(const int *keep, int nkeep)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int left = -1;
    for (struct dirent *e; (e = readdir(d));) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] != '.' && fd > 2 && fd != dirfd(d) && !is_kept(fd, keep, nkeep) &&
            (left < 0 || fd < left))
            left = fd;
    }
    closedir(d);
    return left;
}
