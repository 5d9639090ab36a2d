/*
 * arena.h - one bump allocator per command run.
 *
 * Trees, the spec model, diagnostics and rendered output live here and are
 * freed together by arena_release().  Nothing inside is freed one by one.
 * Allocation never fails: running out of memory is fatal (see xalloc.h).
 * Built with -DARENA_DEBUG every allocation is its own malloc block so that
 * valgrind and AddressSanitizer see each one.
 */
#ifndef GS_ARENA_H
#define GS_ARENA_H

#include <stdarg.h>
#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head; /* newest block first */
	size_t total;             /* bytes handed out, for -v and bench */
};

#define ARENA_INIT                                                                                 \
	{                                                                                          \
		NULL, 0                                                                            \
	}

void arena_init(struct arena *a);
/* Zeroed, aligned for any type; never NULL. */
void *arena_alloc(struct arena *a, size_t size);
/* Grow an array allocated from the arena (old contents copied). */
void *arena_realloc(struct arena *a, void *old, size_t old_size, size_t new_size);
/*
 * Room for one more element in an arena array of `count` elements of
 * `elem` bytes and capacity *cap: when count == *cap the array grows to
 * twice *cap (`min` elements the first time), old contents copied, *cap
 * updated.  Returns the array, moved or not.  A size that would overflow
 * is fatal, like running out of memory.  Use it through ARENA_GROW.
 */
void *arena_grow(struct arena *a, void *ptr, size_t elem, size_t count, size_t *cap, size_t min);
/* ARENA_GROW(a, items, count, alloc, 16); items[count++] = x; */
#define ARENA_GROW(a, ptr, count, cap, min)                                                        \
	((ptr) = arena_grow((a), (ptr), sizeof(*(ptr)), (count), &(cap), (min)))
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *arena_vprintf(struct arena *a, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void arena_release(struct arena *a);

#endif
