/*
 * bench/jpegli-api.c: jpegli's encoder through its own C API, for bench/jpegli --api. pyjpegli's
 * Python function takes an integer quality and nothing else (jpegli_set_defaults, then
 * jpegli_set_quality: baseline 4:2:0 files with libjpeg's standard Huffman tables); the jpegli
 * library built into pyjpegli's module exports the whole API (jpegli_*: libjpeg's calls under
 * jpegli's names, lib/jpegli/encode.h), so this shim, loaded into the same Python process after
 * the module (with its symbols made global), asks it for what cjpegli-style use would: a
 * Butteraugli distance (jpegli's native quality setting, continuous), 4:4:4 or 4:2:0, a
 * progressive scan script, optimised Huffman tables. Built with Debian's jpeglib.h (libjpeg-turbo,
 * JPEG_LIB_VERSION 62), whose struct jpeg_compress_struct jpegli's API shares (jpegli checks the
 * struct's size). bench/jpegli compiles it; it is not part of dppx.
 */
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

struct jpeg_error_mgr *jpegli_std_error(struct jpeg_error_mgr *err);
void jpegli_CreateCompress(j_compress_ptr cinfo, int version, size_t structsize);
void jpegli_mem_dest(j_compress_ptr cinfo, unsigned char **out, unsigned long *size);
void jpegli_set_defaults(j_compress_ptr cinfo);
void jpegli_set_distance(j_compress_ptr cinfo, float distance, boolean force_baseline);
void jpegli_set_progressive_level(j_compress_ptr cinfo, int level);
void jpegli_start_compress(j_compress_ptr cinfo, boolean write_all_tables);
JDIMENSION jpegli_write_scanlines(j_compress_ptr cinfo, JSAMPARRAY lines, JDIMENSION count);
void jpegli_finish_compress(j_compress_ptr cinfo);
void jpegli_destroy_compress(j_compress_ptr cinfo);

/* Packed RGB (width * height * 3) at a distance, chroma 444 or 420, progressive level 0-2.
 * The file is malloc'd (free with jpegli_api_free). jpegli's errors exit the process. */
void jpegli_api_encode(const unsigned char *rgb, int width, int height, float distance, int chroma,
                       int progressive_level, unsigned char **out, unsigned long *size) {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr err;
    *out = NULL;
    *size = 0;
    cinfo.err = jpegli_std_error(&err);
    jpegli_CreateCompress(&cinfo, JPEG_LIB_VERSION, sizeof(cinfo));
    jpegli_mem_dest(&cinfo, out, size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpegli_set_defaults(&cinfo);
    jpegli_set_distance(&cinfo, distance, TRUE);
    jpegli_set_progressive_level(&cinfo, progressive_level);
    cinfo.optimize_coding = TRUE;
    /* Luma's sampling factors against chroma's: 2x2 is 4:2:0, 1x1 4:4:4. */
    int factor = chroma == 420 ? 2 : 1;
    cinfo.comp_info[0].h_samp_factor = cinfo.comp_info[0].v_samp_factor = factor;
    cinfo.comp_info[1].h_samp_factor = cinfo.comp_info[1].v_samp_factor = 1;
    cinfo.comp_info[2].h_samp_factor = cinfo.comp_info[2].v_samp_factor = 1;
    jpegli_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * (size_t)width * 3);
        jpegli_write_scanlines(&cinfo, &row, 1);
    }
    jpegli_finish_compress(&cinfo);
    jpegli_destroy_compress(&cinfo);
}

void jpegli_api_free(unsigned char *file) { free(file); }
