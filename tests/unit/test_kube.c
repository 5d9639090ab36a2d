/*
 * test_kube.c - the Kubernetes client without a server: kubeconfig
 * discovery and merging as kubectl does it, in-cluster config, EKS ARNs,
 * base64, RFC 3339 times, URL escaping, exec credential plugins, values
 * with control characters, URL userinfo, empty kubeconfigs, files that
 * are not regular files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "k8s/k8s_arn.h"
#include "kube/kube_int.h"

static char dir[256];

/* getenv for the tests: a small table, nothing from the real environment */
static const char *env_names[8];
static const char *env_values[8];

static const char *
table_env(const char *name)
{
	for (size_t i = 0; i < 8 && env_names[i]; i++)
		if (!strcmp(env_names[i], name))
			return env_values[i];
	return NULL;
}

static void
env_set(size_t i, const char *name, const char *value)
{
	env_names[i] = name;
	env_values[i] = value;
	if (i + 1 < 8)
		env_names[i + 1] = NULL;
}

static const char *
write_file(const char *name, const char *text)
{
	static char path[8][512];
	static int next;
	char *p = path[next++ % 8];
	FILE *f;

	snprintf(p, 512, "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/test_kube.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	memset(env_names, 0, sizeof(env_names));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static bool
has_msg(const struct diags *d, const char *needle)
{
	for (size_t i = 0; i < d->count; i++)
		if (strstr(d->items[i].msg, needle))
			return true;
	return false;
}

static const char config_a[] =
	"apiVersion: v1\n"
	"kind: Config\n"
	"clusters:\n"
	"- name: shared\n"
	"  cluster: {server: 'https://a.example:6443/', certificate-authority: pki/ca.crt}\n"
	"users:\n"
	"- name: ops\n"
	"  user: {tokenFile: token}\n"
	"contexts:\n"
	"- name: arn:aws:eks:us-west-2:111122223333:cluster/my-hybrid-cluster\n"
	"  context: {cluster: shared, user: ops, namespace: gpu}\n";

static const char config_b[] =
	"apiVersion: v1\n"
	"kind: Config\n"
	"clusters:\n"
	"- name: shared\n"
	"  cluster: {server: 'https://b.example'}\n"
	"- name: only-b\n"
	"  cluster: {server: 'https://only-b.example'}\n"
	"users:\n"
	"- name: ops\n"
	"  user: {token: from-b}\n"
	"contexts:\n"
	"- name: other\n"
	"  context: {cluster: only-b, user: ops}\n"
	"current-context: arn:aws:eks:us-west-2:111122223333:cluster/my-hybrid-cluster\n";

static void
test_kube__merge_first_definition_wins(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;
	char list[1600];
	const char *fa, *fb;

	(void)state;
	diags_init(&d, &a);
	fa = write_file("a.yaml", config_a);
	fb = write_file("b.yaml", config_b);
	snprintf(list, sizeof(list), "%s/missing.yaml:%s:%s", dir, fa, fb);
	env_set(0, "KUBECONFIG", list);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	assert_int_equal(kube_config_load(&c, &a, &d, &o), 0);
	/* cluster "shared" and user "ops" come whole from a.yaml */
	assert_string_equal(c.info.server, "https://a.example:6443");
	assert_null(c.token);
	assert_non_null(c.token_file);
	/* current-context from b.yaml, the first file that sets it */
	assert_string_equal(c.info.context,
			    "arn:aws:eks:us-west-2:111122223333:cluster/my-hybrid-cluster");
	assert_string_equal(c.info.namespace, "gpu");
	/* relative paths against the defining file's directory */
	{
		char want[600];

		snprintf(want, sizeof(want), "%s/pki/ca.crt", dir);
		assert_string_equal(c.ca_file, want);
		snprintf(want, sizeof(want), "%s/token", dir);
		assert_string_equal(c.token_file, want);
	}
	assert_string_equal(c.info.eks_cluster, "my-hybrid-cluster");
	assert_string_equal(c.info.eks_region, "us-west-2");
	assert_string_equal(c.info.auth, "token file");
	arena_release(&a);
}

static void
test_kube__context_option_and_missing_context(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;
	const char *fb;

	(void)state;
	diags_init(&d, &a);
	fb = write_file("b.yaml", config_b);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	o.kubeconfig = fb;
	o.context = "other";
	assert_int_equal(kube_config_load(&c, &a, &d, &o), 0);
	assert_string_equal(c.info.server, "https://only-b.example");
	assert_string_equal(c.token, "from-b");
	assert_null(c.info.eks_cluster);

	o.context = "nope";
	assert_int_equal(kube_config_load(&c, &a, &d, &o), KUBE_EFAIL);
	assert_true(has_msg(&d, "context 'nope' is not defined"));
	arena_release(&a);
}

static void
test_kube__kubeconfig_option_must_exist(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;
	char path[400];

	(void)state;
	diags_init(&d, &a);
	snprintf(path, sizeof(path), "%s/absent.yaml", dir);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	o.kubeconfig = path;
	assert_int_equal(kube_config_load(&c, &a, &d, &o), KUBE_EFAIL);
	assert_true(has_msg(&d, "cannot read kubeconfig"));
	arena_release(&a);
}

static void
test_kube__refuses_inconsistent_users_and_clusters(void **state)
{
	static const char *const bad[][2] = {
		{ "    exec: {apiVersion: client.authentication.k8s.io/v1, command: aws}\n",
		  "interactiveMode must be specified" },
		{ "    exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: aws}\n",
		  "is not supported" },
		{ "    client-certificate: c.crt\n", "without its key" },
		{ "    auth-provider: {name: gcp}\n", "auth-provider" },
		{ "    client-key-data: '***not base64***'\n", "not valid base64" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct arena a = ARENA_INIT;
		struct diags d;
		struct kube_conf c;
		struct kube_options o;
		char text[2048];

		diags_init(&d, &a);
		snprintf(text, sizeof(text),
			 "clusters:\n- name: c\n  cluster: {server: 'https://x'}\n"
			 "users:\n- name: u\n  user:\n%s"
			 "contexts:\n- name: x\n  context: {cluster: c, user: u}\n"
			 "current-context: x\n",
			 bad[i][0]);
		memset(&o, 0, sizeof(o));
		o.getenv = table_env;
		o.kubeconfig = write_file("bad.yaml", text);
		assert_int_equal(kube_config_load(&c, &a, &d, &o), KUBE_EFAIL);
		if (!has_msg(&d, bad[i][1]))
			fail_msg("case %zu: no message with '%s'", i, bad[i][1]);
		arena_release(&a);
	}
}

static void
test_kube__ca_with_insecure_is_refused(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;

	(void)state;
	diags_init(&d, &a);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	o.kubeconfig = write_file(
		"i.yaml", "clusters:\n- name: c\n  cluster: {server: 'https://x', "
			  "certificate-authority: ca.crt, insecure-skip-tls-verify: true}\n"
			  "contexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n");
	assert_int_equal(kube_config_load(&c, &a, &d, &o), KUBE_EFAIL);
	assert_true(has_msg(&d, "insecure-skip-tls-verify together"));
	arena_release(&a);
}

static void
test_kube__exec_config_is_read(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;
	char want[600];

	(void)state;
	diags_init(&d, &a);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	o.kubeconfig = write_file(
		"e.yaml",
		"clusters:\n- name: c\n  cluster: {server: 'https://x'}\n"
		"users:\n- name: u\n  user:\n    exec:\n"
		"      apiVersion: client.authentication.k8s.io/v1beta1\n"
		"      command: bin/aws\n"
		"      args: [eks, get-token, --cluster-name, c]\n"
		"      env: [{name: AWS_PROFILE, value: ops}]\n"
		"      provideClusterInfo: true\n"
		"contexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n");
	assert_int_equal(kube_config_load(&c, &a, &d, &o), 0);
	assert_non_null(c.exec);
	snprintf(want, sizeof(want), "%s/bin/aws", dir);
	assert_string_equal(c.exec->command, want);
	assert_int_equal(c.exec->nargs, 4);
	assert_string_equal(c.exec->args[3], "c");
	assert_int_equal(c.exec->nenv, 1);
	assert_string_equal(c.exec->env_names[0], "AWS_PROFILE");
	/* v1beta1 defaults interactiveMode to IfAvailable */
	assert_string_equal(c.exec->interactive_mode, "IfAvailable");
	assert_true(c.exec->provide_cluster_info);
	arena_release(&a);
}

static void
test_kube__in_cluster_when_no_kubeconfig(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;
	char sa[400], want[600];

	(void)state;
	diags_init(&d, &a);
	snprintf(sa, sizeof(sa), "%s/sa", dir);
	assert_int_equal(mkdir(sa, 0700), 0);
	write_file("sa/token", "header.payload.sig\n");
	write_file("sa/ca.crt", "-----BEGIN CERTIFICATE-----\n");
	write_file("sa/namespace", "argocd\n");
	env_set(0, "HOME", dir); /* no .kube/config there */
	env_set(1, "KUBERNETES_SERVICE_HOST", "fd00::1");
	env_set(2, "KUBERNETES_SERVICE_PORT", "443");
	env_set(3, KUBE_SA_DIR_ENV, sa);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	assert_int_equal(kube_config_load(&c, &a, &d, &o), 0);
	assert_string_equal(c.info.server, "https://[fd00::1]:443");
	assert_string_equal(c.info.namespace, "argocd");
	assert_string_equal(c.info.origin, "in-cluster");
	snprintf(want, sizeof(want), "%s/token", sa);
	assert_string_equal(c.token_file, want);
	arena_release(&a);
}

static void
test_kube__nothing_configured_says_what_to_do(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;

	(void)state;
	diags_init(&d, &a);
	env_set(0, "HOME", dir);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	assert_int_equal(kube_config_load(&c, &a, &d, &o), KUBE_EFAIL);
	assert_true(has_msg(&d, "no kubeconfig found"));
	assert_true(has_msg(&d, "--kubeconfig"));
	arena_release(&a);
}

static void
test_kube__eks_arn(void **state)
{
	struct arena a = ARENA_INIT;
	struct k8s_eks_arn e;

	(void)state;
	assert_int_equal(
		k8s_eks_arn_parse(&a, "arn:aws:eks:eu-central-1:444455556666:cluster/inference-eu",
				  &e),
		0);
	assert_string_equal(e.name, "inference-eu");
	assert_string_equal(e.region, "eu-central-1");
	assert_int_equal(k8s_eks_arn_parse(&a, "arn:aws-cn:eks:cn-north-1:1:cluster/x", &e), 0);
	assert_string_equal(e.name, "x");
	assert_int_equal(k8s_eks_arn_parse(&a, "my-cluster", &e), -1);
	assert_int_equal(
		k8s_eks_arn_parse(&a, "arn:aws:iam::111122223333:role/HybridNodesRole", &e), -1);
	assert_int_equal(k8s_eks_arn_parse(&a, "arn:aws:eks:us-west-2:1:nodegroup/c/ng/id", &e),
			 -1);
	arena_release(&a);
}

static void
test_kube__base64(void **state)
{
	struct arena a = ARENA_INIT;
	const char *out;
	size_t n;

	(void)state;
	assert_int_equal(kube_base64_decode(&a, "aGVsbG8gd29ybGQ=", &out, &n), 0);
	assert_int_equal(n, 11);
	assert_memory_equal(out, "hello world", 11);
	assert_int_equal(kube_base64_decode(&a, "aGVs\nbG8=\n", &out, &n), 0);
	assert_string_equal(out, "hello");
	assert_int_equal(kube_base64_decode(&a, "a*b", &out, &n), -1);
	assert_int_equal(kube_base64_decode(&a, "aG=Vs", &out, &n), -1);
	arena_release(&a);
}

static void
test_kube__url_escape(void **state)
{
	struct buf b;

	(void)state;
	buf_init(&b, 0);
	assert_int_equal(kube_url_escape(&b, "karpenter.sh/nodepool=a b,c!=d"), 0);
	assert_string_equal(b.data, "karpenter.sh%2Fnodepool%3Da%20b%2Cc%21%3Dd");
	buf_release(&b);
}

/* A kube_conf with only what kube_exec_run() reads. */
static void
exec_conf(struct kube_conf *c, struct kube_exec_conf *e, const char *script, const char *api)
{
	memset(c, 0, sizeof(*c));
	memset(e, 0, sizeof(*e));
	c->info.server = "https://127.0.0.1:6443";
	c->info.user = "u";
	c->exec = e;
	e->api_version = api;
	e->command = script;
	e->interactive_mode = "Never";
}

static void
test_kube__exec_plugin_credential(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_exec_conf e;
	struct kube_cred cred;
	char script[600], info[600], cmd[1400];
	const char *p;
	FILE *f;

	(void)state;
	diags_init(&d, &a);
	snprintf(info, sizeof(info), "%s/info", dir);
	snprintf(cmd, sizeof(cmd),
		 "#!/bin/sh\nprintf '%%s' \"$KUBERNETES_EXEC_INFO\" >'%s'\n"
		 "echo '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
		 "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"k8s-aws-v1.abc\","
		 "\"expirationTimestamp\":\"2030-01-01T00:00:00Z\"}}'\n",
		 info);
	p = write_file("plugin.sh", cmd);
	snprintf(script, sizeof(script), "%s", p);
	assert_int_equal(chmod(script, 0755), 0);
	exec_conf(&c, &e, script, "client.authentication.k8s.io/v1");
	assert_int_equal(kube_exec_run(&cred, &a, &d, &c, kube_now() + 10, NULL), 0);
	assert_string_equal(cred.token, "k8s-aws-v1.abc");
	assert_int_equal(cred.expires, 1893456000);
	kube_cred_release(&cred);
	assert_null(cred.token);
	f = fopen(info, "r");
	assert_non_null(f);
	assert_non_null(fgets(cmd, sizeof(cmd), f));
	fclose(f);
	assert_non_null(strstr(cmd, "\"apiVersion\":\"client.authentication.k8s.io/v1\""));
	assert_non_null(strstr(cmd, "\"interactive\":false"));
	assert_null(strstr(cmd, "\"cluster\"")); /* provideClusterInfo unset */

	/* asked for v1beta1, answered v1: refused, and the token is not quoted */
	e.api_version = "client.authentication.k8s.io/v1beta1";
	assert_int_equal(kube_exec_run(&cred, &a, &d, &c, kube_now() + 10, NULL), KUBE_EFAIL);
	assert_true(has_msg(&d, "answered with apiVersion"));
	for (size_t i = 0; i < d.count; i++)
		assert_null(strstr(d.items[i].msg, "k8s-aws-v1.abc"));
	arena_release(&a);
}

static void
test_kube__exec_plugin_bad_output(void **state)
{
	static const char *const outs[][2] = {
		{ "not json at all: s3cr3t", "did not print an ExecCredential" },
		{ "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
		  "\"status\":{}}",
		  "neither a token nor a client certificate" },
		{ "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
		  "\"status\":{\"clientCertificateData\":\"x\"}}",
		  "without its key" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		struct arena a = ARENA_INIT;
		struct diags d;
		struct kube_conf c;
		struct kube_exec_conf e;
		struct kube_cred cred;
		char text[1024];
		const char *p;

		diags_init(&d, &a);
		snprintf(text, sizeof(text), "#!/bin/sh\necho '%s'\n", outs[i][0]);
		p = write_file("bad-plugin.sh", text);
		assert_int_equal(chmod(p, 0755), 0);
		exec_conf(&c, &e, p, "client.authentication.k8s.io/v1");
		assert_int_equal(kube_exec_run(&cred, &a, &d, &c, kube_now() + 10, NULL),
				 KUBE_EFAIL);
		if (!has_msg(&d, outs[i][1]))
			fail_msg("case %zu: no message with '%s'", i, outs[i][1]);
		assert_false(has_msg(&d, "s3cr3t"));
		arena_release(&a);
	}
}

/* A value with a control character that would reach a header or a path:
 * refused, naming where it is, never the value. */
static void
test_kube__control_characters_refused(void **state)
{
	static const char *const users[][2] = {
		{ "{token: \"t\\r\\nX-Injected: yes\"}", "the token of user 'u'" },
		{ "{tokenFile: \"tok\\n\"}", "tokenFile of user 'u'" },
		{ "{username: \"a\\rb\", password: p}", "the username of user 'u'" },
		{ "{username: a, password: \"p\\x7f\"}", "the password of user 'u'" },
		{ "{token: t, as: \"root\\r\\nX-Injected: yes\"}",
		  "the impersonated user (as) of user 'u'" },
		{ "{client-certificate: \"c\\n\", client-key: k}",
		  "client-certificate of user 'u'" },
		{ "{client-certificate: c, client-key: \"k\\e\"}", "client-key of user 'u'" },
	};
	static const char *const clusters[][2] = {
		{ "{server: \"https://h\\r\\nX: y\"}", "the server URL of cluster 'c'" },
		{ "{server: 'https://h', proxy-url: \"http://p\\n\"}", "proxy-url of cluster 'c'" },
		{ "{server: 'https://h', tls-server-name: \"n\\t\"}",
		  "tls-server-name of cluster 'c'" },
		{ "{server: 'https://h', certificate-authority: \"ca\\n\"}",
		  "certificate-authority of cluster 'c'" },
	};

	(void)state;
	for (size_t i = 0; i < 11; i++) {
		struct arena a = ARENA_INIT;
		struct diags d;
		struct kube_conf c;
		struct kube_options o;
		char text[600];
		const char *cl = i < 7 ? "{server: 'https://h'}" : clusters[i - 7][0];
		const char *us = i < 7 ? users[i][0] : "{token: t}";
		const char *want = i < 7 ? users[i][1] : clusters[i - 7][1];

		diags_init(&d, &a);
		snprintf(text, sizeof(text),
			 "clusters: [{name: c, cluster: %s}]\n"
			 "users: [{name: u, user: %s}]\n"
			 "contexts: [{name: x, context: {cluster: c, user: u}}]\n"
			 "current-context: x\n",
			 cl, us);
		memset(&o, 0, sizeof(o));
		o.getenv = table_env;
		o.kubeconfig = write_file("ctl.yaml", text);
		assert_int_equal(kube_config_load(&c, &a, &d, &o), KUBE_EFAIL);
		if (!has_msg(&d, want) || !has_msg(&d, "holds a control character"))
			fail_msg("case %zu: no message with '%s'", i, want);
		assert_false(has_msg(&d, "Injected"));
		assert_int_equal(d.count, 1);
		arena_release(&a);
	}
}

/* https://user:pass@host: info.server has the host only, userinfo apart. */
static void
test_kube__server_userinfo_is_kept_apart(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;

	(void)state;
	diags_init(&d, &a);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	o.kubeconfig = write_file(
		"ui.yaml",
		"clusters: [{name: c, cluster: {server: 'https://admin:p@ss@h.example:6443/'}}]\n"
		"contexts: [{name: x, context: {cluster: c}}]\n"
		"current-context: x\n");
	assert_int_equal(kube_config_load(&c, &a, &d, &o), 0);
	assert_string_equal(c.info.server, "https://h.example:6443");
	assert_string_equal(c.userinfo, "admin:p@ss@");
	o.kubeconfig = write_file(
		"ui.yaml", "clusters: [{name: c, cluster: {server: 'https://h.example/a@b'}}]\n"
			   "contexts: [{name: x, context: {cluster: c}}]\n"
			   "current-context: x\n");
	assert_int_equal(kube_config_load(&c, &a, &d, &o), 0);
	assert_string_equal(c.info.server, "https://h.example/a@b");
	assert_null(c.userinfo);
	arena_release(&a);
}

/* An empty --kubeconfig is an empty config: the message names the file. */
static void
test_kube__empty_kubeconfig_names_the_file(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	struct kube_options o;
	char want[600];

	(void)state;
	diags_init(&d, &a);
	memset(&o, 0, sizeof(o));
	o.getenv = table_env;
	o.kubeconfig = write_file("empty.yaml", "");
	assert_int_equal(kube_config_load(&c, &a, &d, &o), KUBE_EFAIL);
	snprintf(want, sizeof(want),
		 "kubeconfig %s is empty: no current-context, "
		 "cluster or user",
		 o.kubeconfig);
	assert_true(has_msg(&d, want));
	assert_false(has_msg(&d, "does not exist"));
	arena_release(&a);
}

/* CA, client certificate and key files are read by kube_config_read_files,
 * never by curl: a FIFO or a directory is refused without blocking. */
static void
test_kube__files_read_without_blocking(void **state)
{
	struct arena a = ARENA_INIT;
	struct diags d;
	struct kube_conf c;
	char fifo[400];

	(void)state;
	diags_init(&d, &a);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	memset(&c, 0, sizeof(c));
	c.info.cluster = "c";
	c.info.user = "u";
	c.ca_file = fifo;
	assert_int_equal(kube_config_read_files(&c, &a, &d), KUBE_EFAIL);
	assert_true(has_msg(&d, "cannot read certificate-authority of cluster 'c'"));
	assert_true(has_msg(&d, "not a regular file"));
	memset(&c, 0, sizeof(c));
	c.info.user = "u";
	c.cert_file = write_file("c.pem", "CERT\n");
	c.key_file = dir;
	assert_int_equal(kube_config_read_files(&c, &a, &d), KUBE_EFAIL);
	assert_true(has_msg(&d, "cannot read client-key of user 'u'"));
	assert_true(has_msg(&d, "a directory, not a file"));
	assert_string_equal(c.cert_data, "CERT\n");
	assert_int_equal(c.cert_len, 5);
	unlink(fifo);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kube__merge_first_definition_wins, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_kube__context_option_and_missing_context,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_kube__kubeconfig_option_must_exist, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_kube__refuses_inconsistent_users_and_clusters,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_kube__ca_with_insecure_is_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_kube__exec_config_is_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kube__in_cluster_when_no_kubeconfig, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_kube__nothing_configured_says_what_to_do,
						setup, teardown),
		cmocka_unit_test(test_kube__eks_arn),
		cmocka_unit_test(test_kube__base64),
		cmocka_unit_test(test_kube__url_escape),
		cmocka_unit_test_setup_teardown(test_kube__exec_plugin_credential, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kube__exec_plugin_bad_output, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kube__control_characters_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_kube__server_userinfo_is_kept_apart, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_kube__empty_kubeconfig_names_the_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_kube__files_read_without_blocking, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
