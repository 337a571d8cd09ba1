/*
 * SSIMULACRA2, the perceptual distance of Cloudinary's JPEG XL tools, computed on two 8-bit
 * sRGB buffers of the same size. Written from the published description of the metric:
 *
 *   - sRGB to linear RGB; linear RGB to XYB (the opsin absorbance matrix and bias, cube root,
 *     bias removed), shifted into a positive range;
 *   - six scales, each half the previous one in both directions (2x2 means of linear RGB; the
 *     last row and column average what they have), stopping early under 8 pixels;
 *   - per scale and XYB channel: the means, variances and covariance under a Gaussian blur of
 *     sigma 1.5, the SSIM error map (its mean term without the division by mu1^2 + mu2^2, which
 *     misbehaves in dark regions), and the edge map comparing each image's distance from its
 *     own blurred copy, split into artifacts (edges the original lacks) and lost detail;
 *   - each map pooled by its mean (1-norm) and 4-norm; 108 weighted terms; the published
 *     polynomial and power mapping to a 100-point scale (100: identical).
 *
 * The blur is an 11-tap Gaussian (radius 5) with zeros beyond the left and right edges and a
 * mirror at the top and bottom ones, the way PyPI's `ssimulacra2` computes it (its planes are
 * transposed, so its vertical zero padding falls on columns); scores agree with that
 * implementation (tests check it).
 *
 * Memory stays small whatever the image size: each scale is worked through in strips of rows
 * (with the blur's 5 rows of margin on each side), so only the next scale's linear RGB planes
 * (a quarter of the current size) and a strip's planes are held.
 */
#include "cvips.h"
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define SSIM2_SCALES 6
#define SSIM2_RADIUS 5
#define SSIM2_TAPS (2 * SSIM2_RADIUS + 1)
#define SSIM2_STRIP 64
#define SSIM2_C2 0.0009f

static const double ssim2_weights[108] = {
    0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0, 0.0, 0.0004371155730107379,
    0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752, 0.0, 0.0016406437456599754,
    0.0, 1.8422455520539298, 11.441172603757666, 0.0, 0.0007989109436015163, 0.000176816438078653,
    0.0, 1.8787594979546387, 10.94906990605142, 0.0, 0.0007289346991508072, 0.9677937080626833,
    0.0, 0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053, 0.0004550992113792063,
    0.0, 0.0, 0.0013648766163243398, 0.0, 0.0, 0.0, 0.0, 0.0, 7.466890328078848, 0.0,
    17.445833984131262, 0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296,
    1.027889937768264, 225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361,
    0.001237755635509985, 176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757,
    0.0004485436923833408, 0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0005313191874358747,
    0.0, 0.00016533814161379112, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0004179171803251336,
    0.0017290828234722833, 0.0, 0.0020827005846636437, 0.0, 0.0, 8.826982764996862,
    23.19243343998926, 0.0, 95.1080498811086, 0.9863978034400682, 0.9834382792465353,
    0.0012286405048278493, 171.2667255897307, 0.9807858872435379, 0.0, 0.0, 0.0,
    0.0005130064588990679, 0.0, 0.00010854057858411537,
};

/* Opsin absorbance: rows mix linear R, G, B into the L, M, S-like responses. */
static const float ssim2_opsin[9] = {
    0.30f, 0.622f, 0.078f,
    0.23f, 0.692f, 0.078f,
    0.24342268924547819f, 0.20476744424496821f, 0.55180986650955360f,
};
static const float ssim2_bias = 0.0037930732552754493f;

/* Where one scale's linear RGB comes from: 8-bit pixels (scale 0) or float planes. */
typedef struct {
    int width, height;
    /* Scale 0: interleaved 8-bit pixels, `bands` apart, alpha (band 4) blended onto `background`. */
    const unsigned char *pixels;
    int bands;
    float background;
    /* Later scales: three planes of linear R, G, B. */
    float *planes[3];
} ssim2_level;

/* One scale's pooled errors: per channel, SSIM (1-norm, 4-norm) and edge artifacts and lost
 * detail (each 1-norm, 4-norm). */
typedef struct {
    double ssim[3][2];
    double artifact[3][2];
    double detail_lost[3][2];
} ssim2_scale;

static float ssim2_to_linear_table[256];
static float ssim2_gauss[SSIM2_TAPS];
static GOnce ssim2_tables_once = G_ONCE_INIT;

static gpointer ssim2_make_tables(gpointer unused) {
    (void)unused;
    for (int v = 0; v < 256; v++) {
        double c = v / 255.0;
        ssim2_to_linear_table[v] = (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
    }
    double sum = 0;
    double taps[SSIM2_TAPS];
    for (int k = -SSIM2_RADIUS; k <= SSIM2_RADIUS; k++) {
        taps[k + SSIM2_RADIUS] = exp(-0.5 * k * k / (1.5 * 1.5));
        sum += taps[k + SSIM2_RADIUS];
    }
    for (int k = 0; k < SSIM2_TAPS; k++) ssim2_gauss[k] = (float)(taps[k] / sum);
    return NULL;
}

/* Row `y` of a level as three rows of linear R, G, B. */
static void ssim2_linear_row(const ssim2_level *level, int y, float *r, float *g, float *b) {
    int width = level->width;
    if (level->pixels) {
        const unsigned char *row = level->pixels + (size_t)y * width * level->bands;
        for (int x = 0; x < width; x++) {
            const unsigned char *p = row + (size_t)x * level->bands;
            float cr = ssim2_to_linear_table[p[0]], cg = ssim2_to_linear_table[p[1]], cb = ssim2_to_linear_table[p[2]];
            if (level->bands == 4) {
                /* Blended in sRGB, then linearised, as the reference tools blend. */
                float a = p[3] / 255.0f, bg = level->background;
                float sr = a * (p[0] / 255.0f) + (1 - a) * bg;
                float sg = a * (p[1] / 255.0f) + (1 - a) * bg;
                float sb = a * (p[2] / 255.0f) + (1 - a) * bg;
                cr = sr <= 0.04045f ? sr / 12.92f : powf((sr + 0.055f) / 1.055f, 2.4f);
                cg = sg <= 0.04045f ? sg / 12.92f : powf((sg + 0.055f) / 1.055f, 2.4f);
                cb = sb <= 0.04045f ? sb / 12.92f : powf((sb + 0.055f) / 1.055f, 2.4f);
            }
            r[x] = cr;
            g[x] = cg;
            b[x] = cb;
        }
    } else {
        size_t offset = (size_t)y * width;
        memcpy(r, level->planes[0] + offset, sizeof(float) * width);
        memcpy(g, level->planes[1] + offset, sizeof(float) * width);
        memcpy(b, level->planes[2] + offset, sizeof(float) * width);
    }
}

/* The cube root of x >= 0 to float precision: a bit-level first guess, then three Newton
 * steps. libm's cbrtf costs 8 ns a call here, six calls a pixel at the first scale; this is
 * 1 ns and the same value to within one unit in the last place. */
static inline float ssim2_cbrt(float x) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = bits / 3 + 709921077u;
    float y;
    memcpy(&y, &bits, sizeof y);
    for (int step = 0; step < 3; step++) y = y - (y * y * y - x) / (3.0f * y * y);
    return x > 0 ? y : 0;
}

/* Linear RGB rows to positive XYB rows, in place (r becomes X, g Y, b B). */
static void ssim2_to_xyb(float *restrict r, float *restrict g, float *restrict b, int width, float bias_root) {
    for (int x = 0; x < width; x++) {
        float m0 = ssim2_opsin[0] * r[x] + ssim2_opsin[1] * g[x] + ssim2_opsin[2] * b[x] + ssim2_bias;
        float m1 = ssim2_opsin[3] * r[x] + ssim2_opsin[4] * g[x] + ssim2_opsin[5] * b[x] + ssim2_bias;
        float m2 = ssim2_opsin[6] * r[x] + ssim2_opsin[7] * g[x] + ssim2_opsin[8] * b[x] + ssim2_bias;
        m0 = ssim2_cbrt(m0 > 0 ? m0 : 0) - bias_root;
        m1 = ssim2_cbrt(m1 > 0 ? m1 : 0) - bias_root;
        m2 = ssim2_cbrt(m2 > 0 ? m2 : 0) - bias_root;
        float cx = 0.5f * (m0 - m1), cy = 0.5f * (m0 + m1), cb = m2;
        r[x] = cx * 14.0f + 0.42f;
        g[x] = cy + 0.01f;
        b[x] = (cb - cy) + 0.55f;
    }
}

/* The next scale's linear planes: 2x2 means, the odd last row or column averaging what it has. */
static int ssim2_downsample(const ssim2_level *from, ssim2_level *to, float *rows) {
    int width = from->width, height = from->height;
    int out_width = (width + 1) / 2, out_height = (height + 1) / 2;
    to->width = out_width;
    to->height = out_height;
    to->pixels = NULL;
    to->bands = 3;
    for (int c = 0; c < 3; c++) {
        to->planes[c] = g_try_malloc0(sizeof(float) * (size_t)out_width * out_height);
        if (!to->planes[c]) return -1;
    }
    float *top[3] = {rows, rows + width, rows + 2 * width};
    float *bottom[3] = {rows + 3 * width, rows + 4 * width, rows + 5 * width};
    for (int oy = 0; oy < out_height; oy++) {
        int y0 = 2 * oy, pair = y0 + 1 < height;
        ssim2_linear_row(from, y0, top[0], top[1], top[2]);
        if (pair) ssim2_linear_row(from, y0 + 1, bottom[0], bottom[1], bottom[2]);
        for (int c = 0; c < 3; c++) {
            float *out = to->planes[c] + (size_t)oy * out_width;
            for (int ox = 0; ox < out_width; ox++) {
                int x0 = 2 * ox, two = x0 + 1 < width;
                float sum = top[c][x0] + (two ? top[c][x0 + 1] : 0);
                if (pair) sum += bottom[c][x0] + (two ? bottom[c][x0 + 1] : 0);
                out[ox] = sum / (float)((1 + two) * (1 + pair));
            }
        }
    }
    return 0;
}

/* The horizontal pass of the blur on one row: zero beyond the left and right edges. Tap by
 * tap over the whole row, so the compiler can vectorise the inner loop. */
static void ssim2_blur_row(const float *restrict in, float *restrict out, int width) {
    memset(out, 0, sizeof(float) * width);
    for (int k = -SSIM2_RADIUS; k <= SSIM2_RADIUS; k++) {
        float weight = ssim2_gauss[k + SSIM2_RADIUS];
        int from = k < 0 ? -k : 0;
        int to = k > 0 ? width - k : width;
        const float *source = in + k;
        for (int x = from; x < to; x++) out[x] += weight * source[x];
    }
}

/* One row's error maps, pooled: the sums of the SSIM error, edge artifacts and lost detail
 * and of their fourth powers. In float (a row is at most a few thousand terms; the caller adds
 * rows in double), without branches, and summed in any order so the loop vectorises: the
 * order is fixed at compile time, so scores are still deterministic. */
static void ssim2_pool_row(const float *restrict one, const float *restrict two, const float *restrict mu1,
                           const float *restrict mu2, const float *restrict s11, const float *restrict s22,
                           const float *restrict s12, int width, float pooled[6]) {
#ifdef __clang__
#pragma clang fp reassociate(on)
#endif
    float ssim = 0, ssim4 = 0, artifact = 0, artifact4 = 0, lost = 0, lost4 = 0;
    for (int x = 0; x < width; x++) {
        float m1 = mu1[x], m2 = mu2[x];
        float num_m = 1.0f - (m1 - m2) * (m1 - m2);
        float num_s = 2 * (s12[x] - m1 * m2) + SSIM2_C2;
        float denom_s = (s11[x] - m1 * m1) + (s22[x] - m2 * m2) + SSIM2_C2;
        float d = 1.0f - num_m * num_s / denom_s;
        d = d > 0 ? d : 0;
        ssim += d;
        ssim4 += (d * d) * (d * d);
        float edge = (1.0f + fabsf(two[x] - m2)) / (1.0f + fabsf(one[x] - m1)) - 1.0f;
        float gained = edge > 0 ? edge : 0, missing = edge < 0 ? -edge : 0;
        artifact += gained;
        artifact4 += (gained * gained) * (gained * gained);
        lost += missing;
        lost4 += (missing * missing) * (missing * missing);
    }
    pooled[0] = ssim;
    pooled[1] = ssim4;
    pooled[2] = artifact;
    pooled[3] = artifact4;
    pooled[4] = lost;
    pooled[5] = lost4;
}

/* One scale's pooled maps, worked through in strips. `work` holds at least
 * (6 + 5) * (SSIM2_STRIP + 2 * SSIM2_RADIUS) + 2 rows of `width` floats. */
static void ssim2_score_scale(const ssim2_level *a, const ssim2_level *b, float *work, ssim2_scale *out) {
    int width = a->width, height = a->height;
    int span = SSIM2_STRIP + 2 * SSIM2_RADIUS;
    size_t plane = (size_t)span * width;
    /* XYB of both images: xyb[image * 3 + channel], `span` rows each. */
    float *xyb[6];
    for (int i = 0; i < 6; i++) xyb[i] = work + i * plane;
    /* The horizontally blurred mu1, mu2, s11, s22, s12 of one channel, `span` rows each. */
    float *blurred[5];
    for (int i = 0; i < 5; i++) blurred[i] = work + (6 + i) * plane;
    float *product = work + 11 * plane;
    float *column = product + width;
    const float bias_root = cbrtf(ssim2_bias);

    double sums[3][6];
    memset(sums, 0, sizeof(sums));
    for (int y0 = 0; y0 < height; y0 += SSIM2_STRIP) {
        int y1 = y0 + SSIM2_STRIP < height ? y0 + SSIM2_STRIP : height;
        int first = y0 - SSIM2_RADIUS < 0 ? 0 : y0 - SSIM2_RADIUS;
        int last = y1 + SSIM2_RADIUS > height ? height : y1 + SSIM2_RADIUS;
        for (int y = first; y < last; y++) {
            size_t row = (size_t)(y - first) * width;
            ssim2_linear_row(a, y, xyb[0] + row, xyb[1] + row, xyb[2] + row);
            ssim2_to_xyb(xyb[0] + row, xyb[1] + row, xyb[2] + row, width, bias_root);
            ssim2_linear_row(b, y, xyb[3] + row, xyb[4] + row, xyb[5] + row);
            ssim2_to_xyb(xyb[3] + row, xyb[4] + row, xyb[5] + row, width, bias_root);
        }
        for (int c = 0; c < 3; c++) {
            const float *one = xyb[c], *two = xyb[3 + c];
            for (int y = first; y < last; y++) {
                size_t row = (size_t)(y - first) * width;
                ssim2_blur_row(one + row, blurred[0] + row, width);
                ssim2_blur_row(two + row, blurred[1] + row, width);
                for (int x = 0; x < width; x++) product[x] = one[row + x] * one[row + x];
                ssim2_blur_row(product, blurred[2] + row, width);
                for (int x = 0; x < width; x++) product[x] = two[row + x] * two[row + x];
                ssim2_blur_row(product, blurred[3] + row, width);
                for (int x = 0; x < width; x++) product[x] = one[row + x] * two[row + x];
                ssim2_blur_row(product, blurred[4] + row, width);
            }
            for (int y = y0; y < y1; y++) {
                /* The vertical pass for this row: mirrored at the top and bottom (y = -1 reads y = 0). */
                float *mu1 = column, *mu2 = column + width, *s11 = column + 2 * width;
                float *s22 = column + 3 * width, *s12 = column + 4 * width;
                float *outs[5] = {mu1, mu2, s11, s22, s12};
                for (int q = 0; q < 5; q++) memset(outs[q], 0, sizeof(float) * width);
                for (int k = -SSIM2_RADIUS; k <= SSIM2_RADIUS; k++) {
                    int source = y + k;
                    if (source < 0) source = -source - 1;
                    if (source >= height) source = 2 * height - source - 1;
                    float weight = ssim2_gauss[k + SSIM2_RADIUS];
                    size_t row = (size_t)(source - first) * width;
                    for (int q = 0; q < 5; q++) {
                        const float *in = blurred[q] + row;
                        float *o = outs[q];
                        for (int x = 0; x < width; x++) o[x] += weight * in[x];
                    }
                }
                size_t row = (size_t)(y - first) * width;
                float pooled[6];
                ssim2_pool_row(one + row, two + row, mu1, mu2, s11, s22, s12, width, pooled);
                for (int k = 0; k < 6; k++) sums[c][k] += pooled[k];
            }
        }
    }
    double pixels = (double)width * height;
    for (int c = 0; c < 3; c++) {
        out->ssim[c][0] = sums[c][0] / pixels;
        out->ssim[c][1] = sqrt(sqrt(sums[c][1] / pixels));
        out->artifact[c][0] = sums[c][2] / pixels;
        out->artifact[c][1] = sqrt(sqrt(sums[c][3] / pixels));
        out->detail_lost[c][0] = sums[c][4] / pixels;
        out->detail_lost[c][1] = sqrt(sqrt(sums[c][5] / pixels));
    }
}

static void ssim2_free_level(ssim2_level *level) {
    for (int c = 0; c < 3; c++) {
        g_free(level->planes[c]);
        level->planes[c] = NULL;
    }
}

/* The score of one pair with alpha (if any) blended onto `background`. */
static int ssim2_score_once(const unsigned char *reference, const unsigned char *distorted, int width, int height,
                            int bands, float background, double *score) {
    ssim2_level a = {width, height, reference, bands, background, {NULL, NULL, NULL}};
    ssim2_level b = {width, height, distorted, bands, background, {NULL, NULL, NULL}};
    size_t span = SSIM2_STRIP + 2 * SSIM2_RADIUS;
    float *work = g_try_malloc(sizeof(float) * (size_t)width * (11 * span + 6));
    if (!work) return -1;
    ssim2_scale scales[SSIM2_SCALES];
    int count = 0, status = 0;
    for (int s = 0; s < SSIM2_SCALES; s++) {
        if (a.width < 8 || a.height < 8) break;
        ssim2_score_scale(&a, &b, work, &scales[count++]);
        if (s + 1 == SSIM2_SCALES) break;
        ssim2_level next_a = {0}, next_b = {0};
        if (ssim2_downsample(&a, &next_a, work) != 0 || ssim2_downsample(&b, &next_b, work) != 0) {
            ssim2_free_level(&next_a);
            ssim2_free_level(&next_b);
            status = -1;
            break;
        }
        ssim2_free_level(&a);
        ssim2_free_level(&b);
        a = next_a;
        b = next_b;
    }
    ssim2_free_level(&a);
    ssim2_free_level(&b);
    g_free(work);
    if (status != 0) return status;

    /* The weights are taken in order over channel, scale, norm and map, as the published
     * scores are (with fewer scales, the later weights shift forward the same way). */
    double sum = 0;
    int i = 0;
    for (int c = 0; c < 3; c++) {
        for (int s = 0; s < count; s++) {
            for (int n = 0; n < 2; n++) {
                sum += ssim2_weights[i++] * fabs(scales[s].ssim[c][n]);
                sum += ssim2_weights[i++] * fabs(scales[s].artifact[c][n]);
                sum += ssim2_weights[i++] * fabs(scales[s].detail_lost[c][n]);
            }
        }
    }
    sum *= 0.9562382616834844;
    sum = 2.326765642916932 * sum - 0.020884521182843837 * sum * sum + 6.248496625763138e-05 * sum * sum * sum;
    *score = sum > 0 ? 100.0 - 10.0 * pow(sum, 0.6276336467831387) : 100.0;
    return 0;
}

int cvips_ssimulacra2(const unsigned char *reference, const unsigned char *distorted, int width, int height,
                      int bands, double *score) {
    if (width <= 0 || height <= 0 || (bands != 3 && bands != 4)) return -1;
    g_once(&ssim2_tables_once, ssim2_make_tables, NULL);
    if (bands == 3) return ssim2_score_once(reference, distorted, width, height, bands, 0, score);
    /* With alpha, the worse of a dark and a light background: a change hidden on one shows on the other. */
    double dark, light;
    if (ssim2_score_once(reference, distorted, width, height, bands, 0.1f, &dark) != 0) return -1;
    if (ssim2_score_once(reference, distorted, width, height, bands, 0.9f, &light) != 0) return -1;
    *score = dark < light ? dark : light;
    return 0;
}
