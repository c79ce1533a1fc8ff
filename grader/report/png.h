/* png.h - the reports' pictures: indexed-colour PNGs (a palette of up to 256
 * entries, bit depth 1, 2, 4 or 8: the smallest that holds the palette)
 * written to memory with libpng, and base64 for data: URIs. The pictures are
 * small and go inline into self-contained HTML. */
#ifndef CUGRADE_PNG_H
#define CUGRADE_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "compare/compare.h"

typedef struct {
    uint8_t r, g, b;
} png_rgb_t;

/* Encodes width x height palette indices (one byte per pixel, row-major,
 * each < npalette) into a PNG in *png (malloc'd, *len bytes). Returns 0, or
 * -1 for bad arguments (no pixels, more than 1<<15 a side, no palette or
 * more than 256 entries, an index outside the palette). */
int png_encode_indexed(const uint8_t *pixels, int width, int height, const png_rgb_t *palette,
                       int npalette, unsigned char **png, size_t *len);

/* For the tests: the same encoder at the given bit depth, which it does not
 * check (nor the indices), so that what libpng refuses (a palette larger than
 * the depth holds, a depth of 3) takes its error path: -1, nothing printed,
 * *png NULL. */
int png_encode_indexed_depth(const uint8_t *pixels, int width, int height, const png_rgb_t *palette,
                             int npalette, int depth, unsigned char **png, size_t *len);

/* Standard base64 (RFC 4648, with '=' padding), NUL-terminated, malloc'd. */
char *base64_encode(const void *data, size_t len);
/* "data:image/png;base64,..." (malloc'd). */
char *png_data_uri(const unsigned char *png, size_t len);

/* The error map as a picture, each cell scale x scale pixels: right light
 * grey-green, wrong red, never written dark purple. NULL when m has no map. */
char *png_error_map_uri(const error_map_t *m, int scale);
int png_error_map(const error_map_t *m, int scale, unsigned char **png, size_t *len);

#endif
