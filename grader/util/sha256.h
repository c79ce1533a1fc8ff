/* sha256.h - SHA-256 (FIPS 180-4) as hex digests, on nettle's implementation
 * (Debian's nettle-dev), used by `cugrade batch --resume` to tell whether a
 * submission's inputs changed since it was graded, and for the hidden
 * datasets' and the canary's digests. */
#ifndef CUGRADE_SHA256_H
#define CUGRADE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>
/* nettle names its functions nettle_sha256_* and maps the short names to
 * them with macros; the short names are ours (below), so the macros go. */
#undef sha256_init
#undef sha256_update
#undef sha256_digest

typedef struct {
    struct sha256_ctx ctx;
} sha256_t;

void sha256_init(sha256_t *s);
void sha256_update(sha256_t *s, const void *data, size_t len);
/* Writes the digest as 64 lowercase hex digits and a NUL into hex. */
void sha256_final_hex(sha256_t *s, char hex[65]);
/* One-shot: the hex digest of len bytes. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
