/*
 * fuzz_kubeconfig.c - a kubeconfig as kubectl would read it: merge,
 * context, cluster and user resolution, base64 data, exec settings, the
 * tls-server-name route.  Nothing is sent and no plugin is run.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "kube/kube.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char path[256];

/* No KUBECONFIG, HOME or in-cluster variables: only the file counts. */
static const char *
no_env(const char *name)
{
	(void)name;
	return NULL;
}

static void
remove_dir(void)
{
	char dir[256];
	char *slash;

	unlink(path);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		rmdir(dir);
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	char dir[200];

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/gpusite-fuzz-kc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/config", dir);
	atexit(remove_dir);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct diags d;
	struct kube_options opt;
	struct kube_client *k = NULL;
	FILE *f;
	int rc;

	f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);

	arena_init(&a);
	diags_init(&d, &a);
	memset(&opt, 0, sizeof(opt));
	opt.kubeconfig = path;
	opt.getenv = no_env;
	opt.timeout = 1;
	rc = kube_open(&k, &a, &d, &opt);
	if (rc == 0) {
		const struct kube_info *in = kube_get_info(k);

		if (!in->server || !in->auth || !in->namespace)
			__builtin_trap();	/* a usable client knows these */
		if (kube_request_count(k) != 0)
			__builtin_trap();	/* opening sends nothing */
		kube_close(k);
	} else if (diags_count(&d, DIAG_ERROR) == 0) {
		__builtin_trap();	/* a refusal says why */
	}
	arena_release(&a);
	return 0;
}
