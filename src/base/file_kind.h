/*
 * file_kind.h - what a file is, in words, for the messages that refuse
 * it: "a FIFO", "a directory".  One list for what is read (source/) and
 * what is written (emit/).
 */
#ifndef GS_FILE_KIND_H
#define GS_FILE_KIND_H

#include <sys/types.h>

/* "a regular file", "a directory", "a FIFO", "a socket", "a device",
 * "a symlink", or "not a regular file" for anything else; `mode` is
 * st_mode as stat(2) or lstat(2) gives it. */
const char *file_kind_name(mode_t mode);

#endif
