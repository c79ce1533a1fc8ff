/* ptxas.c - read nvcc's -Xptxas -v resource report. */
#include "build/ptxas.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char name[128];
    long registers, smem, stack, spill_stores, spill_loads;
} kernel_usage_t;

/* "_Z20matrixMultiplySharedPKfS0_Pfiiiiii" -> "matrixMultiplyShared"; other
 * names are kept as they are. */
static void readable_name(const char *mangled, char *out, size_t len)
{
    if (strncmp(mangled, "_Z", 2) == 0 && isdigit((unsigned char)mangled[2])) {
        char *end;
        long n = strtol(mangled + 2, &end, 10);
        if (n > 0 && (size_t)n < len && strlen(end) >= (size_t)n) {
            snprintf(out, len, "%.*s", (int)n, end);
            return;
        }
    }
    snprintf(out, len, "%.127s", mangled);
}

static void print_usage(const kernel_usage_t *k, strbuf_t *out)
{
    sb_appendf(out, "kernel %s: %ld registers, %ld B static shared memory, %ld B stack, ", k->name,
               k->registers, k->smem, k->stack);
    if (k->spill_stores || k->spill_loads)
        sb_appendf(out, "spills %ld B stored / %ld B loaded (registers ran out: slow)\n",
                   k->spill_stores, k->spill_loads);
    else
        sb_append(out, "no spills\n");
}

int ptxas_summarise(const char *log, strbuf_t *out)
{
    int found = 0;
    kernel_usage_t k;
    memset(&k, 0, sizeof k);
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
        char mangled[256];
        const char *s;
        if (sscanf(line, "ptxas info : Compiling entry function '%255[^']'", mangled) == 1 ||
            sscanf(line, "ptxas info    : Compiling entry function '%255[^']'", mangled) == 1) {
            if (found)
                print_usage(&k, out);
            memset(&k, 0, sizeof k);
            readable_name(mangled, k.name, sizeof k.name);
            found++;
        } else if (found && (s = strstr(line, "bytes stack frame")) != NULL) {
            sscanf(line, " %ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads",
                   &k.stack, &k.spill_stores, &k.spill_loads);
        } else if (found && (s = strstr(line, "Used ")) != NULL) {
            sscanf(s, "Used %ld registers", &k.registers);
            const char *smem = strstr(line, " bytes smem");
            if (smem) {
                while (smem > line && isdigit((unsigned char)smem[-1]))
                    smem--;
                k.smem = atol(smem);
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    if (found)
        print_usage(&k, out);
    return found;
}

void ptxas_strip(const char *log, strbuf_t *out)
{
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < 511 ? len : 511), p);
        int is_report = strncmp(line, "ptxas info", 10) == 0 ||
                        (strncmp(line, "    ", 4) == 0 && strstr(line, "bytes stack frame"));
        if (!is_report) {
            sb_appendn(out, p, len);
            sb_append(out, "\n");
        }
        p = nl ? nl + 1 : NULL;
    }
}
