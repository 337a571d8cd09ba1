#ifndef CGUMBO_GUARD_H
#define CGUMBO_GUARD_H
/* gumbo 0.10 as Debian builds it keeps its assertions, and some hostile markup fails one
   (`<table><math><select><mi><template></template></table>`, a cell closed from a foreign
   element...): assert() then aborts the whole process, `dppx serve` included. These wrappers
   parse with every allocation recorded, and on Linux turn a failed assertion during that parse
   into a refusal: the parse is abandoned, what it allocated freed, and the caller told. */
#include <gumbo.h>
#include <stddef.h>

/* Parses `length` bytes of `text` with `options` (its allocator and userdata are set here).
   Returns NULL and sets `*aborted` to 1 when gumbo failed an assertion on them. */
GumboOutput *cgumbo_parse_guarded(GumboOptions *options, const char *text, size_t length, int *aborted);

/* Frees `output` and what the parse allocated; `options` as given to cgumbo_parse_guarded. */
void cgumbo_destroy_guarded(GumboOptions *options, GumboOutput *output);

#endif
