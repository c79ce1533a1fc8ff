/* slurm_queue.c - Slurm's own commands, as a cluster has them on PATH:
 * sbatch to submit (its job id read from --parsable), squeue for what is
 * still in the queue, and sacct (or scontrol, where accounting is off) for
 * the states of an array's tasks. Each runs as a child with a time limit. */
#include "batch/slurm.h"
#include "run/runner.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SLURM_CMD_TIMEOUT_S 60
#define MAX_STATES 16

int slurm_need(const char *prog, const char *what, FILE *out)
{
    char path[PATH_MAX];
    if (find_program(prog, path, sizeof path) == 0)
        return 0;
    const char *env = getenv("PATH");
    fprintf(out, "cugrade batch --slurm: %s not found on PATH (%s): %s\n", prog, env ? env : "unset",
            what);
    return -1;
}

/* Runs Slurm's prog with args (NULL-ended, args[0] is prog). -1 when it
 * is not on PATH; else r holds how it ended. */
static int run_slurm(char *const *args, run_result_t *r)
{
    char path[PATH_MAX];
    char *argv[SLURM_MAX_OPTS + 16];
    memset(r, 0, sizeof *r);
    if (find_program(args[0], path, sizeof path) != 0)
        return -1;
    int n = 0;
    argv[n++] = path;
    for (int i = 1; args[i] && n < (int)(sizeof argv / sizeof *argv) - 1; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .timeout_s = SLURM_CMD_TIMEOUT_S, .output_cap = 1 << 16};
    return run_one(&spec, r);
}

static int ok(const run_result_t *r)
{
    return r->started && r->exited && r->exit_code == 0;
}

/* The output's last line, trimmed, for messages. */
static void last_words(const run_result_t *r, char *buf, size_t len)
{
    char *text = strdup(r->output ? r->output : "");
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        text[--n] = '\0';
    char *line = strrchr(text, '\n');
    snprintf(buf, len, "%s", line ? line + 1 : text);
    free(text);
}

/* --parsable prints "id" or "id;cluster" (warnings may come before it). */
static int parse_job_id(const char *output, char *id, size_t idlen)
{
    for (const char *line = output; *line;) {
        size_t digits = strspn(line, "0123456789"), n = strcspn(line, "\n");
        if (digits > 0 && digits < idlen && (digits == n || line[digits] == ';')) {
            snprintf(id, idlen, "%.*s", (int)digits, line);
            return 0;
        }
        line += n + (line[n] == '\n');
    }
    return -1;
}

int slurm_sbatch(char *const *argv, char *id, size_t idlen, char *err, size_t errlen)
{
    run_result_t r;
    char why[512], how[256];
    if (run_slurm(argv, &r) != 0)
        return fail(err, errlen, "sbatch not found on PATH");
    int rc = 0;
    last_words(&r, why, sizeof why);
    if (!ok(&r)) {
        run_spec_t spec = {.timeout_s = SLURM_CMD_TIMEOUT_S}; /* for the message */
        run_describe(&r, &spec, how, sizeof how);
        rc = fail(err, errlen, "sbatch %s: %s", how, why[0] ? why : "(no message)");
    } else if (parse_job_id(r.output ? r.output : "", id, idlen) != 0) {
        rc = fail(err, errlen, "sbatch printed no job id: %s", why);
    }
    run_result_free(&r);
    return rc;
}

void slurm_queued_state(const char *id, char *state, size_t len)
{
    char jobs[64];
    snprintf(jobs, sizeof jobs, "--jobs=%s", id);
    char *argv[] = {"squeue", "--noheader", jobs, "--format=%T", NULL};
    run_result_t r;
    state[0] = '\0';
    if (run_slurm(argv, &r) == 0 && ok(&r) && r.output) {
        size_t n = strcspn(r.output, "\n");
        snprintf(state, len, "%.*s", (int)n, r.output);
    }
    run_result_free(&r);
}

/* ---- counting the tasks' states ----------------------------------------- */

typedef struct {
    char name[32];
    int count;
} state_count_t;

typedef struct {
    state_count_t s[MAX_STATES];
    int n;
} states_t;

static void add_state(states_t *st, const char *name, size_t len, int count)
{
    char word[32];
    snprintf(word, sizeof word, "%.*s", (int)len, name);
    word[strcspn(word, " ")] = '\0'; /* "CANCELLED by 0" */
    for (int i = 0; i < st->n; i++)
        if (strcmp(st->s[i].name, word) == 0) {
            st->s[i].count += count;
            return;
        }
    if (st->n < MAX_STATES) {
        snprintf(st->s[st->n].name, sizeof st->s[st->n].name, "%s", word);
        st->s[st->n++].count = count;
    }
}

/* How many tasks an index list names: "3" 1, "[2-3]" or "2-3" 2,
 * "1,4-5%2" 3 (a throttle after '%'); anything else 1. */
static int count_tasks(const char *spec, size_t len)
{
    int total = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)len, spec);
    buf[strcspn(buf, "%]")] = '\0';
    char *p = buf + (buf[0] == '[');
    for (char *save = NULL, *part = strtok_r(p, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
        char *dash = strchr(part, '-');
        long a = atol(part), b = dash ? atol(dash + 1) : a;
        total += b >= a && isdigit((unsigned char)part[0]) ? (int)(b - a + 1) : 1;
    }
    return total > 0 ? total : 1;
}

/* sacct -P: "12_0|COMPLETED", "12_[1-2]|PENDING", "13|FAILED". */
static void count_sacct(const char *out, states_t *st)
{
    for (const char *line = out; *line;) {
        size_t n = strcspn(line, "\n");
        const char *bar = memchr(line, '|', n), *us = memchr(line, '_', n);
        if (bar)
            add_state(st, bar + 1, (size_t)(line + n - bar - 1),
                      us && us < bar ? count_tasks(us + 1, (size_t)(bar - us - 1)) : 1);
        line += n + (line[n] == '\n');
    }
}

/* The value of " KEY=" in a line of `scontrol -o`, its length in *len. */
static const char *field(const char *line, size_t n, const char *key, size_t *len)
{
    size_t klen = strlen(key);
    for (const char *p = line; p + klen < line + n; p++)
        if ((p == line || p[-1] == ' ') && strncmp(p, key, klen) == 0) {
            *len = strcspn(p + klen, " \n");
            return p + klen;
        }
    return NULL;
}

/* scontrol -o show job: one line per task (a pending range as one). */
static void count_scontrol(const char *out, states_t *st)
{
    for (const char *line = out; *line;) {
        size_t n = strcspn(line, "\n"), slen = 0, tlen = 0;
        const char *state = field(line, n, "JobState=", &slen);
        const char *tasks = field(line, n, "ArrayTaskId=", &tlen);
        if (state)
            add_state(st, state, slen, tasks ? count_tasks(tasks, tlen) : 1);
        line += n + (line[n] == '\n');
    }
}

static void print_states(const states_t *st, char *summary, size_t len)
{
    strbuf_t sb = {0};
    for (int i = 0; i < st->n; i++)
        sb_appendf(&sb, "%s%d %s", i ? ", " : "", st->s[i].count, st->s[i].name);
    snprintf(summary, len, "%s", sb_str(&sb));
    sb_free(&sb);
}

int slurm_job_states(const char *id, char *summary, size_t len)
{
    char jobs[64], why[256] = "sacct and scontrol not found";
    states_t st = {0};
    run_result_t r;
    snprintf(jobs, sizeof jobs, "--jobs=%s", id);
    char *sacct[] = {"sacct", "--noheader", "--parsable2", "--allocations", jobs,
                     "--format=JobID,State", NULL};
    if (run_slurm(sacct, &r) == 0) {
        if (ok(&r))
            count_sacct(r.output ? r.output : "", &st);
        else
            last_words(&r, why, sizeof why);
    }
    run_result_free(&r);
    if (st.n == 0) {
        char *scontrol[] = {"scontrol", "--oneliner", "show", "job", (char *)id, NULL};
        if (run_slurm(scontrol, &r) == 0 && ok(&r))
            count_scontrol(r.output ? r.output : "", &st);
        run_result_free(&r);
    }
    if (st.n == 0)
        return snprintf(summary, len, "not known to Slurm any more (sacct: %s)", why), -1;
    print_states(&st, summary, len);
    return 0;
}
