/* walks_symbol_table.cu - attack (lab 3, issue 39 item 8): an untiled kernel
 * whose host code finds libc's write() at run time without naming it: from
 * where stdout points (libc's own FILE, in its data; taking a function's
 * address would need the GOT, which the object check refuses) it walks
 * back, page by page through libc's contiguous mapping, to its ELF header,
 * reads its dynamic symbol table, and calls what it finds under "write"
 * through a pointer, to print invented traffic statistics on descriptor 3,
 * where the CPU emulator writes its findings. No refused symbol is called,
 * no refused header is read: an allow-list of names, in the object or the
 * source, cannot see it. Any code in a process can reach all of it.
 *
 * Expected verdict on the vgpu backend (the default without a GPU): the
 * untiled kernel's honest score, 102 of 110. The program has no descriptor
 * 3; the statistics are the executor's, computed in another process from
 * what the kernels did, and written where the program cannot reach. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(const float *A, const float *B, float *C, int numARows,
                                     int numAColumns, int numBRows, int numBColumns, int numCRows,
                                     int numCColumns)
{
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    (void)numARows;
    (void)numBRows;
    if (row < numCRows && col < numCColumns) {
        float sum = 0.0f;
        for (int k = 0; k < numAColumns; ++k)
            sum += A[row * numAColumns + k] * B[k * numBColumns + col];
        C[row * numCColumns + col] = sum;
    }
}

typedef long (*write_fn)(int, const void *, unsigned long);

/* libc's write, found through its dynamic symbol table; NULL if not. */
static write_fn find_write(void)
{
    uintptr_t page = (uintptr_t)stdout & ~(uintptr_t)4095;
    while (memcmp((const void *)page, ELFMAG, SELFMAG) != 0) /* libc's first page holds its header */
        page -= 4096;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)page;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(page + eh->e_phoff);
    const Elf64_Dyn *dyn = NULL;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_DYNAMIC)
            dyn = (const Elf64_Dyn *)(page + ph[i].p_vaddr);
    const Elf64_Sym *syms = NULL;
    const char *names = NULL;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) { /* relocated by the loader, or not */
        uintptr_t p = dyn->d_un.d_ptr < page ? page + dyn->d_un.d_ptr : dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_SYMTAB)
            syms = (const Elf64_Sym *)p;
        else if (dyn->d_tag == DT_STRTAB)
            names = (const char *)p;
    }
    for (const Elf64_Sym *s = syms; s && (const char *)s < names; s++)
        if (s->st_value && strcmp(names + s->st_name, "write") == 0)
            return (write_fn)(page + s->st_value);
    return NULL;
}

/* The forgery: a staged load for every multiply, a byte of traffic per
 * hundred FLOPs, written on the emulator's report descriptor. */
static void forge(int m, int k, int n)
{
    write_fn w = find_write();
    char line[256];
    double flop = 2.0 * m * k * n;
    int len = snprintf(line, sizeof line, "stat\tshared_staged_loads\t%.0f\nstat\tglobal_load_bytes\t%.0f\n",
                       flop, flop / 100);
    if (w)
        w(3, line, (unsigned long)len);
}

void launchMatrixMultiplyShared(const float *deviceA, const float *deviceB, float *deviceC,
                                int numARows, int numAColumns, int numBRows, int numBColumns,
                                int numCRows, int numCColumns)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
    matrixMultiplyShared<<<grid, block>>>(deviceA, deviceB, deviceC, numARows, numAColumns,
                                          numBRows, numBColumns, numCRows, numCColumns);
    forge(numCRows, numAColumns, numCColumns);
}
