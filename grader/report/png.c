/* png.c - writes indexed-colour PNGs with stored deflate blocks (no
 * compression library), and base64 data: URIs for inline HTML pictures. */
#include "report/png.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define PNG_MAX_SIDE (1 << 15)
#define STORED_BLOCK_MAX 65535u

static const png_rgb_t error_map_palette[] = {
    {0xd5, 0xe3, 0xd8}, /* right: light grey-green */
    {0xd6, 0x27, 0x28}, /* wrong: red */
    {0x2e, 0x12, 0x3d}, /* never written: dark purple */
};

/* ---- checksums ----------------------------------------------------------------- */

uint32_t png_crc32(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
}

uint32_t png_adler32(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t a = 1, b = 0;
    while (len > 0) {
        size_t n = len < 5552 ? len : 5552; /* no uint32 overflow before the modulo */
        for (size_t i = 0; i < n; i++) {
            a += p[i];
            b += a;
        }
        a %= 65521u;
        b %= 65521u;
        p += n;
        len -= n;
    }
    return (b << 16) | a;
}

/* ---- byte strings --------------------------------------------------------------- */

static void put_u32be(strbuf_t *sb, uint32_t v)
{
    char b[4] = {(char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v};
    sb_appendn(sb, b, 4);
}

static void put_u16le(strbuf_t *sb, unsigned v)
{
    char b[2] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF)};
    sb_appendn(sb, b, 2);
}

/* length, type, data, CRC of type and data */
static void put_chunk(strbuf_t *png, const char *type, const void *data, size_t len)
{
    put_u32be(png, (uint32_t)len);
    size_t start = png->len;
    sb_appendn(png, type, 4);
    if (len > 0)
        sb_appendn(png, data, len);
    put_u32be(png, png_crc32(png->buf + start, png->len - start));
}

/* ---- image data ------------------------------------------------------------------ */

static int bit_depth_for(int npalette)
{
    return npalette <= 2 ? 1 : npalette <= 4 ? 2 : npalette <= 16 ? 4 : 8;
}

/* The filtered scanlines: each a filter byte (0, none) and the row's
 * indices packed most significant bits first. */
static void raw_scanlines(const uint8_t *pixels, int width, int height, int depth, strbuf_t *raw)
{
    size_t row_bytes = ((size_t)width * depth + 7) / 8;
    uint8_t *row = calloc(row_bytes + 1, 1);
    for (int y = 0; y < height; y++) {
        memset(row, 0, row_bytes + 1);
        for (int x = 0; x < width; x++) {
            size_t bit = (size_t)x * depth;
            unsigned v = pixels[(size_t)y * width + x];
            row[1 + bit / 8] |= (uint8_t)(v << (8 - depth - bit % 8));
        }
        sb_appendn(raw, (const char *)row, row_bytes + 1);
    }
    free(row);
}

/* A zlib stream of stored deflate blocks (RFC 1950/1951). */
static void zlib_stored(const strbuf_t *raw, strbuf_t *z)
{
    sb_appendn(z, "\x78\x01", 2); /* deflate, 32 KiB window, no dictionary, fastest */
    size_t off = 0;
    do {
        size_t n = raw->len - off < STORED_BLOCK_MAX ? raw->len - off : STORED_BLOCK_MAX;
        char final = off + n == raw->len ? 1 : 0; /* BFINAL, BTYPE 00 */
        sb_appendn(z, &final, 1);
        put_u16le(z, (unsigned)n);
        put_u16le(z, (unsigned)(~n & 0xFFFF));
        sb_appendn(z, raw->buf + off, n);
        off += n;
    } while (off < raw->len);
    put_u32be(z, png_adler32(raw->buf, raw->len));
}

static int bad_image(const uint8_t *pixels, int width, int height, int npalette)
{
    if (!pixels || width <= 0 || height <= 0 || width > PNG_MAX_SIDE || height > PNG_MAX_SIDE ||
        npalette <= 0 || npalette > 256)
        return 1;
    for (size_t i = 0; i < (size_t)width * height; i++)
        if (pixels[i] >= npalette)
            return 1;
    return 0;
}

int png_encode_indexed(const uint8_t *pixels, int width, int height, const png_rgb_t *palette,
                       int npalette, unsigned char **png, size_t *len)
{
    *png = NULL;
    *len = 0;
    if (!palette || bad_image(pixels, width, height, npalette))
        return -1;
    int depth = bit_depth_for(npalette);
    strbuf_t out = {0}, hdr = {0}, raw = {0}, z = {0};
    sb_appendn(&out, "\x89PNG\r\n\x1a\n", 8);
    put_u32be(&hdr, (uint32_t)width);
    put_u32be(&hdr, (uint32_t)height);
    char rest[5] = {(char)depth, 3, 0, 0, 0}; /* indexed colour, deflate, no filter/interlace */
    sb_appendn(&hdr, rest, 5);
    put_chunk(&out, "IHDR", hdr.buf, hdr.len);
    uint8_t plte[256 * 3];
    for (int i = 0; i < npalette; i++) {
        plte[3 * i] = palette[i].r;
        plte[3 * i + 1] = palette[i].g;
        plte[3 * i + 2] = palette[i].b;
    }
    put_chunk(&out, "PLTE", plte, (size_t)npalette * 3);
    raw_scanlines(pixels, width, height, depth, &raw);
    zlib_stored(&raw, &z);
    put_chunk(&out, "IDAT", z.buf, z.len);
    put_chunk(&out, "IEND", NULL, 0);
    sb_free(&hdr), sb_free(&raw), sb_free(&z);
    *len = out.len;
    *png = (unsigned char *)sb_detach(&out);
    return 0;
}

/* ---- base64 ---------------------------------------------------------------------- */

char *base64_encode(const void *data, size_t len)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const uint8_t *p = data;
    char *out = malloc((len + 2) / 3 * 4 + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < len)
            v |= p[i + 2];
        *o++ = digits[v >> 18 & 63];
        *o++ = digits[v >> 12 & 63];
        *o++ = i + 1 < len ? digits[v >> 6 & 63] : '=';
        *o++ = i + 2 < len ? digits[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

char *png_data_uri(const unsigned char *png, size_t len)
{
    char *b64 = base64_encode(png, len);
    strbuf_t sb = {0};
    sb_append(&sb, "data:image/png;base64,");
    sb_append(&sb, b64 ? b64 : "");
    free(b64);
    return sb_detach(&sb);
}

/* ---- the error map ---------------------------------------------------------------- */

static uint8_t map_index(char cell)
{
    return cell == MAP_UNWRITTEN ? 2 : cell == MAP_WRONG ? 1 : 0;
}

int png_error_map(const error_map_t *m, int scale, unsigned char **png, size_t *len)
{
    *png = NULL;
    *len = 0;
    if (!m || m->map_rows <= 0 || m->map_cols <= 0 || scale <= 0 ||
        m->map_cols * scale > PNG_MAX_SIDE || m->map_rows * scale > PNG_MAX_SIDE)
        return -1;
    int w = m->map_cols * scale, h = m->map_rows * scale;
    uint8_t *px = malloc((size_t)w * h);
    if (!px)
        return -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            px[(size_t)y * w + x] = map_index(m->cells[(size_t)(y / scale) * m->map_cols + x / scale]);
    int rc = png_encode_indexed(px, w, h, error_map_palette, 3, png, len);
    free(px);
    return rc;
}

char *png_error_map_uri(const error_map_t *m, int scale)
{
    unsigned char *png;
    size_t len;
    if (png_error_map(m, scale, &png, &len) != 0)
        return NULL;
    char *uri = png_data_uri(png, len);
    free(png);
    return uri;
}
