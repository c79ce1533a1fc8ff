/* test_png.c - the PNG writer read back by an independent little decoder:
 * the signature, IHDR's fields, every chunk's CRC, the zlib stream's stored
 * blocks inflated and its Adler-32, the pixels unpacked at every bit depth;
 * the checksums and base64 against published test vectors; the error map's
 * picture and colours. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/png.h"
#include "util/util.h"

typedef struct {
    uint32_t width, height;
    int depth, color_type;
    png_rgb_t palette[256];
    int npalette;
    uint8_t *pixels; /* one index per pixel */
    int nchunks, nidat, nblocks;
} decoded_t;

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Inflates a zlib stream made only of stored blocks into out. */
static void inflate_stored(const unsigned char *z, size_t len, strbuf_t *out, int *nblocks)
{
    cr_assert_geq(len, 6);
    cr_assert_eq(z[0] & 0x0F, 8, "CM is not deflate");
    cr_assert_eq((z[0] * 256 + z[1]) % 31, 0, "FCHECK");
    cr_assert_eq(z[1] & 0x20, 0, "FDICT set");
    size_t pos = 2;
    int final = 0;
    while (!final) {
        cr_assert_lt(pos + 5, len, "stream ends inside a block header");
        final = z[pos] & 1;
        cr_assert_eq((z[pos] >> 1) & 3, 0, "not a stored block");
        unsigned n = z[pos + 1] | z[pos + 2] << 8, nn = z[pos + 3] | z[pos + 4] << 8;
        cr_assert_eq(n ^ 0xFFFF, nn, "NLEN is not the complement of LEN");
        pos += 5;
        cr_assert_leq(pos + n, len);
        sb_appendn(out, (const char *)z + pos, n);
        pos += n;
        (*nblocks)++;
    }
    cr_assert_eq(pos + 4, len, "trailing bytes after the Adler-32");
    cr_assert_eq(be32(z + pos), png_adler32(out->buf, out->len), "Adler-32");
}

static void read_ihdr(decoded_t *d, const unsigned char *data, uint32_t n)
{
    cr_assert_eq(n, 13);
    d->width = be32(data);
    d->height = be32(data + 4);
    d->depth = data[8];
    d->color_type = data[9];
    cr_assert_eq(data[10], 0, "compression method");
    cr_assert_eq(data[11], 0, "filter method");
    cr_assert_eq(data[12], 0, "interlace method");
}

/* Unfilters (filter type 0 only) and unpacks the scanlines. */
static void unpack(decoded_t *d, const strbuf_t *raw)
{
    size_t row_bytes = ((size_t)d->width * d->depth + 7) / 8;
    cr_assert_eq(raw->len, (row_bytes + 1) * d->height);
    d->pixels = malloc((size_t)d->width * d->height);
    for (uint32_t y = 0; y < d->height; y++) {
        const unsigned char *row = (const unsigned char *)raw->buf + y * (row_bytes + 1);
        cr_assert_eq(row[0], 0, "filter type of row %u", y);
        for (uint32_t x = 0; x < d->width; x++) {
            size_t bit = (size_t)x * d->depth;
            unsigned v = row[1 + bit / 8] >> (8 - d->depth - bit % 8) & ((1u << d->depth) - 1);
            d->pixels[(size_t)y * d->width + x] = (uint8_t)v;
        }
    }
}

static decoded_t decode(const unsigned char *png, size_t len)
{
    decoded_t d;
    memset(&d, 0, sizeof d);
    cr_assert_geq(len, 8);
    cr_assert_eq(memcmp(png, "\x89PNG\r\n\x1a\n", 8), 0, "signature");
    strbuf_t z = {0}, raw = {0};
    size_t pos = 8;
    int ended = 0;
    while (pos < len) {
        cr_assert(!ended, "chunk after IEND");
        cr_assert_leq(pos + 12, len);
        uint32_t n = be32(png + pos);
        const unsigned char *type = png + pos + 4, *data = png + pos + 8;
        cr_assert_leq(pos + 12 + n, len);
        cr_assert_eq(be32(data + n), png_crc32(type, n + 4), "CRC of chunk %.4s", type);
        cr_assert(d.nchunks > 0 || memcmp(type, "IHDR", 4) == 0, "IHDR is not first");
        if (memcmp(type, "IHDR", 4) == 0)
            read_ihdr(&d, data, n);
        else if (memcmp(type, "PLTE", 4) == 0) {
            cr_assert_eq(n % 3, 0);
            d.npalette = (int)n / 3;
            memcpy(d.palette, data, n);
        } else if (memcmp(type, "IDAT", 4) == 0) {
            sb_appendn(&z, (const char *)data, n);
            d.nidat++;
        } else if (memcmp(type, "IEND", 4) == 0) {
            cr_assert_eq(n, 0);
            ended = 1;
        }
        d.nchunks++;
        pos += 12 + n;
    }
    cr_assert(ended, "no IEND");
    cr_assert_gt(d.nidat, 0);
    inflate_stored((const unsigned char *)z.buf, z.len, &raw, &d.nblocks);
    unpack(&d, &raw);
    sb_free(&z), sb_free(&raw);
    return d;
}

static void round_trip(int width, int height, int npalette, int expect_depth)
{
    png_rgb_t pal[256];
    for (int i = 0; i < npalette; i++)
        pal[i] = (png_rgb_t){(uint8_t)i, (uint8_t)(255 - i), (uint8_t)(i * 7)};
    uint8_t *px = malloc((size_t)width * height);
    for (int i = 0; i < width * height; i++)
        px[i] = (uint8_t)((i * 31 + i / width) % npalette);
    unsigned char *png;
    size_t len;
    cr_assert_eq(png_encode_indexed(px, width, height, pal, npalette, &png, &len), 0);
    decoded_t d = decode(png, len);
    cr_assert_eq(d.width, (uint32_t)width);
    cr_assert_eq(d.height, (uint32_t)height);
    cr_assert_eq(d.color_type, 3, "indexed colour");
    cr_assert_eq(d.depth, expect_depth);
    cr_assert_eq(d.npalette, npalette);
    cr_assert_eq(memcmp(d.palette, pal, (size_t)npalette * 3), 0);
    cr_assert_eq(memcmp(d.pixels, px, (size_t)width * height), 0, "pixels differ");
    free(d.pixels), free(px), free(png);
}

Test(png_checksums, crc32_and_adler32_test_vectors)
{
    cr_assert_eq(png_crc32("123456789", 9), 0xCBF43926u);
    cr_assert_eq(png_crc32("", 0), 0);
    cr_assert_eq(png_crc32("IEND", 4), 0xAE426082u); /* every PNG ends with these bytes */
    cr_assert_eq(png_adler32("Wikipedia", 9), 0x11E60398u);
    cr_assert_eq(png_adler32("", 0), 1);
    /* long input: the deferred modulo must not overflow */
    size_t n = 100000;
    unsigned char *ff = malloc(n);
    memset(ff, 0xFF, n);
    uint64_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + 0xFF) % 65521;
        b = (b + a) % 65521;
    }
    cr_assert_eq(png_adler32(ff, n), (uint32_t)(b << 16 | a));
    free(ff);
}

Test(png_base64, rfc4648_test_vectors_and_data_uri)
{
    const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    const char *out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char *s = base64_encode(in[i], strlen(in[i]));
        cr_assert_str_eq(s, out[i]);
        free(s);
    }
    char *uri = png_data_uri((const unsigned char *)"\xff\x00\x10", 3);
    cr_assert_str_eq(uri, "data:image/png;base64,/wAQ");
    free(uri);
}

Test(png_encode, round_trip_at_every_bit_depth)
{
    round_trip(1, 1, 1, 1);
    round_trip(13, 7, 2, 1);
    round_trip(17, 5, 3, 2);
    round_trip(9, 9, 4, 2);
    round_trip(31, 3, 16, 4);
    round_trip(40, 20, 17, 8);
    round_trip(5, 4, 256, 8);
}

Test(png_encode, large_image_spans_several_stored_blocks)
{
    png_rgb_t pal[200];
    for (int i = 0; i < 200; i++)
        pal[i] = (png_rgb_t){(uint8_t)i, 0, 0};
    int w = 300, h = 300;
    uint8_t *px = malloc((size_t)w * h);
    for (int i = 0; i < w * h; i++)
        px[i] = (uint8_t)(i % 199);
    unsigned char *png;
    size_t len;
    cr_assert_eq(png_encode_indexed(px, w, h, pal, 200, &png, &len), 0);
    decoded_t d = decode(png, len);
    cr_assert_eq(d.nblocks, 2, "90300 bytes of scanlines need two stored blocks");
    cr_assert_eq(memcmp(d.pixels, px, (size_t)w * h), 0);
    free(d.pixels), free(px), free(png);
}

Test(png_encode, bad_arguments_are_refused)
{
    png_rgb_t pal[2] = {{0, 0, 0}, {255, 255, 255}};
    uint8_t px[4] = {0, 1, 2, 0};
    unsigned char *png;
    size_t len;
    cr_assert_eq(png_encode_indexed(px, 2, 2, pal, 2, &png, &len), -1, "index 2 outside the palette");
    cr_assert_null(png);
    cr_assert_eq(png_encode_indexed(px, 0, 2, pal, 2, &png, &len), -1);
    cr_assert_eq(png_encode_indexed(px, 2, 2, pal, 0, &png, &len), -1);
    cr_assert_eq(png_encode_indexed(px, 2, 2, pal, 257, &png, &len), -1);
}

Test(png_error_map, cells_become_scaled_squares_in_the_three_colours)
{
    error_map_t m;
    memset(&m, 0, sizeof m);
    m.rows = 6, m.cols = 9, m.map_rows = 2, m.map_cols = 3;
    strcpy(m.cells, ".xo" "oo.");
    unsigned char *png;
    size_t len;
    cr_assert_eq(png_error_map(&m, 5, &png, &len), 0);
    decoded_t d = decode(png, len);
    cr_assert_eq(d.width, 15);
    cr_assert_eq(d.height, 10);
    for (uint32_t y = 0; y < d.height; y++)
        for (uint32_t x = 0; x < d.width; x++) {
            char cell = m.cells[(y / 5) * 3 + x / 5];
            png_rgb_t c = d.palette[d.pixels[y * d.width + x]];
            if (cell == '.')
                cr_assert(c.r > 180 && c.g > 180 && c.b > 180, "right is light");
            else if (cell == 'x')
                cr_assert(c.r > 180 && c.g < 80 && c.b < 80, "wrong is red");
            else
                cr_assert(c.r + c.g + c.b < 200, "never written is dark");
        }
    free(d.pixels), free(png);
    char *uri = png_error_map_uri(&m, 2);
    cr_assert_not_null(uri);
    cr_assert_eq(strncmp(uri, "data:image/png;base64,iVBORw0KGgo", 33), 0, "%s", uri);
    free(uri);
    m.map_rows = 0;
    cr_assert_null(png_error_map_uri(&m, 2), "no map, no picture");
}
