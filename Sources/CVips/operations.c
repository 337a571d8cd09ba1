/* Pixels in memory, resizing and colour. */
#include "cvips.h"

#include <string.h>

static void cvips_unref_on_close(VipsImage *image, gpointer owner) {
    (void) image;
    g_object_unref(owner);
}

/* One scan for every "is the alpha band all 255?" question: dropping a master's opaque alpha,
 * and whether a WebP input needs an alpha plane. */
int cvips_alpha_is_opaque(const uint8_t *pixels, size_t stride, int width, int height, int bands) {
    for (int y = 0; y < height; y++) {
        const uint8_t *row = pixels + (size_t) y * stride;
        for (int x = 0; x < width; x++)
            if (row[(size_t) x * (size_t) bands + (size_t) bands - 1] != 255) return 0;
    }
    return 1;
}

/* For a decoded still image in memory, 8-bit with an alpha band that is 255 everywhere (most
 * PNGs exported "with transparency" that have none): the same pixels without the alpha band,
 * moved down in place in the same buffer, so nothing is allocated. `in` is then spent: only
 * `out` may be read (it keeps `in`, which owns the memory, alive). Returns 1, with `in`
 * untouched, when there is no alpha band or some pixel is not fully opaque. */
int cvips_drop_opaque_alpha(VipsImage *in, VipsImage **out) {
    int bands = in->Bands;
    if (in->BandFmt != VIPS_FORMAT_UCHAR || !vips_image_hasalpha(in) || (bands != 2 && bands != 4)) return 1;
    size_t pixels = (size_t) in->Xsize * (size_t) in->Ysize;
    if (VIPS_IMAGE_SIZEOF_IMAGE(in) != pixels * bands || !in->data) return 1;
    uint8_t *data = (uint8_t *) in->data;
    if (!cvips_alpha_is_opaque(data, (size_t) in->Xsize * (size_t) bands, in->Xsize, in->Ysize, bands)) return 1;
    int colour = bands - 1;
    for (size_t i = 1; i < pixels; i++)
        memmove(data + i * colour, data + i * bands, (size_t) colour);
    VipsImage *opaque = vips_image_new_from_memory(data, pixels * colour, in->Xsize, in->Ysize, colour, VIPS_FORMAT_UCHAR);
    if (!opaque) return -1;
    opaque->Type = colour == 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    g_object_ref(in);
    g_signal_connect(opaque, "postclose", G_CALLBACK(cvips_unref_on_close), in);
    *out = opaque;
    return 0;
}

int cvips_copy_memory(VipsImage *in, VipsImage **out) {
    *out = vips_image_copy_memory(in);
    return *out ? 0 : -1;
}

int cvips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

/* Resizes to exactly width x height (aspect kept by the caller's plan), premultiplying alpha.
 * Colour and orientation are the caller's: they are fixed once, before the resizes. */
int cvips_thumbnail_image(VipsImage *in, int width, int height, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE,
                                "no_rotate", TRUE, NULL);
}

/* Scales by hscale, vscale (lanczos3, premultiplied by the caller when there is alpha). */
int cvips_resize(VipsImage *in, double hscale, double vscale, VipsImage **out) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

/* Flattens alpha onto white (for JPEG, which has no alpha). */
int cvips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = {255, 255, 255};
    VipsArrayDouble *background = vips_array_double_new(white, in->Bands > 2 ? 3 : 1);
    int status = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

/* Resizes an image with alpha by hscale, vscale, its colour premultiplied by alpha so that
 * edges do not darken, and rounded back to its band format at the end. (libvips's thumbnail
 * truncates after unpremultiplying: about a fifth of the pixels come out one level too dark,
 * and flat areas turn to noise that compresses poorly.) */
int cvips_resize_premultiplied(VipsImage *in, double hscale, double vscale, VipsImage **out) {
    VipsImage *step[4] = { NULL, NULL, NULL, NULL };
    int failed = vips_premultiply(in, &step[0], NULL)
        || vips_resize(step[0], &step[1], hscale, "vscale", vscale, NULL)
        || vips_unpremultiply(step[1], &step[2], NULL)
        || vips_round(step[2], &step[3], VIPS_OPERATION_ROUND_RINT, NULL)
        || vips_cast(step[3], out, in->BandFmt, NULL);
    for (int i = 0; i < 4; i++)
        if (step[i]) g_object_unref(step[i]);
    return failed ? -1 : 0;
}

/* Converts to an embedded-or-given profile's sRGB, for images thumbnail does not handle. */
int cvips_icc_to_srgb(VipsImage *in, const char *input_profile, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "input_profile", input_profile,
                              "intent", VIPS_INTENT_RELATIVE, NULL);
}

/* Converts to a device space through an ICC profile ("cmyk" is libvips's built-in one). */
int cvips_icc_export(VipsImage *in, const char *profile, VipsImage **out) {
    return vips_icc_export(in, out, "output_profile", profile, NULL);
}

int cvips_colourspace(VipsImage *in, VipsInterpretation space, VipsImage **out) {
    return vips_colourspace(in, out, space, NULL);
}

int cvips_cast(VipsImage *in, VipsBandFormat format, VipsImage **out) {
    return vips_cast(in, out, format, NULL);
}

/* The top `frame_height` rows of an 8-bit image in memory (grey or sRGB, with or without
 * alpha) reduced to width x height RGBA by area averaging, colour weighted by alpha (as a
 * premultiplied resize), in one pass over the pixels: a placeholder's small copy of a decoded
 * master, at a fraction of the cost of a general resize. A pixel no visible pixel falls in is
 * transparent black. `histogram` (3 x 256) gets each level's count per colour band, weighted by
 * alpha, over every pixel of the frame: the average colour is taken from it in linear light,
 * which averages of sRGB numbers (these cells) cannot give. */
int cvips_area_average_rgba(VipsImage *in, int frame_height, int width, int height, uint8_t *rgba,
                            uint64_t *histogram) {
    int bands = in->Bands;
    if (in->BandFmt != VIPS_FORMAT_UCHAR || bands < 1 || bands > 4 || frame_height > in->Ysize
        || width < 1 || height < 1 || width > in->Xsize || height > frame_height) {
        vips_error("cvips_area_average_rgba", "expected 8-bit grey or RGB pixels larger than %dx%d", width, height);
        return -1;
    }
    if (vips_image_wio_input(in)) return -1;
    int alpha = bands == 2 || bands == 4;
    int grey = bands < 3;
    size_t cells = (size_t) width * (size_t) height;
    uint64_t *sums = g_malloc0_n(cells * 5, sizeof(uint64_t)); /* alpha-weighted r, g, b; alpha; count */
    int *column = g_malloc_n((size_t) in->Xsize, sizeof(int));
    for (int x = 0; x < in->Xsize; x++) column[x] = (int) ((int64_t) x * width / in->Xsize);
    for (int y = 0; y < frame_height; y++) {
        const uint8_t *row = VIPS_IMAGE_ADDR(in, 0, y);
        uint64_t *line = sums + (size_t) ((int64_t) y * height / frame_height) * (size_t) width * 5;
        for (int x = 0; x < in->Xsize; x++) {
            const uint8_t *pixel = row + (size_t) x * (size_t) bands;
            uint64_t a = alpha ? pixel[bands - 1] : 255;
            uint64_t *cell = line + (size_t) column[x] * 5;
            cell[0] += a * pixel[0];
            cell[1] += a * pixel[grey ? 0 : 1];
            cell[2] += a * pixel[grey ? 0 : 2];
            cell[3] += a;
            cell[4] += 1;
            histogram[pixel[0]] += a;
            histogram[256 + pixel[grey ? 0 : 1]] += a;
            histogram[512 + pixel[grey ? 0 : 2]] += a;
        }
    }
    for (size_t i = 0; i < cells; i++) {
        const uint64_t *cell = sums + i * 5;
        uint8_t *out = rgba + i * 4;
        for (int band = 0; band < 3; band++)
            out[band] = cell[3] ? (uint8_t) ((cell[band] + cell[3] / 2) / cell[3]) : 0;
        out[3] = cell[4] ? (uint8_t) ((cell[3] + cell[4] / 2) / cell[4]) : 0;
    }
    g_free(column);
    g_free(sums);
    return 0;
}

/* An sRGB image made from a copy of 8-bit RGBA pixels. */
int cvips_image_from_rgba(const void *rgba, int width, int height, VipsImage **out) {
    *out = vips_image_new_from_memory_copy(rgba, (size_t) width * (size_t) height * 4, width, height, 4, VIPS_FORMAT_UCHAR);
    if (!*out) return -1;
    (*out)->Type = VIPS_INTERPRETATION_sRGB;
    return 0;
}
