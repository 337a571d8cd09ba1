/* One lock around liborc's compile and free, so libvips's vector code can stay on.
 *
 * libvips before 8.15 runs its vector paths (the vertical reduce of every resize, among others)
 * through liborc, compiling an ORC program when an operation is built and freeing it when the
 * operation is disposed. liborc 0.4.33 (Debian 12) keeps the code memory of all programs in one
 * list that its free does not lock: one thread freeing its programs while another compiles
 * corrupts it (SIGSEGV in orc_code_free, or malloc's lists, in bench/vector-race.c: 5 crashes in
 * 7 runs of 16 threads resizing small images). Running ORC programs touches no shared state.
 *
 * libvips calls liborc's orc_program_compile and orc_program_free through the global symbol
 * scope, where an executable's own definitions come before any library's: dppx defines both
 * here, takes one process-wide lock, and calls liborc's. The programs run unlocked. The same
 * runs never crashed with this lock (0 in 30); Vips.start turns the vector code on only when
 * cvips_orc_lock_installed says libvips's calls do land here.
 *
 * Linux only: macOS's two-level namespace binds libvips to liborc's own symbols, and Homebrew's
 * libvips is 8.15 or later (Highway, no liborc) anyway. */
#ifdef __linux__
#define _GNU_SOURCE /* RTLD_NEXT, PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#endif
#include "cvips.h"

#if defined(__linux__) && VIPS_MAJOR_VERSION == 8 && VIPS_MINOR_VERSION < 15
#define CVIPS_ORC_LOCK 1
#endif

#ifdef CVIPS_ORC_LOCK
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>

typedef struct _OrcProgram OrcProgram;

/* Recursive: should liborc ever reach one of these through the global scope from inside the
 * other, the thread already holding the lock goes on. */
static pthread_mutex_t orc_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static atomic_long orc_calls = 0;

/* ORC_COMPILE_RESULT_UNKNOWN_COMPILE: libvips then runs its C path. */
#define ORC_COMPILE_FAILED 0x100

int orc_program_compile(OrcProgram *program) {
    static int (*real)(OrcProgram *);
    pthread_mutex_lock(&orc_lock);
    if (!real) real = (int (*)(OrcProgram *)) dlsym(RTLD_NEXT, "orc_program_compile");
    int result = real ? real(program) : ORC_COMPILE_FAILED;
    pthread_mutex_unlock(&orc_lock);
    atomic_fetch_add(&orc_calls, 1);
    return result;
}

void orc_program_free(OrcProgram *program) {
    static void (*real)(OrcProgram *);
    pthread_mutex_lock(&orc_lock);
    if (!real) real = (void (*)(OrcProgram *)) dlsym(RTLD_NEXT, "orc_program_free");
    if (real) real(program);
    pthread_mutex_unlock(&orc_lock);
    atomic_fetch_add(&orc_calls, 1);
}

int cvips_orc_lock_installed(void) {
    /* What libvips's calls resolve to: ours, unless the linker kept them out of the dynamic
     * symbol table (then libvips reaches liborc directly and the lock protects nothing). */
    return dlsym(RTLD_DEFAULT, "orc_program_compile") == (void *) orc_program_compile
        && dlsym(RTLD_DEFAULT, "orc_program_free") == (void *) orc_program_free;
}

long cvips_orc_locked_calls(void) { return atomic_load(&orc_calls); }

#else

int cvips_orc_lock_installed(void) { return 0; }

long cvips_orc_locked_calls(void) { return 0; }

#endif
