/*
 * kube_config.c - the kubeconfig exactly as kubectl reads it.
 *
 * Discovery order: --kubeconfig (one file, must exist), else KUBECONFIG
 * (':'-separated, missing files skipped, merged), else ~/.kube/config,
 * else the in-cluster service account.  Merging: the first file to
 * define a cluster, user or context name wins the whole entry;
 * current-context comes from the first file that sets it; relative paths
 * resolve against the directory of the file that defined the entry.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/buf.h"
#include "k8s/k8s_arn.h"
#include "kube/kube_int.h"
#include "node/node.h"
#include "yamlio/yamlio.h"

struct entry {
	const char *name;
	const struct node *body; /* the "cluster" / "user" / "context" map */
	const char *dir;         /* directory of the defining file */
	const char *file;
	struct pos at;
};

struct entries {
	struct entry *items;
	size_t count;
	size_t alloc;
};

struct merged {
	struct entries clusters;
	struct entries users;
	struct entries contexts;
	const char *current; /* current-context */
	struct pos current_at;
	const char *files; /* "a, b" for messages */
	size_t nfiles;
	size_t nempty; /* of them, empty files */
};

const char *
kube_std_getenv(const char *name)
{
	return getenv(name);
}

const char *
kube_file_error(int err)
{
	/* buf_read_file(): EINVAL for a FIFO, device or socket */
	if (err == EINVAL)
		return "not a regular file";
	if (err == EISDIR)
		return "a directory, not a file";
	return strerror(err);
}

/* A value that goes into an HTTP header or names a file must hold no
 * control character; the message names where it is, never the value. */
static int
no_ctl(struct diags *d, const struct node *map, const char *key, const char *what)
{
	const struct node *n = node_map_get(map, key);
	const char *s = node_text(n);

	if (!s || (!kube_has_ctl(s) && strlen(s) == n->scalar.len))
		return 0;
	return diag_report(d, n->at, KUBE_RULE, key,
			   "%s holds a control character (CR, LF or another): "
			   "refusing it, it would reach an HTTP header or a path; "
			   "fix the kubeconfig",
			   what);
}

/* Read a PEM file into data without ever blocking: a FIFO, a device or
 * a directory is refused (O_NONBLOCK, regular files only). */
static int
read_pem(struct arena *a, struct diags *d, struct pos at, const char *path, const char *what,
	 const char **data, size_t *len)
{
	struct buf b;
	int rc, err;

	buf_init(&b, 1u << 20);
	rc = buf_read_file(&b, path);
	err = errno;
	if (rc < 0) {
		buf_release(&b);
		return diag_report(d, at, KUBE_RULE, "", "cannot read %s '%s': %s", what, path,
				   rc == BUF_ETOOBIG ? "larger than 1 MiB" : kube_file_error(err));
	}
	*data = arena_strndup(a, b.data ? b.data : "", b.len);
	*len = b.len;
	if (b.len)
		memset(b.data, 0, b.len); /* a key may be in there */
	buf_release(&b);
	return 0;
}
static void
entries_add(struct arena *a, struct entries *e, const struct entry *it)
{
	for (size_t i = 0; i < e->count; i++)
		if (!strcmp(e->items[i].name, it->name))
			return; /* the first file to define a name wins */
	ARENA_GROW(a, e->items, e->count, e->alloc, 8);
	e->items[e->count++] = *it;
}

static const struct entry *
entries_find(const struct entries *e, const char *name)
{
	for (size_t i = 0; i < e->count; i++)
		if (!strcmp(e->items[i].name, name))
			return &e->items[i];
	return NULL;
}

static const char *
dir_of(struct arena *a, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	if (slash == path)
		return "/";
	return arena_strndup(a, path, (size_t)(slash - path));
}

/* A string field, or NULL when absent or empty. */
static const char *
str_field(const struct node *map, const char *key)
{
	const char *s = node_text(node_map_get(map, key));

	return s && *s ? s : NULL;
}

static bool
bool_field(const struct node *map, const char *key)
{
	const struct node *n = node_map_get(map, key);

	if (!n || n->kind != NODE_SCALAR)
		return false;
	if (n->type == NODE_BOOL)
		return n->scalar.i != 0;
	return n->type == NODE_STR && !strcmp(n->scalar.text, "true");
}

static const char *
resolve_path(struct arena *a, const char *dir, const char *p)
{
	if (!p || p[0] == '/' || !dir)
		return p;
	if (p[0] == '~' && p[1] == '/') {
		const char *home = getenv("HOME");

		if (home)
			return arena_printf(a, "%s%s", home, p + 1);
	}
	return arena_printf(a, "%s/%s", dir, p);
}

static void
merge_list(struct arena *a, struct entries *e, const struct node *seq, const char *body_key,
	   const char *file, const char *dir)
{
	if (!seq || seq->kind != NODE_SEQ)
		return;
	for (size_t i = 0; i < seq->seq.count; i++) {
		const struct node *it = seq->seq.items[i];
		struct entry en;

		if (it->kind != NODE_MAP)
			continue;
		en.name = node_text(node_map_get(it, "name"));
		if (!en.name)
			continue;
		en.body = node_map_get(it, body_key);
		en.dir = dir;
		en.file = file;
		en.at = it->at;
		entries_add(a, e, &en);
	}
}

/* Load one file into the merge.  1 when merged, 0 when missing and
 * `may_miss`, -1 after a diagnostic. */
static int
merge_file(struct merged *m, struct arena *a, struct diags *d, const char *path, bool may_miss)
{
	struct buf b;
	struct yamlio_docs docs = { NULL, 0 };
	const char *file = arena_strdup(a, path);
	const char *dir = dir_of(a, file);
	const struct node *root;
	const char *cur;
	int rc;

	buf_init(&b, YAMLIO_MAX_BYTES);
	rc = buf_read_file(&b, path);
	if (rc < 0) {
		int err = errno;

		buf_release(&b);
		if (rc == -1 && err == ENOENT && may_miss)
			return 0;
		if (rc == BUF_ETOOBIG)
			return diag_report(d, (struct pos){ file, 0, 0 }, KUBE_RULE, "",
					   "kubeconfig '%s' is larger than %u bytes", path,
					   YAMLIO_MAX_BYTES);
		return diag_report(d, (struct pos){ file, 0, 0 }, KUBE_RULE, "",
				   "cannot read kubeconfig '%s': %s", path, kube_file_error(err));
	}
	rc = yamlio_load(&docs, a, d, file, b.data, b.len, &yamlio_default_limits);
	buf_release(&b);
	if (rc < 0)
		return -1;
	if (docs.count == 0 || node_is_null(docs.docs[0])) {
		/* an empty file is an empty config (kubectl): it is read, and
		 * merges nothing */
		m->files = m->files ? arena_printf(a, "%s, %s", m->files, file) : file;
		m->nfiles++;
		m->nempty++;
		return 1;
	}
	root = docs.docs[0];
	if (root->kind != NODE_MAP)
		return diag_report(d, root->at, KUBE_RULE, "", "kubeconfig '%s' is not a mapping",
				   path);
	merge_list(a, &m->clusters, node_map_get(root, "clusters"), "cluster", file, dir);
	merge_list(a, &m->users, node_map_get(root, "users"), "user", file, dir);
	merge_list(a, &m->contexts, node_map_get(root, "contexts"), "context", file, dir);
	cur = str_field(root, "current-context");
	if (cur && !m->current) {
		m->current = cur;
		m->current_at = node_map_get(root, "current-context")->at;
	}
	m->files = m->files ? arena_printf(a, "%s, %s", m->files, file) : file;
	m->nfiles++;
	return 1;
}

static int
load_data(struct arena *a, struct diags *d, const struct node *map, const char *key,
	  const char *what, const char **out, size_t *len)
{
	const struct node *n = node_map_get(map, key);
	const char *s = node_text(n);

	if (!s || !*s)
		return 0;
	if (kube_base64_decode(a, s, out, len) < 0 || *len == 0)
		return diag_report(d, n->at, KUBE_RULE, key,
				   "%s is not valid base64: decode it with "
				   "'base64 -d' to check, or use the file form",
				   what);
	return 0;
}

static int
load_exec(struct kube_conf *c, struct arena *a, struct diags *d, const struct node *ex,
	  const char *dir)
{
	struct kube_exec_conf *e = arena_alloc(a, sizeof(*e));
	const struct node *args = node_map_get(ex, "args");
	const struct node *env = node_map_get(ex, "env");
	const char *cmd = str_field(ex, "command");

	if (!cmd)
		return diag_report(d, ex->at, KUBE_RULE, "exec.command",
				   "exec credential plugin has no command");
	e->api_version = str_field(ex, "apiVersion");
	if (!e->api_version)
		return diag_report(d, ex->at, KUBE_RULE, "exec.apiVersion",
				   "exec credential plugin '%s' has no apiVersion: "
				   "set client.authentication.k8s.io/v1",
				   cmd);
	if (strcmp(e->api_version, "client.authentication.k8s.io/v1") &&
	    strcmp(e->api_version, "client.authentication.k8s.io/v1beta1"))
		return diag_report(d, node_map_get(ex, "apiVersion")->at, KUBE_RULE,
				   "exec.apiVersion",
				   "exec plugin apiVersion '%s' is not supported: use "
				   "client.authentication.k8s.io/v1 or v1beta1",
				   e->api_version);
	e->command = strchr(cmd, '/') ? resolve_path(a, dir, cmd) : cmd;
	e->interactive_mode = str_field(ex, "interactiveMode");
	if (!e->interactive_mode) {
		if (!strcmp(e->api_version, "client.authentication.k8s.io/v1"))
			return diag_report(d, ex->at, KUBE_RULE, "exec.interactiveMode",
					   "interactiveMode must be specified for exec plugin "
					   "'%s' with client.authentication.k8s.io/v1 (Never, "
					   "IfAvailable or Always)",
					   cmd);
		e->interactive_mode = "IfAvailable";
	} else if (strcmp(e->interactive_mode, "Never") &&
		   strcmp(e->interactive_mode, "IfAvailable") &&
		   strcmp(e->interactive_mode, "Always")) {
		return diag_report(d, node_map_get(ex, "interactiveMode")->at, KUBE_RULE,
				   "exec.interactiveMode",
				   "exec plugin interactiveMode '%s' is not one of Never, "
				   "IfAvailable, Always",
				   e->interactive_mode);
	}
	e->install_hint = str_field(ex, "installHint");
	e->provide_cluster_info = bool_field(ex, "provideClusterInfo");
	if (args && args->kind == NODE_SEQ) {
		e->args = arena_alloc(a, (args->seq.count + 1) * sizeof(*e->args));
		for (size_t i = 0; i < args->seq.count; i++) {
			const char *s = node_text(args->seq.items[i]);

			if (s)
				e->args[e->nargs++] = s;
		}
	}
	if (env && env->kind == NODE_SEQ) {
		e->env_names = arena_alloc(a, (env->seq.count + 1) * sizeof(char *));
		e->env_values = arena_alloc(a, (env->seq.count + 1) * sizeof(char *));
		for (size_t i = 0; i < env->seq.count; i++) {
			const struct node *it = env->seq.items[i];
			const char *name = node_text(node_map_get(it, "name"));
			const char *value = node_text(node_map_get(it, "value"));

			if (!name)
				continue;
			e->env_names[e->nenv] = name;
			e->env_values[e->nenv++] = value ? value : "";
		}
	}
	c->exec = e;
	return 0;
}

static int
load_cluster(struct kube_conf *c, struct arena *a, struct diags *d, const struct entry *en)
{
	const struct node *cl = en->body;
	const char *ca_data;

	if (!cl || cl->kind != NODE_MAP)
		return diag_report(d, en->at, KUBE_RULE, "clusters",
				   "cluster '%s' has no 'cluster' mapping", en->name);
	c->info.server = str_field(cl, "server");
	if (!c->info.server)
		return diag_report(d, en->at, KUBE_RULE, "cluster.server",
				   "cluster '%s' has no server URL", en->name);
	if (no_ctl(d, cl, "server",
		   arena_printf(a,
				"the server URL of cluster "
				"'%s'",
				en->name)) < 0 ||
	    no_ctl(d, cl, "proxy-url",
		   arena_printf(a,
				"proxy-url of cluster "
				"'%s'",
				en->name)) < 0 ||
	    no_ctl(d, cl, "tls-server-name",
		   arena_printf(a,
				"tls-server-name of "
				"cluster '%s'",
				en->name)) < 0 ||
	    no_ctl(d, cl, "certificate-authority",
		   arena_printf(a, "certificate-authority of cluster '%s'", en->name)) < 0)
		return -1;
	if (strncmp(c->info.server, "https://", 8) && strncmp(c->info.server, "http://", 7))
		c->info.server = arena_printf(a, "https://%s", c->info.server);
	{
		size_t n = strlen(c->info.server);

		while (n > 8 && c->info.server[n - 1] == '/')
			n--;
		c->info.server = arena_strndup(a, c->info.server, n);
	}
	{
		/* https://user:pass@host: the userinfo is kept apart, for
		 * curl only; every message and -v line shows the host */
		const char *h = strstr(c->info.server, "://") + 3;
		size_t hn = strcspn(h, "/?#");
		const char *at = memchr(h, '@', hn);

		while (at && memchr(at + 1, '@', hn - (size_t)(at + 1 - h)))
			at = memchr(at + 1, '@', hn - (size_t)(at + 1 - h));
		if (at) {
			c->userinfo = arena_strndup(a, h, (size_t)(at + 1 - h));
			c->info.server = arena_printf(a, "%.*s%s", (int)(h - c->info.server),
						      c->info.server, at + 1);
		}
	}
	c->ca_file = resolve_path(a, en->dir, str_field(cl, "certificate-authority"));
	ca_data = str_field(cl, "certificate-authority-data");
	c->ca_data_b64 = ca_data;
	if (load_data(a, d, cl, "certificate-authority-data",
		      arena_printf(a, "certificate-authority-data of cluster '%s'", en->name),
		      &c->ca_data, &c->ca_len) < 0)
		return -1;
	c->insecure = bool_field(cl, "insecure-skip-tls-verify");
	if (c->insecure && (c->ca_file || c->ca_data))
		return diag_report(d, en->at, KUBE_RULE, "cluster",
				   "cluster '%s' sets a certificate authority and "
				   "insecure-skip-tls-verify together: remove one "
				   "(kubectl refuses this too)",
				   en->name);
	{
		/* extensions[name=client.authentication.k8s.io/exec]: config
		 * handed to exec plugins that ask for the cluster info */
		const struct node *ext = node_map_get(cl, "extensions");

		for (size_t i = 0; ext && ext->kind == NODE_SEQ && i < ext->seq.count; i++) {
			const char *n = node_text(node_map_get(ext->seq.items[i], "name"));

			if (n && !strcmp(n, "client.authentication.k8s.io/exec"))
				c->exec_cluster_config =
					node_map_get(ext->seq.items[i], "extension");
		}
	}
	c->tls_server_name = str_field(cl, "tls-server-name");
	c->proxy_url = str_field(cl, "proxy-url");
	c->disable_compression = bool_field(cl, "disable-compression");
	return 0;
}

static int
load_user(struct kube_conf *c, struct arena *a, struct diags *d, const struct entry *en)
{
	const struct node *u = en->body;
	const struct node *ex;

	if (!u || u->kind != NODE_MAP) {
		c->info.auth = "none";
		return 0;
	}
	if (node_map_get(u, "auth-provider"))
		return diag_report(d, node_map_get(u, "auth-provider")->at, KUBE_RULE,
				   "user.auth-provider",
				   "user '%s' uses an auth-provider, which is not "
				   "supported (removed from kubectl in 1.26): use an "
				   "exec credential plugin",
				   en->name);
	if (no_ctl(d, u, "token", arena_printf(a, "the token of user '%s'", en->name)) < 0 ||
	    no_ctl(d, u, "tokenFile", arena_printf(a, "tokenFile of user '%s'", en->name)) < 0 ||
	    no_ctl(d, u, "username", arena_printf(a, "the username of user '%s'", en->name)) < 0 ||
	    no_ctl(d, u, "password", arena_printf(a, "the password of user '%s'", en->name)) < 0 ||
	    no_ctl(d, u, "as",
		   arena_printf(a,
				"the impersonated user (as) of "
				"user '%s'",
				en->name)) < 0 ||
	    no_ctl(d, u, "client-certificate",
		   arena_printf(a, "client-certificate of user '%s'", en->name)) < 0 ||
	    no_ctl(d, u, "client-key", arena_printf(a, "client-key of user '%s'", en->name)) < 0)
		return -1;
	c->cert_file = resolve_path(a, en->dir, str_field(u, "client-certificate"));
	c->key_file = resolve_path(a, en->dir, str_field(u, "client-key"));
	if (load_data(a, d, u, "client-certificate-data",
		      arena_printf(a, "client-certificate-data of user '%s'", en->name),
		      &c->cert_data, &c->cert_len) < 0 ||
	    load_data(a, d, u, "client-key-data",
		      arena_printf(a, "client-key-data of user '%s'", en->name), &c->key_data,
		      &c->key_len) < 0)
		return -1;
	if ((c->cert_file || c->cert_data) != (c->key_file || c->key_data))
		return diag_report(d, en->at, KUBE_RULE, "user",
				   "user '%s' has a client certificate without its key "
				   "or a key without its certificate: set both",
				   en->name);
	c->token = str_field(u, "token");
	c->token_file = resolve_path(a, en->dir, str_field(u, "tokenFile"));
	c->username = str_field(u, "username");
	c->password = str_field(u, "password");
	c->impersonate = str_field(u, "as");
	ex = node_map_get(u, "exec");
	if (ex && ex->kind == NODE_MAP && load_exec(c, a, d, ex, en->dir) < 0)
		return -1;
	if (c->exec)
		c->exec->cluster_config = c->exec_cluster_config;
	if (c->token)
		c->info.auth = "token";
	else if (c->token_file)
		c->info.auth = "token file";
	else if (c->exec)
		c->info.auth = arena_printf(a, "exec plugin '%s'", c->exec->command);
	else if (c->cert_file || c->cert_data)
		c->info.auth = "client certificate";
	else if (c->username)
		c->info.auth = "basic";
	else
		c->info.auth = "none";
	return 0;
}

/* The files of the configuration are read now, never by curl: without
 * blocking on a FIFO, so --timeout holds. */
int
kube_config_read_files(struct kube_conf *c, struct arena *a, struct diags *d)
{
	const char *cl = c->info.cluster ? c->info.cluster : "(in-cluster)";
	const char *us = c->info.user ? c->info.user : "(service account)";

	if (c->ca_file && !c->ca_data &&
	    read_pem(a, d, c->at, c->ca_file,
		     arena_printf(a, "certificate-authority of cluster '%s'", cl), &c->ca_data,
		     &c->ca_len) < 0)
		return KUBE_EFAIL;
	if (c->cert_file && !c->cert_data &&
	    read_pem(a, d, c->at, c->cert_file,
		     arena_printf(a, "client-certificate of user '%s'", us), &c->cert_data,
		     &c->cert_len) < 0)
		return KUBE_EFAIL;
	if (c->key_file && !c->key_data &&
	    read_pem(a, d, c->at, c->key_file, arena_printf(a, "client-key of user '%s'", us),
		     &c->key_data, &c->key_len) < 0)
		return KUBE_EFAIL;
	return 0;
}

static void
detect_eks(struct kube_conf *c, struct arena *a)
{
	const char *names[3] = { c->info.cluster, c->info.user, c->info.context };
	struct k8s_eks_arn arn;

	for (size_t i = 0; i < 3; i++)
		if (k8s_eks_arn_parse(a, names[i], &arn) == 0) {
			c->info.eks_cluster = arn.name;
			c->info.eks_region = arn.region;
			return;
		}
}

/* Read and merge the kubeconfig files in kubectl's order: --kubeconfig,
 * else each file of $KUBECONFIG (*list set to it), else ~/.kube/config.
 * Missing files of the last two are skipped; -1 when one cannot be read. */
static int
merge_sources(struct merged *m, struct arena *a, struct diags *d, const struct kube_options *opt,
	      const char *(*env)(const char *), const char **list)
{
	if (opt->kubeconfig) {
		if (merge_file(m, a, d, opt->kubeconfig, false) < 0)
			return -1;
	} else if ((*list = env("KUBECONFIG")) && **list) {
		const char *p = *list;
		const char *seen[64];
		size_t nseen = 0;

		while (*p) {
			size_t n = strcspn(p, ":");
			bool dup = false;

			if (n) {
				const char *f = arena_strndup(a, p, n);

				/* the same file twice is read once */
				for (size_t i = 0; i < nseen; i++)
					dup = dup || !strcmp(seen[i], f);
				if (!dup && nseen < 64)
					seen[nseen++] = f;
				if (!dup && merge_file(m, a, d, f, true) < 0)
					return -1;
			}
			p += n;
			if (*p == ':')
				p++;
		}
	} else {
		const char *home = env("HOME");

		if (home && *home &&
		    merge_file(m, a, d, arena_printf(a, "%s/.kube/config", home), true) < 0)
			return -1;
	}
	return 0;
}

int
kube_config_load(struct kube_conf *out, struct arena *a, struct diags *d,
		 const struct kube_options *opt)
{
	const char *(*env)(const char *) = opt->getenv ? opt->getenv : kube_std_getenv;
	struct merged m;
	const struct entry *ctx, *cl, *us;
	const char *name, *list = NULL;

	memset(out, 0, sizeof(*out));
	memset(&m, 0, sizeof(m));
	if (merge_sources(&m, a, d, opt, env, &list) < 0)
		return KUBE_EFAIL;
	if (m.nfiles == 0 || (m.contexts.count == 0 && !opt->context && !opt->kubeconfig)) {
		const char *host = env("KUBERNETES_SERVICE_HOST");
		const char *port = env("KUBERNETES_SERVICE_PORT");

		if (host && *host && port && *port && !opt->context)
			return kube_config_in_cluster(out, a, d, env) < 0 ? KUBE_EFAIL : 0;
		if (m.nfiles == 0) {
			diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
				    "no kubeconfig found (%s) and not running in a "
				    "cluster: pass --kubeconfig or set KUBECONFIG",
				    list && *list
					    ? arena_printf(a, "none of KUBECONFIG=%s exists", list)
					    : "~/.kube/config does not exist");
			return KUBE_EFAIL;
		}
	}
	out->info.origin = m.files;
	name = opt->context ? opt->context : m.current;
	if (!name && m.nempty == m.nfiles) {
		diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
			    "kubeconfig %s is empty: no current-context, cluster or "
			    "user; write one with 'aws eks update-kubeconfig' or pass "
			    "another --kubeconfig",
			    m.files);
		return KUBE_EFAIL;
	}
	if (!name) {
		diag_report(d, (struct pos)POS_NONE, KUBE_RULE, "",
			    "no context chosen: %s sets no current-context; pass "
			    "--context NAME or run 'kubectl config use-context NAME'",
			    m.files);
		return KUBE_EFAIL;
	}
	ctx = entries_find(&m.contexts, name);
	if (!ctx) {
		struct pos at = opt->context ? (struct pos)POS_NONE : m.current_at;

		diag_report(d, at, KUBE_RULE, "",
			    "context '%s' is not defined in %s; see 'kubectl config "
			    "get-contexts'",
			    name, m.files);
		return KUBE_EFAIL;
	}
	out->at = ctx->at;
	out->info.context = ctx->name;
	out->info.cluster = node_text(node_map_get(ctx->body, "cluster"));
	out->info.user = node_text(node_map_get(ctx->body, "user"));
	out->info.namespace = str_field(ctx->body, "namespace");
	if (!out->info.namespace)
		out->info.namespace = "default";
	if (!out->info.cluster || !(cl = entries_find(&m.clusters, out->info.cluster))) {
		diag_report(d, ctx->at, KUBE_RULE, "context.cluster",
			    "context '%s' names cluster '%s', which is not defined in %s", name,
			    out->info.cluster ? out->info.cluster : "", m.files);
		return KUBE_EFAIL;
	}
	if (load_cluster(out, a, d, cl) < 0)
		return KUBE_EFAIL;
	us = out->info.user ? entries_find(&m.users, out->info.user) : NULL;
	if (out->info.user && *out->info.user && !us) {
		diag_report(d, ctx->at, KUBE_RULE, "context.user",
			    "context '%s' names user '%s', which is not defined in %s", name,
			    out->info.user, m.files);
		return KUBE_EFAIL;
	}
	if (us) {
		if (load_user(out, a, d, us) < 0)
			return KUBE_EFAIL;
	} else {
		out->info.auth = "none";
	}
	detect_eks(out, a);
	return 0;
}
