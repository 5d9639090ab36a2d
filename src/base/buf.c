/*
 * buf.c - growable byte buffer with a cap (strbuf invariants: .data is
 * never NULL and always NUL-terminated; a failed append changes nothing).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/xalloc.h"

char buf_empty[1];

void
buf_init(struct buf *b, size_t cap)
{
	b->data = buf_empty;
	b->len = 0;
	b->alloc = 0;
	b->cap = cap;
}

/* Make room for `extra` more bytes plus the NUL, honouring the cap. */
static int
buf_grow(struct buf *b, size_t extra)
{
	size_t want, n;

	if (extra > SIZE_MAX - 1 - b->len)
		return BUF_ETOOBIG;
	if (b->cap && b->len + extra > b->cap)
		return BUF_ETOOBIG;
	want = b->len + extra + 1;
	if (want <= b->alloc)
		return 0;
	n = b->alloc ? b->alloc : 64;
	while (n < want)
		n = n > SIZE_MAX / 2 ? want : n * 2;
	if (b->alloc == 0) {
		b->data = xmalloc(n);
		b->data[0] = '\0';
	} else {
		b->data = xrealloc(b->data, n);
	}
	b->alloc = n;
	return 0;
}

int
buf_add(struct buf *b, const void *data, size_t len)
{
	int err;

	if (len == 0)
		return 0;
	err = buf_grow(b, len);
	if (err)
		return err;
	memmove(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

int
buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int
buf_addch(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

int
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	char small[256];
	int n, err;

	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof(small))
		return buf_add(b, small, (size_t)n);
	err = buf_grow(b, (size_t)n);
	if (err)
		return err;
	va_copy(cp, ap);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, cp);
	va_end(cp);
	b->len += (size_t)n;
	return 0;
}

int
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = buf_vprintf(b, fmt, ap);
	va_end(ap);
	return err;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->data[0] = '\0';
}

char *
buf_detach(struct buf *b, size_t *len_out)
{
	char *p;

	if (len_out)
		*len_out = b->len;
	if (b->alloc == 0)
		p = xstrdup("");
	else
		p = b->data;
	buf_init(b, b->cap);
	return p;
}

void
buf_release(struct buf *b)
{
	if (b->alloc)
		free(b->data);
	buf_init(b, b->cap);
}

/* Read until EOF, keeping .len within the cap; on failure restore. */
static int
read_all(struct buf *b, int fd, size_t hint)
{
	size_t start = b->len;

	for (;;) {
		size_t room;
		ssize_t n;
		int err;

		/* Room for one byte past the cap, so "exactly at the
		 * cap, then EOF" and "over the cap" can be told apart. */
		if (b->cap && b->len >= b->cap) {
			char c;

			do
				n = read(fd, &c, 1);
			while (n < 0 && errno == EINTR);
			if (n < 0)
				goto fail;
			if (n == 0)
				return 0;
			b->len = start;
			b->data[b->len] = '\0';
			return BUF_ETOOBIG;
		}
		room = hint ? hint : 8192;
		if (b->cap && room > b->cap - b->len)
			room = b->cap - b->len;
		err = buf_grow(b, room);
		if (err) {
			b->len = start;
			if (b->alloc)
				b->data[b->len] = '\0';
			return err;
		}
		room = b->alloc - b->len - 1;
		if (b->cap && room > b->cap - b->len)
			room = b->cap - b->len;
		do
			n = read(fd, b->data + b->len, room);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		b->len += (size_t)n;
		b->data[b->len] = '\0';
		hint = 0;
	}
	return 0;
fail : {
	int saved = errno;

	b->len = start;
	if (b->alloc)
		b->data[b->len] = '\0';
	errno = saved;
}
	return -1;
}

int
buf_read_fd(struct buf *b, int fd)
{
	return read_all(b, fd, 0);
}

int
buf_read_file(struct buf *b, const char *path)
{
	struct stat st;
	int fd, ret, saved;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		ret = -1;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		ret = -1;
		goto out;
	}
	/* Refuse by size before reading a single byte. */
	if (b->cap &&
	    (st.st_size < 0 ||
	     (uintmax_t)st.st_size > (uintmax_t)(b->cap - (b->len < b->cap ? b->len : b->cap)))) {
		ret = BUF_ETOOBIG;
		goto out;
	}
	ret = read_all(b, fd, st.st_size > 0 ? (size_t)st.st_size + 1 : 0);
out:
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}
