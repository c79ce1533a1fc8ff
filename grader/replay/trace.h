/* trace.h - a launch record (issue 39, item 5): what a program asked of the
 * device, as the executor served it (emu/ptx/vgpu_trace.h writes it), read
 * and checked here for the runners that do it again with no student code
 * present: bin/cugrade-replay on a real GPU, the executor's --replay.
 *
 * The record is text, a line a step, after "cugrade-trace 1":
 *
 *   alloc ID BYTES                 device memory (its bytes 0xFF: the poison)
 *   global ID BYTES NAME           the module's variable NAME (a __constant__
 *                                  array) as the allocation ID; never freed
 *   free ID
 *   load ID OFFSET INPUT BYTES     dataset input INPUT's floats (inputINPUT.bin
 *                                  or .raw), BYTES of them, at OFFSET of ID
 *   load-int ID OFFSET INPUT BYTES the same, each value as a 32-bit int (an
 *                                  int array's whole numbers)
 *   copy ID OFFSET BYTES AT        BYTES of the record's byte file, from AT
 *   memset ID OFFSET VALUE BYTES
 *   launch KERNEL GX GY GZ BX BY BZ SHARED NARGS
 *   arg SIZE HEX [AT=ID+OFFSET ...]
 *                                  NARGS of them: each argument's bytes; the
 *                                  8-byte words at AT are pointers, into ID
 *   read ID OFFSET BYTES           a copy back to the program
 *   output ID OFFSET ROWS COLS matrix|vector [int]
 *                                  the output is ROWS x COLS floats there, now
 *                                  (int: 32-bit ints, read back as their values;
 *                                  the poison's bits stay the poison)
 *   output-read FIRST COUNT ROWS COLS matrix|vector [int]
 *                                  the output is what reads FIRST..+COUNT
 *                                  (numbered from 0) copied back, joined
 *   unreplayable WHY               the record cannot be done again: WHY
 *   end
 *
 * Every line is checked: ids alive, ranges inside their allocation and the
 * byte file, arguments' sizes, the last line "end"; an error names the
 * file and the line. */
#ifndef CUGRADE_REPLAY_TRACE_H
#define CUGRADE_REPLAY_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_MAX_ARG_BYTES 4096
#define TRACE_MAX_ARGS 256
#define TRACE_MAX_INPUTS 16

typedef enum {
    TRACE_ALLOC,
    TRACE_GLOBAL,
    TRACE_FREE,
    TRACE_LOAD,
    TRACE_COPY,
    TRACE_MEMSET,
    TRACE_LAUNCH,
    TRACE_READ,
} trace_kind_t;

typedef struct {
    uint32_t at, id; /* the pointer's byte offset in its argument; the allocation */
    uint64_t offset;
} trace_reloc_t;

typedef struct {
    uint32_t size;
    uint8_t *bytes;
    int nrelocs;
    trace_reloc_t *relocs;
} trace_arg_t;

typedef struct {
    trace_kind_t kind;
    int line;
    uint32_t id;
    uint64_t offset, bytes; /* alloc: bytes is its size */
    uint64_t at;            /* copy: where in the byte file */
    int input;              /* load */
    int value;              /* memset: a byte; load: 1 when the values go as 32-bit ints */
    char *kernel;           /* launch: the kernel; global: the variable's name */
    uint32_t grid[3], block[3];
    uint64_t shared;
    int nargs;
    trace_arg_t *args;
} trace_op_t;

/* The output, where the record says it is. */
typedef struct {
    int present;
    int from_reads;          /* 1: reads first..first+count-1; 0: allocation id at offset, at op */
    uint32_t id;
    uint64_t offset;
    int op;                  /* the output line's place among the ops (captured there) */
    uint64_t first, count;
    int rows, cols, vector;
    int is_int;              /* the output's elements are 32-bit ints */
} trace_output_t;

typedef struct {
    trace_op_t *ops;
    int nops;
    uint32_t max_id;   /* the allocations are numbered 1..max_id */
    uint64_t nreads;
    int ninputs;       /* 1 + the largest input a load names (0: none) */
    trace_output_t output;
    char unreplayable[512]; /* "" when it can be replayed */
} trace_t;

/* Reads and checks path; blob_size is its byte file's size (copies must lie
 * inside it). 0, or -1 with err ("PATH:LINE: what is wrong"). */
int trace_read(const char *path, uint64_t blob_size, trace_t *t, char *err, size_t errlen);
void trace_free(trace_t *t);

/* path and its byte file (path.bytes, read whole into *blob, malloc'd),
 * read and checked as trace_read does: 0, or -1 with err. */
int trace_load(const char *path, trace_t *t, char **blob, char *err, size_t errlen);

/* The output's bytes (rows x cols floats). */
static inline uint64_t trace_output_bytes(const trace_t *t)
{
    return (uint64_t)t->output.rows * (uint64_t)t->output.cols * 4u;
}

#endif
