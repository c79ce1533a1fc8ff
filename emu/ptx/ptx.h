/* ptx.h - the executor: a virtual GPU that runs the PTX nvcc makes of a
 * submission, in the grader's own process, on device memory that only it
 * holds (issue 39's design; docs/emulator.md). C API, for the grader (C11)
 * and the tests.
 *
 * A device (ptx_device_t) holds allocations at addresses of its own (never
 * host pointers: a kernel's address is looked up, checked, then used) and
 * the kernels of loaded modules. ptx_launch runs one grid: block after
 * block, each block's warps in step (lanes that diverge run apart and meet
 * again where their paths join), barriers across the block. Every load and
 * store is checked against the allocations, the block's shared memory and
 * the thread's local memory; what goes wrong is a finding with its block,
 * thread and source line. Work is counted in executed instructions (one per
 * thread per instruction), so a limit on it is the same on any machine. */
#ifndef CUGRADE_PTX_H
#define CUGRADE_PTX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptx_device ptx_device_t;

typedef struct {
    unsigned x, y, z;
} ptx_dim3_t;

typedef enum {
    PTX_OK = 0,
    PTX_ERR_PARSE,          /* the PTX could not be read: err says where */
    PTX_ERR_NO_KERNEL,      /* no kernel of that name */
    PTX_ERR_CONFIG,         /* a grid or block the device refuses (size, shared memory) */
    PTX_ERR_ADDRESS,        /* a load or store outside memory: see the findings */
    PTX_ERR_BUDGET,         /* the instruction budget ran out */
    PTX_ERR_BARRIER,        /* a barrier some threads of a block never reached */
    PTX_ERR_INVALID,        /* a bad argument to this API (a copy outside an allocation) */
    PTX_ERR_UNSUPPORTED,    /* an instruction the executor cannot run yet */
} ptx_status_t;

typedef enum {
    PTX_FIND_GLOBAL_OOB,  /* a global access outside every allocation */
    PTX_FIND_SHARED_OOB,  /* a shared access outside the block's shared memory */
    PTX_FIND_LOCAL_OOB,   /* a local access outside the thread's local memory */
    PTX_FIND_MISALIGNED,  /* an access not aligned to its size */
    PTX_FIND_BARRIER,     /* a barrier some threads of the block never reached (they
                           * exited, or wait at another): thread is one of those */
    PTX_FIND_RACE,        /* (with PTX_CHECK_RACES) a shared-memory word written by one
                           * thread and read or written by another with no barrier
                           * between: thread and line are the second access's, other
                           * the first's thread */
    PTX_FIND_UNINIT,      /* (with PTX_CHECK_UNINIT) a read of a shared word no thread of
                           * the block has written, or of device memory nothing wrote */
} ptx_finding_kind_t;

typedef struct {
    ptx_finding_kind_t kind;
    ptx_dim3_t block, thread;
    uint32_t line;        /* the kernel's source line (0: unknown) */
    uint16_t file;        /* its file, for ptx_file_name (the PTX's .file number; 0: unknown) */
    uint8_t shared;       /* the access was to shared memory (else device, local, param) */
    uint8_t near;         /* PTX_FIND_GLOBAL_OOB: in the red zone of an array (array, offset),
                           * where a GPU does not fault: its load reads NaN, its store is
                           * dropped, and the launch goes on with no error */
    uint64_t array;       /* near: that array's device address */
    int64_t offset;       /* near: the access's byte offset from it (negative: before it) */
    uint64_t address;     /* what was accessed */
    uint32_t size;        /* bytes */
    int is_store;
    ptx_dim3_t other;     /* PTX_FIND_RACE: the thread of the first access */
} ptx_finding_t;

/* What a launch moved and computed (with PTX_CHECK_TRAFFIC): per warp
 * instruction, the 32-byte sectors of global memory its lanes touched
 * (coalesced: requested bytes / 32), and the shared-memory wavefronts
 * (a bank conflict adds one: the most distinct words any of the 32 banks
 * is asked for); flops: f32/f64 operations, an fma two. */
typedef struct {
    uint64_t global_load_bytes, global_load_sectors;
    uint64_t global_store_bytes, global_store_sectors;
    uint64_t shared_requests, shared_wavefronts;
    uint64_t shared_loads;  /* values read back from shared memory (a lane each) */
    uint64_t shared_load_bytes; /* their bytes (the roofline's shared-memory traffic) */
    uint64_t const_loads;   /* values read from __constant__ variables (ld.const, a lane each) */
    uint64_t global_atomics, shared_atomics; /* atom and red, a lane each, by space */
    uint64_t flops;
} ptx_traffic_t;

typedef struct {
    ptx_status_t status;
    uint64_t instructions;  /* executed, one per thread and instruction */
    uint64_t warp_instructions; /* issued, one per warp and instruction: lanes that diverge
                                 * are issued apart until their paths meet again */
    unsigned nfindings;     /* how many there were (the first few kept below) */
    unsigned naddress;      /* of them, bad accesses (out of bounds, misaligned) */
    unsigned nfault;        /* of those, the ones a GPU faults on (all but the near ones):
                             * any makes the launch's PTX_ERR_ADDRESS */
    unsigned nbarrier;      /* of them, barriers (one a block at most) */
    unsigned nrace;         /* of them, shared-memory races (with PTX_CHECK_RACES) */
    unsigned nuninit;       /* of them, uninitialised reads (with PTX_CHECK_UNINIT) */
    ptx_finding_t findings[16];
    char message[256];      /* what stopped the launch, in words ("" when nothing did) */
    ptx_traffic_t traffic;  /* with PTX_CHECK_TRAFFIC; flops always */
    uint64_t sampled_blocks; /* the blocks the checks looked at (all, unless ptx_set_sampling) */
} ptx_launch_result_t;

ptx_device_t *ptx_device_new(void);
void ptx_device_free(ptx_device_t *d);

/* Loads a module's kernels (PTX text, len bytes). PTX_ERR_PARSE with err. */
ptx_status_t ptx_load(ptx_device_t *d, const char *text, size_t len, char *err, size_t errlen);

/* The device address and bytes of a module's .global or .const variable
 * (as cudaMemcpyToSymbol finds it); PTX_ERR_INVALID if there is none. */
ptx_status_t ptx_symbol(const ptx_device_t *d, const char *name, uint64_t *address, size_t *size);

/* Device memory: an address that is never a host pointer; 0 when size is 0
 * or too large (1 GiB at most). Its bytes are 0xFF (NaN as floats, the
 * harness's poison) and nobody's (ptx_origin): never written. */
uint64_t ptx_malloc(ptx_device_t *d, size_t size);
ptx_status_t ptx_free(ptx_device_t *d, uint64_t addr);
ptx_status_t ptx_copy_to_device(ptx_device_t *d, uint64_t dst, const void *src, size_t n);
ptx_status_t ptx_copy_from_device(ptx_device_t *d, void *dst, uint64_t src, size_t n);
ptx_status_t ptx_memset(ptx_device_t *d, uint64_t dst, int value, size_t n);

/* The checks a launch makes besides bounds and barriers (which it always
 * makes): PTX_CHECK_RACES, shared-memory races between barriers;
 * PTX_CHECK_UNINIT, reads of what was never written. Off by default: a
 * checked launch runs the accesses it checks on the general path. */
#define PTX_CHECK_RACES 1u
#define PTX_CHECK_UNINIT 2u /* reads of what was never written: shared, and device memory */
#define PTX_CHECK_TRAFFIC 4u /* the traffic counts of ptx_traffic_t (their accesses on the general path) */
void ptx_set_checks(ptx_device_t *d, unsigned checks);
/* With on, a launch of more than 64 blocks has the checks look at a sample
 * of them (the first four, the last, every eighth and every block on the
 * grid's edge): races, uninitialised shared reads, sectors and wavefronts
 * there only; the others run on the fast paths, their bounds, their reads
 * of device memory nothing wrote and their bytes still found and counted.
 * Off by default. */
void ptx_set_sampling(ptx_device_t *d, int on);

/* With on, a launch is checked (its kernel, grid, block, shared and local
 * memory, as a GPU refuses them) and not run: the device memory stays as
 * it was. For recording the launches of a shape too large to execute
 * here, to be timed on a GPU (vgpu_trace.h). Off by default. */
void ptx_set_dry(ptx_device_t *d, int on);

/* Whether launches use the fast paths (ptx_fast.h; on by default). Off, the
 * general path runs every instruction: the tests compare the two. */
void ptx_set_fast_paths(ptx_device_t *d, int on);

/* Who last wrote the 4-byte words of [addr, addr + n): counts[0] none,
 * counts[1] the host (a copy, or a memset to a value other than 0),
 * counts[2] a kernel, or a memset to 0 (no host values in it: a
 * histogram's bins zeroed, then counted into where values fall). The
 * output of a lab must be a kernel's work. PTX_ERR_INVALID outside an
 * allocation. */
ptx_status_t ptx_origin(ptx_device_t *d, uint64_t addr, size_t n, uint64_t counts[3]);

/* With on, allocations made from then on remember which of their 4-byte
 * words a kernel loaded (an input a kernel never read: a grid one block
 * short whose output still passes by tolerance). Off by default. */
void ptx_set_read_tracking(ptx_device_t *d, int on);
/* The 4-byte words of [addr, addr + n) the host wrote and no kernel loaded:
 * how many, and the first's index (from addr). PTX_ERR_INVALID outside an
 * allocation, or one made without read tracking. */
ptx_status_t ptx_unread(ptx_device_t *d, uint64_t addr, size_t n, uint64_t *count, uint64_t *first);
/* Marks [addr, addr + n) read, as a kernel's loads do: a program's copy
 * from the device (into constant memory through the host, say) uses the
 * input too. Nothing outside a tracked allocation. */
void ptx_mark_read(ptx_device_t *d, uint64_t addr, size_t n);

/* What kernels printed (printf), a line a call in the order they ran: the
 * count of calls, and line i (the first 1000 are kept; null past them). */
/* The shared variable of kernel (mangled, as in the PTX) that holds byte
 * offset of its block's shared memory (its dynamic shared memory too): its
 * name as in the PTX (mangled: "_ZZ...E5tileA"), with *within the offset
 * inside it; NULL when none does. */
const char *ptx_shared_name(const ptx_device_t *d, const char *kernel, uint64_t offset, uint64_t *within);

/* The source file the PTX's .file directive numbered n names, as nvcc
 * wrote it (the path it compiled); NULL when there is none. */
const char *ptx_file_name(const ptx_device_t *d, unsigned n);

uint64_t ptx_printed(const ptx_device_t *d, size_t i, const char **line);

/* The name of loaded kernel i (0, 1, ...), or null past the last. */
const char *ptx_kernel_name(const ptx_device_t *d, int i);

/* The number and bytes of kernel's parameters; -1 if there is no such kernel. */
int ptx_kernel_params(const ptx_device_t *d, const char *kernel, size_t *param_bytes);

/* The bytes of parameter i of kernel; -1 if there is no such parameter. */
int ptx_kernel_param_size(const ptx_device_t *d, const char *kernel, int i);

/* Runs kernel on grid x block, with dynamic shared memory shared_bytes;
 * args[i] points at the value of parameter i (as cudaLaunchKernel takes
 * them). Stops at max_instructions (0: no limit). */
ptx_status_t ptx_launch(ptx_device_t *d, const char *kernel, ptx_dim3_t grid, ptx_dim3_t block,
                        size_t shared_bytes, void **args, uint64_t max_instructions,
                        ptx_launch_result_t *result);

#ifdef __cplusplus
}
#endif

#endif
