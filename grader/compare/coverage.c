/* coverage.c - what the launch the grader saw says of an output
 * (coverage.h): whether the grid reaches C, or the whole of the inputs. */
#include "compare/coverage.h"
#include "run/emureport.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The wrong elements all never written, and the launch the run showed (one
 * launch: its grid and block): whether the grid reaches C, told from it.
 * A grid short of C is rounded down (grid-too-small); one that covers C with
 * its x along the rows, or a kernel that takes its row from x while the
 * grid's x runs along the columns, is x and y swapped (grid-xy-swapped).
 * Rewrites cr's hint and sets key; 0 when the launch says nothing more. */
int explain_coverage(const emu_report_t *rep, const dataset_t *d, const char *output, const char *size,
                     compare_result_t *cr, char *key, size_t keylen)
{
    if (cr->passed || cr->wrong == 0 || cr->wrong != cr->never_written || emu_report_stat(rep, "launches") != 1)
        return 0;
    long bx = (long)emu_report_stat(rep, "block_x"), by = (long)emu_report_stat(rep, "block_y");
    long gx = (long)emu_report_stat(rep, "grid_x"), gy = (long)emu_report_stat(rep, "grid_y");
    long m = d->expected.rows, n = d->expected.cols;
    if (bx <= 0 || by <= 0 || gx <= 0 || gy <= 0 || m <= 0 || n <= 0)
        return 0;
    char was[sizeof cr->hint_text];
    snprintf(was, sizeof was, "%s", cr->hint_text);
    was[strcspn(was, ":")] = '\0'; /* "only the elements in column 256 (the last partial tile) were never written" */
    if (by == 1 && gy == 1) { /* one dimension: a thread an element of C, flat */
        if (gx * bx >= m * n)
            return 0;
        snprintf(key, keylen, "grid-too-small");
        if (size) /* a one-dimensional output of the lab's length size */
            snprintf(cr->hint_text, sizeof cr->hint_text,
                     "your grid has %ld blocks of %ld threads, %ld threads for the %ld elements of %s: the last %ld "
                     "were never written; it is too small (a size rounded down?): use ceiling division in integers, "
                     "(%s + %ld - 1) / %ld blocks", gx, bx, gx * bx, m * n, output, m * n - gx * bx, size, bx, bx);
        else
            snprintf(cr->hint_text, sizeof cr->hint_text,
                     "your grid has %ld blocks of %ld threads, %ld threads for the %ld elements of C (%ld x %ld): "
                     "the last %ld were never written; it is too small (a size rounded down?): use ceiling division, "
                     "(numCRows*numCColumns + %ld - 1) / %ld blocks",
                     gx, bx, gx * bx, m * n, m, n, m * n - gx * bx, bx, bx);
        return 1;
    }
    /* what the grid leaves unwritten with x along the columns (as the kernel should take it), and
     * with x along the rows; only a count the output shows exactly names a cause */
    long rows_x = gy * by < m ? gy * by : m, cols_x = gx * bx < n ? gx * bx : n;
    long rows_y = gx * bx < m ? gx * bx : m, cols_y = gy * by < n ? gy * by : n;
    long short_x = m * n - rows_x * cols_x, short_y = m * n - rows_y * cols_y;
    int rounded = short_x > 0 && cr->never_written == short_x, turned = short_y > 0 && cr->never_written == short_y;
    int covers = gx * bx >= n && gy * by >= m;
    /* the grid C needs, exactly, as launched or with its x and y exchanged */
    int exact = gx == (n + bx - 1) / bx && gy == (m + by - 1) / by;
    int exact_turned = gx == (m + bx - 1) / bx && gy == (n + by - 1) / by;
    if (!rounded && !turned)
        return 0;
    /* x and y swapped between the launch and the kernel: the grid covers C one way, and the
     * kernel takes it the other (what it left is exactly what that leaves) */
    if ((rounded && exact_turned && !covers) || (turned && !rounded && exact)) {
        snprintf(key, keylen, "grid-xy-swapped");
        snprintf(cr->hint_text, sizeof cr->hint_text,
                 "%.300s, though your grid (%ld x %ld blocks of %ld x %ld threads) has threads for every element "
                 "of C (%ld x %ld) if its x runs along the %s: what was written is rows 0..%ld and columns "
                 "0..%ld, so x and y are swapped between the launch and the kernel; use col = "
                 "blockIdx.x*blockDim.x + threadIdx.x, row = blockIdx.y*blockDim.y + threadIdx.y, and a grid "
                 "of ceil(numCColumns / %ld) x ceil(numCRows / %ld) blocks",
                 was[0] ? was : "elements were never written", gx, gy, bx, by, m, n,
                 covers ? "columns, as it should, but the kernel takes its row from x" : "rows",
                 (rounded ? rows_x : rows_y) - 1, (rounded ? cols_x : cols_y) - 1, bx, by);
        return 1;
    }
    if (!rounded || (exact_turned && !exact))
        return 0; /* neither story fits exactly */
    snprintf(key, keylen, "grid-too-small");
    snprintf(cr->hint_text, sizeof cr->hint_text,
             "%.300s: your grid (%ld x %ld blocks of %ld x %ld threads) reaches %ld columns and %ld rows of C (%ld x "
             "%ld); it is too small (a size rounded down?): size it from C by ceiling division, "
             "(numCColumns + %ld - 1) / %ld by (numCRows + %ld - 1) / %ld blocks",
             was[0] ? was : "elements were never written", gx, gy, bx, by, gx * bx, gy * by, m, n, bx, bx, by, by);
    return 1;
}

static int has_finding(const emu_report_t *rep, const char *kind)
{
    for (int i = 0; i < rep->nfindings; i++)
        if (strcmp(rep->findings[i].kind, kind) == 0)
            return 1;
    return 0;
}

/* The first element no kernel read, from the finding's "(the first:
 * element N)" (-1: not said). */
static long first_unread(const emu_report_t *rep)
{
    for (int i = 0; i < rep->nfindings; i++) {
        const char *at = strcmp(rep->findings[i].kind, "input-not-read") == 0 && rep->findings[i].message
                             ? strstr(rep->findings[i].message, "(the first: element ")
                             : NULL;
        long first;
        if (at && sscanf(at, "(the first: element %ld)", &first) == 1)
            return first;
    }
    return -1;
}

/* ceil(n / per) as float arithmetic computes it: ceil(1.f * n / per) */
static long float_ceil(long n, long per) { return (long)ceilf((float)n / (float)per); }

int explain_unread(const emu_report_t *rep, const dataset_t *d, const char *summary, strbuf_t *msg)
{
    if (!has_finding(rep, "input-not-read"))
        return 0;
    sb_appendf(msg, "FAILED: %s, but the kernels never read all of the inputs (below): the result leaves part "
                    "of them out, and passes only by the tolerance\n", summary);
    const matrix_t *in = d->ninputs > 0 ? &d->inputs[0] : NULL;
    long n = in ? (long)in->rows * in->cols : 0, first = first_unread(rep);
    long bx = (long)emu_report_stat(rep, "block_x"), gx = (long)emu_report_stat(rep, "grid_x");
    int one_dimension = emu_report_stat(rep, "block_y") == 1 && emu_report_stat(rep, "grid_y") == 1;
    if (!in || (in->rows != 1 && in->cols != 1) || emu_report_stat(rep, "launches") != 1 || !one_dimension ||
        bx <= 0 || gx <= 0 || first <= 0 || first % (gx * bx) != 0)
        return 1; /* the launch does not tell how far it reached */
    long per = first / (gx * bx) * bx; /* elements a block covers: its threads, one or more each */
    long need = (n + per - 1) / per;
    sb_appendf(msg, "hint: your grid has %ld blocks of %ld threads, which reach the first %ld of the %ld elements; "
                    "%ld blocks are needed", gx, bx, first, n, need);
    if (gx == float_ceil(n, per) && gx != need && (long)(float)n != n)
        sb_appendf(msg, ". That is the grid ceil(1.f * n / %ld) computes in float: a float holds every integer "
                        "only up to 2^24 = 16777216, and n = %ld becomes %.0f in it. Use integer ceiling "
                        "division, (n + %ld - 1) / %ld\n", per, n, (double)(float)n, per, per);
    else
        sb_appendf(msg, ": the grid is too small (a size rounded down?); use integer ceiling division, "
                        "(n + %ld - 1) / %ld\n", per, per);
    return 1;
}
