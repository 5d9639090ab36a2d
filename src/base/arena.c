/*
 * arena.c - chunked bump allocator, 16-byte aligned.
 *
 * Small allocations are cut from the newest block; a request larger than
 * a quarter of a block gets a block of its own, linked behind the newest
 * so the newest block's free space is not wasted.  With -DARENA_DEBUG
 * every allocation is its own malloc block so that valgrind and
 * AddressSanitizer see each one (git's GIT_DEBUG_POOL).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/xalloc.h"

#define ARENA_ALIGN 16
#define ARENA_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t size; /* usable bytes after the header */
	size_t used;
};

/* Header rounded up so the data after it stays 16-byte aligned. */
#define HDR_SIZE ((sizeof(struct arena_block) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

static unsigned char *
block_data(struct arena_block *b)
{
	return (unsigned char *)b + HDR_SIZE;
}

static size_t
round_up(size_t n)
{
	if (n > SIZE_MAX - ARENA_ALIGN - HDR_SIZE) {
		fprintf(stderr, "gpusite: fatal: arena request of %zu bytes is too large\n", n);
		abort();
	}
	return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static struct arena_block *
block_new(size_t size)
{
	struct arena_block *b = xmalloc(HDR_SIZE + size);

	b->next = NULL;
	b->size = size;
	b->used = 0;
	return b;
}

void
arena_init(struct arena *a)
{
	a->head = NULL;
	a->total = 0;
}

void *
arena_alloc(struct arena *a, size_t size)
{
	size_t need = round_up(size ? size : 1);
	struct arena_block *b;

#ifdef ARENA_DEBUG
	/* Exact size, so an overrun of even one byte is caught. */
	b = block_new(size ? size : 1);
	b->used = b->size;
	b->next = a->head;
	a->head = b;
	memset(block_data(b), 0, b->size);
	a->total += need;
	return block_data(b);
#else
	void *p;

	b = a->head;
	if (b && b->size - b->used >= need) {
		p = block_data(b) + b->used;
		b->used += need;
	} else if (need > ARENA_BLOCK / 4) {
		/* A block of its own, behind the newest one. */
		struct arena_block *big = block_new(need);

		big->used = need;
		if (b) {
			big->next = b->next;
			b->next = big;
		} else {
			a->head = big;
		}
		p = block_data(big);
	} else {
		b = block_new(ARENA_BLOCK);
		b->next = a->head;
		a->head = b;
		b->used = need;
		p = block_data(b);
	}
	a->total += need;
	memset(p, 0, need);
	return p;
#endif
}

void *
arena_realloc(struct arena *a, void *old, size_t old_size, size_t new_size)
{
	void *p;

#ifndef ARENA_DEBUG
	struct arena_block *b = a->head;

	/* The newest allocation of the newest block can grow in place. */
	if (old && b) {
		size_t old_need = round_up(old_size ? old_size : 1);
		size_t new_need = round_up(new_size ? new_size : 1);

		if (b->used >= old_need &&
		    block_data(b) + (b->used - old_need) == (unsigned char *)old &&
		    new_need >= old_need && b->size - (b->used - old_need) >= new_need) {
			memset((unsigned char *)old + old_need, 0, new_need - old_need);
			b->used += new_need - old_need;
			a->total += new_need - old_need;
			return old;
		}
	}
#endif
	p = arena_alloc(a, new_size);
	if (old)
		memcpy(p, old, old_size < new_size ? old_size : new_size);
	return p;
}

void *
arena_grow(struct arena *a, void *ptr, size_t elem, size_t count, size_t *cap, size_t min)
{
	size_t n;

	if (count < *cap)
		return ptr;
	n = *cap ? *cap : (min ? min : 1);
	if (*cap && n > SIZE_MAX / 2)
		n = SIZE_MAX; /* fails the check below */
	else if (*cap)
		n *= 2;
	if (elem && n > SIZE_MAX / elem) {
		fprintf(stderr,
			"gpusite: fatal: arena array of %zu elements of %zu bytes is too large\n",
			n, elem);
		abort();
	}
	ptr = arena_realloc(a, ptr, *cap * elem, n * elem);
	*cap = n;
	return ptr;
}

char *
arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
arena_vprintf(struct arena *a, const char *fmt, va_list ap)
{
	va_list cp;
	char small[256];
	int n;
	char *p;

	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return arena_strdup(a, "");
	if ((size_t)n < sizeof(small))
		return arena_strndup(a, small, (size_t)n);
	p = arena_alloc(a, (size_t)n + 1);
	va_copy(cp, ap);
	vsnprintf(p, (size_t)n + 1, fmt, cp);
	va_end(cp);
	return p;
}

char *
arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

void
arena_release(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;

		free(b);
		b = next;
	}
	a->head = NULL;
	a->total = 0;
}
