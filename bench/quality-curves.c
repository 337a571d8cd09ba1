/*
 * Score curves for the quality search: every quality of JPEG (4:2:0 levels 30-100, 4:4:4
 * levels 1030-1100) and WebP (30-100, converted to YUV plainly, "webp", and sharp,
 * "webp-sharp") of each image, each file's bytes and its SSIMULACRA2 score whole, and for WebP
 * over a megapixel also the score of the search's sample (the centre square, encoded on its
 * own) at that quality; and one "webp-room" line (level 0, no bytes): the score of the plain
 * conversion alone, nothing compressed, whole and on the sample, which decides the search's
 * conversion (WebPSearchInput.inputs). bench/quality-search replays search strategies over
 * these lines without encoding anything.
 *
 * The encoders and the score are dppx's own (Sources/CVips): the bytes are dppx's at each
 * quality, for JPEG exactly (progressive, optimised), for WebP as the search encodes it (effort
 * 4); the plain WebP at 80 is also what a fixed-quality build writes.
 *
 *   cc -O2 -I Sources/CVips/include bench/quality-curves.c Sources/CVips/[a-z]*.c \
 *      $(pkg-config --cflags --libs vips libwebp libjxl libjxl_threads) -lm -o /tmp/quality-curves
 *   /tmp/quality-curves IMAGE.png [IMAGE.png ...]
 *
 * One line a file: NAME WIDTH HEIGHT FORMAT LEVEL BYTES WHOLE SAMPLE (SAMPLE -1 when there is
 * none).
 */
#include "cvips.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The pixels of an image as 8-bit sRGB, 3 bands, in memory; NULL on failure. */
static VipsImage *rgb(VipsImage *image) {
    VipsImage *a = NULL, *b = NULL, *c = NULL;
    if (vips_colourspace(image, &a, VIPS_INTERPRETATION_sRGB, NULL)) return NULL;
    if (a->Bands > 3) {
        if (vips_flatten(a, &b, NULL)) return NULL;
    } else {
        b = a;
        g_object_ref(b);
    }
    if (vips_cast(b, &c, VIPS_FORMAT_UCHAR, NULL)) return NULL;
    g_object_unref(a);
    g_object_unref(b);
    VipsImage *memory = vips_image_copy_memory(c);
    g_object_unref(c);
    return memory;
}

/* Encodes `image` at `level` (WebP: converted sharp when `sharp`), decodes it, and scores it
 * against `image`; returns the bytes or -1. */
static long encode_and_score(VipsImage *image, int webp, int sharp, int level, double *score) {
    void *buffer = NULL;
    size_t length = 0;
    int failed;
    if (webp) {
        WebPPicture *picture = NULL;
        failed = cvips_webp_input_new(image, sharp, &picture) || cvips_webp_picture_encode(picture, level, 4, &buffer, &length);
        cvips_webp_input_free(picture);
    } else {
        failed = cvips_jpegsave(image, level % 1000, 1, level >= 1000 ? 2 : 1, &buffer, &length);
    }
    if (failed) return -1;
    VipsImage *decoded = vips_image_new_from_buffer(buffer, length, "", NULL);
    VipsImage *pixels = decoded ? rgb(decoded) : NULL;
    if (decoded) g_object_unref(decoded);
    long bytes = (long) length;
    g_free(buffer);
    if (!pixels) return -1;
    int status = cvips_ssimulacra2(VIPS_IMAGE_ADDR(image, 0, 0), VIPS_IMAGE_ADDR(pixels, 0, 0), image->Xsize,
                                   image->Ysize, 3, 1, score);
    g_object_unref(pixels);
    return status ? -1 : bytes;
}

/* The score of `image` through the plain conversion to YUV 4:2:0 and back; -1 on failure. */
static double plain_room(VipsImage *image) {
    VipsImage *round_trip = NULL;
    double score = -1;
    if (cvips_webp_plain_roundtrip(image, &round_trip)) return -1;
    if (cvips_ssimulacra2(VIPS_IMAGE_ADDR(image, 0, 0), VIPS_IMAGE_ADDR(round_trip, 0, 0), image->Xsize, image->Ysize, 3, 1, &score))
        score = -1;
    g_object_unref(round_trip);
    return score;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
    if (argc < 2) {
        fprintf(stderr, "usage: %s IMAGE [IMAGE ...]\n", argv[0]);
        return 2;
    }
    const char *formats[3] = { "jpeg", "webp", "webp-sharp" };
    for (int a = 1; a < argc; a++) {
        VipsImage *file = vips_image_new_from_file(argv[a], NULL);
        VipsImage *image = file ? rgb(file) : NULL;
        if (!image) vips_error_exit("%s", argv[a]);
        g_object_unref(file);
        const char *name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        int width = image->Xsize, height = image->Ysize;
        /* The search's WebP sample (QualitySearch.sample): a centre square of an eighth of the pixels. */
        VipsImage *sample = NULL;
        if ((long) width * height > (1L << 20) && width >= 256 && height >= 256) {
            int side = (int) sqrt((double) width * height / 8);
            if (side > width) side = width;
            if (side > height) side = height;
            if (cvips_centre_square(image, side / 16 * 16, &sample)) vips_error_exit("%s", name);
        }
        double room = plain_room(image), sample_room = sample ? plain_room(sample) : -1;
        if (room < 0 || (sample && sample_room < 0)) vips_error_exit("%s: plain conversion", name);
        printf("%s %d %d webp-room 0 0 %.4f %.4f\n", name, width, height, room, sample_room);
        for (int format = 0; format < 3; format++) {
            int webp = format > 0, sharp = format == 2;
            for (int scale = 0; scale < (webp ? 1 : 2); scale++) {
                for (int level = 30 + 1000 * scale; level <= 100 + 1000 * scale; level++) {
                    double whole, part = -1;
                    long bytes = encode_and_score(image, webp, sharp, level, &whole);
                    if (bytes < 0 || (webp && sample && encode_and_score(sample, 1, sharp, level, &part) < 0))
                        vips_error_exit("%s at %d", name, level);
                    printf("%s %d %d %s %d %ld %.4f %.4f\n", name, width, height, formats[format], level, bytes,
                           whole, part);
                    fflush(stdout);
                }
            }
        }
        if (sample) g_object_unref(sample);
        g_object_unref(image);
    }
    return 0;
}
