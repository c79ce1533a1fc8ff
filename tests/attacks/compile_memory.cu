/* compile_memory.cu - attack on the build: a template that instantiates
 * two new ones at each of 40 levels (2^40 distinct types) makes the
 * compiler allocate until the machine runs out of memory.
 * Expected verdict: the compiler is stopped by its memory limit (4 GiB of
 * heap for each compiler process; tests lower it with
 * CUGRADE_COMPILE_MEMORY_MB): "compiles" fails with "cugrade: the compiler
 * ran out of memory (N MiB for each of its processes) and was stopped";
 * score 0; a grade, not a grader fault. */

template <unsigned N, unsigned M> struct Tree {
    static constexpr unsigned long leaves = Tree<N - 1, 2 * M>::leaves + Tree<N - 1, 2 * M + 1>::leaves;
};
template <unsigned M> struct Tree<0, M> {
    static constexpr unsigned long leaves = 1;
};

unsigned long count_leaves() { return Tree<40, 0>::leaves; }
