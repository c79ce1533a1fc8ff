/* test_lab.c - lab manifests: the real labs/lab3/lab.json, defaults, path
 * resolution, and each malformed manifest under tests/fixtures/lab_root
 * rejected with a message naming the file, the field and its line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "util/util.h"

#include "build/harness_flags.h"
#include "build/rules.h"
#include "course/lab.h"
#include "kinds/kind.h"

#define ROOT "tests/fixtures/lab_root"

static lab_t load_ok(const char *root, const char *name)
{
    lab_t lab;
    char err[1024] = "";
    cr_assert_eq(lab_load(root, name, &lab, err, sizeof err), 0, "%s", err);
    return lab;
}

/* Loads ROOT/labs/<name>/lab.json and expects "<that path>: <message>". */
static void expect_error(const char *name, const char *message)
{
    lab_t lab;
    char err[1024] = "", want[1024];
    snprintf(want, sizeof want, ROOT "/labs/%s/lab.json%s", name, message);
    cr_assert_eq(lab_load(ROOT, name, &lab, err, sizeof err), -1, "%s loaded", name);
    cr_assert_str_eq(err, want);
}

/* ---- loading ---------------------------------------------------------------------------- */

Test(lab_load, the_real_lab3)
{
    lab_t lab = load_ok(".", "lab3");
    cr_assert_str_eq(lab.name, "lab3");
    cr_assert_str_eq(lab.style, "kernel");
    cr_assert_str_eq(lab.student_file, "matmul.cu");
    cr_assert_str_eq(lab.dir, "labs/lab3");
    cr_assert_str_eq(lab.driver_path, "labs/lab3/../kinds/matmul/driver.cu");
    cr_assert_eq(lab.inputs, 2);
    cr_assert_eq(lab.tile_width, 16);
    cr_assert(lab.tol.rtol >= 0 && lab.tol.atol >= 0);
    cr_assert(lab.time_limit_s > 0);
    cr_assert_str_eq(lab.kind->name, "matmul");
    cr_assert(lab.has_timing);
    cr_assert_str_eq(lab.timing_program, "labs/lab3/../kinds/matmul/perf.cu");
    cr_assert_str_eq(lab.timing_reference, "reference/lab3/matmul.cu");
    cr_assert_str_eq(lab.timing_baseline, "reference/lab3/matmul_naive.cu");
    cr_assert_eq(lab.ntiming_symbols, 3);
    cr_assert_str_eq(lab.timing_symbols[0], "launchMatrixMultiplyShared");
}

Test(lab_load, paths_under_another_root)
{
    lab_t lab = load_ok(ROOT "/", "good");
    cr_assert_str_eq(lab.dir, ROOT "/labs/good");
    cr_assert_str_eq(lab.driver_path, ROOT "/labs/good/driver.cu");
    cr_assert_str_eq(lab.title, "A good lab");
    cr_assert_eq(lab.time_limit_s, 20);
    cr_assert_eq(lab.tol.rtol, 1e-4);
    cr_assert_eq(lab.tol.atol, 1e-4);
    lab = load_ok(ROOT, "shared_driver");
    cr_assert_str_eq(lab.driver_path, ROOT "/labs/shared_driver/../common/driver.cu");
}

Test(lab_load, defaults)
{
    lab_t lab = load_ok(ROOT, "minimal");
    cr_assert_str_eq(lab.title, "minimal", "title defaults to the name");
    cr_assert_eq(lab.time_limit_s, 30);
    cr_assert_eq(lab.budget_factor, LAB_BUDGET_FACTOR_DEFAULT);
}

Test(lab_load, program_style_needs_no_driver)
{
    lab_t lab = load_ok(ROOT, "program");
    cr_assert_str_eq(lab.style, "program");
    cr_assert_str_eq(lab.driver_path, "");
    cr_assert_eq(lab.inputs, 2);
    cr_assert_eq(lab.tile_width, 1);
    cr_assert_eq(lab.tol.rtol, 0);
    cr_assert_eq(lab.tol.atol, 0.5);
}

/* ---- rejections --------------------------------------------------------------------------- */

Test(lab_reject, no_such_lab_lists_the_labs)
{
    lab_t lab;
    char err[1024];
    cr_assert_eq(lab_load(".", "lab9", &lab, err, sizeof err), -1);
    cr_assert(strncmp(err, "labs/lab9: no such lab 'lab9' (labs has: ", 41) == 0, "%s", err);
    cr_assert_not_null(strstr(err, "lab3"), "%s", err);
}

Test(lab_reject, lab_names_that_are_paths)
{
    lab_t lab;
    char err[1024];
    cr_assert_eq(lab_load(".", "../labs/lab3", &lab, err, sizeof err), -1);
    cr_assert_str_eq(err, "bad lab name '../labs/lab3' (a folder name under labs/)");
    cr_assert_eq(lab_load(".", "", &lab, err, sizeof err), -1);
    cr_assert_str_eq(err, "bad lab name '' (a folder name under labs/)");
}

Test(lab_reject, folder_without_manifest)
{
    expect_error("no_manifest", ": cannot open: No such file or directory");
}

Test(lab_reject, syntax_error_names_the_line)
{
    expect_error("syntax", ":4: syntax error: object value separator ',' expected");
}

Test(lab_reject, instruction_budget_factor_below_one)
{
    expect_error("budget_factor_zero", ":9: instruction_budget_factor: must be an integer from 1 to 100000");
}

Test(lab_reject, style)
{
    expect_error("bad_style", ":5: style: must be \"kernel\" or \"program\", not 'cuda'");
    expect_error("style_missing", ": style: missing (required)");
}

Test(lab_reject, student_file_must_be_a_plain_name)
{
    expect_error("student_slash", ":6: student_file: must be a plain file name (no \"/\" or "
                                  "\"..\"), not '../student/matmul.cu'");
    expect_error("student_dotdot",
                 ":6: student_file: must be a plain file name (no \"/\" or \"..\"), not '..'");
}

Test(lab_reject, kernel_lab_without_driver)
{
    expect_error("kernel_no_driver", ": driver: missing (required for \"kernel\" labs)");
}

Test(lab_reject, kernel_lab_without_launch_function)
{
    expect_error("kernel_no_launch", ": launch: missing (required for \"kernel\" labs: the "
                                     "function the driver calls, e.g. \"launchMatrixMultiplyShared\")");
    expect_error("launch_bad", ":6: launch: 'launch it' is not a C identifier");
}

Test(lab_reject, inputs_out_of_range)
{
    expect_error("inputs_zero", ":9: inputs: must be an integer from 1 to 8");
    expect_error("inputs_nine", ":9: inputs: must be an integer from 1 to 8");
    expect_error("inputs_fraction", ":9: inputs: must be an integer from 1 to 8");
}

Test(lab_reject, tile_width)
{
    expect_error("tile_too_big", ":10: tile_width: must be an integer from 1 to 1024");
    expect_error("tile_missing", ": tile_width: missing (required)");
}

Test(lab_reject, tolerances)
{
    expect_error("rtol_negative", ":12: compare.rtol: must be a finite number >= 0");
    expect_error("rtol_nan", ":12: compare.rtol: must be a finite number >= 0");
    expect_error("atol_string", ":13: compare.atol: must be a finite number >= 0");
    expect_error("compare_missing",
                 ": compare: missing (required: { \"rtol\": ..., \"atol\": ... })");
    expect_error("compare_unknown_key", ":14: compare.abs: unknown key (known keys: rtol, atol)");
}

Test(lab_reject, name_must_match_the_folder)
{
    expect_error("name_mismatch", ":2: name: 'lab3' does not match the lab folder 'name_mismatch'");
}

Test(lab_reject, unknown_key)
{
    expect_error("unknown_key", ":16: tile: unknown key (known keys: name, title, style, "
                                "student_file, driver, inputs, tile_width, compare, "
                                "time_limit_s, kind, timing, wb_type, datasets, launch, "
                                "launch_args, rules, instruction_budget_factor, array)");
}

Test(lab_reject, time_limit)
{
    expect_error("time_limit_zero", ":15: time_limit_s: must be a number of seconds > 0 and <= 3600");
}

Test(lab_load, kind)
{
    cr_assert_str_eq(load_ok(ROOT, "good").kind->name, "matmul");
    cr_assert_eq(load_ok(ROOT, "good").inputs, 2, "the kind's inputs");
    cr_assert_str_eq(load_ok(".", "lab2").kind->name, "matmul");
    expect_error("kind_unknown", ":9: kind: unknown kind 'conv' (known: matmul, reduction, array)");
    expect_error("kind_inputs_mismatch", ":7: inputs: a \"matmul\" lab has 2 inputs, not 3");
}

Test(lab_load, timing)
{
    cr_assert(!load_ok(ROOT, "good").has_timing, "optional");
    lab_t plain = load_ok(ROOT, "timing_no_baseline");
    cr_assert(plain.has_timing);
    cr_assert_str_eq(plain.timing_baseline, "", "a baseline is optional");
    cr_assert_str_eq(plain.launch, "launchMatrixMultiplyShared");
    expect_error("timing_no_reference", ":14: timing.reference: missing (required)");
    expect_error("timing_bad_symbol", ":18: timing.symbols: entry 1 is not a C identifier");
}

/* ---- the launch convention and the rules (the challenge lab) -------------------- */

Test(lab_load, launch_args_and_rules)
{
    lab_t lab3 = load_ok(".", "lab3");
    cr_assert_eq(lab3.launch_args, LAUNCH_ROWS_COLS, "lab 3's convention is the default");
    cr_assert_eq(lab3.rules, 0u, "no rules unless listed");
    lab_t mnk = load_ok(ROOT, "mnk");
    cr_assert_eq(mnk.launch_args, LAUNCH_M_N_K);
    cr_assert_eq(mnk.rules, RULE_BIT(RULE_FP32_SIMT));
    cr_assert_str_eq(mnk.launch, "launchSgemm");
}

/* The challenge lab, and the flags every compile of its harness gets. */
Test(lab_load, the_real_challenge)
{
    lab_t lab = load_ok(".", "challenge");
    cr_assert_eq(lab.launch_args, LAUNCH_M_N_K);
    cr_assert_eq(lab.rules, RULE_BIT(RULE_FP32_SIMT));
    cr_assert_str_eq(lab.launch, "launchSgemm");
    cr_assert_str_eq(lab.student_file, "sgemm.cu");
    cr_assert_eq(lab.tile_width, 128);
    cr_assert_str_eq(lab.timing_reference, "reference/challenge/sgemm.cu");
    cr_assert_str_eq(lab.timing_baseline, "", "no baseline: it is timed against cuBLAS");
    char flags[HARNESS_MAX_FLAGS][HARNESS_FLAG_LEN];
    cr_assert_eq(harness_flags(&lab, flags), 2);
    cr_assert_str_eq(flags[0], "-DCUGRADE_LAUNCH=launchSgemm");
    cr_assert_str_eq(flags[1], "-DCUGRADE_LAUNCH_MNK");
    lab = load_ok(".", "lab3");
    cr_assert_eq(harness_flags(&lab, flags), 1, "lab 3's convention: no MNK");
    cr_assert_str_eq(flags[0], "-DCUGRADE_LAUNCH=launchMatrixMultiplyShared");
}

Test(lab_reject, launch_args)
{
    expect_error("launch_args_bad", ":8: launch_args: must be \"rows-cols\" ((A, B, C, numARows, "
                                    "numAColumns, numBRows, numBColumns, numCRows, numCColumns)) "
                                    "or \"m-n-k\" ((A, B, C, M, N, K)), not 'm-k-n'");
    expect_error("launch_args_number", ":8: launch_args: must be a non-empty string");
    expect_error("launch_args_reduction", ":9: launch_args: only a \"kernel\" lab of kind "
                                          "\"matmul\" chooses its launch function's parameters");
}

Test(lab_reject, rules)
{
    expect_error("rules_unknown", ":10: rules: entry 1: unknown rule 'no-tensor-cores' (known: "
                                  "fp32-simt)");
    expect_error("rules_twice", ":10: rules: entry 1: 'fp32-simt' is listed twice");
    expect_error("rules_not_list", ":10: rules: must be a list of rule names (known: fp32-simt)");
}

/* A cached harness object depends on every file of labs/common, whichever
 * header it includes: the newest of them, not a list of names. */
Test(harness_flags, the_common_headers_newest_time_counts)
{
    char root[] = "/tmp/cugrade-common-XXXXXX", dir[96], path[128];
    cr_assert_not_null(mkdtemp(root));
    cr_expect(harness_common_mtime(root) < 0, "no labs/common: no time");
    snprintf(dir, sizeof dir, "%s/labs/common", root);
    cr_assert_eq(mkdir_p(dir, NULL, 0), 0);
    const char *names[] = {"harness.h", "harness_crash.h", "timing.h"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        cr_assert_eq(write_file_atomic(path, "x", 1, NULL, 0), 0);
        struct timeval times[2] = {{1000000 + i * 1000, 0}, {1000000 + (i == 1 ? 5000 : i * 1000), 0}};
        cr_assert_eq(utimes(path, times), 0);
    }
    cr_expect_float_eq(harness_common_mtime(root), 1005000.0, 1e-6, "harness_crash.h is newest");
    rm_rf(root);
}

/* An array lab (issue 41): its "array" block declares the inputs, the
 * tolerance and the executor's call; the kind's driver is its default; the
 * block is required there and refused elsewhere, and "compare" gives way
 * to the block's tolerance. */
Test(lab_load, array)
{
    lab_t lab = load_ok(ROOT, "array_good");
    cr_assert_str_eq(lab.kind->name, "array");
    cr_assert_eq(lab.inputs, 1);
    cr_assert_str_eq(lab.vgpu_call, "in0,out,n0");
    cr_assert_str_eq(lab.vgpu_out_shape, "1,n0");
    cr_assert_str_eq(lab.input_names, "A");
    cr_assert_str_eq(lab.output_name, "C");
    cr_assert(strstr(lab.driver_path, "labs/kinds/array/driver.cu"), "%s", lab.driver_path);
    lab = load_ok(".", "lab3");
    cr_assert_str_eq(lab.vgpu_call, "in0,in1,out,rows0,cols0,cols1", "another kind's call is the kind's");
    cr_assert_str_eq(lab.output_name, "C");
    expect_error("array_missing", ": array: missing (required for an \"array\" lab: docs/array-labs.md)");
    expect_error("array_on_matmul", ":10: array: only an \"array\" lab declares its arrays");
    expect_error("array_with_compare", ":8: compare: an array lab's tolerance is \"array\".\"tolerance\"");
}
