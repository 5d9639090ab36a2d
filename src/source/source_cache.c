/*
 * source_cache.c - remote repositories: a bare clone per URL in
 * $XDG_CACHE_HOME/gpusite/repos (default ~/.cache/gpusite/repos), named
 * by the SHA-1 of the URL with its credentials removed, so no secret ever
 * reaches a path.  Nothing in the clone records the URL either: the
 * remote is anonymous and FETCH_HEAD is not written.
 *
 * Several runs may share the cache: everything that writes to a clone
 * (creating it, fetching, moving its HEAD) happens under flock() on
 * "<clone>.lock", which the kernel releases when a run dies, so a killed
 * run never leaves a stale lock.  Readers need no lock: Git objects never
 * change and refs are replaced atomically.
 *
 * Network only when needed: a revision that is a commit id (full or
 * short, alone or with ~N / ^N) the clone already holds is read without
 * contacting the server; a branch or tag is fetched (it may have moved),
 * once per run.  HTTPS certificates are verified (libgit2's default; the
 * trust anchors may be given with GIT_SSL_CAINFO or SSL_CERT_FILE /
 * SSL_CERT_DIR), SSH host keys are checked against known_hosts.
 * Credentials: a token from GPUSITE_GIT_TOKEN (else GIT_TOKEN) sent as
 * basic auth (x-access-token:<token>) over HTTPS only; the SSH agent for
 * ssh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <git2.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/secret.h"
#include "source/source.h"
#include "source/source_int.h"

#define KNOWN_HOSTS_MAX (1u << 20) /* ssh-keygen -F output we read */
#define FETCHED_MAX 16             /* clones fetched in this run */

const char *
source_url_scrub(struct arena *a, const char *url)
{
	const char *scheme = strstr(url, "://");
	const char *host, *end, *at = NULL;

	size_t keep;

	if (!scheme)
		return arena_strdup(a, url); /* scp-like user@host: no secret */
	host = scheme + 3;
	end = host + strcspn(host, "/?#");
	/* the last '@' of the authority: a password may hold one unencoded */
	for (const char *c = host; c < end; c++)
		if (*c == '@')
			at = c;
	/* a query or a fragment may carry a token (?access_token=...): cut */
	keep = strcspn(end, "?#");
	return arena_printf(a, "%.*s%.*s%s", (int)(host - url), url,
			    (int)(end - (at ? at + 1 : host) + keep), at ? at + 1 : host,
			    end[keep] ? "?" SECRET_REDACTED : "");
}

bool
source__is_url(const char *repo)
{
	const char *colon = strchr(repo, ':'), *slash = strchr(repo, '/');

	if (strstr(repo, "://"))
		return true;
	/* git's rule: "host:path" is ssh when the colon comes before any '/' */
	return colon && colon != repo && (!slash || colon < slash);
}

char *
source__base64(struct arena *a, const unsigned char *data, size_t len)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = arena_alloc(a, (len + 2) / 3 * 4 + 1), *q = out;

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)data[i] << 16;

		if (i + 1 < len)
			v |= (unsigned)data[i + 1] << 8;
		if (i + 2 < len)
			v |= data[i + 2];
		*q++ = tab[(v >> 18) & 63];
		*q++ = tab[(v >> 12) & 63];
		*q++ = i + 1 < len ? tab[(v >> 6) & 63] : '=';
		*q++ = i + 2 < len ? tab[v & 63] : '=';
	}
	*q = '\0';
	return out;
}

/* Run `ssh-keygen -F name -f file`; its stdout into out (cap). -1 when
 * it could not be run, else its exit status. */
static int
keygen_find(struct arena *a, char **out, const char *name, const char *file)
{
	int fds[2], status;
	pid_t pid;
	size_t len = 0, cap = 4096;
	char *buf;
	ssize_t n;

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fds[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		close(fds[0]);
		close(fds[1]);
		execlp("ssh-keygen", "ssh-keygen", "-F", name, "-f", file, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	buf = arena_alloc(a, cap + 1);
	while ((n = read(fds[0], buf + len, cap - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)n;
		if (len == cap) {
			if (cap >= KNOWN_HOSTS_MAX)
				break;
			buf = arena_realloc(a, buf, cap + 1, cap * 2 + 1);
			cap *= 2;
		}
	}
	close(fds[0]);
	buf[len] = '\0';
	*out = buf;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1;
	return WEXITSTATUS(status);
}

/* One known_hosts file: 1 the key is listed for name, 0 not, -1 error. */
static int
known_in(struct arena *a, const char *file, const char *name, const char *key64)
{
	char *text, *save = NULL, *line;
	int rc, found = 0;

	if (access(file, R_OK) < 0)
		return 0;
	rc = keygen_find(a, &text, name, file);
	if (rc < 0)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4] = { NULL, NULL, NULL, NULL }, *s2 = NULL;
		int nf = 0;

		if (line[0] == '#')
			continue;
		for (char *t = strtok_r(line, " \t", &s2); t && nf < 4;
		     t = strtok_r(NULL, " \t", &s2))
			f[nf++] = t;
		if (f[0] && !strcmp(f[0], "@revoked")) {
			if (f[3] && !strcmp(f[3], key64))
				return 0; /* revoked wins over any listing */
			continue;
		}
		if (f[0] && f[0][0] == '@')
			continue; /* @cert-authority: certificates are not used */
		if (f[2] && !strcmp(f[2], key64))
			found = 1;
	}
	return found;
}

int
source__known_host(const char *file, const char *host, int port, const unsigned char *key,
		   size_t len)
{
	struct arena a = ARENA_INIT;
	const char *home = getenv("HOME");
	const char *name;
	char *key64;
	int rc = 0;

	arena_init(&a);
	key64 = source__base64(&a, key, len);
	name = port > 0 && port != 22 ? arena_printf(&a, "[%s]:%d", host, port)
				      : arena_strdup(&a, host);
	if (file) {
		rc = known_in(&a, file, name, key64);
	} else {
		if (home && *home)
			rc = known_in(&a, arena_printf(&a, "%s/.ssh/known_hosts", home), name,
				      key64);
		if (rc == 0)
			rc = known_in(&a, "/etc/ssh/ssh_known_hosts", name, key64);
	}
	arena_release(&a);
	return rc;
}

/* ---- callbacks of a fetch ---- */

static const char *
token_env(const char **name)
{
	const char *t = getenv("GPUSITE_GIT_TOKEN");

	*name = "GPUSITE_GIT_TOKEN";
	if (t && *t)
		return t;
	t = getenv("GIT_TOKEN");
	*name = "GIT_TOKEN";
	return t && *t ? t : NULL;
}

/* Refuse with a message of our own, never naming the secret. */
static int
refuse(int klass, const char *msg)
{
	git_error_set_str(klass, msg);
	return GIT_EAUTH;
}

static int
cred_cb(git_credential **out, const char *url, const char *username, unsigned int allowed,
	void *payload)
{
	struct source_remote *st = payload;
	const char *user = username && *username ? username : NULL;
	const char *env, *token;

	if (allowed & GIT_CREDENTIAL_USERNAME) {
		if (st->tried & GIT_CREDENTIAL_USERNAME)
			return refuse(GIT_ERROR_SSH, "the server refused the user name");
		st->tried |= GIT_CREDENTIAL_USERNAME;
		return git_credential_username_new(out, user ? user : "git");
	}
	if (allowed & GIT_CREDENTIAL_SSH_KEY) {
		if (st->tried & GIT_CREDENTIAL_SSH_KEY)
			return refuse(GIT_ERROR_SSH, "the server accepted no key of the SSH"
						     " agent (SSH_AUTH_SOCK)");
		st->tried |= GIT_CREDENTIAL_SSH_KEY;
		return git_credential_ssh_key_from_agent(out, user ? user : "git");
	}
	if (allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT) {
		token = token_env(&env);
		if (strncasecmp(url, "https://", 8))
			return refuse(GIT_ERROR_HTTP,
				      "the server asks for credentials over"
				      " plain http; a token is only ever sent over https");
		if (!token)
			return refuse(GIT_ERROR_HTTP,
				      "the server asks for credentials: put"
				      " an access token in GPUSITE_GIT_TOKEN (or GIT_TOKEN)");
		if (st->tried & GIT_CREDENTIAL_USERPASS_PLAINTEXT)
			return refuse(GIT_ERROR_HTTP,
				      strcmp(env, "GIT_TOKEN")
					      ? "the server rejected the token in GPUSITE_GIT_TOKEN"
					      : "the server rejected the token in GIT_TOKEN");
		st->tried |= GIT_CREDENTIAL_USERPASS_PLAINTEXT;
		return git_credential_userpass_plaintext_new(out, user ? user : "x-access-token",
							     token);
	}
	return GIT_PASSTHROUGH;
}

static int
cert_cb(git_cert *cert, int valid, const char *host, void *payload)
{
	struct source_remote *st = payload;
	const git_cert_hostkey *hk;
	int known;

	if (cert->cert_type != GIT_CERT_HOSTKEY_LIBSSH2) {
		/* X.509: libgit2 has verified the chain and the host name.  Decide
		 * here rather than pass through: how a pass-through is spelled
		 * differs between libgit2 versions, and a wrong guess accepts. */
		if (valid)
			return 0;
		git_error_set_str(GIT_ERROR_SSL, "the server's TLS certificate is not"
						 " trusted or not for this host; trust its CA with"
						 " GIT_SSL_CAINFO or SSL_CERT_FILE if it is yours");
		return GIT_ECERTIFICATE;
	}
	hk = (const git_cert_hostkey *)cert;
	if (!(hk->type & GIT_CERT_SSH_RAW)) {
		git_error_set_str(GIT_ERROR_SSH, "cannot check the SSH host key");
		return GIT_ECERTIFICATE;
	}
	known = source__known_host(NULL, host, st->port, (const unsigned char *)hk->hostkey,
				   hk->hostkey_len);
	if (known == 1)
		return 0;
	git_error_set_str(
		GIT_ERROR_SSH,
		known < 0 ? "cannot check the SSH host key: ssh-keygen could not be run"
			  : "the SSH host key is not in ~/.ssh/known_hosts or differs from the"
			    " one recorded there; connect once with ssh to check and record it");
	return GIT_ECERTIFICATE;
}

/* The port of an ssh://host:port/ URL; 22 otherwise. */
static int
ssh_port(const char *url)
{
	const char *host = strstr(url, "://"), *end, *colon;

	if (!host || strncmp(url, "ssh", 3))
		return 22;
	host += 3;
	end = host + strcspn(host, "/");
	if (memchr(host, '@', (size_t)(end - host)))
		host = (const char *)memchr(host, '@', (size_t)(end - host)) + 1;
	colon = memchr(host, ':', (size_t)(end - host));
	return colon ? (int)strtol(colon + 1, NULL, 10) : 22;
}

/* Trust anchors for HTTPS from the environment (never fewer checks). */
static void
set_ca_locations(void)
{
	const char *file = getenv("GIT_SSL_CAINFO");
	const char *dir = getenv("SSL_CERT_DIR");

	if (!file || !*file)
		file = getenv("SSL_CERT_FILE");
	if ((file && *file) || (dir && *dir))
		git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file && *file ? file : NULL,
				 dir && *dir ? dir : NULL);
}

void
source__remote_callbacks(git_remote_callbacks *cb, struct source_remote *st, const char *url)
{
	set_ca_locations();
	st->port = ssh_port(url);
	st->tried = 0;
	cb->credentials = cred_cb;
	cb->certificate_check = cert_cb;
	cb->payload = st;
}

static int
fetch_all(git_repository *repo, const char *url)
{
	git_remote *remote = NULL;
	git_fetch_options fo;
	struct source_remote st;
	static char heads[] = "+refs/heads/*:refs/heads/*";
	static char tags[] = "+refs/tags/*:refs/tags/*";
	static char head[] = "+HEAD:refs/gpusite/HEAD"; /* the default branch */
	char *refspecs[] = { heads, tags, head };
	git_strarray specs = { refspecs, 3 };
	git_reference *ref = NULL;
	int error;

	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	source__remote_callbacks(&fo.callbacks, &st, url);
	fo.prune = GIT_FETCH_PRUNE;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
	fo.update_fetchhead = 0;             /* FETCH_HEAD would record the URL */
	fo.proxy_opts.type = GIT_PROXY_AUTO; /* http.proxy, https_proxy, as git */
	error = git_remote_create_anonymous(&remote, repo, url);
	if (!error)
		error = git_remote_fetch(remote, &specs, &fo, "gpusite: fetch");
	git_remote_free(remote);
	if (error < 0)
		return error;
	/* HEAD of the clone = the remote's HEAD, so HEAD~1 means what it says */
	if (git_reference_lookup(&ref, repo, "refs/gpusite/HEAD") == 0) {
		error = git_repository_set_head_detached(repo, git_reference_target(ref));
		git_reference_free(ref);
	} else {
		git_error_clear();
	}
	return error;
}

/* Whether rev is (or starts from) a commit id the clone already has. */
static bool
cached_commit(git_repository *repo, const char *rev)
{
	size_t hex = strspn(rev, "0123456789abcdefABCDEF");
	git_object *obj = NULL;
	char id[GIT_OID_HEXSZ + 1], want[GIT_OID_HEXSZ + 1];
	bool ok;

	if (hex < 4 || hex > GIT_OID_HEXSZ || (rev[hex] && rev[hex] != '~' && rev[hex] != '^'))
		return false;
	memcpy(want, rev, hex);
	want[hex] = '\0';
	if (git_revparse_single(&obj, repo, want) < 0) {
		git_error_clear();
		return false;
	}
	/* a branch may look like hex: only an object id counts */
	git_oid_tostr(id, sizeof(id), git_object_id(obj));
	ok = git_object_type(obj) == GIT_OBJECT_COMMIT && !strncasecmp(id, want, hex);
	git_object_free(obj);
	if (ok && rev[hex]) {
		ok = git_revparse_single(&obj, repo, rev) == 0;
		git_object_free(obj);
		git_error_clear();
	}
	return ok;
}

static const char *
cache_root(struct arena *a)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	/* the XDG spec: a relative XDG_CACHE_HOME is invalid and ignored */
	if (xdg && xdg[0] == '/')
		return arena_printf(a, "%s/gpusite/repos", xdg);
	if (home && home[0])
		return arena_printf(a, "%s/.cache/gpusite/repos", home);
	return NULL;
}

static int
mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static int
lock_cache(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* Clones fetched by this run, by cache key: one fetch per run is enough. */
static char fetched[FETCHED_MAX][GIT_OID_HEXSZ + 1];
static size_t nfetched;

void
source_cache_expire(void)
{
	nfetched = 0;
}

static bool
fetched_already(const char *key)
{
	for (size_t i = 0; i < nfetched; i++)
		if (!strcmp(fetched[i], key))
			return true;
	return false;
}

/* Whether the query of `url` carries a credential (token=, access_token=,
 * password=, ...): a parameter whose name says so (base/secret.h). */
static bool
token_in_query(const char *url)
{
	const char *q = strchr(url, '?');

	for (const char *p = q; p && *p && *p != '#'; p++)
		if (*p == '?' || *p == '&') {
			size_t n = strcspn(p + 1, "=&#");

			if (p[1 + n] == '=' && secret_name_is_credential(p + 1, n))
				return true;
		}
	return false;
}

/* The transports a --repo URL may name.  git's "<helper>::<address>"
 * (ext::, fd::) runs commands; libgit2 would take "ext::..." for scp-like
 * ssh to a host "ext" and look that host up: refuse it by name instead. */
static const char *const url_schemes[] = { "https", "http",    "ssh",    "git",
					   "file",  "git+ssh", "ssh+git" };

const char *
source__url_refusal(struct arena *a, const char *url)
{
	const char *sep = strstr(url, "://");
	const char *colon = strchr(url, ':');

	for (const unsigned char *c = (const unsigned char *)url; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return "it holds a control character";
	if (url[0] == '-')
		return "it starts with '-'";
	if (!sep) {
		if (colon && colon[1] == ':')
			return arena_printf(a,
					    "git's transport helpers ('%.*s::') are not"
					    " supported: use https://, ssh:// or a path",
					    (int)(colon - url), url);
		return NULL;
	}
	if (!strncasecmp(url, "http://", 7) &&
	    (memchr(url + 7, '@', strcspn(url + 7, "/?#")) || token_in_query(url)))
		return "credentials are never sent over plain http (they would cross the"
		       " network in clear text): use https://";
	for (size_t i = 0; i < sizeof(url_schemes) / sizeof(url_schemes[0]); i++)
		if ((size_t)(sep - url) == strlen(url_schemes[i]) &&
		    !strncmp(url, url_schemes[i], (size_t)(sep - url)))
			return NULL;
	return arena_printf(a,
			    "the transport '%.*s' is not supported: use https://,"
			    " http://, ssh://, git://, file:// or a path",
			    (int)(sep - url), url);
}

/*
 * What `want` names when the branches and tags do not hold it: a full
 * commit id (a pull request's head, reachable only from refs/pull/N/head
 * on a server that allows fetching reachable commits, as GitHub and
 * GitLab do) or a ref outside heads and tags ("refs/pull/7/head"),
 * fetched by itself.  A server that has no such commit, or allows no
 * want of it, ends the fetch: the branches were fetched, and "not found"
 * then says it better than the transport's error.
 */
static void
fetch_wanted(git_repository *repo, const char *url, const char *want)
{
	git_object *obj = NULL;
	git_remote *remote = NULL;
	git_fetch_options fo;
	struct source_remote st;
	char spec[512];
	char *refspecs[] = { spec };
	git_strarray specs = { refspecs, 1 };
	size_t hex;

	if (!want || git_revparse_single(&obj, repo, want) == 0) {
		git_object_free(obj);
		return;
	}
	git_error_clear();
	hex = strspn(want, "0123456789abcdef");
	if (!(hex == GIT_OID_HEXSZ && !want[hex]) &&
	    !(!strncmp(want, "refs/", 5) && strncmp(want, "refs/heads/", 11) &&
	      strncmp(want, "refs/tags/", 10) && !strpbrk(want, "*:^~ ")))
		return; /* not fetchable by itself */
	if ((size_t)snprintf(spec, sizeof(spec), "+%s:%s", want,
			     hex == GIT_OID_HEXSZ ? "refs/gpusite/want" : want) >= sizeof(spec))
		return;
	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	source__remote_callbacks(&fo.callbacks, &st, url);
	fo.update_fetchhead = 0;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	fo.proxy_opts.type = GIT_PROXY_AUTO;
	if (git_remote_create_anonymous(&remote, repo, url) == 0)
		git_remote_fetch(remote, &specs, &fo, "gpusite: fetch");
	git_remote_free(remote);
	git_error_clear();
}

static int open_cached(git_repository **out, struct arena *a, struct diags *d, const char *url,
		       const char *shown, const char *rev, const char *want);

int
source__open_cached(git_repository **out, struct arena *a, struct diags *d, const char *url,
		    const char *shown, const char *rev)
{
	return open_cached(out, a, d, url, shown, rev, NULL);
}

int
source__open_cached_want(git_repository **out, struct arena *a, struct diags *d, const char *url,
			 const char *shown, const char *want)
{
	return open_cached(out, a, d, url, shown, "HEAD", want);
}

static int
open_cached(git_repository **out, struct arena *a, struct diags *d, const char *url,
	    const char *shown, const char *rev, const char *want)
{
	const char *root = cache_root(a);
	git_oid key;
	char hex[GIT_OID_HEXSZ + 1];
	char *dir;
	int lock, error;

	const char *refused = source__url_refusal(a, url);

	*out = NULL;
	if (refused)
		return source__fail(d, SOURCE_EFAIL, "cannot fetch %s: %s", shown, refused);
	if (!root)
		return source__fail(d, SOURCE_EFAIL,
				    "no cache directory for %s: set"
				    " XDG_CACHE_HOME or HOME",
				    shown);
	/* the key: the URL as shown (credentials removed), never the secret */
	git_odb_hash(&key, shown, strlen(shown), GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &key);
	dir = arena_printf(a, "%s/%s.git", root, hex);
	if (mkdir_p(arena_strdup(a, root)) < 0)
		return source__fail(d, SOURCE_EFAIL, "cannot create the cache '%s': %s", root,
				    strerror(errno));
	lock = lock_cache(arena_printf(a, "%s.lock", dir));
	if (lock < 0)
		return source__fail(d, SOURCE_EFAIL,
				    "cannot lock the cache '%s.lock':"
				    " %s",
				    dir, strerror(errno));
	if (git_repository_open_bare(out, dir) < 0) {
		git_error_clear();
		if (git_repository_init(out, dir, 1) < 0) {
			close(lock);
			return source__fail(d, SOURCE_EFAIL,
					    "cannot create the cache"
					    " repository '%s': %s",
					    dir, source__git_message(a));
		}
	} else if (fetched_already(hex) || cached_commit(*out, rev)) {
		close(lock);
		return SOURCE_OK; /* already here: no network */
	}
	error = fetch_all(*out, url);
	if (error >= 0)
		fetch_wanted(*out, url, want);
	close(lock);
	if (error < 0) {
		source__fail(d, SOURCE_EFAIL, "cannot fetch %s: %s", shown, source__git_message(a));
		git_repository_free(*out);
		*out = NULL;
		return SOURCE_EFAIL;
	}
	if (nfetched < FETCHED_MAX)
		memcpy(fetched[nfetched++], hex, sizeof(hex));
	return SOURCE_OK;
}
