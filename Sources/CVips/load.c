/* Opening files: headers only, or for decoding with damaged data as an error. */
#include "cvips.h"

#include <string.h>

int cvips_open_header(const char *path, VipsImage **out) {
    *out = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    return *out ? 0 : -1;
}

int cvips_open(const char *path, int pages, int random_access, VipsImage **out) {
    VipsAccess access = random_access ? VIPS_ACCESS_RANDOM : VIPS_ACCESS_SEQUENTIAL;
    const char *loader = vips_foreign_find_load(path);
    if (!loader) return -1;
    char *lower = g_ascii_strdown(loader, -1);
    /* libjpeg reports damaged entropy data ("Corrupt JPEG data: premature end of data
     * segment", "bad Huffman code") as warnings and fills the rest with grey: only failing on
     * warnings turns that into an error. Other loaders report damage as errors. */
    VipsFailOn fail_on = strstr(lower, "jpeg") ? VIPS_FAIL_ON_WARNING : VIPS_FAIL_ON_TRUNCATED;
    /* "n" exists only for multi-page loaders; passing it elsewhere is an error. */
    int paged = strstr(lower, "gif") || strstr(lower, "webp") || strstr(lower, "tiff") ||
                strstr(lower, "heif") || strstr(lower, "pdf");
    g_free(lower);
    if (paged)
        *out = vips_image_new_from_file(path, "access", access, "fail_on", fail_on, "n", pages, NULL);
    else
        *out = vips_image_new_from_file(path, "access", access, "fail_on", fail_on, NULL);
    return *out ? 0 : -1;
}

int cvips_open_buffer(const void *buf, size_t len, VipsImage **out) {
    *out = vips_image_new_from_buffer(buf, len, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    return *out ? 0 : -1;
}
