/*
 * dppx's C side of libvips and libwebp. Swift cannot call variadic C functions, so every libvips
 * operation dppx uses has a fixed-argument wrapper here; the few algorithms that work on raw
 * pixel buffers (WebP decoding and encoding, dropping an opaque alpha band) live in the .c
 * files next to this header.
 *
 * Every symbol is prefixed cvips_. Functions returning int return 0 on success and -1 on error,
 * with the reason in libvips's error buffer (read with cvips_error_take; see runtime.c for how
 * dppx keeps that process-wide buffer's text with the call that failed).
 */
#ifndef CVIPS_H
#define CVIPS_H

#include <vips/vips.h>
#include <glib.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <jxl/encode.h>

/* --- runtime.c: start, memory, warnings, errors --- */

int cvips_init(const char *argv0);

/* Large pixel buffers (decoded masters, encoder frames) are mapped and unmapped on their own,
 * so memory goes back to the system as soon as an image is freed (glibc only). */
void cvips_return_large_buffers_promptly(void);

/* libvips's warnings ("not enough data", "read gave 2 warnings") join its error text instead of
 * going to stderr on their own: the failure they explain is then reported with the file's name. */
void cvips_warnings_into_errors(void);

/* Takes (and clears) the process-wide error text; free the result with g_free. */
char *cvips_error_take(void);

/* Turns libvips's vector code (ORC before libvips 8.15, Highway after) on or off for the process;
 * libvips's own switch, whose header (vips/vector.h) needs liborc's headers before 8.15. */
void cvips_set_vector_enabled(int enabled);
int cvips_vector_enabled(void);

/* --- orc_lock.c: liborc's compile and free under one lock (libvips before 8.15, Linux) --- */

/* 1 when libvips's calls to liborc's orc_program_compile and orc_program_free land in dppx's
 * locked versions, so the vector code is safe on many threads; 0 elsewhere. */
int cvips_orc_lock_installed(void);
/* How many compiles and frees went through the lock since the process started. */
long cvips_orc_locked_calls(void);

/* libvips keeps one error buffer for the whole process, so when two calls fail at once on two
 * threads, each one's text can hold the other's. dppx runs libvips work as "shared" sections
 * (any number at once) and, when one fails, runs it again "alone" (no other libvips work at
 * all): the buffer then holds that call's text only.
 *
 * cvips_shared_begin returns 1 when it opened the thread's outermost section (only the
 * outermost may go on to run alone), 0 when the thread was already inside one. Sections nest;
 * each begin is matched by an end. cvips_alone_begin waits for every shared section on other
 * threads to end, and keeps new ones waiting until cvips_alone_end; it clears the buffer. */
int cvips_shared_begin(void);
void cvips_shared_end(void);
void cvips_alone_begin(void);
void cvips_alone_end(void);

/* --- load.c: opening encoded bytes (a master is read once, then opened from memory) --- */

/* Opens encoded bytes lazily (any format libvips reads): the header is read, pixels are not
 * decoded. `buf` must outlive the image, so copy it to memory before the bytes go. */
int cvips_open_buffer(const void *buf, size_t len, VipsImage **out);

/* Opens encoded bytes for decoding: `pages` is -1 for every page of an animation, 1 for the
 * first (`paged`: the format has pages, GIF, WebP, TIFF or HEIF; "n" is an error elsewhere).
 * Random access is needed to rotate; sequential streams. Damage at `fail_on` or worse is an
 * error rather than grey fill (libjpeg reports most damage as warnings: only
 * VIPS_FAIL_ON_WARNING refuses "Corrupt JPEG data"). The caller names the format, read once
 * from the header: nothing is sniffed here. `buf` must outlive the image. */
int cvips_open_buffer_to_decode(const void *buf, size_t len, int pages, int random_access, VipsFailOn fail_on, int paged,
                                VipsImage **out);

/* --- webp.c: libwebp straight from and to pixel buffers --- */

/* Decodes a still, 8-bit sRGB WebP's bytes straight into a memory image (3 bands, or 4 with
 * alpha), without the two full-size RGBA frame buffers libvips's loader builds on the way: a
 * master, and a quality search's attempts to be scored. Damaged or truncated data is an error. */
int cvips_webp_decode_buffer(const void *data, size_t length, VipsImage **out);

/* libwebp's input for one lossy still image, taken from an 8-bit image with 3 or 4 bands: YUV
 * 4:2:0. Taking it renders the image (a resize runs here) and copies nothing else. `sharp`:
 * libwebp's sharp RGB to YUV conversion (done in strips) rather than its plain one. Free the
 * result with cvips_webp_input_free. */
int cvips_webp_input_new(VipsImage *in, int sharp, WebPPicture **out);
void cvips_webp_input_free(WebPPicture *picture);

/* Encodes an input, which stays the caller's (a YUV input can be encoded again, at another
 * quality): libwebp's default preset at `quality`, method `effort`, no metadata. The result is
 * g_malloc'd (free with g_free). Returns 0, or libwebp's error code (a WebPEncodingError;
 * VP8_ENC_ERROR_LAST when libwebp's version does not match). */
int cvips_webp_picture_encode(WebPPicture *picture, int quality, int effort, void **buf, size_t *len);

/* A YUV 4:2:0 input's pixels as a decoder upsamples them, nothing compressed: a memory image
 * with `bands` 3 or 4. The input is left as it was, to be encoded still. */
int cvips_webp_input_rgb(const WebPPicture *picture, int bands, VipsImage **out);

/* `in` (8-bit, 3 or 4 bands) through libwebp's plain conversion to YUV 4:2:0 and back, nothing
 * compressed: what the chroma subsampling alone leaves of it. A memory image, same bands. */
int cvips_webp_plain_roundtrip(VipsImage *in, VipsImage **out);

/* --- operations.c: pixels in memory, resizing, colour --- */

/* Whether the last of `bands` 8-bit bands is 255 in every pixel of rows `stride` bytes apart. */
int cvips_alpha_is_opaque(const uint8_t *pixels, size_t stride, int width, int height, int bands);

/* For a decoded still image in memory, 8-bit with an alpha band that is 255 everywhere: the
 * same pixels without the alpha band, moved down in place, so nothing is allocated. `in` is
 * then spent: only `out` may be read (it keeps `in` alive). Returns 1, with `in` untouched,
 * when there is no alpha band or some pixel is not fully opaque. */
int cvips_drop_opaque_alpha(VipsImage *in, VipsImage **out);

int cvips_copy_memory(VipsImage *in, VipsImage **out);
int cvips_autorot(VipsImage *in, VipsImage **out);

/* Resizes to exactly width x height, premultiplying alpha; no rotation. */
int cvips_thumbnail_image(VipsImage *in, int width, int height, VipsImage **out);

/* Scales by hscale, vscale (Lanczos 3). */
int cvips_resize(VipsImage *in, double hscale, double vscale, VipsImage **out);

/* Resizes an image with alpha by hscale, vscale, its colour premultiplied by alpha so that
 * edges do not darken, and rounded (not truncated) back to its band format. */
int cvips_resize_premultiplied(VipsImage *in, double hscale, double vscale, VipsImage **out);

/* Flattens alpha onto white (for JPEG, which has no alpha). */
int cvips_flatten_white(VipsImage *in, VipsImage **out);

/* Converts to sRGB through the embedded profile, or `input_profile` when there is none. */
int cvips_icc_to_srgb(VipsImage *in, const char *input_profile, VipsImage **out);

/* Converts to a device space through an ICC profile ("cmyk" is libvips's built-in one). */
int cvips_icc_export(VipsImage *in, const char *profile, VipsImage **out);

int cvips_colourspace(VipsImage *in, VipsInterpretation space, VipsImage **out);
int cvips_cast(VipsImage *in, VipsBandFormat format, VipsImage **out);

/* The top `frame_height` rows of an 8-bit grey or sRGB image in memory, with or without alpha,
 * reduced to width x height RGBA into `rgba` by area averaging, colour weighted by alpha; each
 * level's alpha-weighted count per colour band added to `histogram` (3 x 256). */
int cvips_area_average_rgba(VipsImage *in, int frame_height, int width, int height, uint8_t *rgba,
                            uint64_t *histogram);

/* An sRGB image made from a copy of width x height 8-bit RGBA pixels. */
int cvips_image_from_rgba(const void *rgba, int width, int height, VipsImage **out);

/* --- sample.c: a small stand-in for a large image --- */

/* A side x side square from the centre of an 8-bit image (its corner on a multiple of 16, the
 * size of WebP's and AVIF's macroblocks), in memory of its own: what a quality search encodes
 * and scores before the whole image. */
int cvips_centre_square(VipsImage *in, int side, VipsImage **out);

/* --- save.c: encoders, to g_malloc'd buffers (free with g_free); metadata stripped --- */

/* chroma (JPEG and AVIF): 0 libvips's choice (4:2:0 below quality 90, 4:4:4 from it), 1 always
 * 4:2:0, 2 always 4:4:4. */
int cvips_jpegsave(VipsImage *in, int quality, int progressive, int chroma, void **buf, size_t *len);
int cvips_pngsave(VipsImage *in, int compression, int effort, void **buf, size_t *len);
/* WebP and AVIF are always lossy here (a WebP keeps alpha losslessly in a lossy file). */
int cvips_webpsave(VipsImage *in, int quality, int effort, void **buf, size_t *len);
int cvips_avifsave(VipsImage *in, int quality, int effort, int chroma, void **buf, size_t *len);
int cvips_gifsave(VipsImage *in, int effort, void **buf, size_t *len);
int cvips_tiffsave(VipsImage *in, void **buf, size_t *len);

/* --- jxl.c: JPEG XL --- */

/* libjxl's lossless recompression of a JPEG file's bytes, with the reconstruction data that
 * gives the same JPEG back bit for bit (a decoder's "JPEG output"); the pixels are the JPEG's.
 * `effort` 1-9, `threads` at least 1. Returns 0, or a JxlEncoderError code (JXL_ENC_ERR_JBRD
 * when the JPEG cannot be reconstructed, JXL_ENC_ERR_OOM when out of memory). The result is
 * g_malloc'd (free with g_free). */
int cvips_jxl_from_jpeg(const void *jpeg, size_t jpeg_len, int effort, int threads, void **buf, size_t *len);

/* JPEG XL from pixels (libvips's saver, 8.11 and later): lossless, or lossy at `quality` 1-100;
 * alpha kept; metadata stripped. Returns 0 or -1 with the reason in libvips's error buffer. */
int cvips_jxlsave(VipsImage *in, int quality, int lossless, int effort, void **buf, size_t *len);

/* Writes to a file, format and options from the name ("a.png[bitdepth=16]"). Tests use it to
 * make fixtures; the build writes through the buffer encoders and atomic renames instead. */
int cvips_write_file(VipsImage *in, const char *path);

/* --- fields.c: metadata and references --- */

/* Reads a string field ("vips-loader"); NULL when absent. Do not free. */
const char *cvips_get_string(VipsImage *image, const char *name);
/* Reads an int field ("orientation", "n-pages"); `fallback` when absent. */
int cvips_get_int(VipsImage *image, const char *name, int fallback);
int cvips_has_field(VipsImage *image, const char *name);
void cvips_set_int(VipsImage *image, const char *name, int value);
void cvips_set_string(VipsImage *image, const char *name, const char *value);

/* A copy whose metadata may be changed (libvips images are otherwise shared). */
int cvips_copy(VipsImage *in, VipsImage **out);
/* A copy with another interpretation (e.g. RGB16 for 16-bit pixels made in memory). */
int cvips_copy_as(VipsImage *in, VipsInterpretation interpretation, VipsImage **out);

void cvips_unref(VipsImage *image);
/* How many holders an image has: 1 when only its owner's handle refers to it. */
int cvips_ref_count(VipsImage *image);

/* --- ssimulacra2.c: perceptual distance --- */

/* The SSIMULACRA2 score of `distorted` against `reference`, two width x height images of
 * interleaved 8-bit sRGB with `bands` 3 (RGB) or 4 (RGBA: the worse of a dark and a light
 * background). 100 means identical; 90 visually lossless; 80 very high quality; 70 high;
 * 50 medium. Images under 8 pixels across have no scale to compare and score 100. `threads`
 * 2 scores the top and bottom halves of images tall enough (about 640 rows and more) on two
 * threads, with the same score to the bit; 1 on this one. Returns -1 when memory runs out or
 * the arguments are wrong. */
int cvips_ssimulacra2(const unsigned char *reference, const unsigned char *distorted, int width, int height,
                      int bands, int threads, double *score);

#endif
