/*
 * report_escape.c - escaping for each place a report goes.  Messages may
 * quote what a user wrote (a key, a file name), so nothing is written raw.
 */
#include <stdbool.h>
#include <string.h>

#include "base/buf.h"
#include "report/report_int.h"

/* The code point of the bidirectional formatting character at s, or 0:
 * U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069.  Printed raw
 * they reorder the text around them ("Trojan Source"). */
unsigned
report_bidi_at(const unsigned char *s)
{
	if (s[0] == 0xd8 && s[1] == 0x9c)
		return 0x061c;
	if (s[0] != 0xe2)
		return 0;
	if (s[1] == 0x80 && (s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xaa && s[2] <= 0xae)))
		return 0x2000u + (unsigned)(s[2] - 0x80);
	if (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9)
		return 0x2040u + (unsigned)(s[2] - 0x80);
	return 0;
}

size_t
report_utf8_len(const unsigned char *s)
{
	unsigned c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		/* no overlongs (e0 a0..), no surrogates (ed 80..9f) */
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0;
		if (c == 0xed && s[1] > 0x9f)
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && s[1] < 0x90)
			return 0;
		if (c == 0xf4 && s[1] > 0x8f)
			return 0;
		return 4;
	}
	return 0;
}

void
report_put_safe(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	if (!s)
		return;
	while (*s) {
		const unsigned char *run = s;
		size_t n;

		/* printable ASCII, most of any message, written a run at a
		 * time (one fwrite a character cost a warning's line ~100
		 * calls) */
		while (*s >= 0x20 && *s < 0x7f)
			s++;
		if (s > run) {
			fwrite(run, 1, (size_t)(s - run), out);
			continue;
		}
		n = report_utf8_len(s);
		if (n == 0) {
			fprintf(out, "\\x%02x", *s);
			s++;
		} else if (n == 1 && (*s < 0x20 || *s == 0x7f)) {
			if (*s == '\n')
				fputs("\\n", out);
			else if (*s == '\r')
				fputs("\\r", out);
			else if (*s == '\t')
				fputc('\t', out);
			else
				fprintf(out, "\\x%02x", *s);
			s++;
		} else if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) {
			/* C1 controls (U+0080..U+009F): 0x9b is a CSI */
			fprintf(out, "\\u%04x", s[1]);
			s += 2;
		} else if (n > 1 && report_bidi_at(s)) {
			fprintf(out, "\\u%04x", report_bidi_at(s));
			s += n;
		} else {
			fwrite(s, 1, n, out);
			s += n;
		}
	}
}

void
report_put_xml(FILE *out, const char *str, int attr)
{
	const unsigned char *s = (const unsigned char *)str;

	if (!s)
		return;
	while (*s) {
		size_t n = report_utf8_len(s);

		if (n == 0) {
			fputs("\xef\xbf\xbd", out);
			s++;
			continue;
		}
		if (n == 3 && s[0] == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf)) {
			fputs("\xef\xbf\xbd", out); /* U+FFFE, U+FFFF */
			s += 3;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		case '\n': fputs(attr ? "&#10;" : "\n", out); break;
		case '\r': fputs("&#13;", out); break;
		case '\t': fputs(attr ? "&#9;" : "\t", out); break;
		default:
			if (*s < 0x20)
				fputs("\xef\xbf\xbd", out);
			else
				fwrite(s, 1, n, out);
		}
		s += n;
	}
}

/* "www" (any case) just before s, at the start of a word: the '.' at s
 * would make a GFM extended www autolink. */
static bool
www_before(const unsigned char *start, const unsigned char *s)
{
	if (s - start < 3)
		return false;
	for (int k = 1; k <= 3; k++)
		if ((s[-k] | 0x20) != 'w')
			return false;
	return s - start == 3 || !((s[-4] | 0x20) >= 'a' && (s[-4] | 0x20) <= 'z');
}

/* The entity for the one-byte character at s in Markdown text, or NULL
 * when it goes out as it is or with a backslash (md_punct). */
static const char *
md_entity_at(const unsigned char *start, const unsigned char *s)
{
	switch (*s) {
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '&': return "&amp;";
	/* extended autolinks: cmark-gfm finds scheme:// and www. in the raw
	 * input, so an entity breaks them; it finds user@host in the text
	 * after merging the text nodes, where only a character that cannot be
	 * part of an address does: a zero-width space after the '@' (it stops
	 * an @mention too) */
	case ':': return s[1] == '/' && s[2] == '/' ? "&#58;&#47;" : NULL;
	case '@': return "@&#8203;";
	case '.': return www_before(start, s) ? "&#46;" : NULL;
	default: return NULL;
	}
}

/* ASCII punctuation that opens inline syntax (code, emphasis, links,
 * strikethrough, cells, headings, images): written after a backslash */
static bool
md_punct(unsigned char c)
{
	return c && strchr("\\`*_[]~|#!", c);
}

/*
 * What Markdown and HTML output do alike with the character at s from
 * outside: invalid UTF-8 as U+FFFD, bidi controls dropped (printed they
 * reorder the text around them), C0 and C1 controls and DEL as a space,
 * other non-ASCII as it is.  1 when it is done so, 0 for a printable
 * ASCII character the caller writes, -1 when `b` is full; *len is how
 * many bytes it spans.
 */
static int
put_common(struct buf *b, const unsigned char *s, size_t *len)
{
	size_t n = report_utf8_len(s);

	*len = n ? n : 1;
	if (n == 0)
		return buf_adds(b, "\xef\xbf\xbd") ? -1 : 1;
	if (n > 1 && report_bidi_at(s))
		return 1;
	if ((n == 2 && s[0] == 0xc2 && s[1] < 0xa0) || (n == 1 && (*s < 0x20 || *s == 0x7f)))
		return buf_addch(b, ' ') ? -1 : 1;
	if (n > 1)
		return buf_add(b, s, n) ? -1 : 1;
	return 0;
}

/*
 * The one writer of Markdown text from outside: entities and backslashes
 * for ASCII (md_entity_at, md_punct), the rest as put_common says.  The
 * entity of "://" writes its first '/' too.
 */
int
report_md_text(struct buf *b, const char *str)
{
	const unsigned char *start = (const unsigned char *)str, *s = start;
	int rc = 0;

	while (s && *s && rc >= 0) {
		size_t n;
		const char *e;

		rc = put_common(b, s, &n);
		if (rc == 0 && (e = md_entity_at(start, s))) {
			rc = buf_adds(b, e);
			n = *s == ':' ? 2 : 1;
		} else if (rc == 0 && md_punct(*s)) {
			rc = buf_addch(b, '\\') | buf_addch(b, (char)*s);
		} else if (rc == 0) {
			rc = buf_addch(b, (char)*s);
		}
		s += n;
	}
	return rc < 0 ? -1 : 0;
}

/* `s` as a code span: a fence longer than any backtick run in it, the
 * characters put_common says; in a table cell a '|' is written \| (GFM
 * splits cells before it reads code spans).  A space pads the content
 * inside the fence when asked, or when the content starts or ends with a
 * backtick (CommonMark strips one each side). */
int
report_md_code(struct buf *b, const char *str, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t run = 0, longest = 0, len = strlen(str);
	bool pad = (flags & REPORT_MD_PAD) || (len && (str[0] == '`' || str[len - 1] == '`'));
	int rc = 0;

	for (const char *c = str; *c; c++) {
		run = *c == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (size_t i = 0; i <= longest; i++)
		rc |= buf_addch(b, '`');
	if (pad)
		rc |= buf_addch(b, ' ');
	while (*s && rc >= 0) {
		size_t n;

		rc = put_common(b, s, &n);
		if (rc == 0)
			rc = *s == '|' && (flags & REPORT_MD_CELL) ? buf_adds(b, "\\|")
								   : buf_addch(b, (char)*s);
		s += n;
	}
	if (pad)
		rc |= buf_addch(b, ' ');
	for (size_t i = 0; i <= longest; i++)
		rc |= buf_addch(b, '`');
	return rc < 0 ? -1 : 0;
}

int
report_html_text(struct buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int rc = 0;

	while (s && *s && rc >= 0) {
		size_t n;

		rc = put_common(b, s, &n);
		if (rc != 0) {
			s += n;
			continue;
		}
		switch (*s) {
		case '&': rc = buf_adds(b, "&amp;"); break;
		case '<': rc = buf_adds(b, "&lt;"); break;
		case '>': rc = buf_adds(b, "&gt;"); break;
		case '"': rc = buf_adds(b, "&quot;"); break;
		case '\'': rc = buf_adds(b, "&#39;"); break;
		default: rc = buf_addch(b, (char)*s);
		}
		s += n;
	}
	return rc < 0 ? -1 : 0;
}

void
report_put_md(FILE *out, const char *str)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	if (report_md_text(&b, str) == 0)
		fwrite(b.data, 1, b.len, out);
	buf_release(&b);
}

static void
put_gh(FILE *out, const char *str, int prop)
{
	const char *s = str;

	if (!s)
		return;
	for (; *s; s++) {
		unsigned bidi = report_bidi_at((const unsigned char *)s);

		if (bidi) {
			fprintf(out, "\\u%04x", bidi);
			s += bidi == 0x061c ? 1 : 2;
			continue;
		}
		switch (*s) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		case ':':
			if (prop)
				fputs("%3A", out);
			else
				fputc(':', out);
			break;
		case ',':
			if (prop)
				fputs("%2C", out);
			else
				fputc(',', out);
			break;
		default: fputc(*s, out);
		}
	}
}

void
report_put_gh_data(FILE *out, const char *s)
{
	put_gh(out, s, 0);
}

void
report_put_gh_prop(FILE *out, const char *s)
{
	put_gh(out, s, 1);
}
