/* archive_put.h - where an archive's entries land: folders and new files
 * under a destination folder's descriptor, created one component at a time
 * without following links (archive.c's write side). */
#ifndef CUGRADE_ARCHIVE_PUT_H
#define CUGRADE_ARCHIVE_PUT_H

#include <stddef.h>

/* The folder rel (a checked, relative, '/'-separated name; "" is root
 * itself) under rootfd, made as needed: its descriptor, or -1 and why. */
int put_dir(int rootfd, const char *rel, char *why, size_t whylen);

/* A new file rel under rootfd (its folders made as needed), opened for
 * writing with O_CREAT|O_EXCL|O_NOFOLLOW: its descriptor, or -1 and why. */
int put_file(int rootfd, const char *rel, char *why, size_t whylen);

/* Writes all of buf to fd: 0, or -1 and why. */
int put_bytes(int fd, const void *buf, size_t len, char *why, size_t whylen);

#endif
