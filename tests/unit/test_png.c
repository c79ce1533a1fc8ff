/* test_png.c - the reports' pictures (grader/report/png.c, on libpng) read
 * back with libpng's own reader: width, height, colour type, bit depth,
 * palette and every pixel's palette index, at every bit depth; the error
 * map's picture (its size and the index of a few pixels); arguments refused;
 * libpng's errors returned as -1, printing nothing; base64 against RFC 4648's
 * test vectors. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <png.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/png.h"
#include "util/util.h"

typedef struct {
    png_uint_32 width, height;
    int depth, color_type;
    png_rgb_t palette[256];
    int npalette;
    uint8_t *pixels; /* one palette index per pixel */
} decoded_t;

typedef struct {
    const unsigned char *data;
    size_t len, pos;
} mem_reader_t;

static void read_from_memory(png_structp png, png_bytep out, size_t n)
{
    mem_reader_t *r = png_get_io_ptr(png);
    if (n > r->len - r->pos)
        png_error(png, "read past the end of the PNG");
    memcpy(out, r->data + r->pos, n);
    r->pos += n;
}

static void read_palette(png_structp png, png_infop info, decoded_t *d)
{
    png_colorp plte;
    cr_assert_eq(png_get_PLTE(png, info, &plte, &d->npalette), PNG_INFO_PLTE, "no PLTE");
    for (int i = 0; i < d->npalette; i++)
        d->palette[i] = (png_rgb_t){plte[i].red, plte[i].green, plte[i].blue};
}

/* The header, the palette and the rows (unpacked: one byte per index). */
static void read_image(png_structp png, png_infop info, decoded_t *d)
{
    png_read_info(png, info);
    d->width = png_get_image_width(png, info);
    d->height = png_get_image_height(png, info);
    d->depth = png_get_bit_depth(png, info);
    d->color_type = png_get_color_type(png, info);
    read_palette(png, info, d);
    png_set_packing(png);
    png_read_update_info(png, info);
    cr_assert_eq(png_get_rowbytes(png, info), d->width, "rows are not one byte per pixel");
    d->pixels = malloc((size_t)d->width * d->height);
    for (png_uint_32 y = 0; y < d->height; y++)
        png_read_row(png, d->pixels + (size_t)y * d->width, NULL);
    png_read_end(png, NULL);
}

static decoded_t decode(const unsigned char *data, size_t len)
{
    decoded_t d;
    memset(&d, 0, sizeof d);
    cr_assert_eq(png_sig_cmp(data, 0, 8), 0, "no PNG signature");
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    mem_reader_t r = {data, len, 0};
    if (setjmp(png_jmpbuf(png)))
        cr_assert_fail("libpng could not read the picture");
    png_set_read_fn(png, &r, read_from_memory);
    read_image(png, info, &d);
    cr_assert_eq(r.pos, len, "bytes after IEND");
    png_destroy_read_struct(&png, &info, NULL);
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
    cr_assert_eq(d.width, (png_uint_32)width);
    cr_assert_eq(d.height, (png_uint_32)height);
    cr_assert_eq(d.color_type, PNG_COLOR_TYPE_PALETTE, "indexed colour");
    cr_assert_eq(d.depth, expect_depth);
    cr_assert_eq(d.npalette, npalette);
    cr_assert_eq(memcmp(d.palette, pal, (size_t)npalette * 3), 0);
    cr_assert_eq(memcmp(d.pixels, px, (size_t)width * height), 0, "pixels differ");
    free(d.pixels), free(px), free(png);
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

Test(png_encode, a_large_image_decodes_whole)
{
    round_trip(300, 300, 200, 8);
    round_trip(4000, 3, 5, 4);
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
    cr_assert_eq(png_encode_indexed(px, 2, 2, NULL, 2, &png, &len), -1);
    cr_assert_eq(png_encode_indexed(px, 1 << 16, 1, pal, 2, &png, &len), -1, "over 1<<15 a side");
}

Test(png_encode, libpng_errors_return_minus_1_and_print_nothing, .init = cr_redirect_stderr)
{
    png_rgb_t pal[3] = {{0, 0, 0}, {255, 255, 255}, {9, 9, 9}};
    uint8_t px[4] = {0, 1, 2, 0};
    unsigned char *png = (unsigned char *)"x";
    size_t len = 1;
    cr_assert_eq(png_encode_indexed_depth(px, 2, 2, pal, 3, 1, &png, &len), -1,
                 "three colours do not fit one bit");
    cr_assert_null(png);
    cr_assert_eq(len, 0);
    cr_assert_eq(png_encode_indexed_depth(px, 2, 2, pal, 3, 3, &png, &len), -1, "no depth 3 in PNG");
    cr_assert_eq(png_encode_indexed_depth(px, 2, 2, pal, 3, 2, &png, &len), 0, "and 2 bits do");
    free(png);
    fflush(stderr);
    cr_assert_stderr_eq_str("");
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

static error_map_t two_by_three_map(void)
{
    error_map_t m;
    memset(&m, 0, sizeof m);
    m.rows = 6, m.cols = 9, m.map_rows = 2, m.map_cols = 3;
    strcpy(m.cells, ".xo" "oo.");
    return m;
}

Test(png_error_map, decodes_to_the_map_scaled_with_its_indices_and_colours)
{
    error_map_t m = two_by_three_map();
    unsigned char *png;
    size_t len;
    cr_assert_eq(png_error_map(&m, 5, &png, &len), 0);
    decoded_t d = decode(png, len);
    cr_assert_eq(d.width, 15);
    cr_assert_eq(d.height, 10);
    cr_assert_eq(d.npalette, 3);
    /* a few pixels: index 0 right, 1 wrong, 2 never written */
    cr_assert_eq(d.pixels[0 * 15 + 0], 0, "top left cell is right");
    cr_assert_eq(d.pixels[2 * 15 + 7], 1, "top middle cell is wrong");
    cr_assert_eq(d.pixels[4 * 15 + 14], 2, "top right cell was never written");
    cr_assert_eq(d.pixels[5 * 15 + 0], 2, "bottom left, first row of its cell");
    cr_assert_eq(d.pixels[9 * 15 + 14], 0, "bottom right corner");
    for (png_uint_32 y = 0; y < d.height; y++)
        for (png_uint_32 x = 0; x < d.width; x++) {
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
}

Test(png_error_map, data_uri_and_no_map)
{
    error_map_t m = two_by_three_map();
    char *uri = png_error_map_uri(&m, 2);
    cr_assert_not_null(uri);
    cr_assert_eq(strncmp(uri, "data:image/png;base64,iVBORw0KGgo", 33), 0, "%s", uri);
    free(uri);
    unsigned char *png;
    size_t len;
    cr_assert_eq(png_error_map(&m, 0, &png, &len), -1, "scale 0");
    m.map_rows = 0;
    cr_assert_null(png_error_map_uri(&m, 2), "no map, no picture");
}
