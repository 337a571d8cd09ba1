/* Starting libvips, its memory and warnings, and keeping its error text with the failed call. */
#include "cvips.h"

#include <pthread.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

int cvips_init(const char *argv0) { return VIPS_INIT(argv0); }

/* glibc otherwise raises its mmap threshold after the first large free and keeps later
 * buffers in its heaps. */
void cvips_return_large_buffers_promptly(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

static void cvips_warning_to_error(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) data;
    vips_error("libvips", "%s", message);
}

void cvips_warnings_into_errors(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, cvips_warning_to_error, NULL);
}

/* Declared in vips/vector.h, which includes liborc's headers before libvips 8.15. */
extern void vips_vector_set_enabled(gboolean enabled);
extern gboolean vips_vector_isenabled(void);

void cvips_set_vector_enabled(int enabled) { vips_vector_set_enabled(enabled ? TRUE : FALSE); }

int cvips_vector_enabled(void) { return vips_vector_isenabled() ? 1 : 0; }

char *cvips_error_take(void) {
    char *text = g_strdup(vips_error_buffer());
    vips_error_clear();
    return text;
}

/* A readers-writer lock that prefers the writer (an "alone" section waits only for the shared
 * sections already running), with a per-thread nesting depth so that a shared section may
 * open inside another on the same thread. */
static pthread_mutex_t sections_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sections_changed = PTHREAD_COND_INITIALIZER;
static int shared_running = 0;
static int alone_waiting = 0;
static int alone_running = 0;
static _Thread_local int depth = 0;

int cvips_shared_begin(void) {
    if (depth++ > 0) return 0;
    pthread_mutex_lock(&sections_lock);
    while (alone_running || alone_waiting) pthread_cond_wait(&sections_changed, &sections_lock);
    shared_running++;
    pthread_mutex_unlock(&sections_lock);
    return 1;
}

void cvips_shared_end(void) {
    if (--depth > 0) return;
    pthread_mutex_lock(&sections_lock);
    shared_running--;
    pthread_cond_broadcast(&sections_changed);
    pthread_mutex_unlock(&sections_lock);
}

void cvips_alone_begin(void) {
    depth++;
    pthread_mutex_lock(&sections_lock);
    alone_waiting++;
    while (shared_running || alone_running) pthread_cond_wait(&sections_changed, &sections_lock);
    alone_waiting--;
    alone_running = 1;
    pthread_mutex_unlock(&sections_lock);
    vips_error_clear();
}

void cvips_alone_end(void) {
    depth--;
    pthread_mutex_lock(&sections_lock);
    alone_running = 0;
    pthread_cond_broadcast(&sections_changed);
    pthread_mutex_unlock(&sections_lock);
}
