/*
 * kube_exec.c - exec credential plugins (client.authentication.k8s.io v1
 * and v1beta1), as client-go runs them: KUBERNETES_EXEC_INFO always set
 * with the kubeconfig's apiVersion, the plugin's env added to ours, stdin
 * handed over only when interactive, stdout read (capped) and decoded as
 * an ExecCredential of the same apiVersion.  Nothing the plugin prints on
 * stdout ever reaches a message.
 *
 * Its standard error is for the user, as kubectl passes it through ("Unable
 * to locate credentials"), but not raw: it is read through a pipe, the
 * first EXEC_MAX_STDERR bytes are shown line by line, each prefixed
 * "gpusite: exec plugin 'NAME': ", with control characters, C1 controls,
 * bidirectional formatting characters and invalid UTF-8 escaped, so a
 * hostile plugin cannot drive the terminal; the rest is counted and
 * dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "json/json.h"
#include "k8s/k8s_time.h"
#include "kube/kube_int.h"
#include "node/node.h"

#define EXEC_MAX_OUTPUT (1u << 20)
#define EXEC_MAX_STDERR 4096  /* shown; the rest is counted */
#define EXEC_STDERR_GRACE 0.2 /* seconds after stdout ends */

double
kube_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
wipe_free(char *s)
{
	if (s) {
		volatile char *p = s;

		while (*p)
			*p++ = 0;
		free(s);
	}
}

void
kube_cred_release(struct kube_cred *c)
{
	wipe_free(c->token);
	wipe_free(c->cert);
	wipe_free(c->key);
	memset(c, 0, sizeof(*c));
}

/* KUBERNETES_EXEC_INFO: {"apiVersion","kind","spec":{"interactive",
 * "cluster"?}} */
static char *
exec_info(struct arena *a, const struct kube_conf *c, bool interactive)
{
	struct node *root = node_new_map(a, (struct pos)POS_NONE);
	struct node *spec = node_new_map(a, (struct pos)POS_NONE);
	struct buf b;
	char *res;

	node_map_add_str(a, root, "apiVersion", c->exec->api_version);
	node_map_add_str(a, root, "kind", "ExecCredential");
	node_map_add(a, root, "spec", spec);
	if (c->exec->provide_cluster_info) {
		struct node *cl = node_new_map(a, (struct pos)POS_NONE);

		node_map_add_str(a, cl, "server", c->info.server);
		if (c->tls_server_name)
			node_map_add_str(a, cl, "tls-server-name", c->tls_server_name);
		if (c->insecure)
			node_map_add_bool(a, cl, "insecure-skip-tls-verify", true);
		if (c->ca_data_b64)
			node_map_add_str(a, cl, "certificate-authority-data", c->ca_data_b64);
		if (c->proxy_url)
			node_map_add_str(a, cl, "proxy-url", c->proxy_url);
		if (c->disable_compression)
			node_map_add_bool(a, cl, "disable-compression", true);
		if (c->exec->cluster_config)
			node_map_add(a, cl, "config", node_clone(a, c->exec->cluster_config));
		node_map_add(a, spec, "cluster", cl);
	}
	node_map_add_bool(a, spec, "interactive", interactive);
	buf_init(&b, 0);
	if (json_write(&b, root, 0) < 0) {
		buf_release(&b);
		return NULL;
	}
	res = arena_strdup(a, b.data);
	buf_release(&b);
	return res;
}

static const char *
base_name(const char *cmd)
{
	const char *s = strrchr(cmd, '/');

	return s ? s + 1 : cmd;
}

static int
exec_fail(struct diags *d, const struct kube_conf *c, const char *fmt, const char *detail)
{
	const char *hint = c->exec->install_hint;

	return diag_report(d, c->at, KUBE_RULE, "user.exec",
			   "exec credential plugin '%s' of user '%s' %s%s%s", c->exec->command,
			   c->info.user ? c->info.user : "", detail ? detail : fmt,
			   hint ? ": " : "", hint ? hint : "");
}

/* The plugin's standard error as it is collected. */
struct errout {
	char data[EXEC_MAX_STDERR];
	size_t len;
	size_t dropped; /* bytes past the cap */
};

static void
errout_add(struct errout *e, const char *p, size_t n)
{
	size_t room = sizeof(e->data) - e->len;
	size_t k = n < room ? n : room;

	memcpy(e->data + e->len, p, k);
	e->len += k;
	e->dropped += n - k;
}

/* Read stdout of the child until EOF or the deadline, and its stderr
 * (capped) alongside, so that neither pipe ever fills up. */
static int
read_child(struct buf *out, int fd, int efd, struct errout *eo, double deadline, bool *timed_out)
{
	char chunk[8192];
	bool out_open = true, err_open = efd >= 0;
	double grace = 0;

	while (out_open || err_open) {
		struct pollfd p[2] = { { out_open ? fd : -1, POLLIN, 0 },
				       { err_open ? efd : -1, POLLIN, 0 } };
		double left = deadline - kube_now();
		int rc;

		if (!out_open) {
			/* stdout is done: stderr gets a moment, not the
			 * whole deadline (a child may keep it open) */
			if (grace == 0)
				grace = kube_now() + EXEC_STDERR_GRACE;
			left = grace - kube_now();
			if (left <= 0)
				break;
		} else if (left <= 0) {
			*timed_out = true;
			return -1;
		}
		rc = poll(p, 2, (int)(left * 1000) + 1);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(p[i].fd, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				if (i == 0)
					out_open = false;
				else
					err_open = false;
				continue;
			}
			if (i == 1) {
				errout_add(eo, chunk, (size_t)n);
				continue;
			}
			if (buf_add(out, chunk, (size_t)n) < 0) {
				memset(chunk, 0, sizeof(chunk));
				return BUF_ETOOBIG;
			}
		}
	}
	memset(chunk, 0, sizeof(chunk));
	return 0;
}

/* U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069 (reorder the
 * text around them), U+2028, U+2029 (line breaks), C1 controls. */
static bool
unsafe_seq(const unsigned char *s, size_t n)
{
	if (n == 2)
		return (s[0] == 0xc2 && s[1] < 0xa0) || (s[0] == 0xd8 && s[1] == 0x9c);
	if (n == 3 && s[0] == 0xe2 && s[1] == 0x80)
		return s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xa8 && s[2] <= 0xae);
	if (n == 3 && s[0] == 0xe2 && s[1] == 0x81)
		return s[2] >= 0xa6 && s[2] <= 0xa9;
	return false;
}

/* Show the plugin's standard error: one escaped, prefixed line each. */
static void
show_stderr(FILE *log, const char *cmd, const struct errout *eo)
{
	const unsigned char *s = (const unsigned char *)eo->data;
	size_t i = 0, n = eo->len;
	bool bol = true;

	if (!log)
		log = stderr;
	while (i < n) {
		size_t k;

		if (bol) {
			fprintf(log, "gpusite: exec plugin '%s': ", cmd);
			bol = false;
		}
		if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n') {
			i++; /* CR LF line ends */
			continue;
		}
		if (s[i] == '\n') {
			fputc('\n', log);
			bol = true;
			i++;
			continue;
		}
		k = s[i] ? utf8_seq_len((const char *)s + i, n - i) : 0;
		if (k == 0 || (k == 1 && (s[i] < 0x20 || s[i] == 0x7f) && s[i] != '\t')) {
			fprintf(log, "\\x%02x", s[i]);
			i++;
		} else if (unsafe_seq(s + i, k)) {
			for (size_t j = 0; j < k; j++)
				fprintf(log, "\\x%02x", s[i + j]);
			i += k;
		} else {
			fwrite(s + i, 1, k, log);
			i += k;
		}
	}
	if (!bol)
		fputc('\n', log);
	if (eo->dropped)
		fprintf(log,
			"gpusite: exec plugin '%s': ... %zu more bytes of "
			"standard error not shown\n",
			cmd, eo->dropped);
	fflush(log);
}

/* In the child: standard error and output into the pipes, standard
 * input from /dev/null unless interactive, KUBERNETES_EXEC_INFO and the
 * kubeconfig's env set, then the plugin; its errno goes back through
 * errp when it cannot be run. */
static _Noreturn void
exec_child(const struct kube_exec_conf *e, char **argv, const char *info, bool interactive,
	   const int outp[2], const int errp[2], const int serr[2])
{
	int err;

	close(outp[0]);
	close(errp[0]);
	close(serr[0]);
	dup2(serr[1], 2);
	close(serr[1]);
	if (!interactive) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul >= 0) {
			dup2(nul, 0);
			close(nul);
		}
	}
	dup2(outp[1], 1);
	close(outp[1]);
	setenv("KUBERNETES_EXEC_INFO", info, 1);
	for (size_t i = 0; i < e->nenv; i++)
		setenv(e->env_names[i], e->env_values[i], 1);
	execvp(e->command, argv);
	err = errno;
	if (write(errp[1], &err, sizeof(err)) < 0)
		_exit(126);
	_exit(127);
}

/* The plugin's answer b: an ExecCredential of the kubeconfig's
 * apiVersion with a token or a client certificate and key, copied into
 * out; KUBE_EFAIL with a diagnostic (never quoting the output) if not. */
static int
exec_parse_credential(struct kube_cred *out, struct arena *a, struct diags *d,
		      const struct kube_conf *c, const struct buf *b)
{
	const struct kube_exec_conf *e = c->exec;
	const struct node *root, *st;
	const char *s;
	int64_t expires = 0;

	{
		struct diags quiet;

		/* the parse error would quote the plugin's output: keep it out */
		diags_init(&quiet, a);
		root = json_parse(a, &quiet, KUBE_RULE, base_name(e->command), b->data, b->len);
	}
	if (!root || root->kind != NODE_MAP) {
		exec_fail(d, c,
			  "did not print an ExecCredential in JSON (with "
			  "'aws', check that the AWS CLI output format is json)",
			  NULL);
		return KUBE_EFAIL;
	}
	s = node_str(node_map_get(root, "apiVersion"));
	if (!s || strcmp(s, e->api_version)) {
		exec_fail(d, c, NULL,
			  arena_printf(a,
				       "answered with apiVersion '%s' but the kubeconfig asks "
				       "for '%s'",
				       s ? s : "", e->api_version));
		return KUBE_EFAIL;
	}
	s = node_str(node_map_get(root, "kind"));
	if (!s || strcmp(s, "ExecCredential")) {
		exec_fail(
			d, c, NULL,
			arena_printf(a, "answered with kind '%s', not ExecCredential", s ? s : ""));
		return KUBE_EFAIL;
	}
	st = node_map_get(root, "status");
	if (!st || st->kind != NODE_MAP) {
		exec_fail(d, c, "answered without a status", NULL);
		return KUBE_EFAIL;
	}
	{
		const char *tok = node_str(node_map_get(st, "token"));
		const char *cert = node_str(node_map_get(st, "clientCertificateData"));
		const char *key = node_str(node_map_get(st, "clientKeyData"));
		const char *exp = node_str(node_map_get(st, "expirationTimestamp"));

		if ((cert != NULL) != (key != NULL)) {
			exec_fail(d, c,
				  "answered with a client certificate "
				  "without its key, or a key without its certificate",
				  NULL);
			return KUBE_EFAIL;
		}
		if (tok &&
		    (kube_has_ctl(tok) || strlen(tok) != node_map_get(st, "token")->scalar.len)) {
			exec_fail(d, c,
				  "answered with a status.token that holds a "
				  "control character (CR, LF or another): refusing "
				  "to send it in an HTTP header",
				  NULL);
			return KUBE_EFAIL;
		}
		if (!(tok && *tok) && !cert) {
			exec_fail(d, c,
				  "answered with neither a token nor a "
				  "client certificate",
				  NULL);
			return KUBE_EFAIL;
		}
		if (exp && k8s_time_parse(&expires, exp) < 0) {
			exec_fail(d, c, NULL,
				  arena_printf(a,
					       "answered with a malformed expirationTimestamp '%s'",
					       exp));
			return KUBE_EFAIL;
		}
		if (exp)
			out->expires = (time_t)expires;
		out->token = tok && *tok ? xstrdup(tok) : NULL;
		out->cert = cert ? xstrdup(cert) : NULL;
		out->key = key ? xstrdup(key) : NULL;
	}
	return 0;
}

/* Reap the plugin after read_child() returned rr: killed when it timed
 * out, printed too much or could not be read; KUBE_EFAIL with a
 * diagnostic unless it exited 0. */
static int
exec_wait(struct diags *d, const struct kube_conf *c, struct arena *a, pid_t pid, int rr,
	  bool timed_out)
{
	int status = 0;

	if (timed_out) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		exec_fail(d, c, "did not answer within the --timeout", NULL);
		return KUBE_EFAIL;
	}
	if (rr == BUF_ETOOBIG) {
		/* it may go on printing, or ignore SIGPIPE: never wait for it */
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		exec_fail(d, c, "printed more than 1 MiB; refusing it", NULL);
		return KUBE_EFAIL;
	}
	if (rr < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		exec_fail(d, c, NULL, arena_printf(a, "could not be read: %s", strerror(errno)));
		return KUBE_EFAIL;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		exec_fail(d, c, NULL, arena_printf(a, "was killed by signal %d", WTERMSIG(status)));
		return KUBE_EFAIL;
	}
	if (WEXITSTATUS(status) != 0) {
		exec_fail(d, c, NULL,
			  arena_printf(a, "failed with exit code %d", WEXITSTATUS(status)));
		return KUBE_EFAIL;
	}
	return 0;
}

int
kube_exec_run(struct kube_cred *out, struct arena *a, struct diags *d, const struct kube_conf *c,
	      double deadline, const char *(*get_env)(const char *))
{
	const struct kube_exec_conf *e = c->exec;
	bool interactive = false, timed_out = false;
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, serr[2] = { -1, -1 };
	struct errout *eo;
	struct buf b;
	char *info, **argv;
	pid_t pid;
	int status = 0, child_errno = 0, rc = KUBE_EFAIL, rr;

	(void)get_env;
	memset(out, 0, sizeof(*out));
	if (strcmp(e->interactive_mode, "Never"))
		interactive = isatty(0) == 1;
	if (!strcmp(e->interactive_mode, "Always") && !interactive)
		return exec_fail(d, c,
				 "needs an interactive terminal "
				 "(interactiveMode: Always) but standard input is "
				 "not one",
				 NULL);
	info = exec_info(a, c, interactive);
	if (!info)
		return exec_fail(d, c, "could not be given KUBERNETES_EXEC_INFO", NULL);
	argv = arena_alloc(a, (e->nargs + 2) * sizeof(*argv));
	argv[0] = (char *)e->command;
	for (size_t i = 0; i < e->nargs; i++)
		argv[i + 1] = (char *)e->args[i];
	eo = arena_alloc(a, sizeof(*eo));
	if (pipe(outp) < 0 || pipe(errp) < 0 || pipe(serr) < 0) {
		int saved = errno;

		for (int i = 0; i < 2; i++) {
			if (outp[i] >= 0)
				close(outp[i]);
			if (errp[i] >= 0)
				close(errp[i]);
		}
		return exec_fail(d, c, NULL,
				 arena_printf(a, "could not be started: %s", strerror(saved)));
	}
	fcntl(errp[1], F_SETFD, FD_CLOEXEC);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int saved = errno;

		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		close(serr[0]);
		close(serr[1]);
		return exec_fail(d, c, NULL,
				 arena_printf(a, "could not be started: %s", strerror(saved)));
	}
	if (pid == 0)
		exec_child(e, argv, info, interactive, outp, errp, serr);
	close(outp[1]);
	close(errp[1]);
	close(serr[1]);
	rr = (int)read(errp[0], &child_errno, sizeof(child_errno));
	close(errp[0]);
	buf_init(&b, EXEC_MAX_OUTPUT);
	if (rr == (int)sizeof(child_errno)) {
		close(outp[0]);
		close(serr[0]);
		waitpid(pid, &status, 0);
		if (child_errno == ENOENT)
			exec_fail(d, c, NULL,
				  arena_printf(a,
					       "cannot be run: executable '%s' not found on PATH",
					       e->command));
		else
			exec_fail(d, c, NULL,
				  arena_printf(a, "cannot be run: %s", strerror(child_errno)));
		goto out;
	}
	rr = read_child(&b, outp[0], serr[0], eo, deadline, &timed_out);
	close(outp[0]);
	close(serr[0]);
	show_stderr(e->log, base_name(e->command), eo);
	if (exec_wait(d, c, a, pid, rr, timed_out) < 0)
		goto out;
	rc = exec_parse_credential(out, a, d, c, &b);
out:
	if (b.len)
		memset(b.data, 0, b.len); /* the credential was in there */
	buf_release(&b);
	return rc;
}
