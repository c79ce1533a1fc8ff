/* sha256.c - the grader's SHA-256 helpers over nettle's sha256_ctx: init,
 * update, and the digest written as lowercase hex. */
#include "util/sha256.h"

void sha256_init(sha256_t *s) { nettle_sha256_init(&s->ctx); }

void sha256_update(sha256_t *s, const void *data, size_t len)
{
    nettle_sha256_update(&s->ctx, len, data);
}

void sha256_final_hex(sha256_t *s, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    uint8_t digest[SHA256_DIGEST_SIZE];
    nettle_sha256_digest(&s->ctx, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[2 * SHA256_DIGEST_SIZE] = '\0';
}

void sha256_hex(const void *data, size_t len, char hex[65])
{
    sha256_t s;
    sha256_init(&s);
    sha256_update(&s, data, len);
    sha256_final_hex(&s, hex);
}
