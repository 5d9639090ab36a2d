#include <stdio.h>

#include <git2.h>

#include "source/source.h"
#include "source/source_int.h"

const char *
source_library_version(void)
{
	static char version[32];
	int major, minor, rev;

	if (git_libgit2_version(&major, &minor, &rev) < 0)
		return "(not found: " SOURCE_GIT2_SONAME ")";
	snprintf(version, sizeof(version), "%d.%d.%d", major, minor, rev);
	return version;
}
