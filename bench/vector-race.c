/* bench/vector-race.c: does libvips's vector code (ORC) survive resizes on many threads at once?
 *
 * THREADS threads each resize ITERATIONS tiny 8-bit noise images (12 to 31 px a side, so that
 * compiling and freeing programs is most of the work) with vips_resize, whose vertical reduce
 * compiles its ORC programs when built and frees them when disposed, and write each result to
 * memory; the operation cache is off, as in dppx. With Debian 12's liborc 0.4.33 this crashed 5
 * times in 7 runs of 16 threads x 1000 resizes (SIGSEGV in orc_code_free, or a corrupted malloc
 * list while another thread was in orc_program_compile_full); linked with dppx's lock around
 * liborc's compile and free (Sources/CVips/orc_lock.c), 0 times in 30 (bench/JOURNAL.md,
 * "libvips's vector code"). Run it again when liborc or libvips changes:
 *
 *   cc -O1 -g bench/vector-race.c -o /tmp/vector-race $(pkg-config --cflags --libs vips) -lpthread
 *   cc -O1 -g -ISources/CVips/include bench/vector-race.c Sources/CVips/orc_lock.c -o /tmp/vector-race-locked \
 *      $(pkg-config --cflags --libs vips libwebp libjxl) -lpthread
 *   for i in $(seq 10); do /tmp/vector-race 16 1000 || echo "run $i: exit $?"; done
 *   for i in $(seq 30); do /tmp/vector-race-locked 16 1000 || echo "run $i: exit $?"; done
 */
#include <vips/vips.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

extern gboolean vips_vector_isenabled(void);

static int iterations = 400;

static void *resize_many(void *arg) {
    long id = (long) arg;
    for (int i = 0; i < iterations; i++) {
        VipsImage *noise = NULL, *bytes = NULL, *out = NULL;
        int width = 12 + (int) ((id * 37 + i * 13) % 20), height = 10 + (int) ((id * 11 + i * 7) % 20);
        double scale = 0.2 + ((id * 17 + i * 29) % 70) / 100.0;
        if (vips_gaussnoise(&noise, width, height, "mean", 128.0, "sigma", 40.0, NULL)) continue;
        if (vips_cast(noise, &bytes, VIPS_FORMAT_UCHAR, NULL) == 0) {
            if (vips_resize(bytes, &out, scale, NULL) == 0) {
                size_t size;
                g_free(vips_image_write_to_memory(out, &size));
                g_object_unref(out);
            }
            g_object_unref(bytes);
        }
        g_object_unref(noise);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
    int threads = argc > 1 ? atoi(argv[1]) : 16;
    if (argc > 2) iterations = atoi(argv[2]);
    if (threads < 1 || threads > 256 || iterations < 1) {
        fprintf(stderr, "usage: vector-race [THREADS (1-256)] [ITERATIONS]\n");
        return 2;
    }
    vips_cache_set_max(0);
    printf("vector code %s, %d threads x %d resizes\n", vips_vector_isenabled() ? "on" : "off", threads, iterations);
    pthread_t workers[256];
    for (long i = 0; i < threads; i++) pthread_create(&workers[i], NULL, resize_many, (void *) i);
    for (int i = 0; i < threads; i++) pthread_join(workers[i], NULL);
    printf("done\n");
    return 0;
}
