/*
 * check_prom.c - a PrometheusRule (monitoring.coreos.com/v1) as the CRD
 * and Prometheus judge it: groups is a list-map keyed by name (unique,
 * set), each rule is either an alert or a recording rule with an
 * expression, durations follow Prometheus' pattern, label names are
 * Prometheus label names, a recording rule's name is a metric name.
 */
#include <string.h>

#include "base/arena.h"
#include "check/check_int.h"

/* ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$,
 * and not empty (the CRD's pattern, which Prometheus' parser shares). */
static bool
duration_ok(const char *s)
{
	static const char *const units[] = { "y", "w", "d", "h", "m", "s", "ms" };
	size_t next = 0;

	if (!s || !*s)
		return false;
	if (!strcmp(s, "0"))
		return true;
	while (*s) {
		size_t digits = 0, u;

		while (s[digits] >= '0' && s[digits] <= '9')
			digits++;
		if (!digits)
			return false;
		s += digits;
		/* "ms" before "m" */
		for (u = next; u < sizeof(units) / sizeof(units[0]); u++) {
			size_t n = strlen(units[u]);

			if (!strncmp(s, units[u], n) && !(u == 4 && s[1] == 's'))
				break;
		}
		if (u == sizeof(units) / sizeof(units[0]))
			return false;
		s += strlen(units[u]);
		next = u + 1;
	}
	return true;
}

static bool
label_name_ok(const char *s)
{
	if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static bool
metric_name_ok(const char *s)
{
	if (!s || !*s ||
	    !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' || *s == ':'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		      *s == ':' || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* Brackets and quotes of a PromQL expression balance (a cheap sanity
 * check: what is unbalanced can never parse). */
static const char *
expr_unbalanced(const char *e)
{
	char stack[64];
	size_t depth = 0;

	for (; *e; e++) {
		if (*e == '"' || *e == '\'' || *e == '`') {
			char q = *e;

			for (e++; *e && *e != q; e++)
				if (*e == '\\' && q != '`' && e[1])
					e++;
			if (!*e)
				return "a string is not closed";
		} else if (*e == '#') {
			while (*e && *e != '\n')
				e++;
			if (!*e)
				break;
		} else if (*e == '(' || *e == '[' || *e == '{') {
			if (depth == sizeof(stack))
				return "brackets nest too deep";
			stack[depth++] = *e == '(' ? ')' : *e == '[' ? ']' : '}';
		} else if (*e == ')' || *e == ']' || *e == '}') {
			if (!depth || stack[depth - 1] != *e)
				return "a closing bracket has no opening one";
			depth--;
		}
	}
	return depth ? "a bracket is not closed" : NULL;
}

static void
duration_field(struct check_ctx *c, const struct node *m, const char *base, const char *field)
{
	const struct node *v = node_map_get(m, field);
	const char *s = check_text(v);

	if (v && !node_is_null(v) && !duration_ok(s))
		check_report(c, CHECK_PR_RULE, v, check_path(c, base, field),
			     "%s \"%s\" is not a Prometheus duration (like 5m, 1h30m, 0): the API "
			     "server rejects the PrometheusRule",
			     field, s ? s : "");
}

static void
label_map(struct check_ctx *c, const struct node *m, const char *base, const char *what)
{
	for (size_t i = 0; m && m->kind == NODE_MAP && i < m->map.count; i++) {
		const char *k = node_text(m->map.pairs[i].key);

		if (!label_name_ok(k))
			check_report(
				c, CHECK_PR_RULE, m->map.pairs[i].key, check_path(c, base, k),
				"%s name \"%s\" is not a Prometheus label name "
				"([a-zA-Z_][a-zA-Z0-9_]*): Prometheus refuses to load the group",
				what, k);
		else if (!strncmp(k, "__", 2))
			check_report(c, CHECK_PR_RULE, m->map.pairs[i].key, check_path(c, base, k),
				     "%s name \"%s\" starts with __, which Prometheus reserves",
				     what, k);
	}
}

static void
rule(struct check_ctx *c, const struct node *r, const char *path)
{
	const struct node *alert = node_map_get(r, "alert");
	const struct node *record = node_map_get(r, "record");
	const struct node *expr = node_map_get(r, "expr");
	const char *e = check_text(expr), *why;
	bool is_alert = alert && !node_is_null(alert), is_record = record && !node_is_null(record);

	if (is_alert == is_record)
		check_report(c, CHECK_PR_RULE, r, path,
			     "a rule needs exactly one of 'alert' and 'record'%s: Prometheus "
			     "refuses to load the group",
			     is_alert ? " (it has both)" : " (it has neither)");
	if (is_alert && !*(check_text(alert) ? check_text(alert) : ""))
		check_report(c, CHECK_PR_RULE, alert, check_path(c, path, "alert"),
			     "the alert name is empty");
	if (is_record && !metric_name_ok(check_text(record)))
		check_report(c, CHECK_PR_RULE, record, check_path(c, path, "record"),
			     "recording rule name \"%s\" is not a metric name "
			     "([a-zA-Z_:][a-zA-Z0-9_:]*)",
			     check_text(record) ? check_text(record) : "");
	if (!e || !*e)
		check_report(c, CHECK_PR_RULE, expr ? expr : r, check_path(c, path, "expr"),
			     "the rule has no expression");
	else if ((why = expr_unbalanced(e)) != NULL)
		check_report(c, CHECK_PR_RULE, expr, check_path(c, path, "expr"),
			     "the expression cannot parse: %s", why);
	duration_field(c, r, path, "for");
	duration_field(c, r, path, "keep_firing_for");
	if (is_record && !is_alert) {
		static const char *const alert_only[] = { "for", "keep_firing_for", "annotations" };

		for (size_t k = 0; k < sizeof(alert_only) / sizeof(alert_only[0]); k++)
			if (node_map_get(r, alert_only[k]))
				check_report(c, CHECK_PR_RULE, node_map_get(r, alert_only[k]),
					     check_path(c, path, alert_only[k]),
					     "invalid field '%s' in recording rule: Prometheus "
					     "refuses to load the group",
					     alert_only[k]);
	}
	label_map(c, node_map_get(r, "labels"), check_path(c, path, "labels"), "label");
	label_map(c, node_map_get(r, "annotations"), check_path(c, path, "annotations"),
		  "annotation");
}

void
check_prometheusrule(struct check_ctx *c)
{
	const struct node *groups = node_path(c->obj, "spec.groups");

	for (size_t i = 0; i < check_seq_count(groups); i++) {
		const struct node *g = groups->seq.items[i];
		const struct node *name = node_map_get(g, "name");
		const char *n = check_text(name);
		const char *path = check_index(c, "spec.groups", i);
		const struct node *rules = node_map_get(g, "rules");

		if (!n || !*n) {
			check_report(c, CHECK_PR_GROUPS, name ? name : g,
				     check_path(c, path, "name"),
				     "rule group has no name: groups are keyed by name; name it");
		} else {
			for (size_t k = 0; k < i; k++) {
				const char *o =
					check_text(node_map_get(groups->seq.items[k], "name"));

				if (o && !strcmp(o, n)) {
					check_report(c, CHECK_PR_GROUPS, name,
						     check_path(c, path, "name"),
						     "rule group name \"%s\" is used twice (also "
						     "spec.groups[%zu]): groups are a list-map "
						     "keyed by name, so the API server rejects the "
						     "PrometheusRule",
						     n, k);
					break;
				}
			}
		}
		duration_field(c, g, path, "interval");
		duration_field(c, g, path, "query_offset");
		label_map(c, node_map_get(g, "labels"), check_path(c, path, "labels"),
			  "group label");
		for (size_t k = 0; k < check_seq_count(rules); k++)
			rule(c, rules->seq.items[k],
			     check_index(c, check_path(c, path, "rules"), k));
	}
}
