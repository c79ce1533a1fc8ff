/* srccheck.h - what a submission's source may contain, checked before it is
 * compiled (issue 14): the compiler reads nothing for it but its own files,
 * the lab's headers and the system's. Refused: #include of an absolute
 * path, of a path with "..", of a computed name (#include MACRO), of a
 * quoted file neither in the submission's folder nor a lab header; #embed;
 * a __has_include(_next) probe of a name no #include may have, or of a
 * computed one;
 * and an assembler directive that reads a file (.incbin, .include) or a
 * macro of the assembler's that can spell one (.macro, .irp) in any string
 * literal, adjacent literals concatenated and escapes decoded
 * (asm(".inc" "bin ...")). Comments, backslash-newlines, "#  include",
 * "%:include" and trigraphs are seen as the compiler sees them. The quoted
 * and angle includes found in the submission's folder are checked too.
 *
 * srccheck_expanded then looks at the compiler's own preprocessed output:
 * the same literals after macro expansion (asm(S(.inc) S(bin) ...)), and
 * every file the preprocessor opened. */
#ifndef CUGRADE_SRCCHECK_H
#define CUGRADE_SRCCHECK_H

#include <limits.h>
#include <stddef.h>

typedef struct {
    char file[PATH_MAX]; /* where the refused construct is */
    int line;            /* its line (0: unknown) */
    char what[768];      /* for the student: "includes \"/x\" by an absolute path" */
} srccheck_result_t;

/* Checks the submission's file src and the files of its folder that it
 * includes. header_dirs (NULL-terminated): the folders on the compiler's
 * include path that a quoted name not found in the folder may come from
 * (the lab's headers, the emulator's or CUDA's). 0: allowed; 1: refused,
 * r says where and what; -1: a file could not be read (r->what says why). */
int srccheck_source(const char *src, const char *const *header_dirs, srccheck_result_t *r);

typedef struct {
    const char *const *allowed; /* folders whose files may be read: the submission's, the
                                 * lab's headers, the emulator's, the scratch folder */
    const char *root;           /* the cugrade checkout: nothing else in it */
    const char *const *system;  /* the system's and the toolchain's folders (/usr, CUDA) */
} srccheck_dirs_t;

/* Checks len bytes of text, the compiler's preprocessed output (-E, with
 * line markers) of the submission: its string literals as above, and each
 * file a line marker names must be in dirs->allowed, or outside dirs->root
 * and in dirs->system. 0 allowed, 1 refused (r says where, from the line
 * markers), -1 out of memory. */
int srccheck_expanded(const char *text, size_t len, const srccheck_dirs_t *dirs,
                      srccheck_result_t *r);

#endif
