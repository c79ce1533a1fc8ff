/* test_submission_files.c - the files a student or an LMS hands over, as
 * they come (issue 38): a .cu that an editor on Windows saved with a UTF-8
 * byte-order mark is graded as the compilers take it, not blamed; an empty
 * or missing file is called so, and counted apart; an archive given to
 * `cugrade run` is unpacked as batch unpacks one, or refused with why. */
#include <sys/stat.h>

#include "../attacks/archive_fixtures.h"
#include "e2e.h"

/* A folder of the test's own in /tmp. */
static void files_dir(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/cugrade-files-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

/* A copy of the reference in a folder of its own, with prefix first. */
static void reference_with(const char *prefix, size_t prefix_len, char *dir, size_t dirlen,
                           char *file, size_t filelen)
{
    files_dir(dir, dirlen);
    snprintf(file, filelen, "%s/matmul.cu", dir);
    size_t len = 0;
    char *text = read_file("reference/lab3/matmul.cu", &len, NULL, 0);
    cr_assert_not_null(text);
    char *all = malloc(prefix_len + len);
    memcpy(all, prefix, prefix_len);
    memcpy(all + prefix_len, text, len);
    cr_assert_eq(write_file_atomic(file, all, prefix_len + len, NULL, 0), 0);
    free(all);
    free(text);
}

Test(submission_files, a_byte_order_mark_is_taken_as_the_compilers_take_it, .timeout = 300)
{
    char dir[64], file[128];
    reference_with("\xef\xbb\xbf", 3, dir, sizeof dir, file, sizeof file);
    const char *with[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", file, with, NULL);
    expect_every_dataset_passed(&g);
    release(&g);
    rm_rf(dir);
}

/* A 0-byte file is not compiled (the linker's "undefined reference" told
 * nothing) and the report says what it is. */
Test(submission_files, an_empty_file_is_called_empty, .timeout = 300)
{
    char dir[64], file[128];
    files_dir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/matmul.cu", dir);
    write_text(file, "");
    const char *with[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", file, with, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = str(test_named(&g, "compiles"), "output");
    cr_expect(strstr(out, "is empty (0 bytes): there is nothing to compile"), "%s", out);
    cr_expect_null(strstr(g.run.output, "undefined reference"), "%s", g.run.output);
    cr_expect(strstr(g.run.output, "not run, the file is empty"), "%s", g.run.output);
    release(&g);
    rm_rf(dir);
}

Test(submission_files, a_missing_file_is_called_missing, .timeout = 300)
{
    char dir[64];
    files_dir(dir, sizeof dir);
    const char *with[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", dir, with, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_expect(strstr(g.run.output, "not run, no matmul.cu found"), "%s", g.run.output);
    release(&g);
    rm_rf(dir);
}

/* The class's summary counts a missing and an empty file apart from a
 * compile error, and the text line and summary.json say so. */
Test(submission_files, the_class_counts_missing_and_empty_files_apart, .timeout = 600)
{
    batch_class_t k = make_batch_class("files");
    class_add_student(&k, "alice", "reference/lab3/matmul.cu");
    class_add_student(&k, "bob", "tests/submissions/lab3/compile_error.cu");
    char path[256];
    snprintf(path, sizeof path, "%s/carol/lab3", k.subs);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/carol/lab3/matmul.cu", k.subs);
    write_text(path, "");
    snprintf(path, sizeof path, "%s/dave", k.subs);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/dave/README.txt", k.subs);
    write_text(path, "forgot the file\n");
    run_result_t r = run_class_batch(&k);
    cr_expect(strstr(r.output, "1 did not compile, 1 had no file, 1 an empty one"), "%s",
              r.output);
    snprintf(path, sizeof path, "%s/summary.json", k.out);
    json_object *sum = json_object_from_file(path);
    cr_assert_not_null(sum);
    cr_expect_eq(num(sum, "did_not_compile"), 1.0);
    cr_expect_eq(num(sum, "no_file"), 1.0);
    cr_expect_eq(num(sum, "empty_file"), 1.0);
    json_object_put(sum);
    run_result_free(&r);
    rm_rf(k.dir);
}

/* `cugrade run alice.zip`: unpacked by batch's rules and graded as the
 * folder it holds (it was a grader fault, exit 2: "cannot read the
 * preprocessed submission"). */
Test(submission_files, an_archive_given_to_run_is_graded_as_its_folder, .timeout = 300)
{
    char dir[64], zip[128];
    files_dir(dir, sizeof dir);
    snprintf(zip, sizeof zip, "%s/alice.zip", dir);
    char *text = read_file("reference/lab3/matmul.cu", NULL, NULL, 0);
    cr_assert_not_null(text);
    const fx_entry_t entries[] = {{"lab3/matmul.cu", FX_FILE, text, 0, 0}};
    cr_assert_eq(fx_write(zip, FX_ZIP, entries, 1), 0);
    free(text);
    const char *with[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", zip, with, NULL);
    expect_every_dataset_passed(&g);
    cr_expect(strstr(g.run.output, "unpacked alice.zip"), "%s", g.run.output);
    release(&g);
    rm_rf(dir);
}

/* An archive batch would refuse (an entry climbing out with ..) is not
 * graded: the refusal and why, exit 64, no results.json. */
Test(submission_files, an_archive_batch_refuses_is_refused_by_run, .timeout = 120)
{
    char dir[64], zip[128];
    files_dir(dir, sizeof dir);
    snprintf(zip, sizeof zip, "%s/mallory.zip", dir);
    cr_assert_eq(fx_write(zip, FX_ZIP, fx_dotdot, 1), 0);
    graded_t g = grade_on("emu", zip, NULL, NULL);
    cr_expect_eq(exit_code(&g), 64, "%s", g.run.output);
    cr_expect(strstr(g.run.output, "not graded, the archive is refused"), "%s", g.run.output);
    cr_expect(strstr(g.run.output, ".."), "%s", g.run.output);
    cr_expect_null(g.json);
    release(&g);
    rm_rf(dir);
}

/* A class of the test's own: dir, its empty class folder subs/ and the
 * results folder out/ (made by the batch); 64, 96 and 96 bytes. */
static void class_dirs(char *dir, char *subs, char *out)
{
    files_dir(dir, 64);
    snprintf(subs, 96, "%s/subs", dir);
    snprintf(out, 96, "%s/out", dir);
    cr_assert_eq(mkdir(subs, 0755), 0);
}

/* `cugrade batch` with the class as loose files (alice.cu, bob.cu: what an
 * LMS download often gives) grades each as its student's (it found "0
 * submission(s)" and exited 0 with an empty gradebook). */
static run_result_t batch_of(const char *subs, const char *out)
{
    char *argv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--backend", "emu", "--checks",
                    "none", "--out", (char *)out, (char *)subs, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

Test(submission_files, loose_cu_files_in_a_class_folder_are_its_students, .timeout = 600)
{
    char dir[64], subs[96], out[96], path[160];
    class_dirs(dir, subs, out);
    snprintf(path, sizeof path, "%s/alice.cu", subs);
    copy_file_to("reference/lab3/matmul.cu", path);
    snprintf(path, sizeof path, "%s/bob.cu", subs);
    copy_file_to("tests/submissions/lab3/compile_error.cu", path);
    run_result_t r = batch_of(subs, out);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_expect(strstr(r.output, "class: 2 submission(s), 2 graded"), "%s", r.output);
    snprintf(path, sizeof path, "%s/gradebook.csv", out);
    char *csv = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(csv);
    cr_expect(strstr(csv, "\nalice,90,") && strstr(csv, "\nbob,0,"), "%s", csv);
    free(csv);
    /* run.log names the results as a TA finds them, not their temporary name */
    snprintf(path, sizeof path, "%s/alice/run.log", out);
    char *log = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(log);
    char want[200];
    snprintf(want, sizeof want, "results: %s/alice/results.json\n", out);
    cr_expect(strstr(log, want), "no '%s' in run.log:\n%s", want, log);
    cr_expect_null(strstr(log, ".partial"), "%s", log);
    free(log);
    /* performance was run for nobody on the emulator: no pass rate (it was 1.0) */
    snprintf(path, sizeof path, "%s/summary.json", out);
    json_object *sum = json_object_from_file(path), *rates = NULL, *perf = NULL;
    cr_assert_not_null(sum);
    cr_assert(json_object_object_get_ex(sum, "pass_rate", &rates));
    cr_expect(json_object_object_get_ex(rates, "performance", &perf) && perf == NULL,
              "performance: %s", json_object_to_json_string(rates));
    cr_expect_float_eq(num(rates, "compiles"), 0.5, 1e-9, "%s", json_object_to_json_string(rates));
    json_object_put(sum);
    run_result_free(&r);
    rm_rf(dir);
}

/* A class folder with nothing to grade in it is never an empty success: it
 * says how a class is laid out, exit 64. */
Test(submission_files, a_class_folder_with_no_submission_says_how_to_lay_one_out, .timeout = 120)
{
    char dir[64], subs[96], out[96], path[160];
    class_dirs(dir, subs, out);
    snprintf(path, sizeof path, "%s/notes.txt", subs);
    write_text(path, "grades due friday\n");
    run_result_t r = batch_of(subs, out);
    cr_expect(r.exited && r.exit_code == 64, "%s", r.output);
    cr_expect(strstr(r.output, "no submissions in") && strstr(r.output, "<id>.cu"), "%s",
              r.output);
    run_result_free(&r);
    rm_rf(dir);
}

/* ---- one rule for finding the student's file (pipeline/student_file.h) ---- */

/* A lone kernel.cu, in a folder of the submission: run and batch both take
 * it, and say so (batch gave it 0 while the Gradescope export graded it). */
Test(submission_files, a_lone_cu_file_is_taken_by_run_and_batch_alike, .timeout = 600)
{
    char dir[64], path[200];
    files_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/subs/alice/src", dir);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/subs/alice/src/kernel.cu", dir);
    copy_file_to("reference/lab3/matmul.cu", path);
    snprintf(path, sizeof path, "%s/subs/alice", dir);
    const char *with[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", path, with, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = str(test_named(&g, "compiles"), "output");
    cr_expect(strstr(out, "took src/kernel.cu as matmul.cu (the only .cu file"), "%s", out);
    cr_expect(passed(test_named(&g, "compiles")), "%s", g.run.output);
    release(&g);
    char subs[96], outdir[96];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(outdir, sizeof outdir, "%s/out", dir);
    run_result_t r = batch_of(subs, outdir);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    snprintf(path, sizeof path, "%s/gradebook.csv", outdir);
    char *csv = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(csv);
    cr_expect(strstr(csv, "\nalice,90,"), "%s", csv);
    free(csv);
    run_result_free(&r);
    rm_rf(dir);
}

/* None found: the message says how deep it looked and names the files
 * that look meant (Matmul.cu, matmul.cpp, matmul.cu.txt), with the fix. */
Test(submission_files, no_file_found_names_the_near_misses, .timeout = 300)
{
    char dir[64], path[200];
    files_dir(dir, sizeof dir);
    const char *names[] = {"Matmul.cu", "other.cu", "matmul.cpp", "notes/matmul.cu.txt"};
    snprintf(path, sizeof path, "%s/notes", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        write_text(path, "// not it\n");
    }
    graded_t g = grade_on("emu", dir, NULL, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = str(test_named(&g, "compiles"), "output");
    cr_expect(strstr(out, "then 4 folders deep"), "%s", out);
    cr_expect(strstr(out, "Matmul.cu") && strstr(out, "matmul.cpp") &&
                  strstr(out, "notes/matmul.cu.txt"), "%s", out);
    cr_expect(strstr(out, "rename it matmul.cu"), "%s", out);
    cr_expect_null(strstr(out, "other.cu"), "not a near miss: %s", out);
    release(&g);
    rm_rf(dir);
}

/* ---- the lab's own files ---- */

/* One truncated .raw among the datasets: `cugrade run` is a grader fault
 * naming the file, line and count, with no results.json (it scored the
 * rest and wrote one), and a batch stops before anyone runs, saying why. */
Test(submission_files, a_broken_dataset_stops_the_grading_before_any_score, .timeout = 600)
{
    char dir[64], cmd[512], path[256];
    files_dir(dir, sizeof dir);
    snprintf(cmd, sizeof cmd, "cp -r datasets/lab3 %s/ds && head -c 2000 %s/ds/11/input1.raw > "
             "%s/t && mv %s/t %s/ds/11/input1.raw", dir, dir, dir, dir, dir);
    cr_assert_eq(system(cmd), 0);
    char ds[128], json[128];
    snprintf(ds, sizeof ds, "%s/ds", dir);
    snprintf(json, sizeof json, "%s/r.json", dir);
    char *argv[] = {"bin/cugrade", "run", "--lab", "lab3", "--backend", "emu", "--checks", "none",
                    "--datasets", ds, "--json", json, "reference/lab3/matmul.cu", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_expect(r.exited && r.exit_code == 2, "%s", r.output);
    cr_expect(strstr(r.output, "11/input1.raw:7: expected 8989 values, found"), "%s", r.output);
    cr_expect_null(strstr(r.output, "Score:"), "%s", r.output);
    cr_expect(!is_file(json), "a grader fault writes no results.json");
    run_result_free(&r);
    snprintf(path, sizeof path, "%s/subs/alice", dir);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/subs/alice/matmul.cu", dir);
    copy_file_to("reference/lab3/matmul.cu", path);
    char subs[128], out[128];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    char *bargv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--backend", "emu", "--checks",
                     "none", "--datasets", ds, "--out", out, subs, NULL};
    run_spec_t bspec = {.argv = bargv, .timeout_s = 300, .output_cap = 1 << 20};
    run_one(&bspec, &r);
    cr_expect(r.exited && r.exit_code == 2, "%s", r.output);
    cr_expect(strstr(r.output, "11/input1.raw:7: expected 8989 values"), "%s", r.output);
    cr_expect(strstr(r.output, "stopped before grading anyone"), "%s", r.output);
    run_result_free(&r);
    rm_rf(dir);
}

/* A refused archive is not graded, and the class files say so with why: no
 * 0/0 row in the gradebook, no "submission" column in class.html, and
 * summary.json's not_graded names it (issue 38 item 8). */
Test(submission_files, a_refused_archive_is_listed_as_not_graded_with_why, .timeout = 600)
{
    char dir[64], subs[96], out[96], path[200];
    class_dirs(dir, subs, out);
    snprintf(path, sizeof path, "%s/alice.cu", subs);
    copy_file_to("reference/lab3/matmul.cu", path);
    snprintf(path, sizeof path, "%s/mallory.zip", subs);
    cr_assert_eq(fx_write(path, FX_ZIP, fx_dotdot, 1), 0);
    run_result_t r = batch_of(subs, out);
    cr_expect(strstr(r.output, "1 graded, 1 not graded (archive refused)"), "%s", r.output);
    run_result_free(&r);
    snprintf(path, sizeof path, "%s/gradebook.csv", out);
    char *csv = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(csv);
    cr_expect(strstr(csv, "\nmallory,,,"), "no number for mallory: %s", csv);
    cr_expect_null(strstr(csv, ",submission"), "no column of the refusal: %s", csv);
    free(csv);
    snprintf(path, sizeof path, "%s/summary.json", out);
    json_object *sum = json_object_from_file(path), *ng = NULL;
    cr_assert_not_null(sum);
    cr_assert(json_object_object_get_ex(sum, "not_graded", &ng));
    cr_expect_eq(json_object_array_length(ng), 1);
    json_object *first = json_object_array_get_idx(ng, 0);
    cr_expect_str_eq(str(first, "id"), "mallory");
    cr_expect(strstr(str(first, "why"), ".."), "%s", str(first, "why"));
    cr_expect_eq(num(sum, "graded"), 1.0);
    json_object_put(sum);
    snprintf(path, sizeof path, "%s/class.html", out);
    char *html = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(html);
    cr_expect(strstr(html, "not graded</span>"), "class.html has no 'not graded'");
    free(html);
    rm_rf(dir);
}
