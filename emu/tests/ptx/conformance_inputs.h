/* conformance_inputs.h - the inputs of conformance.cu's kernel, one place
 * for the executor's test (emu/tests/test_ptx_features.cpp) and the GPU's
 * run of the same kernel (tests/gpu/ptx_conformance.cu). */
#ifndef CUGRADE_CONFORMANCE_INPUTS_H
#define CUGRADE_CONFORMANCE_INPUTS_H

#include <vector>

struct ConformanceInputs {
    std::vector<int> in;
    std::vector<char> bytes;
    std::vector<short> shorts;
    std::vector<Pair> pairs;
};

static inline ConformanceInputs conformance_inputs(int n)
{
    ConformanceInputs c;
    for (int i = 0; i < n; i++) {
        c.in.push_back(i * 7 - 300 + (i % 3) * 1000);
        c.bytes.push_back((char)(i * 13 - 90));
        c.shorts.push_back((short)(i * 511 - 20000));
        c.pairs.push_back({i * 3, (short)(i - 50), (char)(i % 100), i * 0.25});
    }
    return c;
}

#endif
