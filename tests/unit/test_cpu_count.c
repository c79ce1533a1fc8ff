/* test_cpu_count.c - cpu_count() (util/util.h), which sizes a batch's workers
 * and a grading's parallel runs: it counts the cores this process may run on
 * (taskset, a Slurm task's cpuset), not every core of the machine. Criterion
 * runs each test in its own process, so narrowing the mask here touches no
 * other test. */
#include <criterion/criterion.h>

#include "util/util.h"

#include <sched.h>
#include <unistd.h>

static cpu_set_t allowed_now(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    cr_assert_eq(sched_getaffinity(0, sizeof set, &set), 0);
    return set;
}

static int first_cpu(const cpu_set_t *set)
{
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, set))
            return c;
    return -1;
}

Test(cpu_count, counts_the_cores_the_affinity_mask_allows)
{
    cpu_set_t set = allowed_now();
    cr_assert_eq(cpu_count(), CPU_COUNT(&set));
}

Test(cpu_count, one_core_when_the_process_is_pinned_to_one)
{
    cpu_set_t set = allowed_now();
    int c = first_cpu(&set);
    cr_assert_geq(c, 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0);
    cr_assert_eq(cpu_count(), 1, "pinned to core %d, cpu_count() says %d", c, cpu_count());
}

Test(cpu_count, never_more_than_the_online_cores)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cr_assert_gt(cpu_count(), 0);
    cr_assert_leq(cpu_count(), online > 0 ? online : 1);
}
