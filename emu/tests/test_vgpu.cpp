/* test_vgpu.cpp - the two processes of issue 39: a program built by nvcc
 * and linked with emu/vcudart/ (never libcudart) runs its CUDA calls on
 * bin/cugrade-vgpu, which owns device memory, runs the kernels from the
 * grader's PTX and writes the report. Lab 3's reference computes C through
 * it (checked by the program itself, and one launch in the report); an
 * unguarded store is found in the executor, with its line, while the
 * program sees cudaErrorIllegalAddress at the next synchronisation, as on
 * a GPU; a program that forges a report on its own output and sends a
 * malformed request gains nothing: the report is the executor's, the
 * session ends and says why (exit 2); without the executor a program finds
 * no device. Run from the repository root (build/vgpu/, build/ptx/). */
#include <criterion/criterion.h>
#include <json-c/json.h>

extern "C" {
#include "dataset/rawio.h"
}

#include <cmath>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

struct Ran {
    int status;       /* cugrade-vgpu's exit status */
    std::string out;  /* what the program printed */
    json_object *report;
};

/* bin/cugrade-vgpu --report FILE PTX -- PROGRAM ARGS: its exit status, the
 * program's output and the report. */
static Ran run(const char *ptx, const char *program, const char *args = "")
{
    char dir[] = "/tmp/cugrade-vgpu-test-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    std::string report = std::string(dir) + "/report.json", out = std::string(dir) + "/out.txt";
    std::string cmd = std::string("bin/cugrade-vgpu --report ") + report + " build/ptx/" + ptx +
                      ".ptx -- build/vgpu/" + program + " " + args + " > " + out + " 2>&1";
    int st = system(cmd.c_str());
    Ran r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    FILE *f = fopen(out.c_str(), "r");
    char buf[4096];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    r.out = buf;
    r.report = json_object_from_file(report.c_str());
    cr_assert_not_null(r.report, "no report from the executor; output:\n%s", buf);
    std::string rm = std::string("rm -rf ") + dir;
    cr_assert_eq(system(rm.c_str()), 0);
    return r;
}

static json_object *get(json_object *o, const char *key)
{
    json_object *v = nullptr;
    cr_assert(json_object_object_get_ex(o, key, &v), "no '%s' in %s", key, json_object_to_json_string(o));
    return v;
}

Test(vgpu, lab3_reference_computes_C_through_the_executor)
{
    Ran r = run("lab3", "lab3_main", "37 29 41");
    cr_assert_eq(r.status, 0, "%s", r.out.c_str());
    cr_assert_str_eq(r.out.c_str(), "C ok\n");
    json_object *launches = get(r.report, "launches");
    cr_assert_eq(json_object_array_length(launches), 1u);
    json_object *l = json_object_array_get_idx(launches, 0);
    cr_assert_str_eq(json_object_get_string(get(l, "kernel")), "_Z20matrixMultiplySharedPKfS0_Pfiiiiii");
    cr_assert_str_eq(json_object_get_string(get(l, "status")), "ok");
    cr_assert_eq(json_object_get_int(json_object_array_get_idx(get(l, "grid"), 0)), 3);
    cr_assert_gt(json_object_get_int64(get(l, "instructions")), 0);
    cr_assert_eq(json_object_array_length(get(l, "findings")), 0u);
    json_object_put(r.report);
}

/* The report's copies back to the program: every word of the last one
 * written by origin ("kernel_words", "host_words", "unwritten_words"). */
static void expect_last_copy_from(json_object *report, const char *origin, long words)
{
    json_object *copies = get(report, "copies_from_device");
    cr_assert_gt(json_object_array_length(copies), 0u);
    json_object *c = json_object_array_get_idx(copies, json_object_array_length(copies) - 1);
    cr_assert_eq(json_object_get_int64(get(c, origin)), words, "%s", json_object_to_json_string(c));
    cr_assert_eq(json_object_get_int64(get(c, "bytes")), 4 * words);
}

Test(vgpu, the_executor_knows_who_wrote_what_the_program_reads_back)
{
    Ran honest = run("lab3", "lab3_main", "37 29 41");
    cr_assert_str_eq(honest.out.c_str(), "C ok\n");
    expect_last_copy_from(honest.report, "kernel_words", 37 * 41);
    json_object_put(honest.report);
    Ran cheat = run("lab3", "host_compute");
    cr_assert_str_eq(cheat.out.c_str(), "C ok\n", "the program says what the honest one says");
    cr_assert_eq(json_object_array_length(get(cheat.report, "launches")), 0u);
    expect_last_copy_from(cheat.report, "host_words", 64);
    json_object_put(cheat.report);
}

Test(vgpu, an_unguarded_store_is_found_by_the_executor_and_the_program_sees_it_late)
{
    Ran r = run("oob_store", "oob_main");
    cr_assert_eq(r.status, 0, "%s", r.out.c_str());
    cr_assert_str_eq(r.out.c_str(), "launch: cudaSuccess\nsync: cudaSuccess\n"
                                    "far launch: cudaSuccess\nfar sync: cudaErrorIllegalAddress\n");
    json_object *l = json_object_array_get_idx(get(r.report, "launches"), 0);
    cr_assert_str_eq(json_object_get_string(get(l, "status")), "ok", "just past the array: no fault");
    json_object *far = json_object_array_get_idx(get(r.report, "launches"), 1);
    cr_assert_str_eq(json_object_get_string(get(far, "status")), "illegal-address");
    cr_assert_eq(json_object_get_int(get(l, "findings_total")), 24);
    json_object *f = json_object_array_get_idx(get(l, "findings"), 0);
    cr_assert_str_eq(json_object_get_string(get(f, "kind")), "global-out-of-bounds");
    cr_assert_eq(json_object_get_int(get(f, "line")), 7);
    cr_assert(json_object_get_boolean(get(f, "store")));
    json_object_put(r.report);
}

/* More than 48 KiB of dynamic shared memory, as on a GPU: refused until
 * the kernel's attribute asks for it, then there to use. */
Test(vgpu, dynamic_shared_memory_above_48_KiB_is_asked_for)
{
    Ran r = run("dyn_shared", "dyn_shared_main");
    cr_assert_eq(r.status, 0, "%s", r.out.c_str());
    cr_assert_str_eq(r.out.c_str(), "without the attribute: cudaErrorInvalidValue\n"
                                    "with it (cudaSuccess): cudaSuccess\n"
                                    "out[0] = 31, out[31] = 0\n");
    cr_assert_eq(json_object_array_length(get(r.report, "launches")), 1u, "the refused one never reached it");
    json_object_put(r.report);
}

Test(vgpu, a_forged_report_and_a_malformed_request_gain_nothing)
{
    Ran r = run("lab3", "forger");
    cr_assert_eq(r.status, 3, "the program broke the wire: %d\n%s", r.status, r.out.c_str());
    cr_assert(strstr(r.out.c_str(), "\"forged\""), "the program printed its forgery: %s", r.out.c_str());
    cr_assert_eq(json_object_array_length(get(r.report, "launches")), 0u, "the report is the executor's");
    cr_assert(strstr(json_object_get_string(get(r.report, "stopped")), "a request of 2147483647 bytes"));
    json_object_put(r.report);
}

Test(vgpu, without_the_executor_a_program_finds_no_device)
{
    FILE *p = popen("env -u CUGRADE_VGPU_FD build/vgpu/lab3_main 2>&1", "r");
    cr_assert_not_null(p);
    char buf[512] = "";
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    int st = pclose(p);
    cr_assert_eq(WEXITSTATUS(st), 3);
    cr_assert(strstr(buf, "cudaErrorNoDevice"), "%s", buf);
}

/* Runs cmd (a cugrade-vgpu that must exit 0) and returns the report it wrote. */
static json_object *report_of(const std::string &cmd, const std::string &report)
{
    int st = system(cmd.c_str());
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: exit %d", cmd.c_str(), WEXITSTATUS(st));
    json_object *r = json_object_from_file(report.c_str());
    cr_assert_not_null(r, "no report %s", report.c_str());
    return r;
}

/* How a lab's program is driven: its datasets' lab, its PTX and its call. */
struct Driving {
    const char *lab, *ptx, *call;
};
static const Driving LAB3 = {"lab3", "lab3", "--call in0,in1,out,rows0,cols0,cols1 --out-shape rows0,cols1"};
static const Driving DOTPROD = {"dotprod", "dotprod",
                                "--call in0,in1,out,n0 --out-shape 1,n0 --out-count returned"};

/* bin/cugrade-vgpu as the lab's driver on datasets of the project's own
 * generator (bin/cugrade dataset): the report, and each output it wrote
 * (DIR/<shape>/got.raw). */
static json_object *drive(const char *program, const char *dir, const char *const *shapes, int n,
                          const Driving &how = LAB3, const std::string &extra = "")
{
    std::string cmd = std::string("bin/cugrade-vgpu ") + how.call + " " + extra;
    for (int i = 0; i < n; i++) {
        std::string ds = std::string(dir) + "/" + shapes[i];
        std::string gen = std::string("bin/cugrade dataset --lab ") + how.lab + " --shape " + shapes[i] +
                          " --out " + ds + " > /dev/null";
        cr_assert_eq(system(gen.c_str()), 0);
        cmd += " --dataset " + ds + ":" + ds + "/got.raw";
    }
    std::string report = std::string(dir) + "/report.json";
    cmd += " --report " + report + " build/ptx/" + how.ptx + ".ptx -- build/vgpu/" + program + " > /dev/null 2>&1";
    return report_of(cmd, report);
}

Test(vgpu, the_executor_drives_the_lab_and_reads_C_from_its_own_memory)
{
    char dir[] = "/tmp/cugrade-vgpu-drive-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"37x29x41", "16x16x16", "1x200x3"};
    json_object *r = drive("call_lab3", dir, shapes, 3);
    json_object *calls = get(r, "calls");
    cr_assert_eq(json_object_array_length(calls), 3u);
    cr_assert_eq(json_object_array_length(get(r, "launches")), 3u, "one launch a dataset");
    for (int i = 0; i < 3; i++) {
        json_object *c = json_object_array_get_idx(calls, i);
        cr_assert_eq(json_object_get_int64(get(c, "host_elements")), 0);
        cr_assert_eq(json_object_get_int64(get(c, "unwritten_elements")), 0);
        matrix_t got, want;
        char err[512];
        std::string ds = std::string(dir) + "/" + shapes[i];
        cr_assert_eq(raw_read((ds + "/got.raw").c_str(), &got, err, sizeof err), 0, "%s", err);
        cr_assert_eq(raw_read((ds + "/output.raw").c_str(), &want, err, sizeof err), 0, "%s", err);
        cr_assert_eq(got.rows, want.rows);
        cr_assert_eq(got.cols, want.cols);
        cr_assert_eq(json_object_get_int64(get(c, "kernel_elements")), (int64_t)got.rows * got.cols);
        for (int e = 0; e < got.rows * got.cols; e++)
            cr_assert(std::fabs(got.data[e] - want.data[e]) <= 1e-3f * (1 + std::fabs(want.data[e])),
                      "%s: C[%d] = %g, want %g", shapes[i], e, got.data[e], want.data[e]);
        matrix_free(&got);
        matrix_free(&want);
    }
    json_object_put(r);
    std::string rm = std::string("rm -rf ") + dir;
    cr_assert_eq(system(rm.c_str()), 0);
}

Test(vgpu, a_launch_function_that_multiplies_on_the_host_is_named)
{
    char dir[] = "/tmp/cugrade-vgpu-host-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"37x29x41"};
    json_object *r = drive("call_host_launch", dir, shapes, 1);
    cr_assert_eq(json_object_array_length(get(r, "launches")), 0u);
    json_object *c = json_object_array_get_idx(get(r, "calls"), 0);
    cr_assert_eq(json_object_get_int64(get(c, "host_elements")), 37 * 41);
    cr_assert_str_eq(json_object_get_string(get(c, "problem")),
                     "C was copied from the host, not computed by a kernel (1517 of 1517 elements)");
    json_object_put(r);
    std::string rm = std::string("rm -rf ") + dir;
    cr_assert_eq(system(rm.c_str()), 0);
}

/* The lines of a --findings file of the given kind ("error\t<kind>\t..."). */
static std::vector<std::string> findings_of(const std::string &path, const char *kind)
{
    std::vector<std::string> out;
    FILE *f = fopen(path.c_str(), "r");
    cr_assert_not_null(f, "no findings file %s", path.c_str());
    char line[2048];
    std::string tag = std::string("\t") + kind + "\t";
    while (fgets(line, sizeof line, f))
        if (strstr(line, tag.c_str()))
            out.push_back(line);
    fclose(f);
    return out;
}

Test(vgpu, a_host_computed_C_is_not_handed_to_the_grader_and_the_findings_say_why)
{
    char dir[] = "/tmp/cugrade-vgpu-hostf-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"37x29x41"};
    std::string findings = std::string(dir) + "/findings";
    json_object_put(drive("call_host_launch", dir, shapes, 1, LAB3, "--findings " + findings));
    std::vector<std::string> host = findings_of(findings, "host-output");
    cr_assert_eq(host.size(), 1u);
    cr_assert(strstr(host[0].c_str(), "error\thost-output\tC was copied from the host, not computed by a kernel"),
              "%s", host[0].c_str());
    cr_assert_neq(access((std::string(dir) + "/37x29x41/got.raw").c_str(), F_OK), 0,
                  "a C the host made never reaches the grader's comparison");
    std::string rm = std::string("rm -rf ") + dir;
    cr_assert_eq(system(rm.c_str()), 0);
}

Test(vgpu, the_instruction_budget_is_each_datasets_and_a_run_past_it_is_named)
{
    char dir[] = "/tmp/cugrade-vgpu-budget-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"37x29x41", "16x16x16", "20x20x20"};
    json_object *r = drive("call_lab3", dir, shapes, 3);
    uint64_t most = 0, sum = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t n = (uint64_t)json_object_get_int64(get(json_object_array_get_idx(get(r, "launches"), i), "instructions"));
        most = n > most ? n : most, sum += n;
    }
    json_object_put(r);
    std::string findings = std::string(dir) + "/findings";
    /* enough for the largest dataset, not for the three together: none stops */
    json_object_put(drive("call_lab3", dir, shapes, 3, LAB3, "--budget " + std::to_string(most) + " --findings " + findings));
    cr_assert(most < sum);
    cr_assert_eq(findings_of(findings, "instruction-budget").size(), 0u);
    /* one instruction short of the largest: that dataset alone stops, and it is named */
    json_object_put(drive("call_lab3", dir, shapes, 3, LAB3, "--budget " + std::to_string(most - 1) + " --findings " + findings));
    std::vector<std::string> over = findings_of(findings, "instruction-budget");
    cr_assert_eq(over.size(), 1u);
    std::string said = "matrixMultiplyShared (grid (3,3,1), block (16,16,1)) ran past the instruction budget of " +
                       std::to_string(most - 1) + " executed instructions for this dataset";
    cr_assert(strstr(over[0].c_str(), said.c_str()), "%s", over[0].c_str());
    std::string rm = std::string("rm -rf ") + dir;
    cr_assert_eq(system(rm.c_str()), 0);
}

/* A libwb program on the executor with a dataset: the report (the solution
 * written by the executor to DIR/solution.raw). */
static json_object *run_wb(const char *ptx, const char *program, const char *dir, const std::string &extra = "")
{
    std::string ds = std::string(dir) + "/ds";
    std::string gen = "bin/cugrade dataset --lab lab3 --shape 37x29x41 --out " + ds + " > /dev/null";
    cr_assert_eq(system(gen.c_str()), 0);
    std::string report = std::string(dir) + "/report.json";
    std::string cmd = "bin/cugrade-vgpu " + extra + " --report " + report + " --solution " + dir + "/solution.raw build/ptx/" +
                      ptx + ".ptx -- build/vgpu/" + program + " -e " + ds + "/output.raw -i " + ds +
                      "/input0.raw," + ds + "/input1.raw -o " + dir + "/program-wrote.raw -t matrix > " + dir +
                      "/out.txt 2>&1";
    json_object *r = report_of(cmd, report);
    cr_assert_neq(access((std::string(dir) + "/program-wrote.raw").c_str(), F_OK), 0,
                  "the program wrote no solution file of its own");
    return r;
}

Test(vgpu, a_libwb_solution_is_written_by_the_executor_with_its_provenance)
{
    char dir[] = "/tmp/cugrade-vgpu-wb-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    json_object *r = run_wb("lab3wb", "wb_lab3", dir);
    json_object *sol = get(r, "solution");
    cr_assert_str_eq(json_object_get_string(get(sol, "provenance")), "kernel");
    matrix_t got, want;
    char err[512];
    cr_assert_eq(raw_read((std::string(dir) + "/solution.raw").c_str(), &got, err, sizeof err), 0, "%s", err);
    cr_assert_eq(raw_read((std::string(dir) + "/ds/output.raw").c_str(), &want, err, sizeof err), 0, "%s", err);
    cr_assert_eq(got.rows * got.cols, want.rows * want.cols);
    for (int e = 0; e < got.rows * got.cols; e++)
        cr_assert(std::fabs(got.data[e] - want.data[e]) <= 1e-3f * (1 + std::fabs(want.data[e])), "C[%d]", e);
    matrix_free(&got);
    matrix_free(&want);
    json_object_put(r);
    r = run_wb("wb_host_solution", "wb_host_solution", dir);
    sol = get(r, "solution");
    cr_assert_str_eq(json_object_get_string(get(sol, "provenance")), "not read back");
    cr_assert(strstr(json_object_get_string(get(sol, "problem")), "computed on the host"));
    json_object_put(r);
    std::string rm = std::string("rm -rf ") + dir;
    cr_assert_eq(system(rm.c_str()), 0);
}

Test(vgpu, the_dot_product_through_the_executor)
{
    char dir[] = "/tmp/cugrade-vgpu-dot-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"1000", "1", "70001"};
    json_object *r = drive("call_dotprod", dir, shapes, 3, DOTPROD);
    json_object *calls = get(r, "calls");
    cr_assert_eq(json_object_array_length(calls), 3u);
    const long partials[] = {4, 1, (70001 + 255) / 256};
    for (int i = 0; i < 3; i++) {
        json_object *c = json_object_array_get_idx(calls, i);
        cr_assert_eq(json_object_get_int64(get(c, "kernel_elements")), partials[i], "%s", shapes[i]);
        std::string ds = std::string(dir) + "/" + shapes[i];
        matrix_t got, want;
        char err[512];
        cr_assert_eq(raw_read((ds + "/got.raw").c_str(), &got, err, sizeof err), 0, "%s", err);
        cr_assert_eq(raw_read((ds + "/output.raw").c_str(), &want, err, sizeof err), 0, "%s", err);
        cr_assert_eq(got.rows * got.cols, partials[i]);
        double sum = 0;
        for (int e = 0; e < got.rows * got.cols; e++)
            sum += got.data[e];
        cr_assert(std::fabs(sum - want.data[0]) <= 1e-3 * (1 + std::fabs(want.data[0])), "%s: %g, want %g",
                  shapes[i], sum, (double)want.data[0]);
        matrix_free(&got);
        matrix_free(&want);
    }
    json_object_put(r);
    std::string rm = std::string("rm -rf ") + dir;
    cr_assert_eq(system(rm.c_str()), 0);
}

/* bin/cugrade-vgpu --replay of record: its exit status; the output in out. */
static int replay(const std::string &record, const std::string &inputs, const std::string &out, const char *ptx)
{
    std::string cmd = "bin/cugrade-vgpu --replay " + record + (inputs.empty() ? "" : " --inputs " + inputs) +
                      " --out " + out + " build/ptx/" + ptx + ".ptx 2> " + out + ".err";
    int st = system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool same_bytes(const std::string &a, const std::string &b)
{
    std::string cmd = "cmp -s " + a + " " + b;
    return system(cmd.c_str()) == 0;
}

/* Issue 39, item 5: what a program asked of the device is recorded by the
 * executor, and the record alone (no program) gives the same output: the
 * lab's driver with the launch function, the dot product's partial sums,
 * a libwb program's solution read back from device memory. */
Test(vgpu, a_record_done_again_with_no_program_gives_the_same_output)
{
    char dir[] = "/tmp/cugrade-vgpu-trace-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    std::string d = dir;
    const char *shapes[] = {"37x29x41", "1x200x3"};
    json_object_put(drive("call_lab3", dir, shapes, 2, LAB3, "--trace"));
    for (const char *s : shapes) {
        std::string ds = d + "/" + s;
        cr_assert_eq(replay(ds + "/got.raw.trace", ds, ds + "/again.raw", "lab3"), 0, "%s", s);
        cr_assert(same_bytes(ds + "/got.raw", ds + "/again.raw"), "%s", s);
        /* the inputs come from the dataset folder, not from the record */
        cr_assert_eq(replay(ds + "/got.raw.trace", d + "/" + (s == shapes[0] ? shapes[1] : shapes[0]),
                            ds + "/other.raw", "lab3"), 2);
    }
    const char *dots[] = {"70001"};
    json_object_put(drive("call_dotprod", dir, dots, 1, DOTPROD, "--trace"));
    std::string ds = d + "/70001";
    cr_assert_eq(replay(ds + "/got.raw.trace", ds, ds + "/again.raw", "dotprod"), 0);
    cr_assert(same_bytes(ds + "/got.raw", ds + "/again.raw"));
    std::string cmd = "grep -c '^launch ' " + ds + "/got.raw.trace | grep -qx 1";
    cr_assert_eq(system(cmd.c_str()), 0, "one launch recorded");
    json_object_put(run_wb("lab3wb", "wb_lab3", dir, "--trace"));
    cr_assert_eq(replay(d + "/solution.raw.trace", "", d + "/again.raw", "lab3wb"), 0);
    cr_assert(same_bytes(d + "/solution.raw", d + "/again.raw"));
    std::string rm = "rm -rf " + d;
    cr_assert_eq(system(rm.c_str()), 0);
}

/* A record kept only where a kernel computed the output: a launch
 * function that multiplies on the host leaves none, and a record cut
 * short is refused, naming its file and line. */
Test(vgpu, no_record_of_a_host_computed_output_and_a_cut_record_is_refused)
{
    char dir[] = "/tmp/cugrade-vgpu-trace-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    std::string d = dir;
    const char *shapes[] = {"37x29x41"};
    json_object_put(drive("call_host_launch", dir, shapes, 1, LAB3, "--trace"));
    cr_assert_neq(access((d + "/37x29x41/got.raw.trace").c_str(), F_OK), 0);
    json_object_put(drive("call_lab3", dir, shapes, 1, LAB3, "--trace"));
    std::string ds = d + "/37x29x41", cut = "head -n 5 " + ds + "/got.raw.trace > " + ds + "/cut.trace && cp " +
                                            ds + "/got.raw.trace.bytes " + ds + "/cut.trace.bytes";
    cr_assert_eq(system(cut.c_str()), 0);
    cr_assert_eq(replay(ds + "/cut.trace", ds, ds + "/again.raw", "lab3"), 2);
    std::string said = "grep -q 'cut.trace:5: the file ends before its \"end\" line: cut short' " + ds + "/again.raw.err";
    cr_assert_eq(system(said.c_str()), 0);
    std::string rm = "rm -rf " + d;
    cr_assert_eq(system(rm.c_str()), 0);
}

/* --dry: the launches are checked and recorded, not run (a timing shape
 * too large for the executor): nothing executes, no output is written,
 * and the record, done again, computes the right C. */
Test(vgpu, a_dry_run_records_the_launches_without_running_them)
{
    char dir[] = "/tmp/cugrade-vgpu-dry-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    std::string d = dir;
    const char *shapes[] = {"300x200x100"};
    json_object *r = drive("call_lab3", dir, shapes, 1, LAB3, "--dry --trace");
    json_object *l = json_object_array_get_idx(get(r, "launches"), 0);
    cr_assert_eq(json_object_get_int64(get(l, "instructions")), 0);
    json_object_put(r);
    std::string ds = d + "/300x200x100";
    char err[512];
    cr_assert_neq(access((ds + "/got.raw").c_str(), F_OK), 0, "no output");
    std::string grid = "grep -q '^launch _Z20matrixMultiplySharedPKfS0_Pfiiiiii 7 19 1 16 16 1 0 9$' " + ds +
                       "/got.raw.trace";
    cr_assert_eq(system(grid.c_str()), 0, "the launch recorded with its grid");
    cr_assert_eq(replay(ds + "/got.raw.trace", ds, ds + "/again.raw", "lab3"), 0);
    matrix_t again, want;
    cr_assert_eq(raw_read((ds + "/again.raw").c_str(), &again, err, sizeof err), 0, "%s", err);
    cr_assert_eq(raw_read((ds + "/output.raw").c_str(), &want, err, sizeof err), 0, "%s", err);
    for (int e = 0; e < want.rows * want.cols; e++)
        cr_assert(std::fabs(again.data[e] - want.data[e]) <= 1e-3f * (1 + std::fabs(want.data[e])), "C[%d]", e);
    matrix_free(&again);
    matrix_free(&want);
    std::string rm = "rm -rf " + d;
    cr_assert_eq(system(rm.c_str()), 0);
}

/* A replay whose kernels leave part of the output unwritten (here the
 * record's grid cut to one block) writes that output, poison and all, for
 * the grader to judge: on a GPU this is a submission's wrong answer, never
 * the runner's failure. */
Test(vgpu, a_replayed_output_with_the_poison_is_written_as_it_is)
{
    char dir[] = "/tmp/cugrade-vgpu-trace-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    std::string d = dir;
    const char *shapes[] = {"37x29x41"};
    json_object_put(drive("call_lab3", dir, shapes, 1, LAB3, "--trace"));
    std::string ds = d + "/37x29x41";
    std::string cut = "sed 's/^launch \\([^ ]*\\) 3 3 1 /launch \\1 1 1 1 /' " + ds + "/got.raw.trace > " + ds +
                      "/one.trace && cp " + ds + "/got.raw.trace.bytes " + ds + "/one.trace.bytes && grep -q "
                      "'^launch [^ ]* 1 1 1 ' " + ds + "/one.trace";
    cr_assert_eq(system(cut.c_str()), 0);
    cr_assert_eq(replay(ds + "/one.trace", ds, ds + "/one.raw", "lab3"), 0);
    matrix_t got;
    char err[512];
    cr_assert_eq(raw_read_solution((ds + "/one.raw").c_str(), &got, err, sizeof err), 0, "%s", err);
    cr_assert(!std::isnan(got.data[0]), "the first tile computed");
    cr_assert(std::isnan(got.data[got.rows * got.cols - 1]), "the last element never written");
    matrix_free(&got);
    std::string rm = "rm -rf " + d;
    cr_assert_eq(system(rm.c_str()), 0);
}
