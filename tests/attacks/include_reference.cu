/* include_reference.cu - attack: hand the course's own solution to the
 * compiler. The file is graded where it lies (tests/attacks/), so a path
 * with ".." reaches the checkout's reference/lab3/matmul.cu, whose kernel
 * and launch function would then pass every dataset.
 * Expected verdict: refused before compiling: "compiles" fails with
 * "include_reference.cu:10: refused: the submission includes
 * "../../reference/lab3/matmul.cu" by a path with "..""; score 0
 * (tests/attacks/README.md). */

#include "../../reference/lab3/matmul.cu"
