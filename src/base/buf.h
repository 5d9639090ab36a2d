/*
 * buf.h - growable byte buffer with a size cap (git's strbuf invariants,
 * curl's dynbuf limit).
 *
 * .data is never NULL and always NUL-terminated.  Appending past .cap
 * fails with BUF_ETOOBIG and leaves the buffer as it was, so a hostile
 * file or HTTP body can never grow without bound.  Heap memory: the owner
 * calls buf_release().
 */
#ifndef GS_BUF_H
#define GS_BUF_H

#include <stdarg.h>
#include <stddef.h>

enum buf_err {
	BUF_OK = 0,
	BUF_ETOOBIG = -2,
};

struct buf {
	char *data;
	size_t len;
	size_t alloc;
	size_t cap; /* most bytes .len may reach; 0 means no cap */
};

extern char buf_empty[];
#define BUF_INIT                                                                                   \
	{                                                                                          \
		buf_empty, 0, 0, 0                                                                 \
	}

void buf_init(struct buf *b, size_t cap);
int buf_add(struct buf *b, const void *data, size_t len) __attribute__((warn_unused_result));
int buf_adds(struct buf *b, const char *s) __attribute__((warn_unused_result));
int buf_addch(struct buf *b, char c) __attribute__((warn_unused_result));
int buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), warn_unused_result));
int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0), warn_unused_result));
void buf_reset(struct buf *b);                    /* len = 0, memory kept */
char *buf_detach(struct buf *b, size_t *len_out); /* caller frees */
void buf_release(struct buf *b);

/*
 * Read a whole file into b, refusing (BUF_ETOOBIG) before reading when
 * its size exceeds b->cap.  Returns 0, BUF_ETOOBIG, or -1 with errno set.
 */
int buf_read_file(struct buf *b, const char *path);
/* Read a whole stream (pipe, socket) into b under the cap. */
int buf_read_fd(struct buf *b, int fd);

#endif
