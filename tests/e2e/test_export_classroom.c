/* test_export_classroom.c - `cugrade export classroom`: the starter
 * repository's tree (the stub, the grading tree without the secret, the
 * Makefile set to the lab and the emulator), its workflow
 * (.github/workflows/grade.yml parsed with python3's yaml where it is
 * installed, else checked as text: on push, the deps, `make grade`, the
 * `result` output GitHub Classroom's grading reporter reads), `make grade`
 * run in the starter (the score line the workflow greps), and the
 * workflow's grading step itself run there for the stub and the reference. */
#include "export_case.h"

typedef struct {
    char tmp[64];
    char dir[128];
} starter_t;

static void export_starter(starter_t *s)
{
    temp_dir(s->tmp, sizeof s->tmp, "classroom");
    snprintf(s->dir, sizeof s->dir, "%s/starter", s->tmp);
    run_result_t r = cugrade_export("classroom", "lab3", s->dir);
    cr_assert(ok(&r), "export: %s", r.output);
    run_result_free(&r);
}

/* Reads the workflow; writes the grading step's script to <tmp>/step.sh. */
static const char CHECK_WORKFLOW[] =
    "import sys\n"
    "path, out = sys.argv[1], sys.argv[2]\n"
    "text = open(path).read()\n"
    "try:\n"
    "    import yaml\n"
    "except ImportError:\n"
    "    yaml = None\n"
    "if yaml is None:\n"
    "    for want in ('on:', 'push:', 'id: cugrade', 'make grade', 'tools/deps.sh grade',\n"
    "                 'BACKEND=emu',\n"
    "                 'classroom-resources/autograding-grading-reporter@v1',\n"
    "                 'runners: cugrade', '${{ steps.cugrade.outputs.result }}'):\n"
    "        assert want in text, want\n"
    "    start = text.index('id: cugrade')\n"
    "    body = text[text.index('run: |', start) + 7:text.index('- name:', start)]\n"
    "    lines = body.splitlines()\n"
    "    pad = min(len(l) - len(l.lstrip()) for l in lines if l.strip())\n"
    "    open(out, 'w').write('\\n'.join(l[pad:] for l in lines) + '\\n')\n"
    "    print('checked as text (no python3 yaml)')\n"
    "    sys.exit(0)\n"
    "w = yaml.safe_load(text)\n"
    "on = w.get('on', w.get(True))\n"
    "assert 'push' in on, on\n"
    "assert w.get('name') == 'Autograding Tests', 'the reporter finds the check run by this name'\n"
    "job = w['jobs']['run-autograding-tests']\n"
    "assert job.get('name') == 'Autograding Tests', job.get('name')\n"
    "steps = job['steps']\n"
    "runs = ' '.join(s.get('run', '') for s in steps)\n"
    "assert 'tools/deps.sh grade' in runs and 'make grade' in runs, runs\n"
    "assert 'BACKEND=emu' in runs, runs\n"
    "assert any(s.get('uses', '').startswith('actions/checkout@') for s in steps)\n"
    "grade = [s for s in steps if s.get('id') == 'cugrade']\n"
    "assert len(grade) == 1 and 'make grade' in grade[0]['run'] and 'GITHUB_OUTPUT' in grade[0]['run']\n"
    "rep = [s for s in steps if s.get('uses', '').startswith('classroom-resources/autograding-grading-reporter@')]\n"
    "assert len(rep) == 1, 'no grading reporter'\n"
    "assert rep[0]['with']['runners'] == 'cugrade'\n"
    "assert 'steps.cugrade.outputs.result' in rep[0]['env']['CUGRADE_RESULTS']\n"
    "assert rep[0].get('if') == 'always()'\n"
    "open(out, 'w').write(grade[0]['run'])\n"
    "print('parsed with yaml')\n";

/* The result the grading step gave, decoded, checked: version 1, the tests'
 * scores adding up to want (or to max_score when want < 0). */
static const char CHECK_RESULT[] =
    "import base64, json, sys\n"
    "line = [l for l in open(sys.argv[1]) if l.startswith('result=')][-1]\n"
    "r = json.loads(base64.b64decode(line[len('result='):].strip()))\n"
    "want = float(sys.argv[2])\n"
    "got = sum(t['score'] for t in r['tests'])\n"
    "assert r['version'] == 1 and r['max_score'] > 0, r\n"
    "assert all(isinstance(t['name'], str) and t['status'] in ('pass', 'fail') for t in r['tests'])\n"
    "assert got == (r['max_score'] if want < 0 else want), (got, r['max_score'])\n"
    "assert r['status'] == ('pass' if want < 0 else 'fail'), r['status']\n"
    "print('score', got, '/', r['max_score'])\n";

static void write_script(const starter_t *s, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", s->tmp, name);
    write_text(path, text);
}

/* Runs the workflow's grading step in the starter and checks its result. */
static void run_grading_step(const starter_t *s, const char *want)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "set -e; t=%s; rm -f $t/out; cd $t/starter; "
             "GITHUB_OUTPUT=$t/out env -u CUGRADE_HIDDEN_SEED_FILE bash $t/step.sh; "
             "python3 $t/check_result.py $t/out %s",
             s->tmp, want);
    run_result_t r = sh(NULL, cmd, NULL, 900);
    cr_expect(ok(&r), "the grading step: %s", r.output);
    cr_expect(strstr(r.output, "Score: ") != NULL, "the score line: %s", r.output);
    run_result_free(&r);
}

Test(export_classroom, make_grade_and_the_workflow_step_grade_the_starter, .timeout = 1800)
{
    starter_t s;
    export_starter(&s);
    write_script(&s, "check_workflow.py", CHECK_WORKFLOW);
    write_script(&s, "check_result.py", CHECK_RESULT);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "python3 %s/check_workflow.py %s/.github/workflows/grade.yml "
             "%s/step.sh", s.tmp, s.dir, s.tmp);
    run_result_t r = sh(NULL, cmd, NULL, 60);
    cr_assert(ok(&r), "the workflow: %s", r.output);
    run_result_free(&r);

    /* the score, and the line saying the secret was made: within 80 columns too */
    r = sh(s.dir, "env -u CUGRADE_HIDDEN_SEED_FILE make -j2 grade 2>&1 | "
                  "grep -E -A1 '^ *Score: |^cugrade: made the hidden' | grep -v '^--$'", NULL, 900);
    cr_assert(ok(&r), "make grade: %s", r.output);
    cr_expect(strstr(r.output, "Score: 0 / 110") != NULL, "the stub's score line: %s", r.output);
    cr_expect(strstr(r.output, "cugrade: made the hidden datasets' secret") != NULL, "%s", r.output);
    for (const char *line = r.output; *line;) {
        size_t len = strcspn(line, "\n");
        cr_expect_leq(len, 80, "a line of %zu columns: %.*s", len, (int)len, line);
        line += len + (line[len] != '\0');
    }
    run_result_free(&r);
    char seed[256];
    snprintf(seed, sizeof seed, "%s/.cugrade/hidden-seed", s.dir);
    cr_expect(is_file(seed), "the student's own secret, made on first use");

    run_grading_step(&s, "0");
    snprintf(cmd, sizeof cmd, "cp reference/lab3/matmul.cu %s/student/lab3/matmul.cu", s.dir);
    r = sh(NULL, cmd, NULL, 60);
    cr_assert(ok(&r));
    run_result_free(&r);
    run_grading_step(&s, "-1");
    /* a compile error: charged to the file, and the report says the toolchain was not vouched
     * for (a student's copy has no reference to run), never that the reference compiled */
    snprintf(cmd, sizeof cmd, "cp tests/submissions/lab3/compile_error.cu %s/student/lab3/matmul.cu",
             s.dir);
    r = sh(NULL, cmd, NULL, 60);
    cr_assert(ok(&r));
    run_result_free(&r);
    r = sh(s.dir, "env -u CUGRADE_HIDDEN_SEED_FILE make -j2 grade 2>&1", NULL, 900);
    cr_assert(ok(&r), "make grade: %s", r.output);
    cr_expect(strstr(r.output, "student's copy of the lab has no reference") != NULL, "%s",
              r.output);
    cr_expect(strstr(r.output, "reference compiles with the same toolchain") == NULL, "%s",
              r.output);
    run_result_free(&r);
    rm_rf(s.tmp);
}

Test(export_classroom, the_starter_has_the_stub_and_neither_the_secret_nor_the_reference)
{
    starter_t s;
    export_starter(&s);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "set -e; q=%s; cmp $q/student/lab3/matmul.cu student/lab3/matmul.cu; "
             "test ! -e $q/build -a ! -e $q/bin -a ! -e $q/.cugrade; "
             "test -z \"$(find $q -name 'hidden-seed*')\"; "
             "test -z \"$(find $q -type f -exec cmp -s {} " HIDDEN_SEED " \\; -print)\"; "
             "grep -qE '^LAB +\\?= lab3$' $q/Makefile; grep -qE '^BACKEND +\\?= emu$' $q/Makefile; "
             "grep -q 'make grade' $q/README.md; grep -q '^/build/' $q/.gitignore; "
             "test -f $q/labs/lab3/README.md; test -f $q/datasets/lab3/manifest.txt; "
             "test ! -e $q/labs/lab2; test ! -e $q/student/lab2; "
             "test ! -e $q/reference; test -f $q/.cugrade-student-copy",
             s.dir);
    run_result_t r = sh(NULL, cmd, NULL, 60);
    cr_expect(ok(&r), "the starter's files: %s", r.output);
    run_result_free(&r);
    rm_rf(s.tmp);
}

/* A student's copy has no reference, whose instruction counts the
 * executor's limits come from: --backend vgpu is refused, saying why, and
 * nothing is written. */
Test(export_classroom, the_executor_is_refused_for_a_starter)
{
    char tmp[64], out[128];
    temp_dir(tmp, sizeof tmp, "classroom");
    snprintf(out, sizeof out, "%s/starter", tmp);
    char *argv[] = {"bin/cugrade", "export", "classroom", "--lab", "lab3", "--out", out, "--backend", "vgpu",
                    NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 120};
    run_result_t r;
    run_one(&spec, &r);
    cr_expect(r.exited && r.exit_code == 2, "%s", r.output);
    cr_expect(strstr(r.output, "a Classroom starter grades on the emulator only"), "%s", r.output);
    cr_expect(!is_dir(out), "nothing written");
    run_result_free(&r);
    rm_rf(tmp);
}

Test(export_classroom, an_unknown_lab_or_unwritable_out_is_refused)
{
    starter_t s;
    temp_dir(s.tmp, sizeof s.tmp, "classroom");
    snprintf(s.dir, sizeof s.dir, "%s/starter", s.tmp);
    run_result_t r = cugrade_export("classroom", "lab3/../lab2", s.dir);
    cr_expect(r.exited && r.exit_code == 2);
    cr_expect(strstr(r.output, "unknown lab 'lab3/../lab2'") != NULL, "%s", r.output);
    run_result_free(&r);
    r = cugrade_export("classroom", "lab3", "/proc/cugrade-starter");
    cr_expect(r.exited && r.exit_code == 2);
    cr_expect(strstr(r.output, "/proc/cugrade-starter") != NULL, "%s", r.output);
    run_result_free(&r);
    cr_expect(!is_dir(s.dir));
    rm_rf(s.tmp);
}

Test(export_classroom, replaces_its_own_export_but_no_other_folder)
{
    starter_t s;
    export_starter(&s);
    char path[256];
    snprintf(path, sizeof path, "%s/student/lab3/matmul.cu", s.dir);
    write_text(path, "// the student's work\n");
    run_result_t r = cugrade_export("classroom", "lab3", s.dir);
    cr_expect(ok(&r), "an earlier export is replaced: %s", r.output);
    run_result_free(&r);
    char *text = read_file(path, NULL, NULL, 0);
    cr_expect(text && strstr(text, "student's work") == NULL);
    free(text);

    snprintf(path, sizeof path, "%s/mine", s.tmp);
    cr_assert_eq(mkdir(path, 0755), 0);
    char keep[300];
    snprintf(keep, sizeof keep, "%s/notes.txt", path);
    write_text(keep, "keep me\n");
    r = cugrade_export("classroom", "lab3", path);
    cr_expect(r.exited && r.exit_code == 2);
    cr_expect(strstr(r.output, "did not write") != NULL, "%s", r.output);
    cr_expect(is_file(keep), "a folder no export wrote is left alone");
    run_result_free(&r);
    rm_rf(s.tmp);
}
