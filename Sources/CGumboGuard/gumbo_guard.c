#include "cgumbo_guard.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

/* Every block a parse allocates, in a list, so an abandoned parse frees them all. */
struct block {
    struct block *previous, *next;
    /* Keeps what follows aligned as malloc's own blocks are. */
    max_align_t align[];
};

struct arena {
    struct block *first;
};

static void *arena_allocate(void *userdata, size_t size) {
    struct arena *arena = userdata;
    struct block *block = malloc(sizeof(struct block) + size);
    if (block == NULL) return NULL;
    block->previous = NULL;
    block->next = arena->first;
    if (arena->first != NULL) arena->first->previous = block;
    arena->first = block;
    return block->align;
}

static void arena_free(void *userdata, void *pointer) {
    if (pointer == NULL) return;
    struct arena *arena = userdata;
    struct block *block = (struct block *)((char *)pointer - offsetof(struct block, align));
    if (block->previous != NULL) block->previous->next = block->next; else arena->first = block->next;
    if (block->next != NULL) block->next->previous = block->previous;
    free(block);
}

static void arena_release(struct arena *arena) {
    struct block *block = arena->first;
    while (block != NULL) {
        struct block *next = block->next;
        free(block);
        block = next;
    }
    free(arena);
}

#if defined(__linux__)
/* Where a failed assertion returns to on this thread: set only while a guarded parse runs. */
static __thread jmp_buf *guarded_parse;

/* glibc's assert() calls this; a library's call lands here, as the executable's definition
   comes first (the same way dppx puts liborc's compile under a lock, orc_lock.c). Outside a
   guarded parse it does what glibc's does. */
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) {
    if (guarded_parse != NULL) longjmp(*guarded_parse, 1);
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function != NULL ? function : "?", assertion);
    fflush(stderr);
    abort();
}
#endif

GumboOutput *cgumbo_parse_guarded(GumboOptions *options, const char *text, size_t length, int *aborted) {
    struct arena *arena = calloc(1, sizeof(struct arena));
    *aborted = 0;
    if (arena == NULL) return NULL;
    options->allocator = arena_allocate;
    options->deallocator = arena_free;
    options->userdata = arena;
#if defined(__linux__)
    jmp_buf jump;
    jmp_buf *outer = guarded_parse;
    if (setjmp(jump) != 0) {
        guarded_parse = outer;
        arena_release(arena);
        options->userdata = NULL;
        *aborted = 1;
        return NULL;
    }
    guarded_parse = &jump;
    GumboOutput *output = gumbo_parse_with_options(options, text, length);
    guarded_parse = outer;
    return output;
#else
    return gumbo_parse_with_options(options, text, length);
#endif
}

void cgumbo_destroy_guarded(GumboOptions *options, GumboOutput *output) {
    if (options->userdata == NULL) return;
    if (output != NULL) gumbo_destroy_output(options, output);
    arena_release(options->userdata);
    options->userdata = NULL;
}
