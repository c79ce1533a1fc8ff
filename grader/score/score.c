/* score.c - a measurement and a rubric make the grade (score.h): the
 * compile test, one test per dataset with the rubric's points and
 * visibility, the checks judged from the replayed reports, the performance
 * test scored from the stored timing, and results.json's extra_data and
 * output. Nothing here builds, runs or reads anything but its arguments. */
#include "score/score.h"
#include "kinds/kind.h"
#include "score/checks.h"
#include "score/leaderboard.h"
#include "score/perf.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE_CONSEQUENCE                                                                        \
    "A submission that breaks a rule of the lab is graded for correctness as usual and scores " \
    "0 on performance; the lab's handout says what the rule allows."

static void add_compile_test(const measured_t *m, const lab_rubric_t *rub, grade_t *g)
{
    grade_add_test(g, rub->compile_name, m->compiled ? rub->compile_points : 0,
                   rub->compile_points, m->compiled, rub->compile_visibility,
                   m->compile_message ? m->compile_message : "");
}

static void add_dataset_tests(const measured_t *m, const lab_rubric_t *rub, int npublic,
                              grade_t *g)
{
    for (int i = 0; i < m->ndatasets; i++) {
        const measured_dataset_t *d = &m->datasets[i];
        dataset_rule_t rule = d->hidden_index > 0 ? rubric_hidden_rule(rub, npublic)
                                                  : rubric_dataset_rule(rub, d->folder, npublic);
        grade_attach_error_map(d->error_map); /* a copy, for the test added next */
        test_result_t *t = grade_add_test(g, d->name, d->passed ? rule.points : 0, rule.points,
                                          d->passed, rule.visibility, d->message);
        t->is_dataset = 1;
        t->is_hidden = d->hidden_index > 0;
        snprintf(t->failure, sizeof t->failure, "%s", d->failure);
    }
}

static void add_check_tests(const measured_t *m, const lab_rubric_t *rub, int datasets_passed,
                            grade_t *g)
{
    if (!rubric_has_checks(rub))
        return;
    const char *not_run = m->checks_measured ? m->checks_not_run
                                             : "the grading that measured this submission had "
                                               "no checks (its rubric listed none)";
    const char *unearned =
        datasets_passed == 0 ? "no dataset passed yet, so there is no working kernel to credit"
                             : NULL;
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    evidence_replay(&e, &m->evidence);
    checks_score(rub, &e, not_run, unearned, g);
    evidence_free(&e);
}

int score_perf_not_timed(const measured_t *m, const perf_rule_t *rule, const lab_t *lab,
                         strbuf_t *msg)
{
    measured_counts_t k = measured_counts(m);
    if (m->rule_broken[0]) {
        sb_appendf(msg, "FAILED: %s\n%s\n", m->rule_broken, RULE_CONSEQUENCE);
        return 1;
    }
    if (!m->compiled)
        sb_append(msg, SCORE_NOT_COMPILED_MSG "\n");
    else if (m->backend != BACKEND_NATIVE && !m->perf.on_gpu)
        sb_appendf(msg, "not scored on the %s backend (0 of 0; %g points on a GPU): the %s's "
                        "times are not GPU times, so speed is graded on a GPU only\n",
                   backend_name(m->backend), rule->points,
                   m->backend == BACKEND_VGPU ? "executor" : "CPU emulator");
    else if (m->backend == BACKEND_NATIVE && !lab->has_timing) /* a replay needs none */
        sb_append(msg, "not run: the lab has no timing program (lab.json \"timing\")\n");
    else if (k.datasets_passed < k.datasets_total || k.hidden_passed < k.hidden_total)
        sb_appendf(msg, "not scored: the output must be right on every dataset first (%d of %d "
                        "pass, and %d of %d hidden ones)\n", k.datasets_passed, k.datasets_total,
                   k.hidden_passed, k.hidden_total);
    return 0;
}

/* The device and the timings, for results.json's extra_data:
 *   "perf_ratio": 0.91,                  the scored ratio (geometric mean)
 *   "perf_relative_to": "cublas",        what it is relative to (rubric.json)
 *   "roofline": {...}                    where it sits (score/roofline.h), when drawn
 *   "performance_shapes" and Gradescope's "leaderboard" (score/leaderboard.h). */
static void record_timing(grade_t *g, const perf_result_t *pr, const perf_rule_t *rule,
                          const lab_t *lab, const roofline_t *roofline)
{
    if (roofline)
        grade_set_extra_json(g, "roofline", roofline_to_json(roofline));
    grade_set_extra_text(g, "device", pr->device);
    grade_set_extra_number(g, "sm_clock_mhz", pr->sm_clock_mhz);
    grade_set_extra_number(g, "driver_version", pr->driver_version);
    grade_set_extra_number(g, "cuda_runtime_version", pr->runtime_version);
    grade_set_extra_number(g, "perf_ratio", perf_speed_ratio(pr, rule->relative_to));
    grade_set_extra_text(g, "perf_relative_to", perf_relative_name(rule->relative_to));
    leaderboard_record(g, pr, lab->kind->rate_unit); /* performance_shapes, leaderboard */
}

/* The roofline of the timing, the student's traffic from the checks'
 * reports and the reference's from its counts: 0, or -1 (not drawn). */
static int measured_roofline(const measured_t *m, const lab_t *lab, roofline_t *rl)
{
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    evidence_replay(&e, &m->evidence);
    /* per FLOP the kernels did, where the executor counted them (a partial tile's padding is work
     * too, which the timing's shapes have none of), else per FLOP the datasets ask for */
    roofline_traffic_t student = e.executed_flop > 0
                                     ? (roofline_traffic_t){e.executed_global_bytes, e.executed_shared_bytes,
                                                            e.executed_flop}
                                     : (roofline_traffic_t){e.global_bytes, e.shared_load_bytes, e.flop};
    evidence_free(&e);
    const roofline_traffic_t *ref = m->perf.reference_traffic.flop > 0 ? &m->perf.reference_traffic : NULL;
    return roofline_build(&m->perf.result, lab, &student, ref, rl);
}

/* The "performance" test: 0 of 0 where it cannot be earned (the emulator),
 * 0 with the rule's message when a rule is broken, else the timing scored. */
static void add_performance_test(const measured_t *m, const perf_rule_t *rule, const lab_t *lab,
                                 grade_t *g)
{
    if (!rule->present)
        return;
    strbuf_t msg = {0};
    double score = 0, max = m->backend == BACKEND_NATIVE || m->perf.on_gpu ? rule->points : 0;
    int ok = 0;
    int failed = score_perf_not_timed(m, rule, lab, &msg);
    if (msg.len == 0 && !m->perf.measured)
        sb_append(&msg, "not run: the grading that measured this submission had no performance "
                        "test (its rubric listed none)\n");
    else if (msg.len == 0) {
        sb_append(&msg, m->perf.text ? m->perf.text : "");
        if (m->perf.timed) {
            roofline_t rl;
            int drawn = measured_roofline(m, lab, &rl) == 0;
            score = perf_score(rule, &m->perf.result, lab, drawn ? &rl : NULL, &msg, &ok);
            record_timing(g, &m->perf.result, rule, lab, drawn ? &rl : NULL);
        }
    }
    /* where it cannot be earned it is 0 of 0 and, for Gradescope, not a failure (unless a
     * rule is broken, which the student must see) */
    int passed = !failed && (max == 0 || ok || score >= max);
    grade_add_test(g, "performance", score, max, passed, rule->visibility, sb_str(&msg));
    sb_free(&msg);
}

static void record_facts(const measured_t *m, const measured_counts_t *k, grade_t *g)
{
    grade_set_extra_text(g, "cugrade_version", m->cugrade_version);
    grade_set_extra_text(g, "lab", m->lab);
    grade_set_extra_text(g, "backend", backend_name(m->backend));
    grade_set_extra_text(g, "submission_file", m->student_file);
    grade_set_extra_number(g, "datasets_passed", k->datasets_passed);
    grade_set_extra_number(g, "datasets_total", k->datasets_total);
    grade_set_extra_number(g, "hidden_passed", k->hidden_passed);
    grade_set_extra_number(g, "hidden_total", k->hidden_total);
    if (m->rule_broken[0])
        grade_set_extra_text(g, "rule_broken", m->rule_broken);
    if (m->phase_times)
        grade_set_extra_text(g, "phase_times", m->phase_times);
    if (m->nphases > 0) {
        json_object *phases = json_object_new_object();
        for (int i = 0; i < m->nphases; i++)
            json_object_object_add(phases, m->phases[i].name,
                                   json_object_new_double(round(m->phases[i].seconds * 1000) / 1000));
        grade_set_extra_json(g, "phases", phases);
    }
}

static void summarise(const measured_t *m, const measured_counts_t *k, grade_t *g)
{
    strbuf_t out = {0};
    char hidden[64] = "";
    if (k->hidden_total > 0)
        snprintf(hidden, sizeof hidden, " and %d of %d hidden datasets", k->hidden_passed,
                 k->hidden_total);
    sb_appendf(&out, "%s: %d of %d datasets%s passed on the %s backend (%s). Score %g / %g.\n",
               m->student_file[0] ? m->student_file : "submission", k->datasets_passed,
               k->datasets_total, hidden, backend_name(m->backend), m->backend_why,
               grade_score(g), grade_max_score(g));
    sb_appendf(&out, "%s\n", m->sandbox);
    if (m->cannot_grade)
        sb_appendf(&out, "Some datasets could not be graded: %s\n", m->cannot_grade);
    free(g->output);
    g->output = sb_detach(&out);
}

void score_measured(const measured_t *m, const lab_rubric_t *rub, const lab_t *lab, grade_t *g)
{
    measured_counts_t k = measured_counts(m);
    memset(g, 0, sizeof *g);
    for (int i = 0; i < m->nnotes; i++)
        grade_set_extra_text(g, m->notes[i].key, m->notes[i].text ? m->notes[i].text : "");
    add_compile_test(m, rub, g);
    add_dataset_tests(m, rub, k.datasets_total, g);
    add_check_tests(m, rub, k.datasets_passed, g);
    add_performance_test(m, &rub->performance, lab, g);
    record_facts(m, &k, g);
    g->execution_time = m->execution_time;
    summarise(m, &k, g);
}
