/* compile_cpu.cu - attack on the build: a constexpr evaluation of 4e10
 * steps keeps the compiler busy for hours (within g++'s own limits on
 * constexpr loops and operations), holding a batch's worker.
 * Expected verdict: the compiler is stopped by its CPU-time limit (60 s
 * for each compiler process; tests lower it with CUGRADE_COMPILE_CPU_S):
 * "compiles" fails with "cugrade: the compiler ran past its CPU-time limit
 * of N s and was stopped"; score 0; a grade, not a grader fault. */

constexpr unsigned long spin(unsigned long n)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++)
        for (unsigned long j = 0; j < n; j++)
            s += i ^ j;
    return s;
}

constexpr unsigned long value = spin(200000);

unsigned long get_value() { return value; }
