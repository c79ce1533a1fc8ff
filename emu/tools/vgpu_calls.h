/* vgpu_calls.h - the lab's driver on the executor's side (issue 39), for
 * bin/cugrade-vgpu: for each dataset, its inputs read from the dataset's
 * folder (inputN.bin, the grader's matbin, else libwb's inputN.raw) into
 * device memory the executor owns, the output allocated and poisoned
 * (never written), the program asked to call the lab's launch function on
 * them, and then the output read back, its provenance counted (every word
 * must be a kernel's), and the inputs' elements no kernel read counted (a
 * grid one block short leaves an input's last element out of a sum that
 * still passes by tolerance). It is written to the grader's file (matbin for a
 * .bin name, else .raw) only when the call ended with no device error and
 * nothing of it came from the host: else the record says why.
 * What the call's arguments are comes from a spec:
 *
 *   --call in0,in1,out,rows0,cols0,cols1 --out-shape rows0,cols1
 *
 * (lab 3's: A, B and C as device pointers, then M, K and N): inN is input
 * N's device address, out the output's, rowsN/colsN input N's sizes, nN
 * its element count. With --out-count returned (the reduction kind: A, B,
 * the partial sums, n, and the launch function returns how many it
 * wrote), the output is that many of the allocated elements, from 1 to all
 * of them, written as a 1 x count matrix:
 *
 *   --call in0,in1,out,n0 --out-shape 1,n0 --out-count returned */
#ifndef CUGRADE_VGPU_CALLS_H
#define CUGRADE_VGPU_CALLS_H

#include "vgpu_server.h"
#include "vgpu_trace.h"

extern "C" {
#include "dataset/rawio.h"
}

#include <json-c/json.h>

#include <map>
#include <string>
#include <vector>

/* Ends trace's record and writes it to path, its bytes to path.bytes (each
 * through a temporary file and a rename): false when either cannot be. */
bool write_record(ptx::Trace &trace, const std::string &path);

class ArrayCalls : public ptx::CallSource {
  public:
    /* false with err when the spec does not parse */
    bool configure(const std::string &call, const std::string &out_shape, std::string &err);
    void count_returned() { out_count_returned = true; }
    void name_output(const std::string &name) { out_name = name; }
    void name_inputs(const std::string &names); /* "A,B": input 0 is A, ... (in messages) */
    /* "f,i": input 0 floats, input 1 32-bit ints (an int array's file holds whole numbers); and
     * whether the output is ints: each is then converted between the file's values and the
     * device's bits (an int output never written keeps the poison's bits) */
    void type_inputs(const std::string &types);
    void output_is_int() { out_int = true; }
    /* Each call's launch record kept beside its output (OUT.trace, vgpu_trace.h) */
    void record_traces(ptx::Trace *t) { trace = t; }
    /* --dry: the launches are recorded, not run; no output is written, the record is kept */
    void dry_run() { dry = true; }
    /* what the lab calls the array at a device address ("A"), or "" */
    std::string array_name(uint64_t address) const
    {
        auto it = array_names.find(address);
        return it == array_names.end() ? "" : it->second;
    }
    void add_dataset(const std::string &dir, const std::string &output) { datasets.push_back({dir, output}); }
    bool next(ptx_device_t *d, std::vector<uint64_t> &args) override;
    void finish(ptx_device_t *d, int32_t device_error, bool has_returned, int64_t returned) override;
    /* each dataset's call: its output, the device's error, who wrote the output */
    json_object *report() const;
    bool grader_fault() const { return !fault.empty(); }
    /* each call's problem, when its output is not the kernels' work (in call order) */
    std::vector<std::string> problems() const
    {
        std::vector<std::string> out;
        for (const Record &r : records)
            if (!r.problem.empty())
                out.push_back(r.problem);
        return out;
    }
    /* each call's inputs no kernel read whole (in call order) */
    std::vector<std::string> unread_inputs() const
    {
        std::vector<std::string> out;
        for (const Record &r : records)
            if (!r.unread.empty())
                out.push_back(r.unread);
        return out;
    }
    const std::string &fault_message() const { return fault; }

  private:
    struct Dataset {
        std::string dir, output;
    };
    struct Record {
        std::string dir, output, problem;
        std::string unread; /* the inputs' elements no kernel read, in words ("" when all were) */
        int32_t error = 0;
        uint64_t words[3] = {0, 0, 0};
        bool written = false;
    };
    std::vector<std::string> args_spec, shape_spec;
    std::vector<Dataset> datasets;
    std::vector<Record> records;
    size_t next_dataset = 0;
    bool active = false;
    std::vector<uint64_t> buffers; /* the current call's device memory: its inputs, then the output */
    std::vector<int> rows, cols;    /* the current inputs' sizes */
    uint64_t out_addr = 0;
    int out_rows = 0, out_cols = 0;
    std::string fault; /* a dataset that could not be read: the grader's fault, not the program's */
    bool out_count_returned = false;
    std::string out_name = "C"; /* what the lab calls the output, in messages */
    std::vector<std::string> in_names, in_types;
    bool out_int = false;
    std::map<uint64_t, std::string> array_names; /* every call's arrays (addresses are never reused) */
    bool size_of(const std::string &token, int &v) const;
    void count_unread(ptx_device_t *d, Record &rec) const;
    ptx::Trace *trace = nullptr;
    bool dry = false;
    bool read_input(const std::string &dir, int i, matrix_t &m);
    void end_trace(const std::string &output, bool keep);
    void release(ptx_device_t *d);
};

#endif
