/*
 * AVIF in 4:2:0 and in 4:4:4 at each quality: bytes and SSIMULACRA2 score of every file against
 * the image's own pixels, to see which chroma reaches a score in fewer bytes
 * (QualitySearch.scales; bench/JOURNAL.md, "AVIF searched in 4:4:4"). The encoder is libvips's
 * heifsave at effort 2 (dppx's default), the score dppx's own (Sources/CVips).
 *
 *   cc -O2 -I Sources/CVips/include bench/avif-chroma.c Sources/CVips/[a-z]*.c \
 *      $(pkg-config --cflags --libs vips libwebp libjxl libjxl_threads) -lm -o /tmp/avif-chroma
 *   /tmp/avif-chroma IMAGE.png FIRST LAST STEP
 *
 * One line a file: IMAGE CHROMA(420|444) qQUALITY BYTES SCORE.
 */
#include "cvips.h"
#include <stdio.h>
#include <stdlib.h>

/* The pixels of an image as 8-bit sRGB in memory; NULL on failure. */
static VipsImage *rgb(VipsImage *image) {
    VipsImage *srgb = NULL, *bytes = NULL;
    if (vips_colourspace(image, &srgb, VIPS_INTERPRETATION_sRGB, NULL)) return NULL;
    int failed = vips_cast(srgb, &bytes, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(srgb);
    if (failed) return NULL;
    VipsImage *memory = vips_image_copy_memory(bytes);
    g_object_unref(bytes);
    return memory;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
    if (argc != 5) {
        fprintf(stderr, "usage: %s IMAGE FIRST LAST STEP\n", argv[0]);
        return 2;
    }
    VipsImage *file = vips_image_new_from_file(argv[1], NULL);
    VipsImage *image = file ? rgb(file) : NULL;
    if (!image || image->Bands != 3) vips_error_exit("%s: not an RGB image", argv[1]);
    int first = atoi(argv[2]), last = atoi(argv[3]), step = atoi(argv[4]);
    if (step < 1) step = 1;
    for (int full = 0; full < 2; full++) {
        for (int quality = first; quality <= last; quality += step) {
            void *buffer = NULL;
            size_t length = 0;
            if (cvips_avifsave(image, quality, 2, full ? 2 : 1, &buffer, &length)) vips_error_exit("%s at %d", argv[1], quality);
            VipsImage *decoded = vips_image_new_from_buffer(buffer, length, "", NULL);
            VipsImage *pixels = decoded ? rgb(decoded) : NULL;
            double score = -1;
            if (!pixels || cvips_ssimulacra2(VIPS_IMAGE_ADDR(image, 0, 0), VIPS_IMAGE_ADDR(pixels, 0, 0), image->Xsize,
                                             image->Ysize, 3, 1, &score))
                vips_error_exit("%s: decoding or scoring at %d", argv[1], quality);
            printf("%s %s q%d %zu %.2f\n", argv[1], full ? "444" : "420", quality, length, score);
            fflush(stdout);
            g_object_unref(decoded);
            g_object_unref(pixels);
            g_free(buffer);
        }
    }
    g_object_unref(file);
    g_object_unref(image);
    return 0;
}
