/*
 * The in-process SSIMULACRA2 score (Sources/CVips/ssimulacra2.c) on image pairs: the score and
 * the CPU time of one call, best of N, single-threaded (-threads 2: dppx's score on two threads,
 * as a build runs it while a core is idle; the CPU time of both, and the median wall time).
 *
 *   cc -O2 -I Sources/CVips/include bench/ssimulacra2-speed.c Sources/CVips/ssimulacra2.c \
 *      $(pkg-config --cflags --libs vips) -lm -o /tmp/ssimulacra2-speed
 *   /tmp/ssimulacra2-speed [-n RUNS] [-alpha] [-threads 1|2] REFERENCE DISTORTED [REFERENCE DISTORTED ...]
 *
 * Each image is loaded with libvips and turned into 8-bit sRGB, 3 bands (flattened onto black),
 * or 4 with -alpha (an image without alpha gets an opaque one). The two of a pair must be the
 * same size. One line a pair: the size, the score, the best and median CPU time of a call.
 *
 * To compare with another implementation, compile this with -DSSIM2_OTHER=name and link a
 * copy of the other one whose exported function is renamed `name`: each line then shows both
 * scores and times (the calls alternate, so both see the same machine), and the largest
 * difference is printed at the end.
 */
#include "cvips.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SSIM2_OTHER
#define SSIM2_NAME_(x) #x
#define SSIM2_NAME(x) SSIM2_NAME_(x)
int SSIM2_OTHER(const unsigned char *reference, const unsigned char *distorted, int width, int height,
                int bands, double *score);
#endif

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The pixels of `path` as interleaved 8-bit sRGB with `bands` bands. */
static unsigned char *load(const char *path, int bands, int *width, int *height) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) return NULL;
    VipsImage *t;
    if (vips_colourspace(image, &t, VIPS_INTERPRETATION_sRGB, NULL)) return NULL;
    g_object_unref(image);
    image = t;
    if (bands == 3 && image->Bands > 3) {
        if (vips_flatten(image, &t, NULL)) return NULL;
        g_object_unref(image);
        image = t;
    }
    if (bands == 4 && image->Bands == 3) {
        if (vips_bandjoin_const1(image, &t, 255, NULL)) return NULL;
        g_object_unref(image);
        image = t;
    }
    if (image->Bands != bands) {
        fprintf(stderr, "%s: %d bands\n", path, image->Bands);
        return NULL;
    }
    if (vips_cast_uchar(image, &t, NULL)) return NULL;
    g_object_unref(image);
    image = t;
    *width = image->Xsize;
    *height = image->Ysize;
    size_t size;
    unsigned char *pixels = vips_image_write_to_memory(image, &size);
    g_object_unref(image);
    return pixels;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef int (*score_function)(const unsigned char *, const unsigned char *, int, int, int, double *);

/* dppx's score on `threads` threads (-threads). */
static int threads = 1;
static int dppx_score(const unsigned char *a, const unsigned char *b, int width, int height, int bands, double *score) {
    return cvips_ssimulacra2(a, b, width, height, bands, threads, score);
}

static double wall_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* One timed call; the score into `score`, the CPU seconds returned, the wall seconds in `wall`. */
static double timed(score_function f, const unsigned char *a, const unsigned char *b, int width, int height,
                    int bands, double *score, double *wall) {
    double start = cpu_seconds(), wall_start = wall_seconds();
    if (f(a, b, width, height, bands, score) != 0) {
        fprintf(stderr, "score failed\n");
        exit(1);
    }
    *wall = wall_seconds() - wall_start;
    return cpu_seconds() - start;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
    vips_concurrency_set(1);
    int runs = 3, bands = 3, arg = 1;
    for (; arg < argc && argv[arg][0] == '-'; arg++) {
        if (!strcmp(argv[arg], "-n") && arg + 1 < argc) runs = atoi(argv[++arg]);
        else if (!strcmp(argv[arg], "-alpha")) bands = 4;
        else if (!strcmp(argv[arg], "-threads") && arg + 1 < argc) threads = atoi(argv[++arg]);
        else {
            fprintf(stderr, "usage: %s [-n RUNS] [-alpha] [-threads 1|2] REFERENCE DISTORTED ...\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    double *times = malloc(sizeof(double) * runs), *walls = malloc(sizeof(double) * runs);
#ifdef SSIM2_OTHER
    double *other_times = malloc(sizeof(double) * runs);
    double largest = 0;
#endif
    for (; arg + 1 < argc; arg += 2) {
        int w1, h1, w2, h2;
        unsigned char *a = load(argv[arg], bands, &w1, &h1);
        unsigned char *b = load(argv[arg + 1], bands, &w2, &h2);
        if (!a || !b) vips_error_exit("%s", argv[arg]);
        if (w1 != w2 || h1 != h2) {
            fprintf(stderr, "%s, %s: sizes differ\n", argv[arg], argv[arg + 1]);
            return 1;
        }
        double score = 0, again;
#ifdef SSIM2_OTHER
        double other = 0;
#endif
        for (int r = 0; r < runs; r++) {
            times[r] = timed(dppx_score, a, b, w1, h1, bands, &again, &walls[r]);
            if (r > 0 && again != score) {
                fprintf(stderr, "not deterministic: %.17g then %.17g\n", score, again);
                return 1;
            }
            score = again;
#ifdef SSIM2_OTHER
            double other_wall;
            other_times[r] = timed(SSIM2_OTHER, a, b, w1, h1, bands, &other, &other_wall);
#endif
        }
        qsort(times, runs, sizeof(double), compare_doubles);
        qsort(walls, runs, sizeof(double), compare_doubles);
        printf("%-28s %-28s %5dx%-5d %9.5f  %7.1f ms (median %7.1f, wall %7.1f)", argv[arg], argv[arg + 1], w1, h1,
               score, times[0] * 1e3, times[runs / 2] * 1e3, walls[runs / 2] * 1e3);
#ifdef SSIM2_OTHER
        qsort(other_times, runs, sizeof(double), compare_doubles);
        double difference = fabs(score - other);
        if (difference > largest) largest = difference;
        printf("  | %s %9.5f  %7.1f ms (median %7.1f)  diff %.2e", SSIM2_NAME(SSIM2_OTHER), other,
               other_times[0] * 1e3, other_times[runs / 2] * 1e3, difference);
#endif
        printf("\n");
        g_free(a);
        g_free(b);
    }
#ifdef SSIM2_OTHER
    printf("largest difference: %.3e\n", largest);
#endif
    return 0;
}
