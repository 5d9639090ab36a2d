/*
 * emit.h - rendered objects -> the bytes users see: a YAML stream
 * ("---" between documents) or one JSON object per line.  Deterministic.
 */
#ifndef GS_EMIT_H
#define GS_EMIT_H

#include "render/render.h"

struct buf;

enum emit_format { EMIT_YAML, EMIT_JSON };

int emit_stream(struct buf *out, const struct render_result *r, enum emit_format fmt);
int emit_document(struct buf *out, const struct node *doc, enum emit_format fmt);

#endif
