/* Opening encoded bytes: headers only, or for decoding with damaged data as an error. */
#include "cvips.h"

int cvips_open_buffer(const void *buf, size_t len, VipsImage **out) {
    *out = vips_image_new_from_buffer(buf, len, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    return *out ? 0 : -1;
}

int cvips_open_buffer_to_decode(const void *buf, size_t len, int pages, int random_access, VipsFailOn fail_on, int paged,
                                VipsImage **out) {
    VipsAccess access = random_access ? VIPS_ACCESS_RANDOM : VIPS_ACCESS_SEQUENTIAL;
    if (paged)
        *out = vips_image_new_from_buffer(buf, len, "", "access", access, "fail_on", fail_on, "n", pages, NULL);
    else
        *out = vips_image_new_from_buffer(buf, len, "", "access", access, "fail_on", fail_on, NULL);
    return *out ? 0 : -1;
}
