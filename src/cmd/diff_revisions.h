/*
 * diff_revisions.h - `gpusite diff --base REV [--head REV]`: what a change
 * does to the rendered output, object by object (cmd_diff dispatches).
 */
#ifndef GS_DIFF_REVISIONS_H
#define GS_DIFF_REVISIONS_H

#include "cmd/opts.h"

struct arena;
struct node;

/*
 * Render the specs at `base` and at `head` (NULL: the index with
 * --staged, the repository's HEAD with --repo, else the work tree) and
 * print the difference in `format` ("text", NULL = text, "json",
 * "markdown", "github").  o->repo, o->staged and o->args (PATH) apply to
 * both sides.  Returns the exit code: 0 no difference, 1 a difference or
 * a side whose specs are invalid, 3 when a side could not be read.
 */
int diff_revisions_run(const struct opts *o, const char *base, const char *head,
		       const char *format);

/*
 * Mask secrets in a rendered object, in place: the value of every
 * activationCode key becomes "<redacted>", and so does an activationCode
 * written inside a string (a NodeConfig embedded in a ConfigMap, as YAML
 * "activationCode: x" or JSON "activationCode":"x").
 */
void diff_revisions_redact(struct arena *a, struct node *n);

#endif
