/* library_call.cu - one implementation's call for labs/kinds/array/library_timer.cu:
 * built twice with the lab's call header (-include; `cugrade info --lab LAB
 * --call-header`), once with the launch function renamed to the
 * reference's and BENCH_CALL=bench_call_reference, once to the library
 * baseline's and BENCH_CALL=bench_call_library. */
#include <stdint.h>

void BENCH_CALL(const uint64_t *v) { CUGRADE_ARRAY_CALL(v); }
