/* measured.c - building and freeing a grading's measurement (measured.h);
 * its JSON is in measured_json.c. */
#include "score/measured.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs("cugrade: out of memory\n", stderr);
    abort();
}

void measured_set(char **slot, const char *text)
{
    free(*slot);
    *slot = NULL;
    if (text && !(*slot = strdup(text)))
        out_of_memory();
}

measured_dataset_t *measured_add_dataset(measured_t *m, const char *name, const char *folder,
                                         int hidden_index, int passed, const char *message,
                                         const char *failure, error_map_t *error_map)
{
    if (m->ndatasets == m->cap) {
        int cap = m->cap ? 2 * m->cap : 32;
        measured_dataset_t *d = realloc(m->datasets, (size_t)cap * sizeof *d);
        if (!d)
            out_of_memory();
        m->datasets = d;
        m->cap = cap;
    }
    measured_dataset_t *d = &m->datasets[m->ndatasets++];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    snprintf(d->folder, sizeof d->folder, "%s", folder ? folder : "");
    d->hidden_index = hidden_index;
    d->passed = passed != 0;
    measured_set(&d->message, message ? message : "");
    snprintf(d->failure, sizeof d->failure, "%s", failure ? failure : "");
    d->error_map = error_map;
    return d;
}

void measured_add_note(measured_t *m, const char *key, const char *text)
{
    if (m->nnotes >= MEASURED_MAX_NOTES)
        return;
    measured_note_t *n = &m->notes[m->nnotes++];
    memset(n, 0, sizeof *n);
    snprintf(n->key, sizeof n->key, "%s", key);
    measured_set(&n->text, text);
}

void measured_add_phase(measured_t *m, const char *name, double seconds)
{
    if (m->nphases >= MEASURED_MAX_PHASES)
        return;
    measured_phase_t *p = &m->phases[m->nphases++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->seconds = seconds;
}

measured_counts_t measured_counts(const measured_t *m)
{
    measured_counts_t c = {0};
    for (int i = 0; i < m->ndatasets; i++) {
        const measured_dataset_t *d = &m->datasets[i];
        if (d->hidden_index > 0) {
            c.hidden_total++;
            c.hidden_passed += d->passed;
        } else {
            c.datasets_total++;
            c.datasets_passed += d->passed;
        }
    }
    return c;
}

void measured_free(measured_t *m)
{
    for (int i = 0; i < m->ndatasets; i++) {
        free(m->datasets[i].message);
        free(m->datasets[i].error_map);
    }
    free(m->datasets);
    for (int i = 0; i < m->nnotes; i++)
        free(m->notes[i].text);
    free(m->rubric_run_fields);
    free(m->compile_message);
    free(m->cannot_grade);
    free(m->checks_not_run);
    evidence_log_free(&m->evidence);
    free(m->perf.text);
    free(m->phase_times);
    memset(m, 0, sizeof *m);
}
