/*
 * utf8.h - strict UTF-8 checking shared by the YAML and JSON readers.
 */
#ifndef GS_UTF8_H
#define GS_UTF8_H

#include <stddef.h>

/*
 * Check that s[0..len) is well-formed UTF-8 with no NUL byte (overlongs,
 * surrogates, code points past U+10FFFF and truncated sequences are
 * refused).  Returns 0 when it is; else 1 with *bad_off = offset of the
 * first byte of the bad sequence and *why = a static reason
 * ("NUL byte", "overlong encoding", "UTF-16 surrogate", ...).
 */
int utf8_check(const char *s, size_t len, size_t *bad_off, const char **why);

/*
 * Length (1-4) of the well-formed character at s, or 0 when the bytes
 * there are not UTF-8.  A NUL byte counts as a character of length 1.
 */
size_t utf8_seq_len(const char *s, size_t len);

/*
 * The number of characters (code points) in s[0..len): the bytes that are
 * not UTF-8 continuation bytes (10xxxxxx).  For text utf8_check() passed;
 * on other bytes it still counts, never reads past len.
 */
size_t utf8_length(const char *s, size_t len);

#endif
