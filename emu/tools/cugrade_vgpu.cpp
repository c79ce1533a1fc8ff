/* cugrade_vgpu.cpp - bin/cugrade-vgpu, the executor as a program (issue
 * 39): a virtual GPU for one program linked with emu/vcudart/.
 *
 *   cugrade-vgpu [--budget N] [--races] [--uninit] [--traffic] [--sample] [--report FILE]
 *                [--findings FILE] [--solution FILE]
 *                [--call SPEC --out-shape SHAPE [--out-count returned] [--out-name C] [--in-names A,B]
 *                 --dataset DIR:OUT ...] PTX -- PROGRAM [ARG...]
 *   cugrade-vgpu ... PTX --fd N
 *   cugrade-vgpu --replay TRACE [--inputs DIR] --out FILE PTX
 *
 * With --trace, what the program asked of the device is recorded
 * (vgpu_trace.h) beside each output a kernel computed: OUT.trace and
 * OUT.trace.bytes for a --dataset's OUT, FILE.trace for a --solution
 * FILE. --replay does such a record again with no program (vgpu_replay.h):
 * the output it gives is written to --out; exit 1 when a kernel failed.
 * With --dry, launches are checked and recorded but not run (a shape too
 * large to execute here, recorded to be timed on a GPU): no output is
 * written, and each call's record is kept.
 *
 * --findings writes what happened in the emulator's report format
 * (vgpu_findings.h), for the grader. With --fd, the program is not started
 * here: the grader started it (sandboxed) with the other end of a socket
 * pair, and descriptor N is this end.
 *
 * With --call, the executor is the lab's driver too (vgpu_calls.h): for
 * each --dataset it puts DIR's inputs in device memory, asks PROGRAM (a
 * lab's vgpu_main.cu and the student's file) to call the launch function
 * on them, and writes the output it finds in device memory to OUT, with
 * who wrote it in the report's "calls". With --solution, a libwb program's
 * wbSolution (labs/common/wb_io.cu with -DCUGRADE_VGPU) is written to FILE
 * by the executor, and the report says whether the program read it back
 * from memory a kernel wrote.
 *
 * loads PTX (the grader's own nvcc -ptx of the submission), starts PROGRAM
 * with one end of a socket pair as $CUGRADE_VGPU_FD, serves its CUDA calls
 * until it ends, and writes what happened on the device as JSON to FILE
 * (default: standard output): each launch (kernel, grid, block, executed
 * and warp instructions, status) and its findings (kind, block, thread,
 * source line, address), and each copy back to the program with who last
 * wrote the words it read (a kernel, the host, nobody). The report comes from this process, never from
 * PROGRAM. Exit status: PROGRAM's (128 + its signal); 3 if PROGRAM broke
 * the wire (a malformed request: its runtime never sends one, so code that
 * tampered with it did; it is killed, and the report says why); 4 if the
 * PTX uses what the executor refuses by name (tensor-core instructions:
 * the findings say which); 2 if the executor itself cannot run (the PTX
 * unreadable or beyond what it runs, no socket). With --fd, 0 for the
 * PROGRAM's status, which the grader has. */
#include "ptx.h"
#include "vgpu_calls.h"
#include "vgpu_findings.h"
#include "vgpu_protocol.h"
#include "vgpu_replay.h"
#include "vgpu_server.h"
#include "vgpu_trace.h"

#include <json-c/json.h>

extern "C" {
#include "dataset/rawio.h"
#include "util/util.h"
}

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

const char *const finding_kinds[] = {"global-out-of-bounds", "shared-out-of-bounds",
                                     "local-out-of-bounds", "misaligned", "barrier", "race",
                                     "uninitialised-read"};
const char *const statuses[] = {"ok",      "parse",   "no-kernel", "config",     "illegal-address",
                                "budget",  "barrier", "invalid",   "unsupported"};

json_object *dim3_json(ptx_dim3_t d)
{
    json_object *a = json_object_new_array();
    json_object_array_add(a, json_object_new_int64(d.x));
    json_object_array_add(a, json_object_new_int64(d.y));
    json_object_array_add(a, json_object_new_int64(d.z));
    return a;
}

json_object *report(const ptx_device_t *d, const ptx::ServeLog &log, int serve_rc, const ArrayCalls *calls)
{
    json_object *root = json_object_new_object(), *launches = json_object_new_array();
    for (const ptx::LaunchRecord &l : log.launches) {
        json_object *o = json_object_new_object(), *fs = json_object_new_array();
        json_object_object_add(o, "kernel", json_object_new_string(l.kernel.c_str()));
        json_object_object_add(o, "grid", dim3_json(l.grid));
        json_object_object_add(o, "block", dim3_json(l.block));
        json_object_object_add(o, "shared_bytes", json_object_new_int64((int64_t)l.shared_bytes));
        json_object_object_add(o, "status", json_object_new_string(statuses[l.result.status]));
        json_object_object_add(o, "instructions", json_object_new_int64((int64_t)l.result.instructions));
        json_object_object_add(o, "warp_instructions",
                               json_object_new_int64((int64_t)l.result.warp_instructions));
        json_object_object_add(o, "findings_total", json_object_new_int64(l.result.nfindings));
        unsigned kept = l.result.nfindings < 16 ? l.result.nfindings : 16;
        for (unsigned i = 0; i < kept; i++) {
            const ptx_finding_t &f = l.result.findings[i];
            json_object *fo = json_object_new_object();
            json_object_object_add(fo, "kind", json_object_new_string(finding_kinds[f.kind]));
            json_object_object_add(fo, "block", dim3_json(f.block));
            json_object_object_add(fo, "thread", dim3_json(f.thread));
            json_object_object_add(fo, "line", json_object_new_int64(f.line));
            json_object_object_add(fo, "address", json_object_new_int64((int64_t)f.address));
            json_object_object_add(fo, "size", json_object_new_int64(f.size));
            json_object_object_add(fo, "store", json_object_new_boolean(f.is_store));
            if (f.kind == PTX_FIND_RACE)
                json_object_object_add(fo, "other_thread", dim3_json(f.other));
            json_object_array_add(fs, fo);
        }
        json_object_object_add(o, "findings", fs);
        json_object_array_add(launches, o);
    }
    json_object_object_add(root, "launches", launches);
    json_object *copies = json_object_new_array();
    for (const ptx::CopyRecord &c : log.copies_out) { /* what the program read back, and who wrote it */
        json_object *o = json_object_new_object();
        json_object_object_add(o, "address", json_object_new_int64((int64_t)c.address));
        json_object_object_add(o, "bytes", json_object_new_int64((int64_t)c.bytes));
        json_object_object_add(o, "unwritten_words", json_object_new_int64((int64_t)c.words[0]));
        json_object_object_add(o, "host_words", json_object_new_int64((int64_t)c.words[1]));
        json_object_object_add(o, "kernel_words", json_object_new_int64((int64_t)c.words[2]));
        json_object_array_add(copies, o);
    }
    json_object_object_add(root, "copies_from_device", copies);
    json_object_object_add(root, "requests", json_object_new_int64((int64_t)log.requests));
    if (calls)
        json_object_object_add(root, "calls", calls->report());
    if (log.solution.complete) { /* a libwb program's wbSolution, and where it came from */
        json_object *o = json_object_new_object();
        json_object_object_add(o, "rows", json_object_new_int64(log.solution.rows));
        json_object_object_add(o, "cols", json_object_new_int64(log.solution.cols));
        json_object_object_add(o, "provenance", json_object_new_string(log.solution.provenance.c_str()));
        if (log.solution.provenance == "host")
            json_object_object_add(o, "problem", json_object_new_string(
                "the solution was copied to the device by the host and read back: no kernel computed it"));
        else if (log.solution.provenance == "not read back")
            json_object_object_add(o, "problem", json_object_new_string(
                "the solution is not what the program read back from device memory: it was computed on the host"));
        json_object_object_add(root, "solution", o);
    }
    json_object *printed = json_object_new_array(); /* the kernels' printf, the first lines */
    const char *line;
    uint64_t total = ptx_printed(d, 0, nullptr);
    for (size_t i = 0; i < total && (ptx_printed(d, i, &line), line); i++)
        json_object_array_add(printed, json_object_new_string(line));
    json_object_object_add(root, "printed", printed);
    json_object_object_add(root, "printed_total", json_object_new_int64((int64_t)total));
    if (serve_rc < 0)
        json_object_object_add(root, "stopped", json_object_new_string(log.stopped.c_str()));
    return root;
}

int usage()
{
    fprintf(stderr, "usage: cugrade-vgpu [--budget N] [--races] [--uninit] [--traffic] [--sample] [--report FILE] [--findings FILE] "
                    "[--trace] [--dry] [--call SPEC --out-shape SHAPE [--out-count returned] [--out-name C] [--in-names A,B] --dataset DIR:OUT ...] "
                    "PTX (-- PROGRAM [ARG...] | --fd N)\n"
                    "       cugrade-vgpu --replay TRACE [--inputs DIR] --out FILE PTX\n");
    return 2;
}

/* text into path, through a temporary file and a rename (util's); false on failure */
bool write_atomically(const char *path, const std::string &text)
{
    return write_file_atomic(path, text.data(), text.size(), nullptr, 0) == 0;
}

/* A libwb program's record, its output the read its solution came from,
 * written to path (and path.bytes); false with a message when it cannot be. */
bool write_trace(ptx::Trace &trace, const ptx::Solution &sol, const std::string &path)
{
    if (!trace.output_of_read(sol.source_end, sol.bytes.size(), (int)sol.rows, (int)sol.cols, sol.vector != 0)) {
        fprintf(stderr, "cugrade-vgpu: the record has no read the solution came from\n");
        return false;
    }
    if (!write_record(trace, path)) {
        fprintf(stderr, "cugrade-vgpu: cannot write %s\n", path.c_str());
        return false;
    }
    return true;
}

/* The program started here with one end of a socket pair as
 * $CUGRADE_VGPU_FD; *pid is it, the return value the other end (-1 when
 * it cannot start). */
int start_program(char **program, pid_t *pid)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        fprintf(stderr, "cugrade-vgpu: socketpair: %s\n", strerror(errno));
        return -1;
    }
    *pid = fork();
    if (*pid < 0)
        return -1;
    if (*pid == 0) {
        int fd = dup(sv[1]); /* without CLOEXEC: the program's end */
        char value[16];
        snprintf(value, sizeof value, "%d", fd);
        setenv(VGPU_FD_ENV, value, 1);
        execvp(program[0], program);
        fprintf(stderr, "cugrade-vgpu: cannot run %s: %s\n", program[0], strerror(errno));
        _exit(127);
    }
    close(sv[1]);
    return sv[0];
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t budget = 0;
    const char *report_path = nullptr, *ptx_path = nullptr, *call = nullptr, *shape = nullptr;
    const char *solution_path = nullptr, *findings_path = nullptr;
    const char *replay_path = nullptr, *inputs_dir = nullptr, *out_path = nullptr;
    bool tracing = false, dry = false;
    unsigned checks = 0;
    ptx::ServeLog log;
    int given_fd = -1;
    bool sample = false;
    ArrayCalls calls;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--budget") == 0 && i + 1 < argc)
            budget = strtoull(argv[++i], nullptr, 10);
        else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc)
            report_path = argv[++i];
        else if (strcmp(argv[i], "--findings") == 0 && i + 1 < argc)
            findings_path = argv[++i];
        else if (strcmp(argv[i], "--solution") == 0 && i + 1 < argc)
            solution_path = argv[++i];
        else if (strcmp(argv[i], "--races") == 0)
            checks |= PTX_CHECK_RACES;
        else if (strcmp(argv[i], "--uninit") == 0)
            checks |= PTX_CHECK_UNINIT;
        else if (strcmp(argv[i], "--traffic") == 0)
            checks |= PTX_CHECK_TRAFFIC;
        else if (strcmp(argv[i], "--sample") == 0)
            sample = true;
        else if (strcmp(argv[i], "--trace") == 0)
            tracing = true;
        else if (strcmp(argv[i], "--dry") == 0)
            dry = true;
        else if (strcmp(argv[i], "--replay") == 0 && i + 1 < argc)
            replay_path = argv[++i];
        else if (strcmp(argv[i], "--inputs") == 0 && i + 1 < argc)
            inputs_dir = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out_path = argv[++i];
        else if (strcmp(argv[i], "--fd") == 0 && i + 1 < argc)
            given_fd = atoi(argv[++i]);
        else if (strcmp(argv[i], "--call") == 0 && i + 1 < argc)
            call = argv[++i];
        else if (strcmp(argv[i], "--out-shape") == 0 && i + 1 < argc)
            shape = argv[++i];
        else if (strcmp(argv[i], "--out-name") == 0 && i + 1 < argc)
            calls.name_output(argv[++i]);
        else if (strcmp(argv[i], "--in-names") == 0 && i + 1 < argc)
            calls.name_inputs(argv[++i]);
        else if (strcmp(argv[i], "--in-types") == 0 && i + 1 < argc)
            calls.type_inputs(argv[++i]);
        else if (strcmp(argv[i], "--out-int") == 0)
            calls.output_is_int();
        else if (strcmp(argv[i], "--out-count") == 0 && i + 1 < argc && strcmp(argv[i + 1], "returned") == 0)
            calls.count_returned(), i++;
        else if (strcmp(argv[i], "--dataset") == 0 && i + 1 < argc && strchr(argv[i + 1], ':')) {
            std::string v = argv[++i];
            calls.add_dataset(v.substr(0, v.find(':')), v.substr(v.find(':') + 1));
        } else if (!ptx_path && argv[i][0] != '-')
            ptx_path = argv[i];
        else
            return usage();
    }
    bool has_program = i + 1 < argc;
    if (!ptx_path || (call != nullptr) != (shape != nullptr))
        return usage();
    if (replay_path ? has_program || given_fd >= 0 || !out_path : has_program == (given_fd >= 0) || out_path)
        return usage();
    std::string why;
    if (call && !calls.configure(call, shape, why)) {
        fprintf(stderr, "cugrade-vgpu: %s\n", why.c_str());
        return 2;
    }

    std::ifstream in(ptx_path);
    std::stringstream text;
    text << in.rdbuf();
    if (!in.good()) {
        fprintf(stderr, "cugrade-vgpu: cannot read %s\n", ptx_path);
        return 2;
    }
    ptx_device_t *d = ptx_device_new();
    char err[512];
    ptx_set_checks(d, checks);
    ptx_set_sampling(d, sample);
    ptx_set_dry(d, dry);
    if (dry)
        calls.dry_run();
    std::string t = text.str();
    if (ptx_load(d, t.data(), t.size(), err, sizeof err) != PTX_OK) {
        fprintf(stderr, "cugrade-vgpu: %s: %s\n", ptx_path, err);
        if (!strstr(err, " is refused: ")) /* the executor's own limit: the grader's fault */
            return 2;
        /* refused by name (tensor cores): the submission's, said where the grader reads */
        const char *what = strstr(err, "the tensor-core instruction");
        std::string line = std::string("error\trefused\t") + (what ? what : err) + "\n";
        if (findings_path && !write_atomically(findings_path, line))
            return 2;
        return 4;
    }
    if (replay_path) {
        int rc = vgpu_replay(d, replay_path, inputs_dir, out_path);
        ptx_device_free(d);
        return rc;
    }
    signal(SIGPIPE, SIG_IGN);
    ptx::Trace trace;
    if (tracing) {
        log.trace = &trace;
        calls.record_traces(&trace);
        if (!call && solution_path)
            trace.begin(d); /* a libwb program: one record, from its start */
    }
    pid_t pid = -1;
    int fd = has_program ? start_program(argv + i + 1, &pid) : given_fd;
    if (fd < 0)
        return 2;
    int rc = ptx::serve(d, fd, budget, log, call ? &calls : nullptr);
    close(fd);
    int status = 0;
    if (rc < 0 && pid > 0)
        kill(pid, SIGKILL);
    if (pid > 0)
        waitpid(pid, &status, 0);
    /* written here, never by the program, and only when a kernel computed it (or part of
     * it, the rest written by nothing: the comparison names what was never written) */
    if (solution_path && log.solution.complete &&
        (log.solution.provenance == "kernel" || log.solution.provenance == "kernel, partly")) {
        const ptx::Solution &sol = log.solution;
        matrix_t m = {(int)sol.rows, (int)sol.cols, (float *)sol.bytes.data(), (int)sol.vector};
        char werr[512];
        if (raw_write_solution(solution_path, &m, werr, sizeof werr) != 0) {
            fprintf(stderr, "cugrade-vgpu: %s\n", werr);
            return 2;
        }
        if (trace.recording() && !write_trace(trace, sol, std::string(solution_path) + ".trace"))
            return 2;
    }
    if (findings_path && !write_atomically(findings_path, vgpu_findings(d, log, call ? &calls : nullptr, budget))) {
        fprintf(stderr, "cugrade-vgpu: cannot write %s\n", findings_path);
        return 2;
    }
    json_object *r = report(d, log, rc, call ? &calls : nullptr);
    const char *json = json_object_to_json_string_ext(r, JSON_C_TO_STRING_PRETTY);
    bool written = report_path ? write_atomically(report_path, json) : puts(json) >= 0;
    json_object_put(r);
    ptx_device_free(d);
    if (!written) {
        fprintf(stderr, "cugrade-vgpu: cannot write %s\n", report_path);
        return 2;
    }
    if (calls.grader_fault()) { /* a dataset the executor could not read: not the program's doing */
        fprintf(stderr, "cugrade-vgpu: %s\n", calls.fault_message().c_str());
        return 2;
    }
    if (rc < 0) {
        fprintf(stderr, "cugrade-vgpu: the program broke the wire: %s\n", log.stopped.c_str());
        return 3;
    }
    if (pid <= 0) /* the grader started the program and has its status */
        return 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
