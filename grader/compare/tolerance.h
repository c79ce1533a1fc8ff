/* tolerance.h - the comparison's tolerance: an element y is right when
 * !(|x - y| <= atol + rtol*|y|) is false (written so that NaN never passes).
 * Shared by the comparator (compare.h) and the hypotheses (hypotheses.h). */
#ifndef CUGRADE_TOLERANCE_H
#define CUGRADE_TOLERANCE_H

typedef struct {
    double rtol, atol;
} tolerance_t;

#endif
