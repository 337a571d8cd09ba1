/* Encoders, each writing a g_malloc'd buffer with metadata stripped. */
#include "cvips.h"

/* Encoders: write to a g_malloc'd buffer (free with g_free). Metadata is stripped. */
int cvips_jpegsave(VipsImage *in, int quality, int progressive, int chroma, void **buf, size_t *len) {
    VipsForeignSubsample mode = chroma == 1 ? VIPS_FOREIGN_SUBSAMPLE_ON
                              : chroma == 2 ? VIPS_FOREIGN_SUBSAMPLE_OFF : VIPS_FOREIGN_SUBSAMPLE_AUTO;
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, "optimize_coding", TRUE,
                                "interlace", progressive, "subsample_mode", mode, NULL);
}

int cvips_pngsave(VipsImage *in, int compression, int effort, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, "compression", compression, "strip", TRUE,
                               "effort", effort, "filter", VIPS_FOREIGN_PNG_FILTER_ALL, NULL);
}

int cvips_webpsave(VipsImage *in, int quality, int effort, void **buf, size_t *len) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, "effort", effort,
                                "strip", TRUE, NULL);
}

int cvips_avifsave(VipsImage *in, int quality, int effort, int chroma, void **buf, size_t *len) {
    VipsForeignSubsample mode = chroma == 1 ? VIPS_FOREIGN_SUBSAMPLE_ON
                              : chroma == 2 ? VIPS_FOREIGN_SUBSAMPLE_OFF : VIPS_FOREIGN_SUBSAMPLE_AUTO;
    return vips_heifsave_buffer(in, buf, len, "Q", quality, "effort", effort,
                                "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "strip", TRUE,
                                "subsample_mode", mode, NULL);
}

int cvips_gifsave(VipsImage *in, int effort, void **buf, size_t *len) {
    return vips_gifsave_buffer(in, buf, len, "effort", effort, "strip", TRUE, NULL);
}

int cvips_tiffsave(VipsImage *in, void **buf, size_t *len) {
    return vips_tiffsave_buffer(in, buf, len, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE,
                                "strip", TRUE, NULL);
}

/* Writes to a file, format and options from the name ("a.png[bitdepth=16]"). Tests use it to
 * make fixtures; the build writes through the buffer encoders and atomic renames instead. */
int cvips_write_file(VipsImage *in, const char *path) {
    return vips_image_write_to_file(in, path, NULL);
}
