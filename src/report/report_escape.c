/*
 * report_escape.c - escaping for each place a report goes.  Messages may
 * quote what a user wrote (a key, a file name), so nothing is written raw.
 */
#include <string.h>

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
		size_t n = report_utf8_len(s);

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

void
report_put_md(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	if (!s)
		return;
	for (; *s; s++) {
		if (report_bidi_at(s)) {
			fprintf(out, "\\u%04x", report_bidi_at(s));
			s += *s == 0xd8 ? 1 : 2;
			continue;
		}
		switch (*s) {
		case '|':
		case '\\':
		case '`':
		case '*':
		case '_':
		case '[':
		case ']':
			fputc('\\', out);
			fputc(*s, out);
			break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '\n':
		case '\r':
		case '\t': fputc(' ', out); break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				fputc(' ', out);
			else
				fputc(*s, out);
		}
	}
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
