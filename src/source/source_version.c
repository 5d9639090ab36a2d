#include <stdio.h>

#include <git2.h>

#include "source/source.h"

const char *
source_library_version(void)
{
	static char version[32];
	int major, minor, rev;

	git_libgit2_version(&major, &minor, &rev);
	snprintf(version, sizeof(version), "%d.%d.%d", major, minor, rev);
	return version;
}
