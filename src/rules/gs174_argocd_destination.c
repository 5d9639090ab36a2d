/*
 * gs174_argocd_destination.c - GS174: two clusters send their GPU-stack
 * Applications to one Argo CD destination.  A site's destination is its
 * argocd.destinationName, else its destinationServer, else (a hub Argo
 * CD) the name of its own cluster; the in-cluster address
 * https://kubernetes.default.svc means each Argo CD's own cluster and is
 * never compared.  Reported at the explicit destination of the later
 * site, naming the first site of another cluster with that destination.
 */
#include <string.h>

#include "base/arena.h"
#include "rules/rules_int.h"

#define IN_CLUSTER "https://kubernetes.default.svc"

const char *
rules_argocd_destination(struct arena *a, const struct spec_site *s, bool *explicit_out)
{
	const struct spec_argocd *ad = &s->argocd;
	size_t n;

	*explicit_out = true;
	if (ad->destination_name)
		return arena_printf(a, "name %s", ad->destination_name);
	if (ad->destination_server_set && ad->destination_server) {
		n = strlen(ad->destination_server);
		while (n > 1 && ad->destination_server[n - 1] == '/')
			n--;
		if (n == strlen(IN_CLUSTER) && !strncmp(ad->destination_server, IN_CLUSTER, n))
			return NULL;
		return arena_printf(a, "server %.*s", (int)n, ad->destination_server);
	}
	*explicit_out = false;
	return s->cluster.name ? arena_printf(a, "name %s", s->cluster.name) : NULL;
}

static bool
is_explicit(const struct spec_site *s)
{
	return s->argocd.destination_name || s->argocd.destination_server_set;
}

static bool
same_cluster(const struct spec_site *a, const struct spec_site *b)
{
	return a->cluster.name && b->cluster.name && !strcmp(a->cluster.name, b->cluster.name);
}

static void
report(struct rule_ctx *c, const struct rule_occurrence *at, const struct rule_occurrence *other)
{
	const struct spec_site *s = at->site, *o = other->site;
	const char *what = s->argocd.destination_name ? "destinationName" : "destinationServer";
	const char *value = s->argocd.destination_name ? s->argocd.destination_name
						       : s->argocd.destination_server;

	if (is_explicit(o))
		rule_report(c, s, at->at, at->path,
			    "site %s of cluster %s sends its GPU-stack Application to Argo CD"
			    " %s '%s', which site %s of cluster %s (%s) uses too: two"
			    " clusters would get their GPU stacks rendered into one"
			    " destination; point argocd.%s at cluster %s's own Argo CD"
			    " destination",
			    s->name, s->cluster.name, what, rule_quote(value), o->name,
			    o->cluster.name, rule_pos_text(c, other->at), what, s->cluster.name);
	else
		rule_report(c, s, at->at, at->path,
			    "site %s of cluster %s sends its GPU-stack Application to Argo CD"
			    " destinationName '%s', the destination of cluster %s (site %s,"
			    " %s): two clusters would get their GPU stacks rendered into"
			    " one destination; point argocd.destinationName at cluster %s's"
			    " own Argo CD cluster name",
			    s->name, s->cluster.name, rule_quote(value), o->cluster.name, o->name,
			    rule_pos_text(c, other->at), s->cluster.name);
}

/* The first occurrence of v[from..to) whose cluster differs from v[i]'s. */
static const struct rule_occurrence *
other_cluster(const struct rule_occurrence *v, size_t from, size_t to, size_t i)
{
	for (size_t j = from; j < to; j++)
		if (j != i && !same_cluster(v[i].site, v[j].site))
			return &v[j];
	return NULL;
}

static void
check_run(struct rule_ctx *c, const struct rule_occurrence *v, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		const struct rule_occurrence *o;

		if (!is_explicit(v[i].site) || !(o = other_cluster(v, from, to, i)))
			continue;
		/* both explicit: reported once, at the later of the two */
		if (is_explicit(o->site) && rule_pos_cmp(o->at, v[i].at) > 0)
			continue;
		report(c, &v[i], o);
	}
}

static void
check_fleet(struct rule_ctx *c, const struct spec_fleet *f)
{
	struct rule_occurrence *v = arena_alloc(c->arena, (f->count ? f->count : 1) * sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < f->count; i++) {
		const struct spec_site *s = f->sites[i];
		const struct node *ad = s->argocd.src;
		bool expl;
		const char *key = rules_argocd_destination(c->arena, s, &expl);

		if (!key)
			continue;
		if (!expl)
			rule_occurrence_set(&v[n++], s, key, rule_pos(s, s->cluster.src, "name"),
					    "spec.cluster.name");
		else if (s->argocd.destination_name)
			rule_occurrence_set(&v[n++], s, key, rule_pos(s, ad, "destinationName"),
					    "spec.argocd.destinationName");
		else
			rule_occurrence_set(&v[n++], s, key, rule_pos(s, ad, "destinationServer"),
					    "spec.argocd.destinationServer");
	}
	rule_sort_occurrences(v, n);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[i].key, v[j].key); j++)
			;
		if (j - i > 1)
			check_run(c, v, i, j);
	}
}

/* Sites meet by their Argo CD destination. */
static void
keys(struct rule_keys *k, const struct spec_site *s)
{
	bool expl;
	const char *dest = rules_argocd_destination(k->arena, s, &expl);

	if (dest)
		rule_key(k, dest);
}

const struct rule rule_gs174 = {
	.id = "GS174",
	.check_fleet = check_fleet,
	.fleet_keys = keys,
};
