/* privilege.h - what bin/cugrade-jail takes away from a process before it
 * runs student code (jail.c): the descriptors it was not meant to have,
 * root (a uid and gid of its own, no supplementary groups), every
 * capability (effective, permitted, inheritable, ambient and the bounding
 * set), and, where the kernel allows one, a user namespace of its own. Each
 * returns 0 or -1 with a one-line reason in why. */
#ifndef CUGRADE_JAIL_PRIVILEGE_H
#define CUGRADE_JAIL_PRIVILEGE_H

#include <stddef.h>
#include <sys/types.h>

/* Closes every descriptor but 0, 1, 2 and keep[0..nkeep). */
int keep_only_fds(const int *keep, int nkeep, char *why, size_t whylen);

/* As root: no supplementary groups, real, effective and saved ids uid and
 * gid (which must not be 0); the bounding set emptied first, while root
 * still may. */
int drop_root(uid_t uid, gid_t gid, char *why, size_t whylen);

/* A new user namespace in which the process keeps its uid and gid (mapped
 * to themselves, setgroups denied). */
int enter_user_namespace(char *why, size_t whylen);

/* Empties the bounding set and the ambient set where they are not empty,
 * then clears the effective, permitted and inheritable sets. */
int drop_capabilities(char *why, size_t whylen);

/* 0 when no capability is left in any set and no_new_privs is on, else -1
 * and which is left. */
int check_unprivileged(char *why, size_t whylen);

#endif
