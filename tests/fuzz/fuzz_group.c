/* fuzz_group.c - libFuzzer harness of the list mode's splitter
 * (run/group_split.c): a grouped run's stdout is the student's program's,
 * so any bytes reach it. The first byte picks how many datasets (1..16) and
 * whether the runner cut the output; the rest is the output. Besides the
 * sanitizers, it checks what group_split.h promises: the count of ended
 * datasets matches their states, datasets end in order, every part's text
 * is NUL-terminated at its length, the texts together are no longer than
 * the input, and a failed end has a status of 1..255. */
#include "run/group_split.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int n = 1 + (data[0] & 15), cut = (data[0] >> 4) & 1;
    group_part_t parts[16];
    int ended = group_split((const char *)data + 1, size - 1, cut, parts, n);
    int count = 0, seen_not_ended = 0;
    size_t total = 0;
    for (int k = 0; k < n; k++) {
        const group_part_t *p = &parts[k];
        if (p->state == GROUP_ENDED) {
            if (seen_not_ended)
                abort(); /* a dataset ended after one that did not */
            count++;
            if (p->exit_code < 0 || p->exit_code > 255 || !(p->wall_s >= 0))
                abort();
        } else {
            seen_not_ended = 1;
            if (p->exit_code != 0)
                abort();
        }
        if (p->output && strlen(p->output) > p->output_len)
            abort();
        total += p->output_len;
    }
    if (count != ended || total > size - 1)
        abort();
    group_parts_free(parts, n);
    return 0;
}
