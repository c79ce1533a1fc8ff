/* compile_flood.cu - attack on the build: a macro that expands to 100 000
 * invalid assignments makes the compiler print some 60 MB of errors (each
 * with its macro-expansion notes), which would stall the batch while it is
 * read, or fill the grader's memory if it were kept.
 * Expected verdict: the compiler's messages are cut at 256 KiB and it is
 * stopped once it has printed 1 MiB, within seconds: "compiles" fails with
 * "cugrade: emucc printed more than 1024 KiB of messages and was stopped"
 * first (nvcc on the gpu backend); score 0; a grade, not a grader fault. */

#define E0 1 = 2;
#define E1 E0 E0 E0 E0 E0 E0 E0 E0 E0 E0
#define E2 E1 E1 E1 E1 E1 E1 E1 E1 E1 E1
#define E3 E2 E2 E2 E2 E2 E2 E2 E2 E2 E2
#define E4 E3 E3 E3 E3 E3 E3 E3 E3 E3 E3
#define E5 E4 E4 E4 E4 E4 E4 E4 E4 E4 E4

void flood() { E5 }
