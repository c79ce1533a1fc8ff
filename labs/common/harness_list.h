/* harness_list.h - a driver's list mode (`driver --each LIST`: every dataset
 * of a submission in one process, each between markers, as the top of
 * harness.h describes), its main (harness_main), and the watchdog that ends
 * a dataset, or a timing (timing.h), at its limit. Part of harness.h, which
 * includes it at its end: it builds on harness.h's checks, report channel
 * and GPU turns. */
#ifndef CUGRADE_HARNESS_LIST_H
#define CUGRADE_HARNESS_LIST_H

/* ---- list mode: several datasets in one process (the top of harness.h) ---- */

#define HARNESS_EXIT_TIMEOUT 124   /* the watchdog's status, as timeout(1)'s */
#define HARNESS_LIST_MAX_FIELDS 32 /* per LIST line */

/* The driver's work for one dataset: main's, same arguments; returns the
 * exit status (0 when the output is written). */
typedef int (*harness_dataset_fn)(int argc, char **argv);

/* One LIST line. */
typedef struct {
    double limit_s;
    int nenv, argc;
    char *env[HARNESS_LIST_MAX_FIELDS];      /* "NAME=VALUE", set before it runs */
    char *argv[HARNESS_LIST_MAX_FIELDS + 2]; /* argv[0] is the driver's own */
} harness_dataset_t;

/* What the watchdog watches: a deadline (CLOCK_MONOTONIC seconds; 0 while
 * disarmed) and the line it writes once that has passed, before it ends the
 * process: a list's dataset time-out marker (to stdout and the report
 * channel) or the timing's time cap (timing.h, to stderr). */
typedef struct {
    pthread_mutex_t lock;
    int started;
    double deadline;
    int marker; /* the line is a marker: stdout and the report channel */
    char line[256];
} harness_watch_t;

static inline harness_watch_t *harness_watch(void)
{
    static harness_watch_t w = {PTHREAD_MUTEX_INITIALIZER, 0, 0.0, 0, ""};
    return &w;
}

/* Ends the process when the deadline passes, writing the armed line with
 * write(2) alone (a stuck main thread may hold stdio's lock). It decides and
 * exits holding the lock, so what it watches either ends or times out. */
static inline HARNESS_NOT_INSTRUMENTED void *harness_watchdog(void *unused)
{
    (void)unused;
    harness_watch_t *w = harness_watch();
    for (;;) {
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
        pthread_mutex_lock(&w->lock);
        if (w->deadline > 0 && harness_now() >= w->deadline) {
            size_t n = strlen(w->line);
            harness_write_all(w->marker ? STDOUT_FILENO : STDERR_FILENO, w->line, n);
            if (w->marker)
                harness_report(w->line, n);
            _exit(HARNESS_EXIT_TIMEOUT);
        }
        pthread_mutex_unlock(&w->lock);
    }
    return NULL;
}

/* Starts the watchdog's thread once; -1 if it cannot be. Call with the
 * watch's lock held. */
static inline int harness_watch_start_locked(harness_watch_t *w)
{
    if (w->started)
        return 0;
    pthread_t t;
    if (pthread_create(&t, NULL, harness_watchdog, NULL) != 0)
        return -1;
    pthread_detach(t);
    w->started = 1;
    return 0;
}

/* Arms the watchdog: past deadline it writes the line (printf-style; a
 * marker goes to stdout and the report channel, else to stderr) and ends the
 * process with HARNESS_EXIT_TIMEOUT. -1 if its thread cannot start. */
static inline int harness_watch_arm(double deadline, int marker, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int harness_watch_arm(double deadline, int marker, const char *fmt, ...)
{
    harness_watch_t *w = harness_watch();
    pthread_mutex_lock(&w->lock);
    int rc = harness_watch_start_locked(w);
    if (rc == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->line, sizeof w->line, fmt, ap);
        va_end(ap);
        w->marker = marker;
        w->deadline = deadline;
    }
    pthread_mutex_unlock(&w->lock);
    return rc;
}

static inline void harness_watch_disarm(void)
{
    harness_watch_t *w = harness_watch();
    pthread_mutex_lock(&w->lock);
    w->deadline = 0;
    pthread_mutex_unlock(&w->lock);
}

/* Fills d from one LIST line (split in place); -1 if it is malformed. */
static inline int harness_parse_line(char *line, char *prog, harness_dataset_t *d)
{
    char *f[HARNESS_LIST_MAX_FIELDS], *save = NULL, *end;
    const char *seps = strchr(line, '\t') ? "\t" : " ";
    int n = 0, dashes = 0;
    for (char *t = strtok_r(line, seps, &save); t; t = strtok_r(NULL, seps, &save)) {
        if (n == HARNESS_LIST_MAX_FIELDS)
            return -1;
        f[n++] = t;
    }
    if (n < 2)
        return -1;
    d->limit_s = strtod(f[0], &end);
    if (*end || !(d->limit_s > 0) || d->limit_s > 1e9)
        return -1;
    for (int i = 1; i < n && !dashes; i++)
        if (strcmp(f[i], "--") == 0)
            dashes = i;
    d->nenv = 0;
    for (int i = 1; i < dashes; i++) {
        if (f[i][0] == '=' || !strchr(f[i], '='))
            return -1;
        d->env[d->nenv++] = f[i];
    }
    d->argc = 0;
    d->argv[d->argc++] = prog;
    for (int i = dashes + 1; i < n; i++)
        d->argv[d->argc++] = f[i];
    d->argv[d->argc] = NULL;
    return 0;
}

/* Reads LIST (its lines stay allocated: the fields point into them). Exits
 * with status 2 when it cannot be read, is empty or has a malformed line. */
static inline harness_dataset_t *harness_read_list(const char *path, char *prog, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cugrade: cannot read the dataset list %s\n", path);
        exit(HARNESS_EXIT_IO);
    }
    harness_dataset_t *list = NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int n = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        list = (harness_dataset_t *)realloc(list, (size_t)(n + 1) * sizeof *list);
        char *own = strdup(line);
        if (!list || !own || harness_parse_line(own, prog, &list[n]) != 0) {
            fprintf(stderr, "cugrade: %s:%d: not a dataset line (LIMIT_S [NAME=VALUE... --] ARG...)\n",
                    path, n + 1);
            exit(HARNESS_EXIT_IO);
        }
        n++;
    }
    free(line);
    fclose(f);
    if (n == 0) {
        fprintf(stderr, "cugrade: the dataset list %s is empty\n", path);
        exit(HARNESS_EXIT_IO);
    }
    *count = n;
    return list;
}

/* The timing program's entry, linked into a driver built with
 * -DCUGRADE_TIMING_TAIL (grader/build/build_timing.c, the "timed driver"):
 * the lab's perf.cu compiled with -DCUGRADE_TIMING_ENTRY=cugrade_timing_main. */
#ifdef CUGRADE_TIMING_TAIL
int cugrade_timing_main(int argc, char **argv);
#define HARNESS_TIMING_ENTRY cugrade_timing_main
#else
#define HARNESS_TIMING_ENTRY NULL
#endif

/* driver --each LIST [--time ARG...]: every dataset in turn, between markers,
 * watched. With --time (a timed driver only), the list's timing tail: once
 * every dataset has ended, the driver asks the grader whether to time (a
 * "T" turn); if the grader, having compared the outputs, says so, it writes
 * "\ncugrade-timing-begin\n" and runs the timing program's entry with ARG...
 * in this process and its CUDA context, whose exit status becomes the
 * process's. So a submission whose outputs pass is timed without a second
 * process and context: a CUDA context is made one at a time for the whole
 * host (bench/gpu_context.sh), which bounds a batch on several GPUs. */
static inline int harness_run_list(char *prog, const char *path, harness_dataset_fn run,
                                   int tail_argc, char **tail_argv)
{
    int n;
    harness_dataset_t *list = harness_read_list(path, prog, &n);
    harness_watch_t *watch = harness_watch();
    pthread_mutex_lock(&watch->lock);
    int watched = harness_watch_start_locked(watch);
    pthread_mutex_unlock(&watch->lock);
    if (watched != 0) {
        fprintf(stderr, "cugrade: cannot start the watchdog thread\n");
        return HARNESS_EXIT_IO;
    }
    /* Create the CUDA context before the first dataset's clock starts: on a
     * busy GPU that alone can take seconds, which a separate run pays outside
     * its kernel too. (An error here shows again in the first dataset.) */
    (void)cudaFree(0);
    /* The GPU held beside others from here (one turn for the whole list: a
     * turn per dataset would wait behind every timed run as often); the
     * datasets' clocks start once it is held. */
    harness_gpu_share();
    harness_crash_arm(); /* a crash of the student's code ends its dataset only */
    for (int k = 0; k < n; k++) {
        harness_dataset_t *d = &list[k];
        for (int e = 0; e < d->nenv; e++)
            putenv(d->env[e]);
        char line[96];
        snprintf(line, sizeof line, "\ncugrade-dataset-begin %d\n", k);
        harness_marker(line);
        double start = harness_now();
        harness_watch_arm(start + d->limit_s, 1, "\ncugrade-dataset-timeout %d\n", k);
        jmp_buf escape;
        /* 3: a CUDA error that left the context usable; HARNESS_CRASH_BASE +
         * a signal: the student's code crashed (harness_crash.h) */
        int status = setjmp(escape);
        if (status == 0) {
            *harness_dataset_escape() = &escape;
            status = run(d->argc, d->argv);
            *harness_dataset_escape() = NULL;
            if (status != 0)
                return status; /* watched until the process is gone, like a failed single run */
        }
        *harness_dataset_escape() = NULL;
        if (status > HARNESS_CRASH_BASE)
            harness_crash_settle(status - HARNESS_CRASH_BASE); /* under the watchdog still */
        double wall = harness_now() - start;
        harness_watch_disarm();
        if (status > HARNESS_CRASH_BASE)
            snprintf(line, sizeof line, "\ncugrade-dataset-signal %d %.6f %d\n", k, wall,
                     status - HARNESS_CRASH_BASE);
        else if (status != 0)
            snprintf(line, sizeof line, "\ncugrade-dataset-failed %d %.6f %d\n", k, wall, status);
        else
            snprintf(line, sizeof line, "\ncugrade-dataset-end %d %.6f\n", k, wall);
        harness_marker(line);
    }
    harness_gpu_done();
    free(list);
    int (*timing)(int, char **) = HARNESS_TIMING_ENTRY;
    if (tail_argc > 0 && timing && harness_gpu_may_time()) {
        harness_marker("\ncugrade-timing-begin\n");
        return timing(tail_argc, tail_argv);
    }
    return 0;
}

/* A driver's main: `driver ARGS...` runs one dataset (run(argc, argv)),
 * `driver --each LIST` every dataset of LIST in this process. */
static inline int harness_main(int argc, char **argv, harness_dataset_fn run)
{
    harness_report_fd(); /* looked up before any of the submission's code runs */
    if (argc >= 2 && strcmp(argv[1], "--each") == 0) {
        int timed = argc >= 4 && strcmp(argv[3], "--time") == 0 && HARNESS_TIMING_ENTRY;
        if (argc != 3 && !timed) {
            fprintf(stderr, "usage: %s --each LIST%s\n", argv[0],
                    HARNESS_TIMING_ENTRY ? " [--time TIMING-ARG...]" : "");
            return HARNESS_EXIT_IO;
        }
        if (timed)
            argv[3] = argv[0]; /* the timing entry's argv: the program, then its arguments */
        return harness_run_list(argv[0], argv[2], run, timed ? argc - 3 : 0,
                                timed ? argv + 3 : NULL);
    }
    return run(argc, argv);
}

#endif
