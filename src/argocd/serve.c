/*
 * serve.c - the ApplicationSet plugin generator's protocol (serve.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "argocd/serve.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "json/json.h"
#include "node/node.h"
#include "source/source.h"

/* The answers of one reading of the repository, written once. */
struct serve_snap {
	atomic_int refs;
	int status;                 /* 200, or 503 */
	char *by_cluster, *by_site; /* 200: the two answers */
	size_t by_cluster_len, by_site_len;
	char *error; /* 503: the answer */
	size_t error_len;
	char summary[160];
};

struct serve {
	struct serve_config cfg;
	pthread_mutex_t lock; /* snap, token */
	struct serve_snap *snap;
	char token[SERVE_MAX_TOKEN + 1];
	size_t token_len;
	struct stat token_st; /* of the file the token came from */
	pthread_t thread;
	bool running;
	bool stop;
	bool reload_now; /* serve_wake(): reload before the next period */
	pthread_cond_t wake;
};

static const struct pos nowhere = POS_NONE;

static char *
xmemdup(const char *p, size_t n)
{
	char *c = xmalloc(n + 1);

	memcpy(c, p, n);
	c[n] = '\0';
	return c;
}

static void
snap_put(struct serve_snap *sn)
{
	if (sn && atomic_fetch_sub(&sn->refs, 1) == 1) {
		free(sn->by_cluster);
		free(sn->by_site);
		free(sn->error);
		free(sn);
	}
}

static struct serve_snap *
snap_get(struct serve *s)
{
	struct serve_snap *sn;

	pthread_mutex_lock(&s->lock);
	sn = s->snap;
	atomic_fetch_add(&sn->refs, 1);
	pthread_mutex_unlock(&s->lock);
	return sn;
}

/* JSON text of `n` (malloc'd), with the final newline Go's encoder writes. */
static char *
to_json(const struct node *n, size_t *len)
{
	struct buf b = BUF_INIT;

	if (json_write(&b, n, 0) < 0 || buf_addch(&b, '\n') < 0) {
		buf_release(&b);
		*len = 0;
		return xstrdup("{}\n");
	}
	return buf_detach(&b, len);
}

static char *
message_body(const char *msg, size_t *len)
{
	struct arena a = ARENA_INIT;
	struct node *m;
	char *out;

	arena_init(&a);
	m = node_new_map(&a, nowhere);
	node_map_add_str(&a, m, "message", msg);
	out = to_json(m, len);
	arena_release(&a);
	return out;
}

/* argocd.destinationName of a site, else NULL (the sites of a cluster
 * agree on it: GS047). */
static const char *
destination_name(const struct spec_site *site)
{
	const char *v = site->argocd.destination_name;

	return v && *v ? v : NULL;
}

/* The directory the per-cluster Application points its source at: the
 * PATH given to serve, else sites/ when every file lives there, else the
 * top of the repository.  `generate` renders one cluster of it with the
 * `cluster` parameter, seeing every site (the cross-site rules). */
static const char *
app_path(struct arena *a, const struct serve_config *cfg, const char *const *names, size_t n)
{
	size_t l;

	if (cfg->src.npaths == 1) {
		char *p = arena_strdup(a, cfg->src.paths[0]);

		while (!strncmp(p, "./", 2))
			p += 2;
		l = strlen(p);
		while (l > 1 && p[l - 1] == '/')
			p[--l] = '\0';
		return *p ? p : ".";
	}
	for (size_t i = 0; i < n; i++)
		if (strncmp(names[i], "sites/", 6))
			return ".";
	return n ? "sites" : ".";
}

/* `text` with every "`from`" replaced by `to`. */
static const char *
replace_all(struct arena *a, const char *text, const char *from, const char *to)
{
	struct buf b = BUF_INIT;
	size_t fl = strlen(from), len;
	const char *p = text, *hit;
	char *out;

	if (!fl || !strstr(text, from))
		return text;
	while ((hit = strstr(p, from))) {
		if (buf_add(&b, p, (size_t)(hit - p)) < 0 || buf_adds(&b, to) < 0)
			break;
		p = hit + fl;
	}
	if (buf_adds(&b, p) < 0) {
		buf_release(&b);
		return text;
	}
	out = buf_detach(&b, &len);
	text = arena_strndup(a, out, len);
	free(out);
	return text;
}

/*
 * What a 503 may show of a text naming files: never a directory of the
 * server.  Names are already from the top of the work tree where there
 * is one; what is left is made relative to the working directory, or to
 * the parent of the PATH served (sites/x.yaml), and a local --repo is
 * named by its last component.
 */
static const char *
scrub_paths(struct arena *a, const struct serve_config *cfg, const char *text)
{
	char here[PATH_MAX];
	const char *repo = cfg->src.repo;

	if (repo && (repo[0] == '/' || !strncmp(repo, "file://", 7))) {
		const char *base = strrchr(repo, '/');
		const char *name = base && base[1] ? base + 1 : "the repository";

		text = replace_all(a, text, repo, name);
		if (repo[0] != '/')
			text = replace_all(a, text, repo + 7, name);
	}
	for (size_t i = 0; i < cfg->src.npaths; i++) {
		const char *p = cfg->src.paths[i], *slash = strrchr(p, '/');

		if (p[0] == '/' && slash && slash != p)
			text = replace_all(a, text, arena_strndup(a, p, (size_t)(slash - p + 1)),
					   "");
	}
	if (getcwd(here, sizeof(here)) && strcmp(here, "/"))
		text = replace_all(a, text, arena_printf(a, "%s/", here), "");
	return text;
}

/* One finding as a 503 shows it: file:line:col, the level, the rule. */
static const char *
finding_line(struct arena *a, const struct serve_config *cfg, const struct diag *g)
{
	const char *lvl = g->level == DIAG_ERROR ? "error" : "warning";
	const char *rule = g->rule && *g->rule ? arena_printf(a, " [%s]", g->rule) : "";
	const char *line;

	if (g->at.file && g->at.line)
		line = arena_printf(a, "%s:%u:%u: %s: %s%s", g->at.file, g->at.line, g->at.col, lvl,
				    g->msg, rule);
	else if (g->at.file)
		line = arena_printf(a, "%s: %s: %s%s", g->at.file, lvl, g->msg, rule);
	else
		line = arena_printf(a, "%s: %s%s", lvl, g->msg, rule);
	return scrub_paths(a, cfg, line);
}

/* Whether serve refuses the specs for `g`: every error, and a site file
 * that holds no document (GS173, a warning for validate). */
static bool
refuses(const struct diag *g)
{
	return g->level == DIAG_ERROR || (g->rule && !strcmp(g->rule, PIPELINE_RULE_EMPTY_FILE));
}

/* The 503: `what` (what failed), the first finding in the message itself
 * (a controller that shows one line shows that one), then `then`. */
static void
snap_fail(struct serve_snap *sn, struct arena *a, const struct serve_config *cfg, const char *what,
	  const char *then, const struct diags *d)
{
	struct node *m = node_new_map(a, nowhere);
	struct node *list = node_new_seq(a, nowhere);
	const char *first = NULL, *msg;

	for (size_t i = 0; d && i < d->count; i++) {
		const char *line;

		if (!refuses(&d->items[i]))
			continue;
		line = finding_line(a, cfg, &d->items[i]);
		if (!first)
			first = line;
		node_seq_push(a, list, node_new_str(a, nowhere, line));
	}
	msg = first ? arena_printf(a, "%s, the first: %s; %s", what, first, then)
		    : arena_printf(a, "%s; %s", what, then);
	node_map_add_str(a, m, "message", msg);
	node_map_add(a, m, "diagnostics", list);
	sn->status = 503;
	sn->error = to_json(m, &sn->error_len);
	snprintf(sn->summary, sizeof(sn->summary), "%.150s", msg);
}

static struct node *
output_of(struct arena *a, struct node *elements)
{
	struct node *root = node_new_map(a, nowhere);
	struct node *out = node_new_map(a, nowhere);

	node_map_add(a, out, "parameters", elements);
	node_map_add(a, root, "output", out);
	return root;
}

/* per: site: one element per site; the fleet is sorted by name, then file */
static struct node *
site_elements(struct arena *a, const struct serve_config *cfg, const struct spec_fleet *fleet)
{
	struct node *sites = node_new_seq(a, nowhere);

	for (size_t i = 0; i < fleet->count; i++) {
		const struct spec_site *st = fleet->sites[i];
		const char *dn = destination_name(st);
		struct node *e = node_new_map(a, nowhere);

		node_map_add_str(a, e, "site", st->name);
		node_map_add_str(a, e, "cluster", st->cluster.name);
		node_map_add_str(a, e, "destinationName", dn ? dn : st->cluster.name);
		node_map_add_str(a, e, "project", st->argocd.project);
		node_map_add_str(a, e, "alertsNamespace", st->alerts.namespace);
		node_map_add_str(a, e, "file", pipeline_file_from_top(a, &cfg->src, st->file));
		node_seq_push(a, sites, e);
	}
	return sites;
}

/* The first site of `cluster` in the fleet's order. */
static const struct spec_site *
first_site_of(const struct spec_fleet *fleet, const char *cluster)
{
	for (size_t i = 0; i < fleet->count; i++)
		if (!strcmp(fleet->sites[i]->cluster.name, cluster))
			return fleet->sites[i];
	return fleet->sites[0];
}

/* per: cluster: one element per cluster, by cluster name; each cluster's
 * sites by name.  *count is how many. */
static struct node *
cluster_elements(struct arena *a, const struct spec_fleet *fleet, const char *path, size_t *count)
{
	struct node *clusters = node_new_seq(a, nowhere);
	size_t nclusters = 0;

	for (;;) {
		const char *next = NULL, *dn = NULL, *project = NULL, *alerts = NULL;
		struct node *e, *list;

		for (size_t i = 0; i < fleet->count; i++) {
			const char *c = fleet->sites[i]->cluster.name;
			const char *last =
				nclusters ? node_str(node_map_get(
						    clusters->seq.items[nclusters - 1], "cluster"))
					  : NULL;

			if ((!last || strcmp(c, last) > 0) && (!next || strcmp(c, next) < 0))
				next = c;
		}
		if (!next)
			break;
		e = node_new_map(a, nowhere);
		list = node_new_seq(a, nowhere);
		for (size_t i = 0; i < fleet->count; i++) {
			const struct spec_site *st = fleet->sites[i];

			if (strcmp(st->cluster.name, next))
				continue;
			if (!dn)
				dn = destination_name(st);
			if (!project)
				project = st->argocd.project;
			/* the first site (by name) with alerts: its PrometheusRule's
			 * namespace is the one the Application creates */
			if (!alerts && st->alerts.enabled)
				alerts = st->alerts.namespace;
			node_seq_push(a, list, node_new_str(a, nowhere, st->name));
		}
		if (!alerts)
			alerts = first_site_of(fleet, next)->alerts.namespace;
		node_map_add_str(a, e, "cluster", next);
		node_map_add_str(a, e, "destinationName", dn ? dn : next);
		node_map_add_str(a, e, "project", project);
		node_map_add_str(a, e, "alertsNamespace", alerts);
		node_map_add(a, e, "sites", list);
		node_map_add_str(a, e, "path", path);
		node_seq_push(a, clusters, e);
		nclusters++;
	}
	*count = nclusters;
	return clusters;
}

/* Read the repository and write both answers (or the error). */
static struct serve_snap *
snap_build(const struct serve_config *cfg)
{
	struct serve_snap *sn = xcalloc(1, sizeof(*sn));
	struct arena a = ARENA_INIT;
	struct source_set files = { NULL, 0, 0, NULL };
	struct diags d;
	struct pipeline p;
	struct node *clusters, *sites;
	const char **names;
	const char *path;
	size_t nclusters = 0, errors, empty = 0;
	int r;

	atomic_init(&sn->refs, 1);
	arena_init(&a);
	diags_init(&d, &a);
	source_cache_expire();
	r = pipeline_read(&files, &a, &d, &cfg->src);
	if (r < 0) {
		pipeline_files_from_top(&d, &a, &cfg->src);
		snap_fail(sn, &a, cfg, "cannot read the site specs",
			  "the ApplicationSet keeps its Applications until they can be read", &d);
		goto out;
	}
	pipeline_load(&p, &a, &files);
	pipeline_merge_diags(&p.diags, &d);
	diags_sort(&p.diags);
	pipeline_files_from_top(&p.diags, &a, &cfg->src);
	errors = diags_count(&p.diags, DIAG_ERROR);
	for (size_t i = 0; i < p.diags.count; i++)
		if (p.diags.items[i].level != DIAG_ERROR && refuses(&p.diags.items[i]))
			empty++;
	if (!errors && empty) {
		snap_fail(sn, &a, cfg,
			  arena_printf(&a, "%zu site file%s hold%s no document", empty,
				       empty == 1 ? "" : "s", empty == 1 ? "s" : ""),
			  "the ApplicationSet keeps its Applications until the file is fixed or"
			  " removed",
			  &p.diags);
		goto out;
	}
	if (errors) {
		snap_fail(sn, &a, cfg,
			  arena_printf(&a, "the site specs do not validate (%zu error%s)", errors,
				       errors == 1 ? "" : "s"),
			  "the ApplicationSet keeps its Applications until they are fixed",
			  &p.diags);
		goto out;
	}
	if (!p.fleet.count) {
		/* never an empty list: the controller would delete every Application */
		snap_fail(sn, &a, cfg, "no site found in the site specs",
			  "the ApplicationSet keeps its Applications", NULL);
		goto out;
	}
	names = arena_alloc(&a, files.count * sizeof(*names) + 1);
	for (size_t i = 0; i < files.count; i++)
		names[i] = pipeline_file_from_top(&a, &cfg->src, files.files[i].path);
	path = app_path(&a, cfg, names, files.count);

	sites = site_elements(&a, cfg, &p.fleet);
	clusters = cluster_elements(&a, &p.fleet, path, &nclusters);
	sn->status = 200;
	sn->by_cluster = to_json(output_of(&a, clusters), &sn->by_cluster_len);
	sn->by_site = to_json(output_of(&a, sites), &sn->by_site_len);
	snprintf(sn->summary, sizeof(sn->summary), "%zu site%s in %zu cluster%s from %zu file%s",
		 p.fleet.count, p.fleet.count == 1 ? "" : "s", nclusters, nclusters == 1 ? "" : "s",
		 files.count, files.count == 1 ? "" : "s");
out:
	arena_release(&a);
	return sn;
}

/* Read the token file: 0, or -1 with the reason. */
static int
token_read(char *out, size_t *len, struct stat *st, const char *file, const char **why)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t l = 0;

	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, st) < 0) {
		*why = strerror(errno);
		close(fd);
		return -1;
	}
	for (;;) {
		n = read(fd, out + l, SERVE_MAX_TOKEN + 1 - l);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		l += (size_t)n;
		if (l > SERVE_MAX_TOKEN)
			break;
	}
	close(fd);
	if (n < 0) {
		*why = "it cannot be read";
		return -1;
	}
	if (l > SERVE_MAX_TOKEN) {
		*why = "it is longer than 4096 bytes";
		return -1;
	}
	/* a Secret written from a file often ends in a newline */
	while (l && (out[l - 1] == '\n' || out[l - 1] == '\r' || out[l - 1] == ' ' ||
		     out[l - 1] == '\t'))
		l--;
	out[l] = '\0';
	if (!l) {
		*why = "it is empty";
		return -1;
	}
	for (size_t i = 0; i < l; i++)
		if ((unsigned char)out[i] <= ' ' || out[i] == 0x7f) {
			*why = "it holds a space or a control character";
			return -1;
		}
	*len = l;
	return 0;
}

int
serve_open(struct serve **out, const struct serve_config *cfg, char *err, size_t errlen)
{
	struct serve *s = xcalloc(1, sizeof(*s));
	const char *why;

	*out = NULL;
	s->cfg = *cfg;
	if (token_read(s->token, &s->token_len, &s->token_st, cfg->token_file, &why) < 0) {
		snprintf(err, errlen,
			 "cannot use the token file '%s': %s; mount the Secret"
			 " the plugin generator's ConfigMap names there",
			 cfg->token_file, why);
		free(s);
		return -1;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->wake, NULL);
	s->snap = snap_build(&s->cfg);
	*out = s;
	return 0;
}

void
serve_describe(const struct serve *s, char *out, size_t outlen)
{
	struct serve_snap *sn = snap_get((struct serve *)s);

	snprintf(out, outlen, "%s", sn->summary);
	snap_put(sn);
}

/* A rotated Secret: the kubelet swaps the file (a new inode) or rewrites
 * it; either changes what stat says.  A token file that cannot be read or
 * is empty keeps the old token. */
static void
token_refresh(struct serve *s)
{
	char tok[SERVE_MAX_TOKEN + 1];
	struct stat st;
	size_t len;
	const char *why;

	if (stat(s->cfg.token_file, &st) < 0)
		return;
	if (st.st_ino == s->token_st.st_ino && st.st_dev == s->token_st.st_dev &&
	    st.st_size == s->token_st.st_size && st.st_mtim.tv_sec == s->token_st.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == s->token_st.st_mtim.tv_nsec)
		return;
	if (token_read(tok, &len, &st, s->cfg.token_file, &why) < 0) {
		fprintf(stderr,
			"gpusite serve: cannot use the new token file '%s': %s;"
			" keeping the token read before\n",
			s->cfg.token_file, why);
		pthread_mutex_lock(&s->lock);
		s->token_st = st;
		pthread_mutex_unlock(&s->lock);
		return;
	}
	pthread_mutex_lock(&s->lock);
	memcpy(s->token, tok, len + 1);
	s->token_len = len;
	s->token_st = st;
	pthread_mutex_unlock(&s->lock);
	memset(tok, 0, sizeof(tok));
	fprintf(stderr, "gpusite serve: token file changed: using the new token\n");
}

void
serve_reload(struct serve *s)
{
	struct serve_snap *sn, *old;
	char was[sizeof(sn->summary)];
	int was_status;

	token_refresh(s);
	sn = snap_build(&s->cfg);
	pthread_mutex_lock(&s->lock);
	old = s->snap;
	s->snap = sn;
	pthread_mutex_unlock(&s->lock);
	was_status = old->status;
	memcpy(was, old->summary, sizeof(was));
	snap_put(old);
	if (was_status != sn->status || strcmp(was, sn->summary))
		fprintf(stderr, "gpusite serve: specs: %s\n", sn->summary);
}

static void *
refresh_main(void *arg)
{
	struct serve *s = arg;
	struct timespec until;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t)s->cfg.refresh;
		while (!s->stop && !s->reload_now &&
		       pthread_cond_timedwait(&s->wake, &s->lock, &until) != ETIMEDOUT)
			;
		if (s->stop)
			break;
		s->reload_now = false;
		pthread_mutex_unlock(&s->lock);
		serve_reload(s);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int
serve_start_refresh(struct serve *s)
{
	if (pthread_create(&s->thread, NULL, refresh_main, s))
		return -1;
	s->running = true;
	return 0;
}

void
serve_wake(struct serve *s)
{
	pthread_mutex_lock(&s->lock);
	s->reload_now = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

void
serve_stop_refresh(struct serve *s)
{
	if (!s->running)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->running = false;
}

void
serve_close(struct serve *s)
{
	if (!s)
		return;
	serve_stop_refresh(s);
	snap_put(s->snap);
	memset(s->token, 0, sizeof(s->token));
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

int
serve_auth_check(const char *auth, const char *token, size_t len)
{
	const unsigned char *given;
	size_t glen;
	unsigned char diff;

	if (!auth || strncasecmp(auth, "Bearer ", 7))
		return -1;
	given = (const unsigned char *)auth + 7;
	while (*given == ' ')
		given++;
	glen = strlen((const char *)given);
	while (glen && (given[glen - 1] == ' ' || given[glen - 1] == '\t'))
		glen--;
	if (!glen)
		return -1;
	/* every byte of the token is compared, whatever matched before */
	diff = glen != len;
	for (size_t i = 0; i < len; i++)
		diff |= (unsigned char)token[i] ^ (i < glen ? given[i] : 0);
	return diff ? 0 : 1;
}

/* The input parameters serve takes; no request may carry more. */
static const char *const serve_param_names[] = { "per" };
#define SERVE_NPARAMS (sizeof(serve_param_names) / sizeof(serve_param_names[0]))

int
serve_parse_request(struct serve_request *out, struct arena *a, const char *body, size_t len,
		    const char **why)
{
	struct diags d;
	struct node *root, *input, *params;

	memset(out, 0, sizeof(*out));
	diags_init(&d, a);
	root = json_parse_flags(a, &d, "GS001", "request", body, len, JSON_STRICT);
	if (!root) {
		*why = d.count ? arena_printf(
					 a, "the request body is not JSON gpusite serve takes: %s",
					 d.items[0].msg)
			       : "the request body is not JSON";
		return -1;
	}
	if (root->kind != NODE_MAP) {
		*why = "the request body is not a JSON object: send"
		       " {\"applicationSetName\": ..., \"input\": {\"parameters\": {...}}}";
		return -1;
	}
	out->appset = node_str(node_map_get(root, "applicationSetName"));
	input = node_map_get(root, "input");
	if (input && input->kind == NODE_SCALAR && input->type == NODE_NULL)
		return 0;
	if (input && input->kind != NODE_MAP) {
		*why = "\"input\" is not an object: send {\"input\": {\"parameters\": {...}}}";
		return -1;
	}
	params = input ? node_map_get(input, "parameters") : NULL;
	if (!params || (params->kind == NODE_SCALAR && params->type == NODE_NULL))
		return 0;
	if (params->kind != NODE_MAP) {
		*why = "\"input.parameters\" is not an object of parameter names";
		return -1;
	}
	if (params->map.count > SERVE_NPARAMS) {
		*why = arena_printf(a,
				    "\"input.parameters\" has %zu keys: gpusite serve takes at most"
				    " %zu ('per')",
				    params->map.count, SERVE_NPARAMS);
		return -1;
	}
	/* no key is given twice: the strict parse refused that */
	out->params = arena_alloc(a, (params->map.count + 1) * sizeof(*out->params));
	for (size_t i = 0; i < params->map.count; i++) {
		out->params[out->nparams].name = node_text(params->map.pairs[i].key);
		out->params[out->nparams].value = params->map.pairs[i].value;
		out->nparams++;
	}
	return 0;
}

static void
reply_set(struct serve_reply *r, int status, const char *type, char *body, size_t len)
{
	r->status = status;
	r->type = type;
	r->body = body;
	r->len = len;
}

static void
reply_message(struct serve_reply *r, int status, const char *msg)
{
	size_t len;
	char *b = message_body(msg, &len);

	reply_set(r, status, "application/json", b, len);
}

/* A JSON-safe copy of a name from the request, for a message. */
static const char *
shown(struct arena *a, const char *s)
{
	char *o = arena_strndup(a, s, strnlen(s, 64));

	for (char *c = o; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '\'')
			*c = '?';
	return o;
}

static void
answer_params(struct serve_reply *out, struct serve *s, const char *body, size_t len)
{
	struct arena a = ARENA_INIT;
	struct serve_request req;
	struct serve_snap *sn;
	const char *why, *per = "cluster";

	arena_init(&a);
	if (serve_parse_request(&req, &a, body, len, &why) < 0) {
		reply_message(out, 400, why);
		goto out;
	}
	for (size_t i = 0; i < req.nparams; i++) {
		const struct serve_param *pm = &req.params[i];

		if (strcmp(pm->name, serve_param_names[0])) {
			reply_message(out, 400,
				      arena_printf(&a,
						   "unknown input parameter '%s':"
						   " gpusite serve takes 'per'"
						   " (cluster or site)",
						   shown(&a, pm->name)));
			goto out;
		}
		per = node_str(pm->value);
		if (!per || (strcmp(per, "cluster") && strcmp(per, "site"))) {
			reply_message(out, 400,
				      arena_printf(&a,
						   "input parameter 'per' is '%s':"
						   " use \"cluster\" (one element per"
						   " cluster) or \"site\"",
						   per ? shown(&a, per) : "not a string"));
			goto out;
		}
	}
	sn = snap_get(s);
	if (sn->status != 200) {
		reply_set(out, sn->status, "application/json", xmemdup(sn->error, sn->error_len),
			  sn->error_len);
		out->retry_after = s->cfg.refresh;
	} else if (!strcmp(per, "site")) {
		reply_set(out, 200, "application/json", xmemdup(sn->by_site, sn->by_site_len),
			  sn->by_site_len);
	} else {
		reply_set(out, 200, "application/json", xmemdup(sn->by_cluster, sn->by_cluster_len),
			  sn->by_cluster_len);
	}
	snap_put(sn);
out:
	arena_release(&a);
}

bool
serve_answer_head(struct serve_reply *out, struct serve *s, const char *method, const char *url,
		  const char *auth)
{
	char token[SERVE_MAX_TOKEN + 1];
	size_t tlen;
	int ok;

	memset(out, 0, sizeof(*out));
	if (!strcmp(url, "/healthz")) {
		if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
			out->allow = "GET, HEAD";
			reply_set(out, 405, "text/plain; charset=utf-8",
				  xstrdup("method not allowed: use GET\n"), 28);
			return true;
		}
		reply_set(out, 200, "text/plain; charset=utf-8", xstrdup("ok\n"), 3);
		return true;
	}
	if (strcmp(url, "/api/v1/getparams.execute")) {
		reply_message(out, 404,
			      "not found: the plugin generator answers POST"
			      " /api/v1/getparams.execute");
		return true;
	}
	if (strcmp(method, "POST")) {
		out->allow = "POST";
		reply_message(out, 405, "method not allowed: use POST");
		return true;
	}
	pthread_mutex_lock(&s->lock);
	memcpy(token, s->token, s->token_len + 1);
	tlen = s->token_len;
	pthread_mutex_unlock(&s->lock);
	ok = serve_auth_check(auth, token, tlen);
	memset(token, 0, sizeof(token));
	if (ok < 0) {
		out->challenge = true;
		reply_message(out, 401,
			      "no bearer token: send 'Authorization: Bearer <token>',"
			      " the token of the Secret the plugin ConfigMap names");
		return true;
	}
	if (!ok) {
		reply_message(out, 403,
			      "wrong bearer token: the ConfigMap's token must name"
			      " the Secret key mounted as --token-file");
		return true;
	}
	return false;
}

void
serve_reply_busy(struct serve_reply *out)
{
	char msg[160];

	memset(out, 0, sizeof(*out));
	snprintf(msg, sizeof(msg),
		 "too many request bodies in flight: the server holds at most %zu MiB of"
		 " them at once; ask again",
		 SERVE_BODY_BUDGET >> 20);
	reply_message(out, 503, msg);
	out->retry_after = 1;
}

void
serve_handle(struct serve_reply *out, struct serve *s, const char *method, const char *url,
	     const char *auth, const char *body, size_t len, bool too_big)
{
	if (serve_answer_head(out, s, method, url, auth))
		return;
	if (too_big) {
		reply_message(out, 413, "the request body is over 1 MiB");
		return;
	}
	answer_params(out, s, body, len);
}

void
serve_reply_free(struct serve_reply *r)
{
	free(r->body);
	r->body = NULL;
}
