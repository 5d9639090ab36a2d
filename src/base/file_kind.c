/*
 * file_kind.c - what a file is, in words (file_kind.h).
 */
#include <sys/stat.h>

#include "base/file_kind.h"

const char *
file_kind_name(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISLNK(mode))
		return "a symlink";
	return "not a regular file";
}
