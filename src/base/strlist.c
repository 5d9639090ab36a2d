/*
 * strlist.c - a string among a list of strings (strlist.h).
 */
#include <string.h>

#include "base/strlist.h"

bool
str_listed(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}
