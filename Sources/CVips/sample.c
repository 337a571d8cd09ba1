/* A small stand-in for a large image, for a quality search: one square from its centre, its
 * corner on a multiple of 16 (the size of WebP's and AVIF's macroblocks), copied into memory of
 * its own. Encoding and scoring it costs a fraction of the whole image, and its blocks are the
 * image's own. */
#include "cvips.h"

#include <string.h>

int cvips_centre_square(VipsImage *in, int side, VipsImage **out) {
    if (side <= 0 || in->BandFmt != VIPS_FORMAT_UCHAR || in->Xsize < side || in->Ysize < side) {
        vips_error("sample", "cannot take a %d-pixel square from a %dx%d image", side, in->Xsize, in->Ysize);
        return -1;
    }
    VipsImage *memory = vips_image_copy_memory(in); /* a reference, not a copy, when already in memory */
    if (!memory) return -1;
    VipsImage *square = vips_image_new_memory();
    vips_image_init_fields(square, side, side, memory->Bands, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE, memory->Type, 1.0,
                           1.0);
    if (vips_image_write_prepare(square)) {
        g_object_unref(square);
        g_object_unref(memory);
        return -1;
    }
    int left = (memory->Xsize - side) / 2 / 16 * 16, top = (memory->Ysize - side) / 2 / 16 * 16;
    for (int y = 0; y < side; y++)
        memcpy(VIPS_IMAGE_ADDR(square, 0, y), VIPS_IMAGE_ADDR(memory, left, top + y), (size_t) side * memory->Bands);
    g_object_unref(memory);
    *out = square;
    return 0;
}
