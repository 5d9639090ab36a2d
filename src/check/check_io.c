/*
 * check_io.c - reading a rendered stream, a node inventory or an upstream
 * schema file (YAML or JSON, a file or standard input) into node trees,
 * under a size cap.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check/check.h"

/* Generated manifests and `kubectl get nodes -o yaml` of a big cluster. */
#define CHECK_MAX_BYTES (64u << 20)

int
check_read_docs(struct yamlio_docs *out, struct arena *a, struct diags *d, const char *path,
		const char **data_out, size_t *len_out)
{
	struct buf b;
	struct yamlio_limits lim = yamlio_default_limits;
	bool is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : arena_strdup(a, path);
	char *data;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	buf_init(&b, CHECK_MAX_BYTES);
	errno = 0;
	rc = is_stdin ? buf_read_fd(&b, STDIN_FILENO) : buf_read_file(&b, path);
	if (rc == BUF_ETOOBIG) {
		buf_release(&b);
		diag_report(d, (struct pos){ name, 0, 0 }, "GS001", "",
			    "%s is larger than %u MiB: refusing to read it", name,
			    CHECK_MAX_BYTES >> 20);
		return -3;
	}
	if (rc < 0) {
		int err = errno ? errno : EIO;

		buf_release(&b);
		diag_report(d, (struct pos){ name, 0, 0 }, "GS001", "", "cannot read %s: %s", name,
			    strerror(err));
		return -3;
	}
	len = b.len;
	data = arena_strndup(a, b.data, len);
	buf_release(&b);
	if (data_out)
		*data_out = data;
	if (len_out)
		*len_out = len;
	lim.max_bytes = CHECK_MAX_BYTES;
	lim.max_nodes = 32u << 20;
	lim.max_docs = 200000;
	lim.max_depth = 256; /* CRD schemas nest deep */
	return yamlio_load(out, a, d, name, data, len, &lim) < 0 ? -1 : 0;
}
