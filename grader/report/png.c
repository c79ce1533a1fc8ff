/* png.c - the reports' pictures: indexed-colour PNGs written to memory with
 * libpng (Debian's libpng-dev), base64 data: URIs for inline HTML pictures,
 * and the error map drawn as such a picture. */
#include "report/png.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define PNG_MAX_SIDE (1 << 15)

static const png_rgb_t error_map_palette[] = {
    {0xd5, 0xe3, 0xd8}, /* right: light grey-green */
    {0xd6, 0x27, 0x28}, /* wrong: red */
    {0x2e, 0x12, 0x3d}, /* never written: dark purple */
};

/* ---- libpng's callbacks ------------------------------------------------------------ */

/* libpng's output goes to the strbuf_t behind the io pointer. */
static void write_to_memory(png_structp png, png_bytep data, size_t len)
{
    sb_appendn(png_get_io_ptr(png), (const char *)data, len);
}

static void flush_nothing(png_structp png) { (void)png; }

/* An error is never printed: it jumps back to encode_into, which returns -1. */
static void on_error(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) { (void)png, (void)msg; }

/* ---- the encoder -------------------------------------------------------------------- */

typedef struct {
    const uint8_t *pixels; /* one palette index per pixel, row-major */
    int width, height, depth;
    const png_rgb_t *palette;
    int npalette;
} indexed_image_t;

static int bit_depth_for(int npalette)
{
    return npalette <= 2 ? 1 : npalette <= 4 ? 2 : npalette <= 16 ? 4 : 8;
}

static void set_header(png_structp png, png_infop info, const indexed_image_t *im)
{
    png_color plte[256];
    for (int i = 0; i < im->npalette; i++)
        plte[i] = (png_color){im->palette[i].r, im->palette[i].g, im->palette[i].b};
    png_set_IHDR(png, info, (png_uint_32)im->width, (png_uint_32)im->height, im->depth,
                 PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_PLTE(png, info, plte, im->npalette);
}

/* Writes the whole PNG into out. Nothing local changes after setjmp, so a
 * libpng error (longjmp back here) leaves nothing indeterminate: -1. */
static int encode_into(png_structp png, png_infop info, const indexed_image_t *im, strbuf_t *out)
{
    if (setjmp(png_jmpbuf(png)))
        return -1;
    png_set_write_fn(png, out, write_to_memory, flush_nothing);
    set_header(png, info, im);
    png_write_info(png, info);
    png_set_packing(png); /* one byte per index in, depth bits per index out */
    for (int y = 0; y < im->height; y++)
        png_write_row(png, im->pixels + (size_t)y * im->width);
    png_write_end(png, info);
    return 0;
}

static int encode(const indexed_image_t *im, unsigned char **png_out, size_t *len)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    strbuf_t out = {0};
    int rc = info ? encode_into(png, info, im, &out) : -1;
    png_destroy_write_struct(&png, &info);
    if (rc != 0) {
        sb_free(&out);
        return -1;
    }
    *len = out.len;
    *png_out = (unsigned char *)sb_detach(&out);
    return 0;
}

static int bad_shape(const uint8_t *pixels, int width, int height, const png_rgb_t *palette,
                     int npalette)
{
    return !pixels || !palette || width <= 0 || height <= 0 || width > PNG_MAX_SIDE ||
           height > PNG_MAX_SIDE || npalette <= 0 || npalette > 256;
}

static int bad_index(const uint8_t *pixels, int width, int height, int npalette)
{
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
    if (bad_shape(pixels, width, height, palette, npalette) ||
        bad_index(pixels, width, height, npalette))
        return -1;
    indexed_image_t im = {pixels, width, height, bit_depth_for(npalette), palette, npalette};
    return encode(&im, png, len);
}

int png_encode_indexed_depth(const uint8_t *pixels, int width, int height, const png_rgb_t *palette,
                             int npalette, int depth, unsigned char **png, size_t *len)
{
    *png = NULL;
    *len = 0;
    if (bad_shape(pixels, width, height, palette, npalette))
        return -1;
    indexed_image_t im = {pixels, width, height, depth, palette, npalette};
    return encode(&im, png, len);
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
