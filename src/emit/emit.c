/*
 * emit.c - the cluster stream as bytes.  YAML: every document starts with
 * "---", the first one included (what kubectl and helm print), so a
 * stream can be concatenated and split without special cases.  JSON: one
 * compact object per line.  Key order is the order render built; nothing
 * here depends on locale, time zone or run.
 */
#include "base/buf.h"
#include "emit/emit.h"
#include "json/json.h"
#include "yamlio/yamlio.h"

int
emit_document(struct buf *out, const struct node *doc, enum emit_format fmt)
{
	if (fmt == EMIT_JSON) {
		if (json_write(out, doc, 0) < 0)
			return -1;
		return buf_addch(out, '\n') < 0 ? -1 : 0;
	}
	return yamlio_emit(out, doc, 0) < 0 ? -1 : 0;
}

int
emit_stream(struct buf *out, const struct render_result *r, enum emit_format fmt)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct node *doc = r->objects[i].obj;

		if (fmt == EMIT_JSON) {
			if (emit_document(out, doc, EMIT_JSON) < 0)
				return -1;
		} else if (yamlio_emit(out, doc, YAMLIO_DOC_START) < 0) {
			return -1;
		}
	}
	return 0;
}
