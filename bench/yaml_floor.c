/*
 * yaml_floor.c - the libyaml floor of `gpusite render`: the least work any
 * tool built on libyaml does to read the same spec files and write a
 * stream of the same size.
 *
 *   yaml_floor BYTES FILE...
 *
 * Reads and parses every FILE into events (libyaml's parser, no tree),
 * then emits those documents again and again, as block YAML with "---"
 * between documents, until BYTES bytes are written, and writes them to
 * standard output.  No validation, no model, no rendering: what is left
 * when all of gpusite's own work is taken away.  bench/run.sh times it
 * beside render on the same fleet in the same run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

struct ev {
	yaml_event_type_t type;
	char *value;		/* scalars */
	size_t len;
	int plain;
	yaml_scalar_style_t style;
};

struct evs {
	struct ev *items;
	size_t count;
	size_t alloc;
};

struct out {
	unsigned char *data;
	size_t len;
	size_t alloc;
};

static void *
xrealloc_or_die(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("yaml_floor");
		exit(2);
	}
	return p;
}

static void
evs_push(struct evs *e, const struct ev *it)
{
	if (e->count == e->alloc) {
		e->alloc = e->alloc ? e->alloc * 2 : 1024;
		e->items = xrealloc_or_die(e->items, e->alloc * sizeof(*e->items));
	}
	e->items[e->count++] = *it;
}

static char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t alloc = 0, n = 0, got;

	if (!f) {
		fprintf(stderr, "yaml_floor: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	do {
		if (alloc - n < 4096) {
			alloc = alloc ? alloc * 2 : 8192;
			data = xrealloc_or_die(data, alloc);
		}
		got = fread(data + n, 1, alloc - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*len = n;
	return data;
}

/* Parse one file into events: documents and their content only. */
static void
parse_file(struct evs *e, const char *path)
{
	yaml_parser_t p;
	yaml_event_t ev;
	size_t len;
	char *data = read_file(path, &len);
	int done = 0;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	while (!done) {
		struct ev it = { 0 };

		if (!yaml_parser_parse(&p, &ev)) {
			fprintf(stderr, "yaml_floor: %s: %s\n", path,
				p.problem ? p.problem : "parse error");
			exit(2);
		}
		it.type = ev.type;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_SCALAR_EVENT:
			it.len = ev.data.scalar.length;
			it.value = xrealloc_or_die(NULL, it.len + 1);
			memcpy(it.value, ev.data.scalar.value, it.len + 1);
			it.plain = ev.data.scalar.plain_implicit;
			it.style = ev.data.scalar.style;
			evs_push(e, &it);
			break;
		case YAML_DOCUMENT_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_START_EVENT:
		case YAML_MAPPING_END_EVENT:
			evs_push(e, &it);
			break;
		default:	/* stream start, aliases (none in the fleet) */
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	free(data);
}

static int
on_write(void *payload, unsigned char *buffer, size_t size)
{
	struct out *o = payload;

	if (o->alloc - o->len < size) {
		while (o->alloc - o->len < size)
			o->alloc = o->alloc ? o->alloc * 2 : 65536;
		o->data = xrealloc_or_die(o->data, o->alloc);
	}
	memcpy(o->data + o->len, buffer, size);
	o->len += size;
	return 1;
}

static void
emit(yaml_emitter_t *em, yaml_event_t *ev)
{
	if (!yaml_emitter_emit(em, ev)) {
		fprintf(stderr, "yaml_floor: emit: %s\n", em->problem ? em->problem : "error");
		exit(2);
	}
}

/* Emit event i of e (a fresh event: the emitter owns and frees it). */
static void
emit_one(yaml_emitter_t *em, const struct ev *it)
{
	yaml_event_t ev;

	switch (it->type) {
	case YAML_DOCUMENT_START_EVENT:
		yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
		break;
	case YAML_DOCUMENT_END_EVENT:
		yaml_document_end_event_initialize(&ev, 1);
		break;
	case YAML_SEQUENCE_START_EVENT:
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
		break;
	case YAML_SEQUENCE_END_EVENT:
		yaml_sequence_end_event_initialize(&ev);
		break;
	case YAML_MAPPING_START_EVENT:
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
		break;
	case YAML_MAPPING_END_EVENT:
		yaml_mapping_end_event_initialize(&ev);
		break;
	case YAML_SCALAR_EVENT:
		yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)it->value,
					     (int)it->len, it->plain, !it->plain, it->style);
		break;
	default:
		return;
	}
	emit(em, &ev);
}

int
main(int argc, char **argv)
{
	struct evs e = { 0 };
	struct out o = { 0 };
	yaml_emitter_t em;
	yaml_event_t ev;
	char *end;
	size_t want;

	if (argc < 3) {
		fprintf(stderr, "usage: yaml_floor BYTES FILE...\n");
		return 2;
	}
	errno = 0;
	want = strtoull(argv[1], &end, 10);
	if (errno || *end) {
		fprintf(stderr, "yaml_floor: BYTES must be a number\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		parse_file(&e, argv[i]);
	if (e.count == 0)
		return 0;

	yaml_emitter_initialize(&em);
	yaml_emitter_set_output(&em, on_write, &o);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(&em, &ev);
	while (o.len < want) {
		size_t before = o.len;

		/* whole documents only: stop at the first end past BYTES */
		for (size_t i = 0; i < e.count; i++) {
			emit_one(&em, &e.items[i]);
			if (e.items[i].type == YAML_DOCUMENT_END_EVENT) {
				yaml_emitter_flush(&em);
				if (o.len >= want)
					break;
			}
		}
		if (o.len == before)
			break;	/* nothing to write */
	}
	yaml_stream_end_event_initialize(&ev);
	emit(&em, &ev);
	yaml_emitter_delete(&em);
	if (fwrite(o.data, 1, o.len, stdout) != o.len || fflush(stdout) != 0) {
		perror("yaml_floor: stdout");
		return 2;
	}
	fprintf(stderr, "yaml_floor: %zu events from %d files, %zu bytes written\n",
		e.count, argc - 2, o.len);
	for (size_t i = 0; i < e.count; i++)
		free(e.items[i].value);
	free(e.items);
	free(o.data);
	return 0;
}
