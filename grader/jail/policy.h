/* policy.h - the system calls student code may make: two seccomp allow-lists
 * (libseccomp), one for a lab program and a wider one for the tools that
 * read student code (the compilers, compute-sanitizer). Every other call
 * fails with EPERM (clone3 with ENOSYS, so that libc falls back to clone,
 * whose flags a filter can read); a call made through another ABI (32-bit
 * int 0x80, x32) kills the process. */
#ifndef CUGRADE_JAIL_POLICY_H
#define CUGRADE_JAIL_POLICY_H

#include <stddef.h>

typedef enum {
    POLICY_PROGRAM, /* a lab program: no new processes, signals to itself only, AF_UNIX sockets */
    POLICY_TOOL     /* a compiler or compute-sanitizer: processes, pipes, local sockets */
} policy_t;

/* "program" or "tool" into *out; -1 for another name. */
int policy_from_name(const char *name, policy_t *out);

/* The calls refused whatever the policy (docs/security.md lists them): a
 * NULL-terminated list of names, for the tests and the docs. */
extern const char *const policy_refused_calls[];

/* 1 if the policy lets name through (with or without conditions on its
 * arguments), 0 if not: read from the lists, without a filter. */
int policy_allows(policy_t policy, const char *name);

/* Loads the filter into this process (and every process it starts): the
 * last step before exec. Returns 0, or -1 with the reason in why. */
int policy_install(policy_t policy, char *why, size_t whylen);

#endif
