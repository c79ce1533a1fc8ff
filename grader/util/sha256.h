/* sha256.h - SHA-256 (FIPS 180-4), used by `cugrade batch --resume` to tell
 * whether a submission's inputs changed since it was graded. */
#ifndef CUGRADE_SHA256_H
#define CUGRADE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t bytes;      /* message length so far */
    unsigned char buf[64];
    size_t buflen;
} sha256_t;

void sha256_init(sha256_t *s);
void sha256_update(sha256_t *s, const void *data, size_t len);
/* Writes the digest as 64 lowercase hex digits and a NUL into hex. */
void sha256_final_hex(sha256_t *s, char hex[65]);
/* One-shot: the hex digest of len bytes. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
