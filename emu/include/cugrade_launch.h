/* cugrade_launch.h - kernel launches in the CPU emulator, plus a small API
 * for tests and benchmarks.
 *
 * The rewriter turns `K<<<grid, block, shmem, stream>>>(args)` into
 *   ::cugrade::kernel_launch(K, "K", __FILE__, __LINE__).config(grid, block, shmem, stream)(args)
 * The launcher converts the arguments to the kernel's parameter types once
 * (as the CUDA runtime copies them at launch), validates the configuration
 * like a real device, runs every block, and records the result as the last
 * error (cudaGetLastError). Part of the shim; include cuda_runtime.h. */
#ifndef CUGRADE_LAUNCH_H
#define CUGRADE_LAUNCH_H

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cugrade_runtime_api.h"
#include "cugrade_vector_types.h"

namespace cugrade {

/* Where a launch comes from, for validation and diagnostics. */
struct launch_site {
    const void *kernel; /* the kernel's address: key for its attributes */
    const char *name;   /* the kernel expression's text */
    const char *file;
    int line;
};

struct launch_config {
    dim3 grid;
    dim3 block;
    size_t shmem;
    cudaStream_t stream;
};

/* Calls the kernel once, in the current fiber, with the stored arguments. */
using kernel_invoker = void (*)(const void *call);

/* What the checking mode learns of a launch's arguments: for each kernel
 * parameter whether it is a pointer and, if so, its value (null otherwise),
 * and the bytes holding the stored arguments, which the invoker reads. */
struct launch_args {
    int count;
    const void *const *pointers;
    const bool *is_pointer;
    const void *call;
    size_t call_size;
};

/* Validates and runs a launch (config null: the launch was never
 * configured). Every failure is also recorded as the last error. */
cudaError_t launch(const launch_site &site, const launch_config *config, kernel_invoker invoke,
                   const void *call, const launch_args *args = nullptr);

/* The value of a kernel argument as a pointer, or null for any other type. */
template <class T> const void *pointer_argument(const T &value)
{
    if constexpr (std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>)
        return static_cast<const void *>(const_cast<std::remove_cv_t<std::remove_pointer_t<T>> *>(value));
    else
        return nullptr;
}

template <class... P> class launcher {
  public:
    using kernel_type = void (*)(P...);

    launcher(kernel_type kernel, const char *name, const char *file, int line)
        : kernel_(kernel), site_{reinterpret_cast<const void *>(kernel), name, file, line}
    {
    }

    launcher &config(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t stream = 0)
    {
        config_ = launch_config{grid, block, shmem, stream};
        configured_ = true;
        return *this;
    }

    template <class... A> void operator()(A &&...args)
    {
        static_assert(sizeof...(A) == sizeof...(P), "kernel launched with the wrong number of arguments");
        const call c{kernel_, params(std::forward<A>(args)...)};
        argument_table table(c, std::index_sequence_for<P...>{});
        launch(site_, configured_ ? &config_ : nullptr, &invoke, &c, &table.view);
    }

  private:
    using params = std::tuple<std::decay_t<P>...>;
    struct call {
        kernel_type kernel;
        params args;
    };

    /* Which arguments are pointers, and their values (one spare slot, so
     * that a kernel without parameters needs no empty array). */
    struct argument_table {
        const void *pointers[sizeof...(P) + 1];
        bool is_pointer[sizeof...(P) + 1];
        launch_args view;

        template <size_t... I> argument_table(const call &c, std::index_sequence<I...>)
            : pointers{pointer_argument(std::get<I>(c.args))..., nullptr},
              is_pointer{std::is_pointer_v<std::tuple_element_t<I, params>>..., false},
              view{int(sizeof...(P)), pointers, is_pointer, &c, sizeof c}
        {
        }
    };

    /* Each CUDA thread gets its own copies of the parameters. */
    static void invoke(const void *opaque)
    {
        const call *c = static_cast<const call *>(opaque);
        std::apply(c->kernel, c->args);
    }

    kernel_type kernel_;
    launch_site site_;
    launch_config config_{};
    bool configured_ = false;
};

template <class... P>
launcher<P...> kernel_launch(void (*kernel)(P...), const char *name, const char *file, int line)
{
    return launcher<P...>(kernel, name, file, line);
}

/* ---- kernel parameter names --------------------------------------------------
 * The rewriter appends to each rewritten .cu, per __global__ function it
 * defines, `static const int __cugrade_params_<n> =
 * ::cugrade_register_kernel_params("K", "A,B,C,n");` so that the checking
 * mode can name a buffer by its parameter ("a read past the end of B").
 * Returns 0. */
} // namespace cugrade
extern "C" int cugrade_register_kernel_params(const char *kernel, const char *params);
namespace cugrade {

/* ---- for tests and benchmarks --------------------------------------------- */
struct emu_stats {
    unsigned long long launches;          /* launches that ran */
    unsigned long long rejected_launches; /* launches that failed validation */
    unsigned long long blocks;            /* blocks run */
    unsigned long long threads;           /* CUDA threads run */
    unsigned long long barriers;          /* block barriers released */
    unsigned long long diagnostics;       /* diagnostics reported (suppressed repeats included) */
};
emu_stats stats();
/* Launches that ran since the process started. */
unsigned long long launch_count();
/* Bytes of static __shared__ memory in the whole program (see docs/emulator.md). */
size_t static_shared_bytes();

} // namespace cugrade

#endif
