/* vgpu_findings.h - what the executor saw, in the emulator's report format
 * (grader/run/emureport.h: "<severity>\t<kind>\t<message>" findings and
 * "stat\t<key>\t<value>" statistics), so that the grader's checks, verdicts
 * and hints read a run on the executor as they read one on the emulator.
 * Written by bin/cugrade-vgpu --findings FILE, outside the student's
 * process: nothing in it comes from the program. */
#ifndef CUGRADE_VGPU_FINDINGS_H
#define CUGRADE_VGPU_FINDINGS_H

#include "vgpu_calls.h"
#include "vgpu_server.h"

#include <string>

/* The report's text: each launch's findings (with the kernel, the thread,
 * the block and file:line), what stopped a launch (the instruction budget,
 * a bad configuration), each call whose output is not the kernels' work,
 * and the statistics (threads, blocks, global bytes, values staged in
 * shared memory, instructions, FLOPs). calls may be null. */
std::string vgpu_findings(const ptx_device_t *d, const ptx::ServeLog &log, const ArrayCalls *calls,
                          uint64_t budget);

/* A mangled kernel name as the student wrote it ("matrixMultiplyShared"). */
std::string vgpu_kernel_name(const std::string &mangled);

#endif
