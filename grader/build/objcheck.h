/* objcheck.h - what a student's compiled object may contain, checked before
 * it is linked with the harness: an allow-list of the functions it may call
 * (the CUDA runtime, the emulator's hooks, libm, printing to stdout and
 * stderr, memory and string functions, the C++ runtime), no constructor or
 * destructor of its own beyond the compiler's static initialisation, and no
 * system-call instruction. What is not on the list is refused: the harness,
 * not the student, owns files, processes, the environment and memory
 * mappings. (Issue 14; docs/security.md says why it holds and what it does
 * not cover.) Uses binutils (nm, readelf, objdump), which come with gcc. */
#ifndef CUGRADE_OBJCHECK_H
#define CUGRADE_OBJCHECK_H

#include <stddef.h>

#define OBJCHECK_MAX_TOKENS 4

typedef struct {
    char what[768];  /* for the student: "calls fclose and fopen, which ...", "has a
                      * destructor of its own", ... */
    /* what names it in the source: "fopen", "destructor", "asm"; partial: the
     * token may end an identifier (std::ifstream's "ifstream") */
    char tokens[OBJCHECK_MAX_TOKENS][96];
    int partial[OBJCHECK_MAX_TOKENS];
    int ntokens;
    int line; /* objcheck_locate: the first line in the source naming one (0: none) */
} objcheck_result_t;

/* 1 when symbol (as nm prints it, mangled) may be called by a submission. */
int objcheck_symbol_allowed(const char *symbol);

/* Checks the object file obj. 0: allowed; 1: refused, with r->what saying
 * the first thing found; -1: the check itself could not run (a grader
 * fault), with r->what saying why. */
int objcheck_object(const char *obj, objcheck_result_t *r);

/* After a refusal: the first line of the source src (comments and string
 * literals skipped) where one of r->tokens appears, into r->line; returns
 * it, or 0 when the source names none (a macro built the name, or a
 * header). */
int objcheck_locate(const char *src, objcheck_result_t *r);

#endif
