/* slurm_status.c - `cugrade batch --status` (how many submissions are done,
 * missing or failed, decided as --resume decides, and the Slurm jobs'
 * states) and `cugrade batch --merge` (the class files rebuilt from the
 * per-student results, without grading: the last job of a --slurm batch,
 * and usable by hand). The class is SUBMISSIONS_DIR with the command line's
 * options when given, else the one RESULTS_DIR/.slurm/slurm.json records. */
#include "batch/batch_state.h"
#include "batch/slurm.h"
#include "util/cugrade.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Fills o's class from the record when the command line names none. */
static int class_opts(batch_opts_t *o, const slurm_opts_t *s, json_object *rec, const char *cmd,
                      FILE *out)
{
    char err[512];
    if (s->have_submissions)
        return 0;
    if (!rec) {
        fprintf(out, "cugrade batch %s: %s has no record of a --slurm batch (" SLURM_DIR "/" SLURM_RECORD
                     "): give the batch's --lab and SUBMISSIONS_DIR too\n", cmd, o->out_dir);
        return EXIT_USAGE;
    }
    if (slurm_record_opts(rec, o, err, sizeof err) != 0) {
        fprintf(out, "cugrade batch %s: %s/" SLURM_DIR "/" SLURM_RECORD ": %s\n", cmd, o->out_dir, err);
        return EXIT_CANNOT_GRADE;
    }
    return 0;
}

/* The record and the class's state; an exit status on failure, else 0. */
static int load(batch_opts_t *o, const slurm_opts_t *s, const char *cmd, json_object **rec,
                class_state_t *cs, FILE *out)
{
    char err[1024];
    memset(cs, 0, sizeof *cs);
    *rec = slurm_record_load(o->out_dir, err, sizeof err);
    if (err[0]) {
        fprintf(out, "cugrade batch %s: %s\n", cmd, err);
        return EXIT_CANNOT_GRADE;
    }
    int rc = class_opts(o, s, *rec, cmd, out);
    if (rc == 0 && class_state_load(o, cs, out) != 0)
        rc = EXIT_CANNOT_GRADE;
    return rc;
}

/* One job's line; 1 when it is still in the queue. */
static int job_line(const char *what, const char *id, const char *about, FILE *out)
{
    char states[512], queued[128];
    slurm_job_states(id, states, sizeof states);
    slurm_queued_state(id, queued, sizeof queued);
    fprintf(out, "  slurm: %s %s%s: %s\n", what, id, about, states);
    return queued[0] != '\0';
}

/* The last submission's jobs; 1 when one of them is still in the queue. */
static int print_jobs(json_object *rec, FILE *out)
{
    json_object *last = slurm_record_last(rec), *tasks;
    if (!last)
        return 0;
    const char *array = slurm_json_str(last, "array_job"), *merge = slurm_json_str(last, "merge_job");
    const char *when = slurm_json_str(last, "time");
    int shards = json_object_object_get_ex(last, "shards", &tasks) ? json_object_get_int(tasks) : 0;
    int ntasks = json_object_object_get_ex(last, "tasks", &tasks) ? (int)json_object_array_length(tasks) : 0;
    char about[160];
    snprintf(about, sizeof about, " (%d of %d shard(s), submitted %s)", ntasks, shards, when ? when : "?");
    int queued = array ? job_line("job array", array, about, out) : 0;
    if (merge)
        queued |= job_line("merge job", merge, "", out);
    else
        fprintf(out, "  slurm: no merge job was submitted: run cugrade batch --merge once the array "
                     "has ended\n");
    return queued;
}

int batch_status(batch_opts_t *o, const slurm_opts_t *s, FILE *out)
{
    json_object *rec = NULL;
    class_state_t cs;
    int rc = load(o, s, "--status", &rec, &cs, out);
    if (rc == 0) {
        fprintf(out, "cugrade batch --status: %s (%s, %s)\n", o->out_dir, o->lab, o->submissions_dir);
        class_state_print(&cs, "  ", out);
        int queued = print_jobs(rec, out);
        int left = cs.nchosen - cs.done;
        if (left == 0)
            fprintf(out, "  all %d done\n", cs.nchosen);
        else if (queued)
            fprintf(out, "  %d left; the last submission's jobs are still in the queue\n", left);
        else
            fprintf(out, "  %d left: run the same cugrade batch %s command again to grade them\n", left,
                    rec ? "--slurm" : "--resume");
    }
    class_state_free(&cs);
    json_object_put(rec);
    return rc;
}

int batch_merge(batch_opts_t *o, const slurm_opts_t *s, FILE *out)
{
    char err[1024];
    if (!is_dir(o->out_dir)) {
        fprintf(out, "cugrade batch --merge: %s: no such results folder\n", o->out_dir);
        return EXIT_CANNOT_GRADE;
    }
    if (batch_write_class_files(o->out_dir, out, err, sizeof err) != 0) {
        fprintf(out, "cugrade batch --merge: %s\n", err);
        return EXIT_CANNOT_GRADE;
    }
    fprintf(out, "cugrade batch --merge: rebuilt gradebook.csv, summary.json, class.html and the "
                 "reports in %s\n", o->out_dir);
    json_object *rec = slurm_record_load(o->out_dir, err, sizeof err);
    if (!rec && !s->have_submissions) /* a results folder without a record: nothing to compare */
        return err[0] ? (fprintf(out, "cugrade batch --merge: %s\n", err), EXIT_CANNOT_GRADE) : 0;
    json_object_put(rec);
    class_state_t cs;
    int rc = load(o, s, "--merge", &rec, &cs, out);
    if (rc == 0 && cs.done < cs.nchosen) {
        fprintf(out, "cugrade batch --merge: not every submission has a result yet:\n");
        class_state_print(&cs, "  ", out);
        rc = EXIT_CANNOT_GRADE;
    }
    class_state_free(&cs);
    json_object_put(rec);
    return rc;
}
