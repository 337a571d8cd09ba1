/*
 * SSIMULACRA2, the perceptual distance of Cloudinary's JPEG XL tools, computed on two 8-bit
 * sRGB buffers of the same size. Written from the published description of the metric:
 *
 *   - sRGB to linear RGB; linear RGB to XYB (the opsin absorbance matrix and bias, cube root,
 *     bias removed), shifted into a positive range;
 *   - six scales, each half the previous one in both directions (2x2 means of linear RGB; the
 *     last row and column average what they have), as libjxl's loop takes them: a scale is
 *     halved into the next only while both its sides are 8 pixels or more, so the last one
 *     scored may be 4 to 7 pixels a side;
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
 * implementation from 256 pixels a side (tests check it). Under that, PyPI's stops a scale
 * early (it checks the size after halving, libjxl before) and its later weights shift.
 *
 * Layout. The six scales stream together, top to bottom, and no scale's planes are held. A row
 * of both images goes to linear RGB and through scale 0: its 2x2 means are added into the next
 * scale's row (an even row stores its pairs' sums, the odd row below completes them), and it goes
 * to XYB and through the horizontal blur of each channel's five planes (the two images, their
 * squares, their product) into the scale's ring of the last 14 full-width rows. As soon as the
 * ring holds the rows they read, output rows take the vertical blur four at a time (neighbours
 * share 10 of their 11 input rows), tile by tile (512 columns), in blocks of 128 columns that the
 * pooling reads while they are in L1. Each completed row of means goes through the next scale
 * the same way at once, and so on down. A scale of w columns holds 21 planes of 14 rows and its
 * next scale's row, 1.2 KB a column, so a call holds about 2.4 KB a column of the image (9.6 MB
 * at 3840 columns, 10.5 MB at 4096), whatever its height; and each group of four rows' pooled
 * sums per tile (72 bytes, 0.8 MB in all at 4096x4096), added up at the end tile by tile, each
 * tile top to bottom: the order of the sums when each scale was scored in tiles on its own.
 *
 * Two threads. A build with a core idle scores a tall enough image in two parts at once, its top
 * and bottom halves (`ssim2_part`): each streams its own rows, and the rows of the other half
 * that its last output rows read at every scale, into rings of its own, and pools only its own
 * groups of rows into the shared records. The split falls between whole groups at every scale,
 * so each record is computed from the same rows in the same order as by one thread, and the
 * score is the same to the bit.
 *
 * Arithmetic. The scores are sensitive to rounding (the variances are differences of nearly
 * equal blurred products): a change in the last bit of one value in seven (another cube root)
 * moves them by up to 0.01. So each blur adds its 11 taps in order, from the farthest left or
 * top, and the cube root, the means and the pooled terms are computed as they always were; the
 * pooled sums are kept in 8 lanes, so they vectorise without reordering, and the scores are the
 * same with every compiler. On x86-64 the per-pixel work is compiled twice, for the baseline
 * (SSE2) and for AVX2, and chosen at run time; without FMA, each lane of either does the same
 * operations in the same order, so both give the same scores to the bit.
 */
#include "cvips.h"
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define SSIM2_SCALES 6
#define SSIM2_RADIUS 5
#define SSIM2_TAPS (2 * SSIM2_RADIUS + 1)
/* Output rows take the vertical pass SSIM2_GROUP at a time, in blocks of SSIM2_BLOCK columns;
 * the ring keeps the horizontally blurred rows they read. */
#define SSIM2_GROUP 4
#define SSIM2_BLOCK 128
#define SSIM2_RING_ROWS (SSIM2_GROUP + 2 * SSIM2_RADIUS)
/* The vertical pass and pooling go through each group of rows in tiles of SSIM2_TILE columns,
 * each tile's pooled sums kept apart (the order of the sums when tiles were worked through top
 * to bottom one after the other). */
#ifndef SSIM2_TILE
#define SSIM2_TILE 512
#endif
#define SSIM2_C2 0.0009f

/* The per-pixel work is inlined into one function per instruction set (see
 * ssim2_stream_body). SSIM2_BASELINE_ONLY keeps to the baseline (to compare the two). */
#define SSIM2_INLINE inline __attribute__((always_inline))
#if defined(__GNUC__) && !defined(__clang__)
/* GCC's -O2 vectorises only loops whose trip count is a multiple of the vector's; ours are not. */
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__clang__) || defined(__GNUC__)) && \
    !defined(_WIN32) && !defined(SSIM2_BASELINE_ONLY)
#define SSIM2_DISPATCH 1
#else
#define SSIM2_DISPATCH 0
#endif

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

/* The images: interleaved 8-bit pixels, `bands` apart, alpha (band 4) blended onto `background`. */
typedef struct {
    int width, height;
    const unsigned char *pixels;
    int bands;
    float background;
    /* With alpha, on large images: each (alpha, value) pair's blended linear value, alpha * 256 + value. */
    const float *blend;
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
#if SSIM2_DISPATCH
static int ssim2_avx2;
#endif

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
#if SSIM2_DISPATCH
    __builtin_cpu_init();
    ssim2_avx2 = __builtin_cpu_supports("avx2");
#endif
    return NULL;
}

/* An 8-bit value with alpha `a` on `background`: blended in sRGB, then linearised, as the
 * reference tools blend. */
static SSIM2_INLINE float ssim2_blend_linear(unsigned char value, unsigned char alpha, float background) {
    float a = alpha / 255.0f;
    float s = a * (value / 255.0f) + (1 - a) * background;
    return s <= 0.04045f ? s / 12.92f : powf((s + 0.055f) / 1.055f, 2.4f);
}

/* Columns [x0, x0 + n) of row `y` of an image as three rows of linear R, G, B, in `buffer`. */
static SSIM2_INLINE void ssim2_linear_row(const ssim2_level *level, int y, int x0, int n, float *const buffer[3],
                                          const float *rgb[3]) {
    int bands = level->bands;
    const unsigned char *row = level->pixels + ((size_t)y * level->width + x0) * bands;
    float *restrict r = buffer[0], *restrict g = buffer[1], *restrict b = buffer[2];
    if (bands == 3) {
        for (int x = 0; x < n; x++) {
            r[x] = ssim2_to_linear_table[row[3 * x]];
            g[x] = ssim2_to_linear_table[row[3 * x + 1]];
            b[x] = ssim2_to_linear_table[row[3 * x + 2]];
        }
    } else if (level->blend) {
        const float *blend = level->blend;
        for (int x = 0; x < n; x++) {
            const float *column = blend + 256 * row[4 * x + 3];
            r[x] = column[row[4 * x]];
            g[x] = column[row[4 * x + 1]];
            b[x] = column[row[4 * x + 2]];
        }
    } else {
        float background = level->background;
        for (int x = 0; x < n; x++) {
            const unsigned char *p = row + (size_t)x * 4;
            r[x] = ssim2_blend_linear(p[0], p[3], background);
            g[x] = ssim2_blend_linear(p[1], p[3], background);
            b[x] = ssim2_blend_linear(p[2], p[3], background);
        }
    }
    for (int c = 0; c < 3; c++) rgb[c] = buffer[c];
}

/* The cube root of x >= 0 to float precision: a bit-level first guess, then three Newton
 * steps. libm's cbrtf costs 8 ns a call here, six calls a pixel at the first scale; this is
 * 1 ns and the same value to within one unit in the last place. (A division-free version,
 * Newton's steps for x^(-1/3), is 7 % faster overall, but its last bits differ from these in
 * one value in seven, and the scores are sensitive enough to move by up to 0.012.) */
static SSIM2_INLINE float ssim2_cbrt(float x) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = bits / 3 + 709921077u;
    float y;
    memcpy(&y, &bits, sizeof y);
    for (int step = 0; step < 3; step++) y = y - (y * y * y - x) / (3.0f * y * y);
    return x > 0 ? y : 0;
}

/* Linear RGB rows to positive XYB rows. */
static SSIM2_INLINE void ssim2_to_xyb(const float *restrict r, const float *restrict g, const float *restrict b,
                                      float *restrict out_x, float *restrict out_y, float *restrict out_b, int width,
                                      float bias_root) {
    for (int x = 0; x < width; x++) {
        float m0 = ssim2_opsin[0] * r[x] + ssim2_opsin[1] * g[x] + ssim2_opsin[2] * b[x] + ssim2_bias;
        float m1 = ssim2_opsin[3] * r[x] + ssim2_opsin[4] * g[x] + ssim2_opsin[5] * b[x] + ssim2_bias;
        float m2 = ssim2_opsin[6] * r[x] + ssim2_opsin[7] * g[x] + ssim2_opsin[8] * b[x] + ssim2_bias;
        m0 = ssim2_cbrt(m0 > 0 ? m0 : 0) - bias_root;
        m1 = ssim2_cbrt(m1 > 0 ? m1 : 0) - bias_root;
        m2 = ssim2_cbrt(m2 > 0 ? m2 : 0) - bias_root;
        float cx = 0.5f * (m0 - m1), cy = 0.5f * (m0 + m1), cb = m2;
        out_x[x] = cx * 14.0f + 0.42f;
        out_y[x] = cy + 0.01f;
        out_b[x] = (cb - cy) + 0.55f;
    }
}

/* The horizontal pass of the blur on n columns of a row, zero beyond the left and right edges:
 * in[lo] to in[hi - 1] are the image's columns around out[0] to out[n - 1] (lo <= 0, hi >= n).
 * One pass with the taps in registers, added in the order the 11 passes over a row added them;
 * the few columns within the radius of an edge take the taps that fall inside. */
static SSIM2_INLINE void ssim2_blur_row(const float *restrict in, float *restrict out, int n, int lo, int hi) {
    const float w0 = ssim2_gauss[5], w1 = ssim2_gauss[6], w2 = ssim2_gauss[7];
    const float w3 = ssim2_gauss[8], w4 = ssim2_gauss[9], w5 = ssim2_gauss[10];
    int from = lo + SSIM2_RADIUS > 0 ? lo + SSIM2_RADIUS : 0, to = hi - SSIM2_RADIUS < n ? hi - SSIM2_RADIUS : n;
    for (int x = from; x < to; x++) {
        out[x] = w5 * in[x - 5] + w4 * in[x - 4] + w3 * in[x - 3] + w2 * in[x - 2] + w1 * in[x - 1] + w0 * in[x] +
                 w1 * in[x + 1] + w2 * in[x + 2] + w3 * in[x + 3] + w4 * in[x + 4] + w5 * in[x + 5];
    }
    for (int x = 0; x < n; x++) {
        if (x == from && to > from) x = to;
        if (x >= n) break;
        float sum = 0;
        for (int k = -SSIM2_RADIUS; k <= SSIM2_RADIUS; k++) {
            if (x + k >= lo && x + k < hi) sum += ssim2_gauss[k + SSIM2_RADIUS] * in[x + k];
        }
        out[x] = sum;
    }
}

/* The vertical pass over columns [0, n) for SSIM2_GROUP output rows at once: `rows` are the
 * SSIM2_GROUP + 10 input rows they read, top to bottom, already mirrored at the image's edges;
 * output row g goes to out + g * SSIM2_BLOCK. Neighbouring output rows share 10 of their 11
 * input rows, so each input is loaded once for all four. The taps are added in the order the
 * horizontal pass adds them. */
static SSIM2_INLINE void ssim2_blur_columns(const float *const rows[SSIM2_GROUP + 2 * SSIM2_RADIUS], int offset,
                                            float *restrict out, int n) {
    const float w0 = ssim2_gauss[5], w1 = ssim2_gauss[6], w2 = ssim2_gauss[7];
    const float w3 = ssim2_gauss[8], w4 = ssim2_gauss[9], w5 = ssim2_gauss[10];
    const float *restrict r0 = rows[0] + offset, *restrict r1 = rows[1] + offset, *restrict r2 = rows[2] + offset;
    const float *restrict r3 = rows[3] + offset, *restrict r4 = rows[4] + offset, *restrict r5 = rows[5] + offset;
    const float *restrict r6 = rows[6] + offset, *restrict r7 = rows[7] + offset, *restrict r8 = rows[8] + offset;
    const float *restrict r9 = rows[9] + offset, *restrict r10 = rows[10] + offset;
    const float *restrict r11 = rows[11] + offset, *restrict r12 = rows[12] + offset;
    const float *restrict r13 = rows[13] + offset;
    for (int x = 0; x < n; x++) {
        /* Input row k adds its term to each output row that reads it, so only the four sums
         * and the weights stay in registers; each sum still adds its taps top to bottom. */
        float a = r0[x], o0 = w5 * a;
        a = r1[x], o0 = o0 + w4 * a;
        float o1 = w5 * a;
        a = r2[x], o0 = o0 + w3 * a, o1 = o1 + w4 * a;
        float o2 = w5 * a;
        a = r3[x], o0 = o0 + w2 * a, o1 = o1 + w3 * a, o2 = o2 + w4 * a;
        float o3 = w5 * a;
        a = r4[x], o0 = o0 + w1 * a, o1 = o1 + w2 * a, o2 = o2 + w3 * a, o3 = o3 + w4 * a;
        a = r5[x], o0 = o0 + w0 * a, o1 = o1 + w1 * a, o2 = o2 + w2 * a, o3 = o3 + w3 * a;
        a = r6[x], o0 = o0 + w1 * a, o1 = o1 + w0 * a, o2 = o2 + w1 * a, o3 = o3 + w2 * a;
        a = r7[x], o0 = o0 + w2 * a, o1 = o1 + w1 * a, o2 = o2 + w0 * a, o3 = o3 + w1 * a;
        a = r8[x], o0 = o0 + w3 * a, o1 = o1 + w2 * a, o2 = o2 + w1 * a, o3 = o3 + w0 * a;
        a = r9[x], o0 = o0 + w4 * a, o1 = o1 + w3 * a, o2 = o2 + w2 * a, o3 = o3 + w1 * a;
        a = r10[x], o0 = o0 + w5 * a, o1 = o1 + w4 * a, o2 = o2 + w3 * a, o3 = o3 + w2 * a;
        a = r11[x], o1 = o1 + w5 * a, o2 = o2 + w4 * a, o3 = o3 + w3 * a;
        a = r12[x], o2 = o2 + w5 * a, o3 = o3 + w4 * a;
        a = r13[x], o3 = o3 + w5 * a;
        out[x] = o0;
        out[SSIM2_BLOCK + x] = o1;
        out[2 * SSIM2_BLOCK + x] = o2;
        out[3 * SSIM2_BLOCK + x] = o3;
    }
}

/* The error maps of columns [0, n) of one row, pooled into `lanes`: the sums of the SSIM error,
 * edge artifacts and lost detail and of their fourth powers, each kept in SSIM2_LANES partial
 * sums (column x of the block adds to lane x % SSIM2_LANES), so the loop vectorises without
 * reordering additions: scores are the same on every compiler and every run. */
#define SSIM2_LANES 8
#define SSIM2_POOL_ONE(x, j)                                                                      \
    do {                                                                                          \
        float m1 = mu1[x], m2 = mu2[x];                                                           \
        float num_m = 1.0f - (m1 - m2) * (m1 - m2);                                               \
        float num_s = 2 * (s12[x] - m1 * m2) + SSIM2_C2;                                          \
        float denom_s = (s11[x] - m1 * m1) + (s22[x] - m2 * m2) + SSIM2_C2;                       \
        float d = 1.0f - num_m * num_s / denom_s;                                                 \
        d = d > 0 ? d : 0;                                                                        \
        lanes[0][j] += d;                                                                         \
        lanes[1][j] += (d * d) * (d * d);                                                         \
        float edge = (1.0f + fabsf(two[x] - m2)) / (1.0f + fabsf(one[x] - m1)) - 1.0f;           \
        float gained = edge > 0 ? edge : 0, missing = edge < 0 ? -edge : 0;                       \
        lanes[2][j] += gained;                                                                    \
        lanes[3][j] += (gained * gained) * (gained * gained);                                     \
        lanes[4][j] += missing;                                                                   \
        lanes[5][j] += (missing * missing) * (missing * missing);                                 \
    } while (0)
static SSIM2_INLINE void ssim2_pool(const float *restrict one, const float *restrict two, const float *restrict mu1,
                                    const float *restrict mu2, const float *restrict s11, const float *restrict s22,
                                    const float *restrict s12, int n, float lanes[6][SSIM2_LANES]) {
    for (int x0 = 0; x0 < n; x0 += SSIM2_LANES) {
        /* Whole groups of lanes (a constant count, which the compiler turns into vector
         * instructions), then the last columns one by one. */
        if (n - x0 >= SSIM2_LANES) {
            for (int j = 0; j < SSIM2_LANES; j++) SSIM2_POOL_ONE(x0 + j, j);
        } else {
            for (int j = 0; j < n - x0; j++) SSIM2_POOL_ONE(x0 + j, j);
        }
    }
}
#undef SSIM2_POOL_ONE

/* Row `y` of a scale's linear R, G, B (n columns, odd only at an odd width) into the next
 * scale's row `half`: 2x2 means, the odd last row or column averaging what it has (added in the
 * order the means were always added). An even row stores its pairs' sums, the odd row below
 * completes them; returns whether the next scale's row is complete. */
static SSIM2_INLINE int ssim2_downsample_row(const float *const rgb[3], int n, int height, int y,
                                             float *const half[3]) {
    int pairs = n / 2, pair = (y | 1) < height;
    for (int c = 0; c < 3; c++) {
        const float *restrict in = rgb[c];
        float *restrict out = half[c];
        /* The divisions the means always had: 4 (or 2 on the last row), 2 (or 1) on an odd last column. */
        float full = (float)(2 * (1 + pair)), half_count = (float)(1 + pair);
        if (y % 2 == 1) {
            for (int ox = 0; ox < pairs; ox++) out[ox] = ((out[ox] + in[2 * ox]) + in[2 * ox + 1]) / full;
            if (n % 2) out[pairs] = (out[pairs] + in[n - 1]) / half_count;
        } else if (pair) {
            for (int ox = 0; ox < pairs; ox++) out[ox] = in[2 * ox] + in[2 * ox + 1];
            if (n % 2) out[pairs] = in[n - 1];
        } else {
            for (int ox = 0; ox < pairs; ox++) out[ox] = (in[2 * ox] + in[2 * ox + 1]) / full;
            if (n % 2) out[pairs] = in[n - 1] / half_count;
        }
    }
    return y % 2 == 1 || !pair;
}

/* One scale's state while the rows stream through it. */
typedef struct {
    int width, height;
    /* The next input row, the next output row (the first of a group), the 512-column tiles. */
    int y, next_row, tiles;
    /* The output rows this stream pools end at `end_row`; input rows outside [ring_from,
     * ring_to) are only averaged into the next scale (a part of the image's context rows). */
    int end_row, ring_from, ring_to;
    /* The ring of SSIM2_RING_ROWS full-width rows of 21 planes: XYB of a (0-2) and b (3-5), then
     * per channel c the horizontally blurred mu1, mu2, s11, s22, s12 at 6 + 5c + q. */
    float *ring;
    /* The next scale's row being averaged: linear R, G, B of a (0-2) and b (3-5); NULL at the last scale. */
    float *half[6];
    /* Each group of output rows' pooled sums per tile (18 floats: channel, then map and norm), in
     * the order tile, group: added up at the end in the order the tiles were always added. */
    float *records;
} ssim2_stream;

/* The floats a scale `width` wide holds while streaming: its ring and the next scale's row (6
 * half rows). */
static size_t ssim2_stream_floats(int width, int last) {
    return (size_t)21 * SSIM2_RING_ROWS * width + (last ? 0 : 6 * (((size_t)width + 1) / 2));
}

/* The floats of a scale's records: 18 per group of rows and tile. */
static size_t ssim2_record_floats(int width, int height) {
    size_t tiles = ((size_t)width + SSIM2_TILE - 1) / SSIM2_TILE;
    size_t groups = ((size_t)height + SSIM2_GROUP - 1) / SSIM2_GROUP;
    return tiles * groups * 18;
}

/* One row of a scale, linear R, G, B of both images: averaged into the next scale's row, to XYB
 * and through the horizontal blur of each channel's five planes into the ring; then the output
 * rows whose inputs are all in the ring take the vertical blur and pooling, four at a time, tile
 * by tile, block by block, in cache. Returns whether the next scale's row is complete. */
static SSIM2_INLINE int ssim2_stream_row(ssim2_stream *s, const float *const rgb_a[3], const float *const rgb_b[3],
                                         float *product, float *block, float bias_root) {
    int width = s->width, height = s->height, y = s->y++;
    size_t span = (size_t)width, ring_plane = (size_t)SSIM2_RING_ROWS * span;
#define SSIM2_RING(p, slot) (s->ring + (size_t)(p) * ring_plane + (size_t)(slot) * span)
    int complete = 0;
    if (s->half[0]) {
        complete = ssim2_downsample_row(rgb_a, width, height, y, s->half);
        ssim2_downsample_row(rgb_b, width, height, y, s->half + 3);
    }
    if (y < s->ring_from || y >= s->ring_to) return complete;
    int slot = y % SSIM2_RING_ROWS;
    ssim2_to_xyb(rgb_a[0], rgb_a[1], rgb_a[2], SSIM2_RING(0, slot), SSIM2_RING(1, slot), SSIM2_RING(2, slot), width,
                 bias_root);
    ssim2_to_xyb(rgb_b[0], rgb_b[1], rgb_b[2], SSIM2_RING(3, slot), SSIM2_RING(4, slot), SSIM2_RING(5, slot), width,
                 bias_root);
    for (int c = 0; c < 3; c++) {
        const float *restrict one = SSIM2_RING(c, slot), *restrict two = SSIM2_RING(3 + c, slot);
        float *restrict p11 = product, *restrict p22 = product + span, *restrict p12 = product + 2 * span;
        for (int x = 0; x < width; x++) {
            p11[x] = one[x] * one[x];
            p22[x] = two[x] * two[x];
            p12[x] = one[x] * two[x];
        }
        ssim2_blur_row(one, SSIM2_RING(6 + 5 * c, slot), width, 0, width);
        ssim2_blur_row(two, SSIM2_RING(7 + 5 * c, slot), width, 0, width);
        ssim2_blur_row(p11, SSIM2_RING(8 + 5 * c, slot), width, 0, width);
        ssim2_blur_row(p22, SSIM2_RING(9 + 5 * c, slot), width, 0, width);
        ssim2_blur_row(p12, SSIM2_RING(10 + 5 * c, slot), width, 0, width);
    }
    /* The output rows whose inputs are all in the ring (all the rest after the last row). */
    for (; s->next_row < s->end_row; s->next_row += SSIM2_GROUP) {
        int next_row = s->next_row;
        int last_input = next_row + SSIM2_GROUP - 1 + SSIM2_RADIUS;
        if ((last_input < height ? last_input : height - 1) > y) break;
        int count = height - next_row < SSIM2_GROUP ? height - next_row : SSIM2_GROUP;
        /* Input rows, mirrored at the top and bottom (y = -1 reads y = 0), again and again on a
         * scale shorter than the blur (4 rows: y = -5 reads y = 3); past the last output row of a
         * short group they are valid rows whose results go unused. */
        int slots[SSIM2_RING_ROWS];
        for (int k = 0; k < SSIM2_RING_ROWS; k++) {
            int source = (next_row - SSIM2_RADIUS + k) % (2 * height);
            if (source < 0) source += 2 * height;
            if (source >= height) source = 2 * height - source - 1;
            slots[k] = source % SSIM2_RING_ROWS;
        }
        size_t groups = ((size_t)height + SSIM2_GROUP - 1) / SSIM2_GROUP, group = (size_t)next_row / SSIM2_GROUP;
        for (int tile = 0; tile < s->tiles; tile++) {
            int x_start = tile * SSIM2_TILE;
            int n = width - x_start < SSIM2_TILE ? width - x_start : SSIM2_TILE;
            float *record = s->records + ((size_t)tile * groups + group) * 18;
            for (int c = 0; c < 3; c++) {
                const float *rows[5][SSIM2_RING_ROWS];
                for (int q = 0; q < 5; q++) {
                    for (int k = 0; k < SSIM2_RING_ROWS; k++) rows[q][k] = SSIM2_RING(6 + 5 * c + q, slots[k]);
                }
                float lanes[6][SSIM2_LANES];
                memset(lanes, 0, sizeof(lanes));
                for (int x0 = 0; x0 < n; x0 += SSIM2_BLOCK) {
                    int count_x = n - x0 < SSIM2_BLOCK ? n - x0 : SSIM2_BLOCK;
                    for (int q = 0; q < 5; q++)
                        ssim2_blur_columns(rows[q], x_start + x0, block + q * SSIM2_GROUP * SSIM2_BLOCK, count_x);
                    for (int g = 0; g < count; g++) {
                        int here = (next_row + g) % SSIM2_RING_ROWS;
                        const float *v = block + g * SSIM2_BLOCK;
                        const int plane = SSIM2_GROUP * SSIM2_BLOCK;
                        ssim2_pool(SSIM2_RING(c, here) + x_start + x0, SSIM2_RING(3 + c, here) + x_start + x0, v,
                                   v + plane, v + 2 * plane, v + 3 * plane, v + 4 * plane, count_x, lanes);
                    }
                }
                /* A group's lanes in float (a few thousand terms); the groups are added in double at the end. */
                for (int k = 0; k < 6; k++) {
                    float sum = 0;
                    for (int j = 0; j < SSIM2_LANES; j++) sum += lanes[k][j];
                    record[6 * c + k] = sum;
                }
            }
        }
    }
#undef SSIM2_RING
    return complete;
}

/* All the scales at once: each row of the images goes to linear RGB and through scale 0, and
 * each row of a scale's 2x2 means, as soon as it is complete, through the next scale. */
static SSIM2_INLINE void ssim2_stream_body(const ssim2_level *a, const ssim2_level *b, ssim2_stream *streams,
                                           int count, float *linear, float *product, float *block, int first_row,
                                           int end_row) {
    int width = a->width;
    float *const lin_a[3] = {linear, linear + width, linear + 2 * (size_t)width};
    float *const lin_b[3] = {linear + 3 * (size_t)width, linear + 4 * (size_t)width, linear + 5 * (size_t)width};
    const float bias_root = cbrtf(ssim2_bias);
    for (int y = first_row; y < end_row; y++) {
        const float *rgb_a[3], *rgb_b[3];
        ssim2_linear_row(a, y, 0, width, lin_a, rgb_a);
        ssim2_linear_row(b, y, 0, width, lin_b, rgb_b);
        for (int s = 0; s < count; s++) {
            if (!ssim2_stream_row(&streams[s], rgb_a, rgb_b, product, block, bias_root)) break;
            for (int c = 0; c < 3; c++) {
                rgb_a[c] = streams[s].half[c];
                rgb_b[c] = streams[s].half[3 + c];
            }
        }
    }
}

/* The same code twice: for the baseline instruction set, and on x86-64 for AVX2 (8 floats an
 * instruction instead of SSE2's 4), chosen at run time. No FMA: each lane computes what the
 * baseline computes, in the same order, so both give the same scores to the bit. */
static void ssim2_stream_baseline(const ssim2_level *a, const ssim2_level *b, ssim2_stream *streams, int count,
                                  float *linear, float *product, float *block, int first_row, int end_row) {
    ssim2_stream_body(a, b, streams, count, linear, product, block, first_row, end_row);
}

#if SSIM2_DISPATCH
__attribute__((target("avx2"))) static void ssim2_stream_avx2(const ssim2_level *a, const ssim2_level *b,
                                                              ssim2_stream *streams, int count, float *linear,
                                                              float *product, float *block, int first_row,
                                                              int end_row) {
    ssim2_stream_body(a, b, streams, count, linear, product, block, first_row, end_row);
}
#endif

/* One thread's share of a score: input rows [first_row, end_row) of the image, and at each scale
 * the output rows [pooled_from, pooled_to) pooled into the shared records. */
typedef struct {
    const ssim2_level *a, *b;
    int count;
    const int *widths, *heights;
    int first_row, end_row;
    int pooled_from[SSIM2_SCALES], pooled_to[SSIM2_SCALES];
    float *const *records;
    int status;
} ssim2_part;

/* Streams a part's rows through every scale, with its own rings and rows. */
static gpointer ssim2_run_part(gpointer data) {
    ssim2_part *part = data;
    int count = part->count, width = part->widths[0];
    /* One allocation: each scale's ring and next scale's row, then 6 rows of scale 0's linear
     * RGB, 3 of products and the vertical pass's blocks (5 planes of SSIM2_GROUP rows). */
    size_t floats = (size_t)width * 9 + 5 * SSIM2_GROUP * SSIM2_BLOCK;
    for (int s = 0; s < count; s++) floats += ssim2_stream_floats(part->widths[s], s + 1 == count);
    float *work = g_try_malloc(sizeof(float) * floats);
    if (!work) {
        part->status = -1;
        return NULL;
    }
    ssim2_stream streams[SSIM2_SCALES];
    float *next = work;
    for (int s = 0; s < count; s++) {
        ssim2_stream *stream = &streams[s];
        int w = part->widths[s], h = part->heights[s];
        stream->width = w;
        stream->height = h;
        /* The first input row of each scale: the part's first row of the image, halved. */
        stream->y = part->first_row >> s;
        stream->next_row = part->pooled_from[s];
        stream->end_row = part->pooled_to[s];
        stream->ring_from = part->pooled_from[s] - SSIM2_RADIUS;
        stream->ring_to = part->pooled_to[s] + SSIM2_RADIUS;
        stream->tiles = (w + SSIM2_TILE - 1) / SSIM2_TILE;
        stream->ring = next;
        next += (size_t)21 * SSIM2_RING_ROWS * w;
        for (int c = 0; c < 6; c++) {
            stream->half[c] = s + 1 < count ? next + (size_t)c * ((w + 1) / 2) : NULL;
        }
        if (s + 1 < count) next += 6 * (size_t)((w + 1) / 2);
        stream->records = part->records[s];
    }
    float *linear = next, *product = linear + 6 * (size_t)width, *block = product + 3 * (size_t)width;
#if SSIM2_DISPATCH
    if (ssim2_avx2)
        ssim2_stream_avx2(part->a, part->b, streams, count, linear, product, block, part->first_row, part->end_row);
    else
#endif
        ssim2_stream_baseline(part->a, part->b, streams, count, linear, product, block, part->first_row, part->end_row);
    g_free(work);
    part->status = 0;
    return NULL;
}

/* The score of one pair with alpha (if any) blended onto `background`, on `threads` threads (1
 * or 2; 2 only for images tall enough, see below). */
static int ssim2_score_once(const unsigned char *reference, const unsigned char *distorted, int width, int height,
                            int bands, float background, int threads, double *score) {
    ssim2_level a = {width, height, reference, bands, background, NULL};
    ssim2_level b = {width, height, distorted, bands, background, NULL};
    /* The scales scored, each half the previous one, as libjxl's ComputeSSIMULACRA2 loops: the
     * image is scored when both sides are 8 or more, and a scale is halved into the next while
     * both its sides are, so the last one may be 4 to 7 pixels a side (3 scales at 15x15, 6 at
     * 200x150). */
    int count = 0, widths[SSIM2_SCALES], heights[SSIM2_SCALES];
    for (int w = width, h = height; count < SSIM2_SCALES && width >= 8 && height >= 8; w = (w + 1) / 2, h = (h + 1) / 2) {
        widths[count] = w;
        heights[count++] = h;
        if (w < 8 || h < 8) break;
    }
    /* Each scale's pooled sums per group of rows and tile, which the parts fill in. */
    size_t record_floats = 0;
    for (int s = 0; s < count; s++) record_floats += ssim2_record_floats(widths[s], heights[s]);
    float *record_block = count ? g_try_malloc(sizeof(float) * record_floats) : NULL;
    if (count && !record_block) return -1;
    float *records[SSIM2_SCALES];
    float *next_records = record_block;
    for (int s = 0; s < count; s++) {
        records[s] = next_records;
        next_records += ssim2_record_floats(widths[s], heights[s]);
    }
    /* With alpha, three powf a pixel and image cost more than a table of every (alpha, value)
     * pair from about 131 072 pixels. The table is 256 KB: from 256 columns, less than the rings
     * take (2.4 KB a column). */
    float *blend = NULL;
    if (count && bands == 4 && width >= 256 && (size_t)width * height >= (1u << 17)) {
        blend = g_try_malloc(sizeof(float) * 256 * 256);
        if (!blend) {
            g_free(record_block);
            return -1;
        }
        for (int alpha = 0; alpha < 256; alpha++) {
            for (int value = 0; value < 256; value++) {
                blend[alpha * 256 + value] = ssim2_blend_linear(value, alpha, background);
            }
        }
        a.blend = b.blend = blend;
    }

    /* Two parts split the image at row `split`, a multiple of `unit` (a group of rows at the last
     * scale), so each scale splits between whole groups. Each part goes `context` rows into the
     * other's half, the rows the last scale's blur reads (SSIM2_RADIUS there) and the rows under
     * them at every scale: there they only average into the next scale, except the SSIM2_RADIUS
     * rows next to its own, which the blur reads. Every pooled value is computed from the same
     * rows in the same order as in one part, so the score is the same to the bit. */
    int parts = 1, split = 0;
    if (count && threads >= 2) {
        int unit = SSIM2_GROUP << (count - 1), context = SSIM2_RADIUS << (count - 1);
        split = height / 2 / unit * unit;
        if (split >= 2 * context && height - split >= 2 * context) parts = 2;
    }
    ssim2_part part[2];
    for (int p = 0; p < parts; p++) {
        ssim2_part *one = &part[p];
        *one = (ssim2_part){&a, &b, count, widths, heights, 0, height, {0}, {0}, records, -1};
        int context = SSIM2_RADIUS << (count - 1);
        if (parts == 2) {
            one->first_row = p == 0 ? 0 : split - context;
            one->end_row = p == 0 ? split + context : height;
        }
        for (int s = 0; s < count; s++) {
            one->pooled_from[s] = parts == 2 && p == 1 ? split >> s : 0;
            one->pooled_to[s] = parts == 2 && p == 0 ? split >> s : heights[s];
        }
    }
    if (count) {
        GThread *helper = parts == 2 ? g_thread_try_new("ssimulacra2", ssim2_run_part, &part[1], NULL) : NULL;
        ssim2_run_part(&part[0]);
        /* Without a thread (none to be had), the second part runs here after the first. */
        if (helper) g_thread_join(helper);
        else if (parts == 2) ssim2_run_part(&part[1]);
        if (part[0].status != 0 || (parts == 2 && part[1].status != 0)) {
            g_free(record_block);
            g_free(blend);
            return -1;
        }
    }

    /* Each scale's pooled errors: the groups' sums added in double, tile by tile, each tile top to
     * bottom (the order the scales were scored in before they streamed). */
    ssim2_scale scales[SSIM2_SCALES];
    for (int s = 0; s < count; s++) {
        size_t entries = ssim2_record_floats(widths[s], heights[s]) / 18;
        double sums[3][6];
        memset(sums, 0, sizeof(sums));
        for (size_t r = 0; r < entries; r++) {
            for (int c = 0; c < 3; c++) {
                for (int k = 0; k < 6; k++) sums[c][k] += records[s][r * 18 + 6 * c + k];
            }
        }
        double pixels = (double)widths[s] * heights[s];
        ssim2_scale *out = &scales[s];
        for (int c = 0; c < 3; c++) {
            out->ssim[c][0] = sums[c][0] / pixels;
            out->ssim[c][1] = sqrt(sqrt(sums[c][1] / pixels));
            out->artifact[c][0] = sums[c][2] / pixels;
            out->artifact[c][1] = sqrt(sqrt(sums[c][3] / pixels));
            out->detail_lost[c][0] = sums[c][4] / pixels;
            out->detail_lost[c][1] = sqrt(sqrt(sums[c][5] / pixels));
        }
    }
    g_free(record_block);
    g_free(blend);

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
                      int bands, int threads, double *score) {
    if (width <= 0 || height <= 0 || (bands != 3 && bands != 4)) return -1;
    g_once(&ssim2_tables_once, ssim2_make_tables, NULL);
    if (bands == 3) return ssim2_score_once(reference, distorted, width, height, bands, 0, threads, score);
    /* With alpha, the worse of a dark and a light background: a change hidden on one shows on the other. */
    double dark, light;
    if (ssim2_score_once(reference, distorted, width, height, bands, 0.1f, threads, &dark) != 0) return -1;
    if (ssim2_score_once(reference, distorted, width, height, bands, 0.9f, threads, &light) != 0) return -1;
    *score = dark < light ? dark : light;
    return 0;
}
