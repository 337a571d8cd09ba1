/*
 * bench/encode-floor.c: the least CPU time any tool can spend on bench/build's job at its
 * encoder settings: each master decoded once, each output encoded once. That is the codecs'
 * own work, which every tool pays at equal settings. The resizes (libvips's Lanczos 3, one per
 * smaller output) are timed apart, so the floor can be read with or without them. Nothing else
 * a real tool does (reading files, writing them, hashing, scheduling) is counted. bench/build
 * compiles and runs it; it is not part of dppx.
 *
 * Usage: encode-floor MASTER...   (each master taken as 2x, outputs at 1x, 1.5x and 2x in its
 * own format; a PNG output at the master's size costs nothing, as dppx copies it; an alpha
 * band that is opaque everywhere is dropped for free, as dppx drops it)
 * Prints one line: decode_cpu_s resize_cpu_s encode_cpu_s
 */
#include <vips/vips.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The encoder settings; bench/build passes its own with -D. */
#ifndef JPEG_Q
#define JPEG_Q 82
#endif
#ifndef WEBP_Q
#define WEBP_Q 80
#endif
#ifndef WEBP_EFFORT
#define WEBP_EFFORT 4
#endif
#ifndef PNG_LEVEL
#define PNG_LEVEL 6
#endif

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int fail(const char *path, const char *what) {
    fprintf(stderr, "encode-floor: %s: %s %s\n", path, what, vips_error_buffer());
    return 1;
}

/* A resized copy of a 1-band plane, in memory. */
static VipsImage *plane(const uint8_t *pixels, int width, int height, int target_width, int target_height) {
    VipsImage *source = vips_image_new_from_memory(pixels, (size_t) width * height, width, height, 1, VIPS_FORMAT_UCHAR);
    VipsImage *resized = NULL;
    if (vips_thumbnail_image(source, &resized, target_width, "height", target_height, "size", VIPS_SIZE_FORCE, NULL))
        return NULL;
    VipsImage *memory = vips_image_copy_memory(resized);
    g_object_unref(resized);
    g_object_unref(source);
    return memory;
}

/* WebP: decoded straight to YUV 4:2:0, encoded from YUV (libwebp's own input form). */
static int webp_floor(const char *path, double *decode, double *resize, double *encode) {
    gchar *data;
    gsize length;
    if (!g_file_get_contents(path, &data, &length, NULL)) return fail(path, "cannot read");
    int width, height;
    double t0 = cpu_seconds();
    uint8_t *u, *v;
    int y_stride, uv_stride;
    uint8_t *y = WebPDecodeYUV((const uint8_t *) data, length, &width, &height, &u, &v, &y_stride, &uv_stride);
    *decode += cpu_seconds() - t0;
    g_free(data);
    if (!y) return fail(path, "cannot decode");
    if (y_stride != width || uv_stride != (width + 1) / 2) return fail(path, "unexpected strides");
    for (int k = 0; k < 3; k++) {
        double density = k == 0 ? 1 : k == 1 ? 1.5 : 2;
        int w = (int) (width * density / 2 + 0.5), h = (int) (height * density / 2 + 0.5);
        WebPPicture picture;
        WebPPictureInit(&picture);
        picture.width = w;
        picture.height = h;
        WebPPictureAlloc(&picture);
        VipsImage *planes[3] = { NULL, NULL, NULL };
        const uint8_t *sources[3] = { y, u, v };
        uint8_t *targets[3] = { picture.y, picture.u, picture.v };
        for (int p = 0; p < 3; p++) {
            int sw = p ? (width + 1) / 2 : width, sh = p ? (height + 1) / 2 : height;
            int tw = p ? (w + 1) / 2 : w, th = p ? (h + 1) / 2 : h;
            if (tw == sw && th == sh) {
                memcpy(targets[p], sources[p], (size_t) sw * sh);
                continue;
            }
            t0 = cpu_seconds();
            planes[p] = plane(sources[p], sw, sh, tw, th);
            *resize += cpu_seconds() - t0;
            if (!planes[p]) return fail(path, "cannot resize");
            memcpy(targets[p], VIPS_IMAGE_ADDR(planes[p], 0, 0), (size_t) tw * th);
            g_object_unref(planes[p]);
        }
        WebPConfig config;
        WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, WEBP_Q);
        config.method = WEBP_EFFORT;
        WebPMemoryWriter writer;
        WebPMemoryWriterInit(&writer);
        picture.writer = WebPMemoryWrite;
        picture.custom_ptr = &writer;
        t0 = cpu_seconds();
        int ok = WebPEncode(&config, &picture);
        *encode += cpu_seconds() - t0;
        WebPMemoryWriterClear(&writer);
        WebPPictureFree(&picture);
        if (!ok) return fail(path, "cannot encode");
    }
    WebPFree(y);
    return 0;
}

/* JPEG and PNG: decoded by libvips into memory, encoded by libvips's savers. */
static int libvips_floor(const char *path, int png, double *decode, double *resize, double *encode) {
    double t0 = cpu_seconds();
    VipsImage *file = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    VipsImage *master = file ? vips_image_copy_memory(file) : NULL;
    *decode += cpu_seconds() - t0;
    if (file) g_object_unref(file);
    if (!master) return fail(path, "cannot decode");
    if (vips_image_hasalpha(master)) {
        VipsImage *alpha, *colour;
        double least;
        if (vips_extract_band(master, &alpha, master->Bands - 1, NULL) || vips_min(alpha, &least, NULL))
            return fail(path, "cannot read alpha");
        g_object_unref(alpha);
        if (least == 255) {
            if (vips_extract_band(master, &colour, 0, "n", master->Bands - 1, NULL)) return fail(path, "cannot drop alpha");
            g_object_unref(master);
            master = vips_image_copy_memory(colour);
            g_object_unref(colour);
        }
    }
    for (int k = 0; k < 3; k++) {
        double density = k == 0 ? 1 : k == 1 ? 1.5 : 2;
        int w = (int) (master->Xsize * density / 2 + 0.5), h = (int) (master->Ysize * density / 2 + 0.5);
        if (png && w == master->Xsize) continue;   /* the master's own pixel data, copied */
        VipsImage *output = master;
        g_object_ref(output);
        if (w != master->Xsize) {
            VipsImage *resized;
            t0 = cpu_seconds();
            if (vips_thumbnail_image(master, &resized, w, "height", h, "size", VIPS_SIZE_FORCE, NULL))
                return fail(path, "cannot resize");
            g_object_unref(output);
            output = vips_image_copy_memory(resized);
            *resize += cpu_seconds() - t0;
            g_object_unref(resized);
        }
        void *buffer;
        size_t length;
        t0 = cpu_seconds();
        int status = png
            ? vips_pngsave_buffer(output, &buffer, &length, "compression", PNG_LEVEL, "filter", VIPS_FOREIGN_PNG_FILTER_ALL, "strip", TRUE, NULL)
            : vips_jpegsave_buffer(output, &buffer, &length, "Q", JPEG_Q, "interlace", TRUE, "optimize_coding", TRUE, "strip", TRUE, NULL);
        *encode += cpu_seconds() - t0;
        g_object_unref(output);
        if (status) return fail(path, "cannot encode");
        g_free(buffer);
    }
    g_object_unref(master);
    return 0;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) return fail("libvips", "cannot start");
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    double decode = 0, resize = 0, encode = 0;
    for (int i = 1; i < argc; i++) {
        const char *dot = strrchr(argv[i], '.');
        const char *ext = dot ? dot + 1 : "";
        int status = !strcmp(ext, "webp") ? webp_floor(argv[i], &decode, &resize, &encode)
                   : !strcmp(ext, "png") ? libvips_floor(argv[i], 1, &decode, &resize, &encode)
                   : libvips_floor(argv[i], 0, &decode, &resize, &encode);
        if (status) return 1;
    }
    printf("%.2f %.2f %.2f\n", decode, resize, encode);
    return 0;
}
