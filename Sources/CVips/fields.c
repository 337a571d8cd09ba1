/* Metadata fields, copies and references. */
#include "cvips.h"

/* Reads a string field ("vips-loader"); NULL when absent. Do not free. */
const char *cvips_get_string(VipsImage *image, const char *name) {
    const char *out = NULL;
    if (vips_image_get_typeof(image, name) == 0) return NULL;
    if (vips_image_get_string(image, name, &out)) { vips_error_clear(); return NULL; }
    return out;
}

/* Reads an int field ("orientation", "n-pages"); `fallback` when absent. */
int cvips_get_int(VipsImage *image, const char *name, int fallback) {
    int out = fallback;
    if (vips_image_get_typeof(image, name) == 0) return fallback;
    if (vips_image_get_int(image, name, &out)) { vips_error_clear(); return fallback; }
    return out;
}

int cvips_has_field(VipsImage *image, const char *name) {
    return vips_image_get_typeof(image, name) != 0;
}

void cvips_set_int(VipsImage *image, const char *name, int value) {
    vips_image_set_int(image, name, value);
}

void cvips_set_string(VipsImage *image, const char *name, const char *value) {
    vips_image_set_string(image, name, value);
}

/* A copy whose metadata may be changed (libvips images are otherwise shared). */
int cvips_copy(VipsImage *in, VipsImage **out) { return vips_copy(in, out, NULL); }

/* A copy with another interpretation (e.g. RGB16 for 16-bit pixels made in memory). */
int cvips_copy_as(VipsImage *in, VipsInterpretation interpretation, VipsImage **out) {
    return vips_copy(in, out, "interpretation", interpretation, NULL);
}

void cvips_unref(VipsImage *image) { g_object_unref(image); }

/* How many holders an image has: 1 when only its owner's handle refers to it. */
int cvips_ref_count(VipsImage *image) { return (int) G_OBJECT(image)->ref_count; }
