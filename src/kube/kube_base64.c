/*
 * kube_base64.c - standard base64, the encoding of a kubeconfig's
 * certificate-authority-data, client-certificate-data and client-key-data.
 */
#include <string.h>

#include "base/arena.h"
#include "kube/kube_int.h"

static const signed char b64val[256] = {
	['A'] = 1,  ['B'] = 2,  ['C'] = 3,  ['D'] = 4,  ['E'] = 5,  ['F'] = 6,  ['G'] = 7,
	['H'] = 8,  ['I'] = 9,  ['J'] = 10, ['K'] = 11, ['L'] = 12, ['M'] = 13, ['N'] = 14,
	['O'] = 15, ['P'] = 16, ['Q'] = 17, ['R'] = 18, ['S'] = 19, ['T'] = 20, ['U'] = 21,
	['V'] = 22, ['W'] = 23, ['X'] = 24, ['Y'] = 25, ['Z'] = 26, ['a'] = 27, ['b'] = 28,
	['c'] = 29, ['d'] = 30, ['e'] = 31, ['f'] = 32, ['g'] = 33, ['h'] = 34, ['i'] = 35,
	['j'] = 36, ['k'] = 37, ['l'] = 38, ['m'] = 39, ['n'] = 40, ['o'] = 41, ['p'] = 42,
	['q'] = 43, ['r'] = 44, ['s'] = 45, ['t'] = 46, ['u'] = 47, ['v'] = 48, ['w'] = 49,
	['x'] = 50, ['y'] = 51, ['z'] = 52, ['0'] = 53, ['1'] = 54, ['2'] = 55, ['3'] = 56,
	['4'] = 57, ['5'] = 58, ['6'] = 59, ['7'] = 60, ['8'] = 61, ['9'] = 62, ['+'] = 63,
	['/'] = 64,
}; /* value + 1; 0 = not base64 */

int
kube_base64_decode(struct arena *a, const char *in, const char **out, size_t *out_len)
{
	size_t n = strlen(in), o = 0;
	unsigned acc = 0;
	int bits = 0, pad = 0;
	char *res = arena_alloc(a, n / 4 * 3 + 4);

	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		if (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
			continue;
		if (*p == '=') {
			pad++;
			continue;
		}
		if (pad || !b64val[*p])
			return -1;
		acc = (acc << 6) | (unsigned)(b64val[*p] - 1);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			res[o++] = (char)((acc >> bits) & 0xff);
		}
	}
	if (pad > 2)
		return -1;
	res[o] = '\0';
	*out = res;
	*out_len = o;
	return 0;
}
