/*
 * fuzz_spec.c - the whole reading road on arbitrary bytes: YAML loader,
 * schema, spec model, rules, and the fleet page of what loaded (its model,
 * HTML, Markdown and explain's JSON).  Nothing may crash, hang or leak.
 */
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "fleetpage/fleetpage.h"
#include "pipeline/pipeline.h"
#include "source/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The page of every site that loaded, in the three forms. */
static void
page(struct arena *a, struct pipeline *p)
{
	struct fleetpage fp;
	struct fleetpage_options o = { FLEETPAGE_FAIL_DEFAULT, NULL, 0, NULL };
	struct buf b;

	if (fleetpage_build(&fp, a, &p->diags, &p->fleet, &o) < 0)
		return;
	buf_init(&b, 0);
	(void)fleetpage_html(&b, a, &fp);
	b.len = 0;
	(void)fleetpage_markdown(&b, a, &fp);
	b.len = 0;
	(void)fleetpage_json(&b, a, &fp);
	buf_release(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct source_set files = { 0 };
	struct pipeline p;

	arena_init(&a);
	source_set_add(&a, &files, "sites/fuzz.yaml", (const char *)data, size);
	pipeline_load(&p, &a, &files);
	page(&a, &p); /* as report does, with findings or not */
	arena_release(&a);
	return 0;
}
