/* sgemm.cu - challenge lab reference: C = A * B in FP32 on the CUDA cores
 * (SIMT only: no tensor cores, no TF32, no library GEMM), any shape.
 *
 *     void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K);
 *
 * A is M x K, B is K x N, C is M x N, all row-major device pointers.
 *
 * THE HIERARCHY (one kernel template, sgemmKernel, instantiated for a few
 * tile shapes; launchSgemm picks one per problem)
 *
 *   grid    the M x N output cut into BM x BN block tiles, visited in a
 *           grouped order (GROUP_M tile rows at a time, column by column)
 *           so that the blocks running at once share A and B panels in L2;
 *           optionally split along K (gridDim.z) when there are too few tiles
 *           to fill the GPU, the slices then adding into C with atomics.
 *   block   BM x BN of C; walks K in BK-wide steps. Each step's A tile
 *           (BM x BK) and B tile (BK x BN) go to shared memory with
 *           asynchronous copies (cp.async, through cuda_pipeline.h), STAGES
 *           steps in flight so that global latency hides behind arithmetic.
 *           A is stored transposed (As[k][m]) so that a thread reads its A
 *           column fragment with 16-byte loads, exactly like B's rows.
 *   warp    WM x WN of the block tile. Its 32 lanes form a WTR x WTC grid.
 *   thread  TM x TN outputs held in registers (8 x 8 or 8 x 16), arranged as
 *           (TM/4) x (TN/4) sub-tiles of 4 x 4 spread WTR*4 rows / WTC*4
 *           columns apart, so that a warp's fragment loads are LDS.128
 *           that touch consecutive 16-byte words (no bank conflicts).
 *           Each k step: TM + TN floats from shared memory, TM * TN FFMA.
 *
 * THE TILINGS (measured on an H100 with bench/challenge/tune.cu; the
 * numbers are in docs/benchmarks.md)
 *   large   128 x 256 x 32 blocks of 256 threads (8 warps, 2 along M x 4
 *           along N), 64 x 64 warp tiles (lanes 8 x 4), 8 x 16 per thread,
 *           2 stages: 99 KiB of shared memory (so the dynamic limit is
 *           raised above 48 KiB), ~250 registers, one block per SM. The
 *           default; 91-94% of cuBLAS at 4096^3 and the other large shapes.
 *           (BK 16 with 3 stages is within 1%; BK 8 loses 2-3 points.)
 *   medium  128 x 128 x 8, 256 threads, 64 x 32 warp tiles, 8 x 8 per
 *           thread, 4 stages, 122 registers, two blocks per SM: better when
 *           128 x 256 tiles would leave a large part of a last wave idle.
 *   small   64 x 64 x 8, 128 threads, 4 x 8 per thread: tiny or skinny C.
 *
 * ARITHMETIC INTENSITY (large tiling; the medium one in brackets)
 *   thread:  per k, 8 + 16 floats (6 LDS.128) feed 128 FMAs:
 *            5.3 FMA per float loaded [8 x 8: 16 floats, 64 FMAs, 4.0]
 *   warp:    per k, 64 + 64 floats of shared memory for 4096 FMAs:
 *            32 FMA per float [64 + 32 for 2048: 21]
 *   block:   per k, 128 + 256 floats from global memory for 32768 FMAs:
 *            85 FMA per float, 43 FLOP per byte [128 + 128: 64, 32 FLOP/B]
 *   GPU:     an H100 does 67 TFLOP/s of FP32 FMA at 1.98 GHz and moves
 *            ~3 TB/s from DRAM (much more from L2): 20 FLOP per byte is the
 *            balance point, so these tiles are compute-bound even from
 *            DRAM, and the grouped block order keeps most re-reads in L2.
 *   What is left is instruction issue: a scheduler issues one warp
 *   instruction per cycle, so every non-FFMA instruction (LDS, copies,
 *   addresses) takes a slot from an FFMA, and with 2 warps per scheduler
 *   each stall shows. ncu at 4096^3 (BK 16 variant): 2.31 G warp
 *   instructions for 2.15 G FFMA (93%), one issued every 2.57 cycles per
 *   warp; cuBLAS's SIMT kernel (256 x 128 x 8, 3 stages, 8 warps of
 *   64 x 64) executes more instructions (2.43 G) but stalls less (2.22).
 *
 * EDGES. A k step wholly inside A and B (interior block, full step) is
 * copied without tests (TileCopier::copyFast); any other is copied element
 * by element with tests, writing 0 to shared memory for elements outside A
 * or B so that they add nothing (copyGuarded); C's stores are guarded.
 * B's rows travel as 16-byte copies and C's as float4 stores only when N is
 * a multiple of 4 and the pointers are 16-byte aligned (template VEC);
 * otherwise 4-byte copies/stores (any N, e.g. 3003). A's copies are always
 * 4 bytes wide (they transpose), so K needs no alignment. K = 0 writes 0.
 *
 * PIPELINE (per block; S = STAGES, one __syncthreads per k step)
 *   prologue: copy k steps 0..S-1 into stages 0..S-1, wait for step 0.
 *   step t, inner k = 0..BK-1: load the fragments of k+1 into the other
 *   register buffer, then FMA with those of k. Before the fragments of the
 *   next step are loaded (at k = BK-1): wait for step t+1's copies,
 *   barrier, start the copies of step t+S into the stage step t just
 *   finished with. The barrier and the first fragment loads of step t+1
 *   thus hide behind the last FMAs of step t.
 */
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

/* ---- configuration ------------------------------------------------------ */

/* One tiling: block tile BM x BN x BK, warp tile WM x WN, thread tile
 * TM x TN, STAGES shared-memory stages, MIN_BLOCKS blocks per SM for
 * __launch_bounds__ (caps registers at 64K / (threads * MIN_BLOCKS)). */
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int STAGES_,
          int MIN_BLOCKS_, int GROUP_M_ = 8>
struct SgemmTiling {
    static constexpr int BM = BM_, BN = BN_, BK = BK_;
    static constexpr int WM = WM_, WN = WN_, TM = TM_, TN = TN_;
    static constexpr int STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_;
    static constexpr int GROUP_M = GROUP_M_; /* tile rows per group of the block order */
    static constexpr int WARPS = (BM / WM) * (BN / WN);
    static constexpr int THREADS = WARPS * 32;
    static constexpr int WTR = WM / TM; /* lanes along M in a warp */
    static constexpr int WTC = WN / TN; /* lanes along N */
    static constexpr int A_LD = BM + 4; /* transposed A row (one k): +4 floats against
                                           bank conflicts on the transposing stores */
    static constexpr int B_LD = BN;     /* B row (one k): 16-byte copies, no padding */
    static constexpr int A_STAGE = BK * A_LD, B_STAGE = BK * B_LD; /* floats */
    static constexpr int SMEM_BYTES = STAGES * (A_STAGE + B_STAGE) * (int)sizeof(float);

    static_assert(WTR * WTC == 32, "a warp is 32 lanes");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of 4 x 4 sub-tiles");
    static_assert(BM % WM == 0 && BN % WN == 0, "warps tile the block");
    static_assert(STAGES >= 2, "at least double buffering");
};

/* ---- small device helpers ------------------------------------------------ */

/* This block's tile (tileM, tileN) from its linear index: GROUP_M tile rows
 * are walked column by column, so consecutive blocks share B's column panel
 * and the blocks in flight together touch few A and B panels. */
template <int GROUP_M>
__device__ __forceinline__ void blockTile(int tilesM, int tilesN, int *tileM, int *tileN)
{
    const int id = blockIdx.x;
    const int perGroup = GROUP_M * tilesN;
    const int firstM = (id / perGroup) * GROUP_M;
    const int rows = min(tilesM - firstM, GROUP_M);
    const int inGroup = id % perGroup;
    *tileM = firstM + inGroup % rows;
    *tileN = inGroup / rows;
}

/* The copies of one thread, global memory to a shared-memory stage, for
 * every k step of its block. Fixed per thread:
 *
 *   A (transposed on the way: As[k * A_LD + m]): each warp instruction
 *   moves a 4-row x 8-k piece, lane -> (row lane/8, k lane%8): four fully
 *   used 32-byte sectors from global memory, 32 distinct banks in shared
 *   memory thanks to the +4 padding (bank = 4k + m). Pieces go round the
 *   warps, so a thread copies rows aRow + j*A_ROW_STEP at k = aK + 8*kk.
 *   B (Bs[k * B_LD + n]): VEC: 16-byte copies, consecutive lanes on
 *   consecutive float4s of a row (512 contiguous bytes per warp); else one
 *   float per copy (128 bytes per warp). Rows bRow + i*B_ROW_STEP.
 *
 * copyFast is for a step wholly inside A and B (interior block, full k
 * step): no tests, addresses from two running pointers. copyGuarded tests
 * every element and writes 0 to shared memory for those outside A or B
 * (or past kEnd), so that they add nothing. */
template <class T, bool VEC>
struct TileCopier {
    static constexpr int A_ROW_STEP = 4 * T::WARPS;
    static constexpr int A_ROWS = T::BM / A_ROW_STEP;
    static constexpr int B_WIDTH = VEC ? 4 : 1; /* floats per copy */
    static constexpr int B_ROW_STEP = T::THREADS / (T::BN / B_WIDTH);
    static constexpr int B_ROWS = T::BK / B_ROW_STEP;
    static_assert(T::BM % A_ROW_STEP == 0 && T::BK % 8 == 0, "A pieces split evenly over warps");
    static_assert(T::THREADS % (T::BN / B_WIDTH) == 0 && T::BK % B_ROW_STEP == 0,
                  "B copies split evenly over threads");

    const float *aSrc, *bSrc; /* the thread's first element of the next step */
    int K, N;                 /* row lengths of A and B */
    int aRow, aK, bRow, bCol; /* that element's place in the block's tiles */
    int aDst, bDst;           /* its offsets in a stage */

    __device__ __forceinline__ TileCopier(const float *A, const float *B, int K_, int N_, int m0,
                                          int n0, int kBegin, int tid)
        : K(K_), N(N_)
    {
        const int warp = tid / 32, lane = tid % 32;
        aRow = warp * 4 + lane / 8;
        aK = lane % 8;
        bRow = tid / (T::BN / B_WIDTH);
        bCol = tid % (T::BN / B_WIDTH) * B_WIDTH;
        aSrc = A + (size_t)(m0 + aRow) * K + kBegin + aK;
        bSrc = B + (size_t)(kBegin + bRow) * N + n0 + bCol;
        aDst = aK * T::A_LD + aRow;
        bDst = bRow * T::B_LD + bCol;
    }

    __device__ __forceinline__ void copyFast(float *As, float *Bs) const
    {
#pragma unroll
        for (int kk = 0; kk < T::BK / 8; ++kk)
#pragma unroll
            for (int j = 0; j < A_ROWS; ++j)
                __pipeline_memcpy_async(As + aDst + kk * 8 * T::A_LD + j * A_ROW_STEP,
                                        aSrc + (size_t)j * A_ROW_STEP * K + kk * 8, sizeof(float));
#pragma unroll
        for (int i = 0; i < B_ROWS; ++i)
            __pipeline_memcpy_async(Bs + bDst + i * B_ROW_STEP * T::B_LD,
                                    bSrc + (size_t)i * B_ROW_STEP * N, B_WIDTH * sizeof(float));
    }

    /* rowsLeft = M - m0, colsLeft = N - n0, kLeft = kEnd - k0 (may be < BK). */
    __device__ __forceinline__ void copyGuarded(float *As, float *Bs, int rowsLeft, int colsLeft,
                                                int kLeft) const
    {
#pragma unroll
        for (int kk = 0; kk < T::BK / 8; ++kk)
#pragma unroll
            for (int j = 0; j < A_ROWS; ++j) {
                float *dst = As + aDst + kk * 8 * T::A_LD + j * A_ROW_STEP;
                if (aRow + j * A_ROW_STEP < rowsLeft && aK + kk * 8 < kLeft)
                    __pipeline_memcpy_async(dst, aSrc + (size_t)j * A_ROW_STEP * K + kk * 8,
                                            sizeof(float));
                else
                    *dst = 0.0f;
            }
#pragma unroll
        for (int i = 0; i < B_ROWS; ++i) {
            float *dst = Bs + bDst + i * B_ROW_STEP * T::B_LD;
            if (bRow + i * B_ROW_STEP < kLeft && bCol < colsLeft) /* VEC: N % 4 == 0 */
                __pipeline_memcpy_async(dst, bSrc + (size_t)i * B_ROW_STEP * N,
                                        B_WIDTH * sizeof(float));
            else if (VEC)
                *reinterpret_cast<float4 *>(dst) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            else
                *dst = 0.0f;
        }
    }

    /* On to the next k step. */
    __device__ __forceinline__ void advance()
    {
        aSrc += T::BK;
        bSrc += (size_t)T::BK * N;
    }
};

/* The thread's fragments for one k: TM floats of A's column k and TN of
 * B's row k, 16 bytes at a time. `aOff`/`bOff` are the thread's first
 * row and column in the block's tile (see the header's thread layout). */
template <class T>
__device__ __forceinline__ void loadFragments(const float *As, const float *Bs, int k, int aOff,
                                              int bOff, float (&a)[T::TM], float (&b)[T::TN])
{
#pragma unroll
    for (int g = 0; g < T::TM / 4; ++g) {
        const float4 v =
            *reinterpret_cast<const float4 *>(As + k * T::A_LD + aOff + g * T::WTR * 4);
        a[4 * g + 0] = v.x, a[4 * g + 1] = v.y, a[4 * g + 2] = v.z, a[4 * g + 3] = v.w;
    }
#pragma unroll
    for (int g = 0; g < T::TN / 4; ++g) {
        const float4 v =
            *reinterpret_cast<const float4 *>(Bs + k * T::B_LD + bOff + g * T::WTC * 4);
        b[4 * g + 0] = v.x, b[4 * g + 1] = v.y, b[4 * g + 2] = v.z, b[4 * g + 3] = v.w;
    }
}

/* acc += a (column) x b (row): TM * TN independent FMAs. */
template <class T>
__device__ __forceinline__ void outerProduct(float (&acc)[T::TM][T::TN], const float (&a)[T::TM],
                                             const float (&b)[T::TN])
{
#pragma unroll
    for (int i = 0; i < T::TM; ++i)
#pragma unroll
        for (int j = 0; j < T::TN; ++j)
            acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
}

/* Writes the thread's TM x TN results: row r = rowBase + (i/4)*WTR*4 + i%4,
 * column c = colBase + (j/4)*WTC*4 + j%4. Four consecutive columns go as
 * one float4 store when VEC; `atomic` (K split in slices) adds instead. */
template <class T, bool VEC>
__device__ __forceinline__ void storeTile(float *C, int M, int N, int rowBase, int colBase,
                                          const float (&acc)[T::TM][T::TN], bool atomic)
{
#pragma unroll
    for (int i = 0; i < T::TM; ++i) {
        const int r = rowBase + (i / 4) * T::WTR * 4 + i % 4;
        if (r >= M)
            continue;
        float *row = C + (size_t)r * N;
#pragma unroll
        for (int g = 0; g < T::TN / 4; ++g) {
            const int c = colBase + g * T::WTC * 4;
            if (!atomic && VEC && c < N) {
                *reinterpret_cast<float4 *>(row + c) = make_float4(
                    acc[i][4 * g + 0], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]);
                continue;
            }
#pragma unroll
            for (int j = 0; j < 4; ++j)
                if (c + j < N) {
                    if (atomic)
                        atomicAdd(row + c + j, acc[i][4 * g + j]);
                    else
                        row[c + j] = acc[i][4 * g + j];
                }
        }
    }
}

/* ---- the kernel ------------------------------------------------------------ */

/* One block: one BM x BN tile of C over the k range of its split
 * (blockIdx.z; kPerSplit a multiple of BK). */
template <class T, bool VEC>
__global__ void __launch_bounds__(T::THREADS, T::MIN_BLOCKS)
    sgemmKernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                int M, int N, int K, int kPerSplit)
{
    extern __shared__ float4 smemRaw[]; /* float4: 16-byte alignment */
    float *const As = reinterpret_cast<float *>(smemRaw);
    float *const Bs = As + T::STAGES * T::A_STAGE;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int tileM, tileN;
    blockTile<T::GROUP_M>((M + T::BM - 1) / T::BM, (N + T::BN - 1) / T::BN, &tileM, &tileN);
    const int m0 = tileM * T::BM, n0 = tileN * T::BN;
    const int kBegin = blockIdx.z * kPerSplit;
    const int kEnd = min(K, kBegin + kPerSplit);
    const int steps = (kEnd - kBegin + T::BK - 1) / T::BK;

    /* Where this thread sits: warp (wr, wc) in the block, lane (tr, tc) in
     * the warp; its first fragment elements in the stage buffers. */
    const int wr = warp / (T::BN / T::WN), wc = warp % (T::BN / T::WN);
    const int tr = lane / T::WTC, tc = lane % T::WTC;
    const int aOff = wr * T::WM + tr * 4;
    const int bOff = wc * T::WN + tc * 4;

    /* Copies k step s (called for s = 0, 1, 2... in order) into its stage. */
    TileCopier<T, VEC> copier(A, B, K, N, m0, n0, kBegin, tid);
    const bool interior = m0 + T::BM <= M && n0 + T::BN <= N;
    auto copyStep = [&](int s) {
        const int stage = s % T::STAGES;
        const int k0 = kBegin + s * T::BK;
        float *as = As + stage * T::A_STAGE, *bs = Bs + stage * T::B_STAGE;
        if (interior && k0 + T::BK <= kEnd)
            copier.copyFast(as, bs);
        else
            copier.copyGuarded(as, bs, M - m0, N - n0, kEnd - k0);
        copier.advance();
    };

    float acc[T::TM][T::TN];
#pragma unroll
    for (int i = 0; i < T::TM; ++i)
#pragma unroll
        for (int j = 0; j < T::TN; ++j)
            acc[i][j] = 0.0f;

    /* Prologue: all stages in flight (one commit group each, empty ones
     * too, so that group s always holds step s), then wait for step 0. */
#pragma unroll
    for (int s = 0; s < T::STAGES; ++s) {
        if (s < steps)
            copyStep(s);
        __pipeline_commit();
    }
    __pipeline_wait_prior(T::STAGES - 1);
    __syncthreads();

    float a[2][T::TM], b[2][T::TN]; /* fragments, double-buffered */
    int stage = 0;                  /* the stage being read */
    loadFragments<T>(As, Bs, 0, aOff, bOff, a[0], b[0]);

    for (int s = 0; s < steps; ++s) {
#pragma unroll
        for (int k = 0; k < T::BK; ++k) {
            if (k == T::BK - 1) {
                /* Step s+1's copies are done (S-2 younger groups may be
                 * pending); after the barrier every thread has read step s
                 * from `stage`, which step s+S may now overwrite. */
                __pipeline_wait_prior(T::STAGES - 2);
                __syncthreads();
                if (s + T::STAGES < steps)
                    copyStep(s + T::STAGES);
                __pipeline_commit();
                stage = stage + 1 == T::STAGES ? 0 : stage + 1;
            }
            if (k + 1 < T::BK || s + 1 < steps) /* no step after the last */
                loadFragments<T>(As + stage * T::A_STAGE, Bs + stage * T::B_STAGE,
                                 (k + 1) % T::BK, aOff, bOff, a[(k + 1) % 2], b[(k + 1) % 2]);
            outerProduct<T>(acc, a[k % 2], b[k % 2]);
        }
    }
    __pipeline_wait_prior(0); /* no copy may outlive the block */

    storeTile<T, VEC>(C, M, N, m0 + aOff, n0 + bOff, acc, gridDim.z > 1);
}

/* ---- launching --------------------------------------------------------------- */

/* The tilings launchSgemm chooses from (bench/challenge/tune.cu measured
 * these and others; docs/benchmarks.md has the numbers). */
typedef SgemmTiling<128, 256, 32, 64, 64, 8, 16, 2, 1> SgemmLarge; /* 256 threads */
typedef SgemmTiling<128, 128, 8, 64, 32, 8, 8, 4, 2> SgemmMedium;  /* 256 threads */
typedef SgemmTiling<64, 64, 8, 32, 32, 4, 8, 4, 4> SgemmSmall;     /* 128 threads */

/* Launches tiling T over M x N with `splits` K slices (splits > 1 needs C
 * zeroed first). Raises the dynamic shared memory limit once per kernel. */
template <class T, bool VEC>
static void launchTiling(const float *A, const float *B, float *C, int M, int N, int K, int splits)
{
    static bool configured = false;
    if (!configured) {
        cudaFuncSetAttribute(sgemmKernel<T, VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             T::SMEM_BYTES);
        cudaFuncSetAttribute(sgemmKernel<T, VEC>, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared);
        configured = true;
    }
    const int tiles = ((M + T::BM - 1) / T::BM) * ((N + T::BN - 1) / T::BN);
    const int kPerSplit = ((K + splits - 1) / splits + T::BK - 1) / T::BK * T::BK;
    dim3 grid(tiles, 1, (K + kPerSplit - 1) / kPerSplit);
    sgemmKernel<T, VEC><<<grid, T::THREADS, T::SMEM_BYTES>>>(A, B, C, M, N, K, kPerSplit);
}

template <class T>
static void launchTiling(const float *A, const float *B, float *C, int M, int N, int K,
                         int splits, bool vec)
{
    if (vec)
        launchTiling<T, true>(A, B, C, M, N, K, splits);
    else
        launchTiling<T, false>(A, B, C, M, N, K, splits);
}

/* A rough model of a launch's time, for choosing a tiling: the blocks
 * spread evenly over the SMs, and an SM's time is the FMAs of the blocks it
 * gets (ceil(blocks / SMs) of them) over the tiling's relative speed. Whole
 * blocks count, so the model sees the tail of a last, partial wave
 * (3001 x 3003 in 128 x 256 tiles: 288 blocks on 132 SMs, 3 rounds for
 * 2.2 rounds of work), which is what makes K slices or smaller tiles pay.
 * Calibrated on the H100 (docs/benchmarks.md): within ~10% of the
 * measured times of every candidate at the benchmark shapes. */
template <class T>
static double modelTime(int M, int N, int K, int splits, int sms, double speed)
{
    const long long blocks =
        (long long)((M + T::BM - 1) / T::BM) * ((N + T::BN - 1) / T::BN) * splits;
    const long long rounds = (blocks + sms - 1) / sms;
    const long long kSlice = ((K + splits - 1) / splits + T::BK - 1) / T::BK * T::BK;
    return (double)rounds * T::BM * T::BN * (double)kSlice / speed;
}

enum SgemmChoice { SGEMM_LARGE, SGEMM_MEDIUM, SGEMM_SMALL };

/* The tiling and number of K slices with the least modelled time: each
 * tiling with 1 to 4 slices, while a slice keeps at least 512 of K. The
 * relative speeds are measured ones (docs/benchmarks.md): per FMA, the
 * 128 x 128 tiling runs at 0.95 of the large one's speed and 64 x 64 at
 * 0.79; the large one slows to ~0.93 when B's rows are not 16-byte aligned
 * (4-byte copies of B) and K is sliced; slicing costs ~5% (zeroing C, the
 * atomic adds). */
static SgemmChoice chooseTiling(int M, int N, int K, int sms, bool vec, int *splitsOut)
{
    SgemmChoice best = SGEMM_LARGE;
    int bestSplits = 1;
    double bestTime = 1e300;
    for (int splits = 1; splits <= 4; ++splits) {
        if (splits > 1 && K / splits < 512)
            break;
        const double t[3] = {modelTime<SgemmLarge>(M, N, K, splits, sms, vec ? 1.00 : 0.93),
                             modelTime<SgemmMedium>(M, N, K, splits, sms, 0.95),
                             modelTime<SgemmSmall>(M, N, K, splits, sms, 0.79)};
        for (int c = 0; c < 3; ++c) {
            const double cost = t[c] * (splits > 1 ? 1.05 : 1.0); /* zeroing C, atomics */
            if (cost < bestTime)
                bestTime = cost, best = (SgemmChoice)c, bestSplits = splits;
        }
    }
    *splitsOut = bestSplits;
    return best;
}

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0) { /* an empty sum */
        cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float), 0);
        return;
    }
    static int sms = 0;
    if (!sms) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0)
            sms = 1;
    }
    const bool vec = N % 4 == 0 && ((reinterpret_cast<size_t>(A) | reinterpret_cast<size_t>(B) |
                                     reinterpret_cast<size_t>(C)) & 15) == 0;
    int splits;
    const SgemmChoice choice = chooseTiling(M, N, K, sms, vec, &splits);
    if (splits > 1) /* the slices add into C */
        cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float), 0);
    if (choice == SGEMM_LARGE)
        launchTiling<SgemmLarge>(A, B, C, M, N, K, splits, vec);
    else if (choice == SGEMM_MEDIUM)
        launchTiling<SgemmMedium>(A, B, C, M, N, K, splits, vec);
    else
        launchTiling<SgemmSmall>(A, B, C, M, N, K, splits, vec);
}
