/* JPEG XL: libjxl's lossless recompression of a JPEG, and libvips's saver for pixels. */
#include "cvips.h"

#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
#include <string.h>

/* Runs the encoder to the end of its output, into one g_malloc'd buffer. */
static int cvips_jxl_collect(JxlEncoder *encoder, void **buf, size_t *len) {
    size_t capacity = 64 * 1024;
    uint8_t *out = g_try_malloc(capacity);
    if (!out) return JXL_ENC_ERR_OOM;
    uint8_t *next = out;
    size_t available = capacity;
    for (;;) {
        JxlEncoderStatus status = JxlEncoderProcessOutput(encoder, &next, &available);
        if (status == JXL_ENC_SUCCESS) break;
        if (status != JXL_ENC_NEED_MORE_OUTPUT) {
            g_free(out);
            JxlEncoderError error = JxlEncoderGetError(encoder);
            return error == JXL_ENC_ERR_OK ? JXL_ENC_ERR_GENERIC : (int)error;
        }
        size_t used = (size_t)(next - out);
        uint8_t *grown = g_try_realloc(out, capacity * 2);
        if (!grown) {
            g_free(out);
            return JXL_ENC_ERR_OOM;
        }
        out = grown;
        capacity *= 2;
        next = out + used;
        available = capacity - used;
    }
    *len = (size_t)(next - out);
    *buf = out;
    return 0;
}

int cvips_jxl_from_jpeg(const void *jpeg, size_t jpeg_len, int effort, int threads, void **buf, size_t *len) {
    JxlEncoder *encoder = JxlEncoderCreate(NULL);
    if (!encoder) return JXL_ENC_ERR_OOM;
    void *runner = JxlThreadParallelRunnerCreate(NULL, threads > 0 ? (size_t)threads : 1);
    int result = JXL_ENC_ERR_GENERIC;
    JxlEncoderFrameSettings *settings = NULL;
    if (!runner || JxlEncoderSetParallelRunner(encoder, JxlThreadParallelRunner, runner) != JXL_ENC_SUCCESS) {
        result = JXL_ENC_ERR_OOM;
        goto done;
    }
    /* The reconstruction data (jbrd box) that lets a decoder give the JPEG back bit for bit. */
    if (JxlEncoderStoreJPEGMetadata(encoder, JXL_TRUE) != JXL_ENC_SUCCESS) goto failed;
    settings = JxlEncoderFrameSettingsCreate(encoder, NULL);
    if (!settings) goto failed;
    if (JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort) != JXL_ENC_SUCCESS) goto failed;
    if (JxlEncoderAddJPEGFrame(settings, (const uint8_t *)jpeg, jpeg_len) != JXL_ENC_SUCCESS) goto failed;
    JxlEncoderCloseInput(encoder);
    result = cvips_jxl_collect(encoder, buf, len);
    goto done;
failed:
    {
        JxlEncoderError error = JxlEncoderGetError(encoder);
        result = error == JXL_ENC_ERR_OK ? JXL_ENC_ERR_GENERIC : (int)error;
    }
done:
    JxlEncoderDestroy(encoder);
    if (runner) JxlThreadParallelRunnerDestroy(runner);
    return result;
}

int cvips_jxlsave(VipsImage *in, int quality, int lossless, int effort, void **buf, size_t *len) {
    return vips_jxlsave_buffer(in, buf, len, "Q", quality, "lossless", lossless, "effort", effort,
                               "strip", TRUE, NULL);
}
