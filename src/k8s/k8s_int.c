/*
 * k8s_int.c - strconv.ParseInt(s, 10, 64) (see k8s_int.h).
 */
#include "k8s/k8s_int.h"

#include <stdint.h>
#include <string.h>

#include "base/num.h"

bool
k8s_parse_int64(const char *s, long long *out)
{
	int64_t v;

	if (!s)
		return false;
	/* num_parse_int64 takes "-"? digits; Go also takes one '+' */
	if (*s == '+') {
		s++;
		if (*s == '-' || *s == '+')
			return false;
	}
	if (!num_parse_int64(s, strlen(s), &v))
		return false;
	*out = (long long)v;
	return true;
}
