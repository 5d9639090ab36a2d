/*
 * compat.h - the first header of every C file of the project, as git's
 * git-compat-util.h: the Makefile passes it with `-include`, so no file
 * can forget it.  It includes the system headers that declare the
 * functions banned.h bans, then banned.h, so a banned call in any file
 * fails to compile, and a system header a file includes later is already
 * read (its include guard keeps banned.h's macros out of it).
 */
#ifndef GS_COMPAT_H
#define GS_COMPAT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/banned.h"

#endif
