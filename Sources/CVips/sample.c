/* A small stand-in for a large image, for a quality search: tiles taken on an even grid over
 * the image and placed side by side. Encoding and scoring it costs a fraction of the whole
 * image, and its blocks are the image's own (tile corners fall on multiples of 16, the size
 * of JPEG's and WebP's macroblocks), so a quality's effect on it is close to its effect on
 * the whole image. */
#include "cvips.h"

#include <string.h>

/* Where tile `index` of `count` starts along a side of `length` pixels: spread evenly from
 * one edge to the other, rounded down to a multiple of 16. */
static int cvips_tile_start(int index, int count, int length, int tile) {
    if (count <= 1) return ((length - tile) / 2) / 16 * 16;
    long span = length - tile;
    return (int) (span * index / (count - 1)) / 16 * 16;
}

int cvips_tile_sample(VipsImage *in, int tile, int columns, int rows, VipsImage **out) {
    if (tile <= 0 || columns <= 0 || rows <= 0 || in->BandFmt != VIPS_FORMAT_UCHAR || in->Xsize < tile || in->Ysize < tile) {
        vips_error("sample", "cannot take %dx%d tiles of %d pixels from a %dx%d image", columns, rows, tile,
                   in->Xsize, in->Ysize);
        return -1;
    }
    VipsImage *memory = vips_image_copy_memory(in); /* a reference, not a copy, when already in memory */
    if (!memory) return -1;
    VipsImage *sample = vips_image_new_memory();
    vips_image_init_fields(sample, tile * columns, tile * rows, memory->Bands, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
                           memory->Type, 1.0, 1.0);
    if (vips_image_write_prepare(sample)) {
        g_object_unref(sample);
        g_object_unref(memory);
        return -1;
    }
    size_t pixel = (size_t) memory->Bands;
    for (int row = 0; row < rows; row++) {
        int top = cvips_tile_start(row, rows, memory->Ysize, tile);
        for (int column = 0; column < columns; column++) {
            int left = cvips_tile_start(column, columns, memory->Xsize, tile);
            for (int y = 0; y < tile; y++)
                memcpy(VIPS_IMAGE_ADDR(sample, column * tile, row * tile + y), VIPS_IMAGE_ADDR(memory, left, top + y),
                       (size_t) tile * pixel);
        }
    }
    g_object_unref(memory);
    *out = sample;
    return 0;
}
