/* libwebp straight from and to pixel buffers: decoding without libvips's frame copies, and
 * encoding without libvips's copy of the image. */
#include "cvips.h"

#include <string.h>

int cvips_webp_decode_buffer(const void *data, size_t length, VipsImage **out) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures((const uint8_t *) data, length, &features) != VP8_STATUS_OK) {
        vips_error("webpload", "not a WebP image, or its header is damaged");
        return -1;
    }
    if (features.has_animation) {
        vips_error("webpload", "is animated: decode it with libvips's loader");
        return -1;
    }
    int bands = features.has_alpha ? 4 : 3;
    VipsImage *image = vips_image_new_memory();
    vips_image_init_fields(image, features.width, features.height, bands, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
                           VIPS_INTERPRETATION_sRGB, 1.0, 1.0);
    if (vips_image_write_prepare(image)) {
        g_object_unref(image);
        return -1;
    }
    size_t stride = VIPS_IMAGE_SIZEOF_LINE(image);
    size_t size = stride * (size_t) features.height;
    uint8_t *pixels = VIPS_IMAGE_ADDR(image, 0, 0);
    uint8_t *decoded = bands == 4
        ? WebPDecodeRGBAInto((const uint8_t *) data, length, pixels, size, (int) stride)
        : WebPDecodeRGBInto((const uint8_t *) data, length, pixels, size, (int) stride);
    if (!decoded) {
        vips_error("webpload", "the WebP data is damaged or truncated");
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}

/* A new libwebp picture of width x height, its YUV 4:2:0 planes (and an alpha plane when
 * `alpha`) allocated (contiguous: strides equal widths); NULL, with the reason in libvips's
 * error buffer under `domain`, on failure. */
static WebPPicture *cvips_webp_yuv_picture_new(int width, int height, int alpha, const char *domain) {
    WebPPicture *picture = g_new0(WebPPicture, 1);
    if (!WebPPictureInit(picture)) {
        vips_error(domain, "libwebp version mismatch");
        g_free(picture);
        return NULL;
    }
    picture->colorspace = alpha ? WEBP_YUV420A : WEBP_YUV420;
    picture->width = width;
    picture->height = height;
    if (!WebPPictureAlloc(picture)) {
        vips_error(domain, "out of memory for a %dx%d image", width, height);
        g_free(picture);
        return NULL;
    }
    return picture;
}

/* How many rows libwebp's sharp RGB to YUV conversion is given at a time, and how many more it
 * sees above and below each strip. Given a whole picture, it refines it at once in working
 * planes of about 7 bytes a pixel besides a 4-byte ARGB copy (185 MB for a 4096x4096 variant);
 * a strip of 4096x288 takes 13 MB. It refines each pixel from its neighbours only, so rows
 * with 16 rows of context either side come out exactly as they would whole (the files are the
 * same bytes: WebPSearchInputTests). */
enum { CVIPS_SHARP_STRIP_ROWS = 256, CVIPS_SHARP_CONTEXT_ROWS = 16 };

/* Fills `yuv` (YUV 4:2:0, with an alpha plane if the pixels have transparency) from 8-bit
 * pixels with 3 or 4 bands by libwebp's sharp conversion, strip by strip. */
static int cvips_webp_sharp_yuv(const uint8_t *pixels, size_t stride, int bands, WebPPicture *yuv) {
    int width = yuv->width, height = yuv->height, uv_width = (width + 1) / 2;
    for (int top = 0; top < height; top += CVIPS_SHARP_STRIP_ROWS) {
        int bottom = MIN(height, top + CVIPS_SHARP_STRIP_ROWS);
        int from = MAX(0, top - CVIPS_SHARP_CONTEXT_ROWS), to = MIN(height, bottom + CVIPS_SHARP_CONTEXT_ROWS);
        WebPPicture part;
        if (!WebPPictureInit(&part)) return 0;
        part.use_argb = 1;
        part.width = width;
        part.height = to - from;
        const uint8_t *rows = pixels + (size_t) from * stride;
        int done = bands == 4 ? WebPPictureImportRGBA(&part, rows, (int) stride) : WebPPictureImportRGB(&part, rows, (int) stride);
        if (done) done = WebPPictureSharpARGBToYUVA(&part);
        if (done) {
            /* `from` and `top` are even, so chroma row r of the strip is row from / 2 + r. */
            for (int y = top; y < bottom; y++) {
                memcpy(yuv->y + (size_t) y * (size_t) yuv->y_stride, part.y + (size_t) (y - from) * (size_t) part.y_stride, (size_t) width);
                if (yuv->a) {
                    uint8_t *alpha = yuv->a + (size_t) y * (size_t) yuv->a_stride;
                    if (part.a) memcpy(alpha, part.a + (size_t) (y - from) * (size_t) part.a_stride, (size_t) width);
                    else memset(alpha, 255, (size_t) width);
                }
            }
            for (int y = top / 2; y < (bottom + 1) / 2; y++) {
                size_t at = (size_t) y * (size_t) yuv->uv_stride, in = (size_t) (y - from / 2) * (size_t) part.uv_stride;
                memcpy(yuv->u + at, part.u + in, (size_t) uv_width);
                memcpy(yuv->v + at, part.v + in, (size_t) uv_width);
            }
        }
        WebPPictureFree(&part);
        if (!done) return 0;
    }
    return 1;
}

/* libwebp's input for one lossy still image, taken from an 8-bit image with 3 or 4 bands: YUV
 * 4:2:0 (1.5 bytes a pixel, or 2.5 with alpha). Taking it renders the image (a resize runs
 * here) and copies nothing else, so the image it came from, and the decoded master behind it,
 * can be released before the far longer encode. `sharp`: libwebp's sharp conversion to YUV,
 * which keeps colour edges that averaging each 2x2 block's chroma blurs, rather than its plain
 * one. Free the result with cvips_webp_input_free. */
int cvips_webp_input_new(VipsImage *in, int sharp, WebPPicture **out) {
    VipsImage *memory = vips_image_copy_memory(in); /* a reference, not a copy, when already in memory */
    if (!memory) return -1;
    size_t stride = VIPS_IMAGE_SIZEOF_LINE(memory);
    const uint8_t *pixels = VIPS_IMAGE_ADDR(memory, 0, 0);
    if (sharp) {
        int alpha = memory->Bands == 4 && !cvips_alpha_is_opaque(pixels, stride, memory->Xsize, memory->Ysize, 4);
        WebPPicture *picture = cvips_webp_yuv_picture_new(memory->Xsize, memory->Ysize, alpha, "webpsave");
        int converted = picture && cvips_webp_sharp_yuv(pixels, stride, memory->Bands, picture);
        g_object_unref(memory);
        if (picture && !converted) {
            vips_error("webpsave", "out of memory converting the pixels to YUV");
            cvips_webp_input_free(picture);
            return -1;
        }
        if (!picture) return -1;
        *out = picture;
        return 0;
    }
    WebPPicture *picture = g_new0(WebPPicture, 1);
    if (!WebPPictureInit(picture)) {
        vips_error("webpsave", "libwebp version mismatch");
        g_object_unref(memory);
        g_free(picture);
        return -1;
    }
    picture->width = memory->Xsize;
    picture->height = memory->Ysize;
    int imported = memory->Bands == 4 ? WebPPictureImportRGBA(picture, pixels, (int) stride)
                                      : WebPPictureImportRGB(picture, pixels, (int) stride);
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

void cvips_webp_input_free(WebPPicture *picture) {
    if (!picture) return;
    WebPPictureFree(picture);
    g_free(picture);
}

/* Encodes an input from cvips_webp_input_new, which stays the caller's: the same still-image
 * WebP as cvips_webpsave (libwebp's default preset at `quality`, method `effort`, no
 * metadata), without libvips's copy of the whole image (50 MB at 4096x4096) and without the
 * EXIF chunk it writes even when stripping. libwebp only reads a YUV input's planes, so a
 * quality search encodes one input at each quality it tries. Its failures are libwebp's own
 * error codes rather than text in libvips's error buffer, which the callers' retry (see
 * cvips_shared_begin) could not take from a run that left the input spent. */
int cvips_webp_picture_encode(WebPPicture *picture, int quality, int effort, void **buf, size_t *len) {
    WebPConfig config;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, (float) quality)) return VP8_ENC_ERROR_LAST;
    config.method = effort;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture->writer = WebPMemoryWrite;
    picture->custom_ptr = &writer;
    int encoded = WebPEncode(&config, picture);
    int error = picture->error_code;
    picture->writer = NULL;
    picture->custom_ptr = NULL;
    if (!encoded) {
        WebPMemoryWriterClear(&writer);
        return error == VP8_ENC_OK ? VP8_ENC_ERROR_LAST : error;
    }
    *buf = g_memdup2(writer.mem, writer.size);
    *len = writer.size;
    WebPMemoryWriterClear(&writer);
    return 0;
}

/* Converts a YUV input to RGB the way a decoder upsamples it (libwebp's fancy upsampler), into
 * `out`: rows of `stride` bytes, `bands` (3 or 4, alpha last) bytes a pixel. The picture
 * gains an ARGB copy, freed with it. */
static int cvips_webp_input_to_bytes(WebPPicture *picture, uint8_t *out, size_t stride, int bands) {
    if (!WebPPictureYUVAToARGB(picture)) {
        vips_error("webpload", "libwebp could not convert the picture to RGB");
        return -1;
    }
    for (int y = 0; y < picture->height; y++) {
        const uint32_t *row = picture->argb + (size_t) y * (size_t) picture->argb_stride;
        uint8_t *pixels = out + (size_t) y * stride;
        for (int x = 0; x < picture->width; x++) {
            uint32_t pixel = row[x];
            uint8_t *to = pixels + (size_t) x * (size_t) bands;
            to[0] = (uint8_t) (pixel >> 16);
            to[1] = (uint8_t) (pixel >> 8);
            to[2] = (uint8_t) pixel;
            if (bands == 4) to[3] = (uint8_t) (pixel >> 24);
        }
    }
    return 0;
}

/* A YUV input's pixels as a decoder upsamples them, nothing compressed: a memory image of
 * `bands` 3 or 4. The conversion reads a view of the input's planes, so the input is left as
 * it was and can still be encoded. */
int cvips_webp_input_rgb(const WebPPicture *picture, int bands, VipsImage **out) {
    WebPPicture view;
    if (picture->use_argb || !WebPPictureView(picture, 0, 0, picture->width, picture->height, &view)) {
        vips_error("webpload", "the input is not YUV 4:2:0");
        return -1;
    }
    VipsImage *image = vips_image_new_memory();
    vips_image_init_fields(image, picture->width, picture->height, bands, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
                           VIPS_INTERPRETATION_sRGB, 1.0, 1.0);
    int failed = vips_image_write_prepare(image)
        || cvips_webp_input_to_bytes(&view, VIPS_IMAGE_ADDR(image, 0, 0), VIPS_IMAGE_SIZEOF_LINE(image), bands);
    WebPPictureFree(&view);
    if (failed) {
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}

int cvips_webp_plain_roundtrip(VipsImage *in, VipsImage **out) {
    WebPPicture *picture = NULL;
    if (cvips_webp_input_new(in, 0, &picture)) return -1;
    int status = cvips_webp_input_rgb(picture, in->Bands, out);
    cvips_webp_input_free(picture);
    return status;
}
