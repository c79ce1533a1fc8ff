/* vgpu_calls.cpp - the lab's driver on the executor's side (vgpu_calls.h):
 * datasets in, the program's calls, outputs and their provenance out. */
#include "vgpu_calls.h"

extern "C" {
#include "dataset/rawio.h"
#include "replay/replay_io.h"
#include "util/util.h"
}

#include <cstring>
#include <sstream>

static std::vector<std::string> split(const std::string &s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string t; std::getline(ss, t, ',');)
        out.push_back(t);
    return out;
}

bool ArrayCalls::configure(const std::string &call, const std::string &out_shape, std::string &err)
{
    args_spec = split(call);
    shape_spec = split(out_shape);
    if (args_spec.empty() || shape_spec.size() != 2) {
        err = "--call needs its arguments and --out-shape its rows and cols";
        return false;
    }
    for (const std::string &a : args_spec)
        if (a != "out" && !(a.size() > 2 && a.compare(0, 2, "in") == 0 && isdigit((unsigned char)a[2])) &&
            a.compare(0, 4, "rows") != 0 && a.compare(0, 4, "cols") != 0 &&
            !(a.size() > 1 && a[0] == 'n' && isdigit((unsigned char)a[1]))) {
            err = "--call: '" + a + "' is not inN, out, rowsN, colsN or nN";
            return false;
        }
    return true;
}

void ArrayCalls::name_inputs(const std::string &names) { in_names = split(names); }
void ArrayCalls::type_inputs(const std::string &types) { in_types = split(types); }

bool ArrayCalls::size_of(const std::string &whole, int &v) const
{
    /* "n3-1": a size less (or more) a constant: the base, then the signed suffix */
    size_t sign = whole.find_first_of("+-", 1);
    if (sign != std::string::npos) {
        int base;
        if (!size_of(whole.substr(0, sign), base))
            return false;
        v = base + atoi(whole.c_str() + sign);
        return true;
    }
    const std::string &token = whole;
    if (token.size() > 1 && token[0] == 'n' && isdigit((unsigned char)token[1])) { /* nN: elements */
        size_t i = (size_t)atoi(token.c_str() + 1);
        if (i >= rows.size())
            return false;
        v = rows[i] * cols[i];
        return true;
    }
    if (!token.empty() && isdigit((unsigned char)token[0])) { /* a number */
        v = atoi(token.c_str());
        return true;
    }
    bool r = token.compare(0, 4, "rows") == 0;
    size_t i = (size_t)atoi(token.c_str() + 4);
    if (i >= rows.size())
        return false;
    v = r ? rows[i] : cols[i];
    return true;
}

void ArrayCalls::release(ptx_device_t *d)
{
    for (uint64_t b : buffers) {
        ptx_free(d, b);
        if (trace)
            trace->free(b);
    }
    buffers.clear();
    rows.clear(), cols.clear();
}

/* Input i of a dataset folder into m; false with the fault set when it does not read. */
bool ArrayCalls::read_input(const std::string &dir, int i, matrix_t &m)
{
    char err[512];
    if (replay_read_input(dir.c_str(), i, &m, err, sizeof err) == 0)
        return true;
    fault = err;
    return false;
}

/* The current call's record ends: kept beside its output (OUT.trace and
 * OUT.trace.bytes) when keep, else dropped. */
void ArrayCalls::end_trace(const std::string &output, bool keep)
{
    if (!trace)
        return;
    if (!keep) {
        trace->drop();
        return;
    }
    std::string path = output + ".trace";
    if (!write_record(*trace, path))
        fault = path + ": cannot be written";
}

bool write_record(ptx::Trace &trace, const std::string &path)
{
    std::string text, bytes, bytes_path = path + ".bytes";
    trace.end(text, bytes);
    return write_file_atomic(bytes_path.c_str(), bytes.data(), bytes.size(), nullptr, 0) == 0 &&
           write_file_atomic(path.c_str(), text.data(), text.size(), nullptr, 0) == 0;
}

bool ArrayCalls::next(ptx_device_t *d, std::vector<uint64_t> &args)
{
    if (next_dataset >= datasets.size() || !fault.empty())
        return false;
    const Dataset &ds = datasets[next_dataset++];
    Record rec;
    rec.dir = ds.dir, rec.output = ds.output;
    std::vector<uint64_t> inputs;
    if (trace)
        trace->begin(d);
    int n_inputs = 0;
    for (const std::string &a : args_spec)
        if (a.compare(0, 2, "in") == 0)
            n_inputs = std::max(n_inputs, atoi(a.c_str() + 2) + 1);
    for (int i = 0; i < n_inputs; i++) {
        /* the inputs remember which of their elements kernels read, but one that need not be read
         * whole ("f~": x of a sparse product) */
        ptx_set_read_tracking(d, !((size_t)i < in_types.size() && in_types[(size_t)i].find('~') != std::string::npos));
        matrix_t m;
        if (!read_input(ds.dir, i, m)) {
            ptx_set_read_tracking(d, 0);
            release(d);
            return false;
        }
        size_t bytes = (size_t)m.rows * m.cols * sizeof(float);
        bool as_int = (size_t)i < in_types.size() && !in_types[(size_t)i].empty() && in_types[(size_t)i][0] == 'i';
        if (as_int) /* the file's whole numbers as 32-bit ints, in place */
            for (size_t k = 0; k < (size_t)m.rows * m.cols; k++) {
                int32_t v = (int32_t)m.data[k];
                memcpy(&m.data[k], &v, sizeof v);
            }
        uint64_t p = ptx_malloc(d, bytes ? bytes : 4);
        if (!p || ptx_copy_to_device(d, p, m.data, bytes) != PTX_OK) {
            fault = ds.dir + ": no device memory for input " + std::to_string(i);
            ptx_set_read_tracking(d, 0);
            matrix_free(&m);
            release(d);
            return false;
        }
        if (trace)
            trace->alloc(p, bytes ? bytes : 4), trace->load(p, i, bytes, as_int);
        buffers.push_back(p), inputs.push_back(p), rows.push_back(m.rows), cols.push_back(m.cols);
        array_names[p] = (size_t)i < in_names.size() ? in_names[(size_t)i] : "input " + std::to_string(i);
        matrix_free(&m);
    }
    ptx_set_read_tracking(d, 0);
    if (!size_of(shape_spec[0], out_rows) || !size_of(shape_spec[1], out_cols)) {
        fault = "--out-shape names an input the call has not";
        release(d);
        return false;
    }
    size_t out_bytes = (size_t)out_rows * out_cols * sizeof(float);
    out_addr = ptx_malloc(d, out_bytes ? out_bytes : 4);
    if (!out_addr) {
        fault = ds.dir + ": no device memory for the output";
        release(d);
        return false;
    }
    /* ptx_malloc's bytes are 0xFF and nobody's: never written, as the harness's poison says */
    array_names[out_addr] = out_name;
    buffers.push_back(out_addr);
    if (trace)
        trace->alloc(out_addr, out_bytes ? out_bytes : 4);
    for (const std::string &a : args_spec) {
        int v = 0;
        if (a == "out")
            args.push_back(out_addr);
        else if (a.compare(0, 2, "in") == 0)
            args.push_back(inputs[(size_t)atoi(a.c_str() + 2)]);
        else if (size_of(a, v))
            args.push_back((uint64_t)(uint32_t)v);
        else
            args.push_back(0);
    }
    records.push_back(rec);
    active = true;
    return true;
}

/* The inputs' elements no kernel read, into rec.unread: "A: 1 of 16777217
 * elements (the first: element 16777216)", one clause an input. */
void ArrayCalls::count_unread(ptx_device_t *d, Record &rec) const
{
    for (size_t i = 0; i < rows.size() && i + 1 < buffers.size(); i++) {
        uint64_t count = 0, first = 0, all = (uint64_t)rows[i] * (uint64_t)cols[i];
        if (ptx_unread(d, buffers[i], all * sizeof(float), &count, &first) != PTX_OK || count == 0)
            continue;
        std::string name = array_name(buffers[i]);
        rec.unread += (rec.unread.empty() ? "" : "; ") + name + ": " + std::to_string(count) + " of its " +
                      std::to_string(all) + " elements (the first: element " + std::to_string(first) + ")";
    }
}

void ArrayCalls::finish(ptx_device_t *d, int32_t device_error, bool has_returned, int64_t returned)
{
    if (!active)
        return;
    active = false;
    Record &rec = records.back();
    rec.error = device_error;
    if (out_count_returned) { /* the output is as many elements as the call says it wrote */
        int64_t all = (int64_t)out_rows * out_cols;
        if (!has_returned || returned < 1 || returned > all) {
            rec.problem = "the launch function returned " + std::to_string(returned) +
                          "; it must return how many it wrote, from 1 to n = " + std::to_string(all);
            release(d);
            end_trace(rec.output, false);
            return;
        }
        out_rows = 1, out_cols = (int)returned;
    }
    size_t n = (size_t)out_rows * out_cols;
    if (dry && device_error == 0) { /* nothing ran: the record is what there is */
        if (trace)
            trace->output(out_addr, out_rows, out_cols, false, out_int);
        release(d);
        end_trace(rec.output, true);
        return;
    }
    ptx_origin(d, out_addr, n * sizeof(float), rec.words);
    if (rec.words[1] > 0)
        rec.problem = out_name + " was copied from the host, not computed by a kernel (" +
                      std::to_string(rec.words[1]) + " of " + std::to_string(n) + " elements)";
    if (!rec.problem.empty() || device_error != 0) { /* nothing of it is the kernels' answer */
        release(d);
        end_trace(rec.output, false);
        return;
    }
    count_unread(d, rec);
    matrix_t m = {out_rows, out_cols, (float *)calloc(n ? n : 1, sizeof(float)), 0};
    char err[512];
    bool copied = m.data && ptx_copy_from_device(d, m.data, out_addr, n * sizeof(float)) == PTX_OK;
    for (size_t k = 0; copied && out_int && k < n; k++) { /* ints as the file's values; the poison stays */
        uint32_t bits;
        memcpy(&bits, &m.data[k], sizeof bits);
        if (bits != 0xFFFFFFFFu)
            m.data[k] = (float)(int32_t)bits;
    }
    if (copied && replay_write_output(rec.output.c_str(), &m, err, sizeof err) == 0)
        rec.written = true;
    free(m.data);
    if (trace)
        trace->output(out_addr, out_rows, out_cols, false, out_int);
    release(d);
    end_trace(rec.output, rec.written);
}

json_object *ArrayCalls::report() const
{
    json_object *a = json_object_new_array();
    for (const Record &r : records) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "dataset", json_object_new_string(r.dir.c_str()));
        json_object_object_add(o, "output", json_object_new_string(r.written ? r.output.c_str() : ""));
        json_object_object_add(o, "device_error", json_object_new_int(r.error));
        json_object_object_add(o, "unwritten_elements", json_object_new_int64((int64_t)r.words[0]));
        json_object_object_add(o, "host_elements", json_object_new_int64((int64_t)r.words[1]));
        json_object_object_add(o, "kernel_elements", json_object_new_int64((int64_t)r.words[2]));
        if (!r.problem.empty())
            json_object_object_add(o, "problem", json_object_new_string(r.problem.c_str()));
        json_object_array_add(a, o);
    }
    return a;
}
