/*
 * Fixed-argument wrappers of the libvips calls Swift cannot make (variadic functions).
 * Every symbol is prefixed cvips_; each returns 0 on success and -1 on error, with the
 * reason in libvips's error buffer (read with cvips_error_take).
 */
#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <vips/vips.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <glib.h>
#include <string.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

static inline int cvips_init(const char *argv0) { return VIPS_INIT(argv0); }

/* Large pixel buffers (decoded masters, encoder frames) are mapped and unmapped on their own,
 * so memory goes back to the system as soon as an image is freed. glibc otherwise raises its
 * mmap threshold after the first such free and keeps later buffers in its heaps. */
static inline void cvips_return_large_buffers_promptly(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

static inline void cvips_warning_to_error(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) data;
    vips_error("libvips", "%s", message);
}

/* libvips's warnings ("not enough data", "read gave 2 warnings") join its error text instead of
 * going to stderr on their own: the failure they explain is then reported with the file's name,
 * and a build's stderr holds only dppx's lines. */
static inline void cvips_warnings_into_errors(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, cvips_warning_to_error, NULL);
}

/* Takes (and clears) the process-wide error text; free the result with g_free. */
static inline char *cvips_error_take(void) {
    char *text = g_strdup(vips_error_buffer());
    vips_error_clear();
    return text;
}

/* Opens a file lazily: the header is read, pixels are not decoded. */
static inline int cvips_open_header(const char *path, VipsImage **out) {
    *out = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    return *out ? 0 : -1;
}

/* Opens a file for decoding: `pages` is -1 for every page of an animation, 1 for the first.
 * Random access is needed to rotate; sequential streams. Truncated or damaged pixel data is
 * an error rather than grey fill. */
static inline int cvips_open(const char *path, int pages, int random_access, VipsImage **out) {
    VipsAccess access = random_access ? VIPS_ACCESS_RANDOM : VIPS_ACCESS_SEQUENTIAL;
    const char *loader = vips_foreign_find_load(path);
    if (!loader) return -1;
    /* "n" exists only for multi-page loaders; passing it elsewhere is an error. */
    char *lower = g_ascii_strdown(loader, -1);
    int paged = strstr(lower, "gif") || strstr(lower, "webp") || strstr(lower, "tiff") ||
                strstr(lower, "heif") || strstr(lower, "pdf");
    g_free(lower);
    if (paged)
        *out = vips_image_new_from_file(path, "access", access,
                                        "fail_on", VIPS_FAIL_ON_TRUNCATED, "n", pages, NULL);
    else
        *out = vips_image_new_from_file(path, "access", access,
                                        "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
    return *out ? 0 : -1;
}

/* Opens an SVG at `scale` times its natural size. */
static inline int cvips_open_svg(const char *path, double scale, VipsImage **out) {
    *out = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "scale", scale,
                                    "unlimited", FALSE, NULL);
    return *out ? 0 : -1;
}

/* Reads a whole WebP file and its header; on success the caller frees *data with g_free. */
static inline int cvips_webp_read(const char *path, gchar **data, gsize *length, WebPBitstreamFeatures *features) {
    GError *error = NULL;
    if (!g_file_get_contents(path, data, length, &error)) {
        vips_error("webpload", "%s", error ? error->message : "cannot be read");
        if (error) g_error_free(error);
        return -1;
    }
    if (WebPGetFeatures((const uint8_t *) *data, *length, features) != VP8_STATUS_OK) {
        vips_error("webpload", "not a WebP image, or its header is damaged");
        g_free(*data);
        return -1;
    }
    return 0;
}

/* Decodes a still, 8-bit sRGB WebP file straight into a memory image (3 bands, or 4 with
 * alpha): the pixels libvips's loader gives, without the two full-size RGBA frame buffers it
 * builds on the way (134 MB for a 4096x4096 master). Damaged or truncated data is an error. */
static inline int cvips_webp_decode_file(const char *path, VipsImage **out) {
    gchar *data = NULL;
    gsize length = 0;
    WebPBitstreamFeatures features;
    if (cvips_webp_read(path, &data, &length, &features)) return -1;
    if (features.has_animation) {
        vips_error("webpload", "is animated: decode it with libvips's loader");
        g_free(data);
        return -1;
    }
    int bands = features.has_alpha ? 4 : 3;
    VipsImage *image = vips_image_new_memory();
    vips_image_init_fields(image, features.width, features.height, bands, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
                           VIPS_INTERPRETATION_sRGB, 1.0, 1.0);
    if (vips_image_write_prepare(image)) {
        g_object_unref(image);
        g_free(data);
        return -1;
    }
    size_t stride = VIPS_IMAGE_SIZEOF_LINE(image);
    size_t size = stride * (size_t) features.height;
    uint8_t *pixels = VIPS_IMAGE_ADDR(image, 0, 0);
    uint8_t *decoded = bands == 4
        ? WebPDecodeRGBAInto((const uint8_t *) data, length, pixels, size, (int) stride)
        : WebPDecodeRGBInto((const uint8_t *) data, length, pixels, size, (int) stride);
    g_free(data);
    if (!decoded) {
        vips_error("webpload", "the WebP data is damaged or truncated");
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}

/* A new libwebp picture of width x height, its YUV 4:2:0 planes allocated (contiguous: strides
 * equal widths); NULL, with the reason in libvips's error buffer under `domain`, on failure. */
static inline WebPPicture *cvips_webp_yuv_picture_new(int width, int height, const char *domain) {
    WebPPicture *picture = g_new0(WebPPicture, 1);
    if (!WebPPictureInit(picture)) {
        vips_error(domain, "libwebp version mismatch");
        g_free(picture);
        return NULL;
    }
    picture->use_argb = 0;
    picture->colorspace = WEBP_YUV420;
    picture->width = width;
    picture->height = height;
    if (!WebPPictureAlloc(picture)) {
        vips_error(domain, "out of memory for a %dx%d image", width, height);
        g_free(picture);
        return NULL;
    }
    return picture;
}

/* Decodes a still, lossy WebP without alpha straight into libwebp's encoder input (YUV 4:2:0,
 * 1.5 bytes a pixel), for a master whose outputs are all lossy WebP: no RGB copy (3 bytes a
 * pixel), no colour conversion either way. Returns 1, with nothing decoded, when the file is
 * not such a WebP (lossless, alpha, animated): decode it to RGB instead. Free the result with
 * cvips_webp_input_free (cvips_webp_input_encode does). */
static inline int cvips_webp_decode_yuv_file(const char *path, WebPPicture **out) {
    gchar *data = NULL;
    gsize length = 0;
    WebPBitstreamFeatures features;
    if (cvips_webp_read(path, &data, &length, &features)) return -1;
    if (features.has_animation || features.has_alpha || features.format != 1) {
        g_free(data);
        return 1;
    }
    WebPPicture *picture = cvips_webp_yuv_picture_new(features.width, features.height, "webpload");
    if (!picture) {
        g_free(data);
        return -1;
    }
    int uv_height = (features.height + 1) / 2;
    uint8_t *decoded = WebPDecodeYUVInto((const uint8_t *) data, length,
        picture->y, (size_t) picture->y_stride * (size_t) features.height, picture->y_stride,
        picture->u, (size_t) picture->uv_stride * (size_t) uv_height, picture->uv_stride,
        picture->v, (size_t) picture->uv_stride * (size_t) uv_height, picture->uv_stride);
    g_free(data);
    if (!decoded) {
        vips_error("webpload", "the WebP data is damaged or truncated");
        WebPPictureFree(picture);
        g_free(picture);
        return -1;
    }
    *out = picture;
    return 0;
}

/* A copy of `from` (a YUV 4:2:0 input) at width x height, each plane resized on its own by
 * libvips (Lanczos 3, as every other resize): luma to the new size, chroma to half of it,
 * rounded up. Resizing Y'CbCr is resizing R'G'B' up to rounding: the conversion between them
 * is linear, and libvips resizes sRGB values as they are. */
static inline int cvips_webp_input_resized(const WebPPicture *from, int width, int height, WebPPicture **out) {
    if (from->use_argb || !from->y || !from->u || !from->v) {
        vips_error("webpsave", "the input to resize is not YUV 4:2:0");
        return -1;
    }
    WebPPicture *picture = cvips_webp_yuv_picture_new(width, height, "webpsave");
    if (!picture) return -1;
    const uint8_t *sources[3] = { from->y, from->u, from->v };
    uint8_t *targets[3] = { picture->y, picture->u, picture->v };
    for (int plane = 0; plane < 3; plane++) {
        int luma = plane == 0;
        int source_width = luma ? from->width : (from->width + 1) / 2;
        int source_height = luma ? from->height : (from->height + 1) / 2;
        int source_stride = luma ? from->y_stride : from->uv_stride;
        int target_width = luma ? width : (width + 1) / 2;
        int target_height = luma ? height : (height + 1) / 2;
        int target_stride = luma ? picture->y_stride : picture->uv_stride;
        VipsImage *source = vips_image_new_from_memory(sources[plane],
            (size_t) source_stride * (size_t) source_height, source_stride, source_height, 1, VIPS_FORMAT_UCHAR);
        VipsImage *wide = NULL, *resized = NULL;
        int failed = !source;
        /* Strides can exceed widths: crop the padding off before resizing. */
        if (!failed) failed = vips_extract_area(source, &wide, 0, 0, source_width, source_height, NULL);
        if (!failed) failed = vips_thumbnail_image(wide, &resized, target_width, "height", target_height,
                                                   "size", VIPS_SIZE_FORCE, "no_rotate", TRUE, NULL);
        size_t size = 0;
        uint8_t *pixels = failed ? NULL : vips_image_write_to_memory(resized, &size);
        if (source) g_object_unref(source);
        if (wide) g_object_unref(wide);
        if (resized) g_object_unref(resized);
        if (!pixels || size != (size_t) target_width * (size_t) target_height) {
            if (pixels) {
                vips_error("webpsave", "a resized plane came out at the wrong size");
                g_free(pixels);
            }
            WebPPictureFree(picture);
            g_free(picture);
            return -1;
        }
        for (int row = 0; row < target_height; row++)
            memcpy(targets[plane] + (size_t) row * (size_t) target_stride, pixels + (size_t) row * (size_t) target_width,
                   (size_t) target_width);
        g_free(pixels);
    }
    *out = picture;
    return 0;
}

static inline void cvips_unref_on_close(VipsImage *image, gpointer owner) {
    (void) image;
    g_object_unref(owner);
}

/* For a decoded still image in memory, 8-bit with an alpha band that is 255 everywhere (most
 * PNGs exported "with transparency" that have none): the same pixels without the alpha band,
 * moved down in place in the same buffer, so nothing is allocated. `in` is then spent: only
 * `out` may be read (it keeps `in`, which owns the memory, alive). Returns 1, with `in`
 * untouched, when there is no alpha band or some pixel is not fully opaque. */
static inline int cvips_drop_opaque_alpha(VipsImage *in, VipsImage **out) {
    int bands = in->Bands;
    if (in->BandFmt != VIPS_FORMAT_UCHAR || !vips_image_hasalpha(in) || (bands != 2 && bands != 4)) return 1;
    size_t pixels = (size_t) in->Xsize * (size_t) in->Ysize;
    if (VIPS_IMAGE_SIZEOF_IMAGE(in) != pixels * bands || !in->data) return 1;
    uint8_t *data = (uint8_t *) in->data;
    for (size_t i = 0; i < pixels; i++)
        if (data[i * bands + bands - 1] != 255) return 1;
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

static inline int cvips_copy_memory(VipsImage *in, VipsImage **out) {
    *out = vips_image_copy_memory(in);
    return *out ? 0 : -1;
}

static inline int cvips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

/* Resizes to exactly width x height (aspect kept by the caller's plan), premultiplying alpha.
 * Colour and orientation are the caller's: they are fixed once, before the resizes. */
static inline int cvips_thumbnail_image(VipsImage *in, int width, int height, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE,
                                "no_rotate", TRUE, NULL);
}

/* Shrink-on-load resize straight from a file (JPEG, WebP, HEIF decode at reduced size). */
static inline int cvips_thumbnail_file(const char *path, int width, int height, VipsImage **out) {
    return vips_thumbnail(path, out, width, "height", height, "size", VIPS_SIZE_FORCE,
                          "export_profile", "srgb",
                          "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/* Scales by hscale, vscale (lanczos3, premultiplied by the caller when there is alpha). */
static inline int cvips_resize(VipsImage *in, double hscale, double vscale, VipsImage **out) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

/* Flattens alpha onto white (for JPEG, which has no alpha). */
static inline int cvips_flatten_white(VipsImage *in, VipsImage **out) {
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
static inline int cvips_resize_premultiplied(VipsImage *in, double hscale, double vscale, VipsImage **out) {
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
static inline int cvips_icc_to_srgb(VipsImage *in, const char *input_profile, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "input_profile", input_profile,
                              "intent", VIPS_INTENT_RELATIVE, NULL);
}

static inline int cvips_colourspace(VipsImage *in, VipsInterpretation space, VipsImage **out) {
    return vips_colourspace(in, out, space, NULL);
}

static inline int cvips_cast(VipsImage *in, VipsBandFormat format, VipsImage **out) {
    return vips_cast(in, out, format, NULL);
}

static inline int cvips_extract_band(VipsImage *in, int band, int n, VipsImage **out) {
    return vips_extract_band(in, out, band, "n", n, NULL);
}

/* Encoders: write to a g_malloc'd buffer (free with g_free). Metadata is stripped. */
static inline int cvips_jpegsave(VipsImage *in, int quality, int progressive, void **buf, size_t *len) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, "optimize_coding", TRUE,
                                "interlace", progressive, NULL);
}

static inline int cvips_pngsave(VipsImage *in, int compression, int effort, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, "compression", compression, "strip", TRUE,
                               "effort", effort, "filter", VIPS_FOREIGN_PNG_FILTER_ALL, NULL);
}

static inline int cvips_webpsave(VipsImage *in, int quality, int lossless, int effort, void **buf, size_t *len) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, "lossless", lossless, "effort", effort,
                                "strip", TRUE, NULL);
}

/* libwebp's input for one still image, taken from an 8-bit image with 3 or 4 bands: YUV 4:2:0
 * for lossy (1.5 bytes a pixel, or 2.5 with alpha), ARGB for lossless. Taking it renders the
 * image (a resize runs here) and copies nothing else, so the image it came from, and the
 * decoded master behind it, can be released before the far longer encode. Free the result
 * with cvips_webp_input_free (cvips_webp_input_encode does). */
static inline int cvips_webp_input_new(VipsImage *in, int lossless, WebPPicture **out) {
    VipsImage *memory = vips_image_copy_memory(in); /* a reference, not a copy, when already in memory */
    if (!memory) return -1;
    WebPPicture *picture = g_new0(WebPPicture, 1);
    if (!WebPPictureInit(picture)) {
        vips_error("webpsave", "libwebp version mismatch");
        g_object_unref(memory);
        g_free(picture);
        return -1;
    }
    picture->use_argb = lossless;
    picture->width = memory->Xsize;
    picture->height = memory->Ysize;
    int stride = (int) VIPS_IMAGE_SIZEOF_LINE(memory);
    const uint8_t *pixels = VIPS_IMAGE_ADDR(memory, 0, 0);
    int imported = memory->Bands == 4 ? WebPPictureImportRGBA(picture, pixels, stride)
                                      : WebPPictureImportRGB(picture, pixels, stride);
    g_object_unref(memory);
    if (!imported) {
        vips_error("webpsave", "out of memory importing the pixels");
        WebPPictureFree(picture);
        g_free(picture);
        return -1;
    }
    *out = picture;
    return 0;
}

static inline void cvips_webp_input_free(WebPPicture *picture) {
    if (!picture) return;
    WebPPictureFree(picture);
    g_free(picture);
}

/* Encodes an input from cvips_webp_input_new and frees it: the same still-image WebP as
 * cvips_webpsave (libwebp's default preset at `quality`, method `effort`, no metadata),
 * without libvips's copy of the whole image (50 MB at 4096x4096) and without the EXIF chunk
 * it writes even when stripping. */
static inline int cvips_webp_input_encode(WebPPicture *picture, int quality, int lossless, int effort,
                                          void **buf, size_t *len) {
    WebPConfig config;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, (float) quality)) {
        vips_error("webpsave", "libwebp version mismatch");
        cvips_webp_input_free(picture);
        return -1;
    }
    config.lossless = lossless;
    config.method = effort;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture->writer = WebPMemoryWrite;
    picture->custom_ptr = &writer;
    int encoded = WebPEncode(&config, picture);
    int error = picture->error_code;
    cvips_webp_input_free(picture);
    if (!encoded) {
        vips_error("webpsave", "libwebp could not encode the image (error %d)", error);
        WebPMemoryWriterClear(&writer);
        return -1;
    }
    *buf = g_memdup2(writer.mem, writer.size);
    *len = writer.size;
    WebPMemoryWriterClear(&writer);
    return 0;
}

static inline int cvips_avifsave(VipsImage *in, int quality, int lossless, int effort, void **buf, size_t *len) {
    return vips_heifsave_buffer(in, buf, len, "Q", quality, "lossless", lossless, "effort", effort,
                                "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "strip", TRUE, NULL);
}

static inline int cvips_gifsave(VipsImage *in, int effort, void **buf, size_t *len) {
    return vips_gifsave_buffer(in, buf, len, "effort", effort, "strip", TRUE, NULL);
}

static inline int cvips_tiffsave(VipsImage *in, void **buf, size_t *len) {
    return vips_tiffsave_buffer(in, buf, len, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE,
                                "strip", TRUE, NULL);
}

/* Reads a string field ("vips-loader"); NULL when absent. Do not free. */
static inline const char *cvips_get_string(VipsImage *image, const char *name) {
    const char *out = NULL;
    if (vips_image_get_typeof(image, name) == 0) return NULL;
    if (vips_image_get_string(image, name, &out)) { vips_error_clear(); return NULL; }
    return out;
}

/* Reads an int field ("orientation", "n-pages"); `fallback` when absent. */
static inline int cvips_get_int(VipsImage *image, const char *name, int fallback) {
    int out = fallback;
    if (vips_image_get_typeof(image, name) == 0) return fallback;
    if (vips_image_get_int(image, name, &out)) { vips_error_clear(); return fallback; }
    return out;
}

static inline int cvips_has_field(VipsImage *image, const char *name) {
    return vips_image_get_typeof(image, name) != 0;
}

/* A copy whose metadata may be changed (libvips images are otherwise shared). */
static inline int cvips_copy(VipsImage *in, VipsImage **out) { return vips_copy(in, out, NULL); }

/* A copy with another interpretation (e.g. RGB16 for 16-bit pixels made in memory). */
static inline int cvips_copy_as(VipsImage *in, VipsInterpretation interpretation, VipsImage **out) {
    return vips_copy(in, out, "interpretation", interpretation, NULL);
}

static inline void cvips_set_int(VipsImage *image, const char *name, int value) {
    vips_image_set_int(image, name, value);
}

static inline void cvips_set_string(VipsImage *image, const char *name, const char *value) {
    vips_image_set_string(image, name, value);
}

/* Writes to a file, format and options from the name ("a.png[bitdepth=16]"). Tests use it to
 * make fixtures; the build writes through the buffer encoders and atomic renames instead. */
static inline int cvips_write_file(VipsImage *in, const char *path) {
    return vips_image_write_to_file(in, path, NULL);
}

/* Converts to a device space through an ICC profile ("cmyk" is libvips's built-in one). */
static inline int cvips_icc_export(VipsImage *in, const char *profile, VipsImage **out) {
    return vips_icc_export(in, out, "output_profile", profile, NULL);
}

static inline void cvips_unref(VipsImage *image) { g_object_unref(image); }

/* How many holders an image has: 1 when only its owner's handle refers to it. */
static inline int cvips_ref_count(VipsImage *image) { return (int) G_OBJECT(image)->ref_count; }

#endif
