/* backend.h - the ways a submission is built and run: "emu" (bin/emucc and
 * the CPU emulator), "vgpu" (nvcc's PTX on the grader's executor,
 * bin/cugrade-vgpu, with the student's host code in another process: issue
 * 39; its launches replayed on the GPU where there is one), "gpu" (vgpu
 * with the replay required: the GPU's timing and outputs, and nothing the
 * grader trusts from a process that runs student code) and "native" (the
 * student's whole program on the device, its reports from that process).
 * "auto" picks the executor when it is ready (backend_executor_ready), with
 * its launches replayed on the GPU where there is one
 * (backend_replay_runner); else native when there is a GPU; else the
 * emulator. */
#ifndef CUGRADE_BACKEND_H
#define CUGRADE_BACKEND_H

#include <stddef.h>

/* BACKEND_GPU is a request: backend_resolve makes it BACKEND_VGPU with a
 * runner, or says why it cannot. */
typedef enum { BACKEND_AUTO = 0, BACKEND_EMU, BACKEND_NATIVE, BACKEND_VGPU, BACKEND_GPU } backend_t;

const char *backend_name(backend_t b);
/* Parses "auto", "emu", "gpu", "vgpu", "native"; returns -1 on anything else. */
int backend_parse(const char *s, backend_t *out);

/* Number of CUDA devices the driver reports (0 if there is no driver or no
 * device): gpu_devices' count, probed in a child process so the grader
 * never initialises CUDA. $CUGRADE_GPU_COUNT, when set, is the answer
 * instead (gpu_count_forced): for tests, and for a batch's children, whose
 * batch has probed and gives each one GPU. */
int gpu_device_count(void);
/* 1 with *n set when $CUGRADE_GPU_COUNT says the count; else 0. */
int gpu_count_forced(int *n);

#define GPU_DEVICES_MAX 100 /* devices a probe reports, at most */
#define GPU_BUS_ID_LEN 32
typedef struct {
    int cc;                       /* compute capability, major * 10 + minor (90: sm_90) */
    char bus_id[GPU_BUS_ID_LEN];  /* PCI bus id, as the CUDA driver writes it ("0000:1B:00.0") */
} gpu_device_t;

/* Each visible device, in CUDA's order, into out (up to max), asked of the
 * driver in one probe child; the count, 0 when there is no driver, it
 * fails, or there are more than max. */
int gpu_devices(gpu_device_t *out, int max);

/* Whether the vgpu backend can run under root: nvcc found ($CUGRADE_NVCC,
 * else on PATH), bin/cugrade-vgpu and build/libcugrade_vcudart.a built. */
int backend_executor_ready(const char *root);

/* Whether auto picks the executor on a machine with gpus GPUs: it is ready
 * (backend_executor_ready) and, with gpus > 0, a runner replays its
 * launches there (backend_replay_runner). */
int backend_executor_chosen(const char *root, int gpus);

/* vgpu: whether the executor's launches are replayed on a GPU, and by which
 * runner (run/runs_replay.h), into out: $CUGRADE_REPLAY names one ("off":
 * none; tests name a pretend GPU); else root's bin/cugrade-replay, when it
 * was built and a CUDA device is there (gpus: the count, -1 to probe).
 * 1, or 0 with out "". */
int backend_replay_runner(const char *root, int gpus, char *out, size_t len);

/* Resolves AUTO and GPU; why (may be NULL) gets a short reason for the
 * choice. GPU is returned as it is when the machine cannot grade that way:
 * backend_gpu_missing says why. */
backend_t backend_resolve(backend_t requested, char *why, size_t whylen);
/* The same with the GPU count already known (n, from gpu_device_count) and
 * whether the executor is ready (backend_executor_ready; with n > 0, with a
 * replay runner too: backend_replay_runner). */
backend_t backend_resolve_with(backend_t requested, int n, int executor, char *why, size_t whylen);

/* --backend gpu on a machine that cannot: what is missing, into why (a
 * sentence with the other ways to grade); 0 when nothing is. */
int backend_gpu_missing(const char *root, char *why, size_t whylen);

/* 1 for the backends whose runs need no GPU and report their own checks
 * (emu, vgpu): a run's findings are the checks' evidence, its times no GPU's. */
int backend_checks_itself(backend_t b);

/* The host C++ compiler's name: the first word of $CUGRADE_CXX (emucc's
 * compiler), else g++; the vgpu backend links with it too. */
void build_host_compiler(char *out, size_t outlen);

/* The backend's compiler: <root>/bin/emucc, or nvcc ($CUGRADE_NVCC, else
 * found in PATH or /usr/local/cuda/bin; gpu and vgpu). 0 if it is there and
 * executable. */
int build_compiler_path(const char *root, backend_t backend, char *out, size_t outlen);

#endif
