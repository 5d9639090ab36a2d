/*
 * emit_dir.c - the directories of a file gpusite creates: made on the
 * way (mkdir -p), and a path below the current directory seen from one.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "emit/emit_file.h"

int
emit_mkdirs(struct arena *a, const char *dir)
{
	char *p = arena_strdup(a, dir);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

const char *
emit_path_from(struct arena *a, const char *dir, const char *rel)
{
	char here[PATH_MAX], there[PATH_MAX];
	const char *up = "", *rest;
	size_t common = 0;

	if (!getcwd(here, sizeof(here)) || !realpath(dir, there))
		return NULL;
	/* the longest common directory prefix of the two */
	for (size_t i = 0;; i++) {
		if ((here[i] == '/' || !here[i]) && (there[i] == '/' || !there[i]))
			common = i;
		if (!here[i] || !there[i] || here[i] != there[i])
			break;
	}
	if (!strcmp(here, "/") || !strcmp(there, "/"))
		common = 0;
	/* up from dir to the common prefix, then down to here */
	for (const char *s = there + common; *s; s++)
		if (*s == '/')
			up = arena_printf(a, "%s../", up);
	rest = here[common] == '/' ? here + common + 1 : here + common;
	return arena_printf(a, "%s%s%s%s", up, rest, *rest ? "/" : "", rel);
}
