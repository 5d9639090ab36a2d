/*
 * cmd_serve.c - `gpusite serve --listen ADDR:PORT --token-file FILE
 * [--health-listen ADDR:PORT] [--repo URL|PATH] [--ref REV] [--refresh
 * SECONDS] [PATH]`: Argo CD's
 * ApplicationSet plugin generator (src/argocd/serve.h).
 *
 * Exit 0 after SIGTERM or SIGINT, 2 on a usage error, 3 when it cannot
 * start (the token file, the address, libmicrohttpd).
 */
#include <stdio.h>

#include "argocd/serve.h"
#include "cmd/cmd.h"
#include "cli/help.h"
#include "cli/opts.h"

enum { OPT_LISTEN = 1, OPT_TOKEN_FILE, OPT_REFRESH, OPT_HEALTH_LISTEN };

static struct {
	const char *listen;
	const char *token_file;
	const char *refresh;
	const char *health_listen;
} serve_args;

static int
serve_option(void *payload, int id, const char *value)
{
	(void)payload;
	if (id == OPT_LISTEN)
		serve_args.listen = value;
	else if (id == OPT_TOKEN_FILE)
		serve_args.token_file = value;
	else if (id == OPT_REFRESH)
		serve_args.refresh = value;
	else if (id == OPT_HEALTH_LISTEN)
		serve_args.health_listen = value;
	return 0;
}

static const struct opt_spec serve_opts[] = {
	{ OPT_LISTEN, "listen", 0, "ADDR:PORT",
	  "address to listen on: 127.0.0.1:8080, :8080 (all IPv4), [::]:8080; port 0 picks a"
	  " free port (the bound one is printed on stderr)" },
	{ OPT_TOKEN_FILE, "token-file", 0, "FILE",
	  "file holding the bearer token the ApplicationSet controller sends (a mounted"
	  " Secret key); read again when it changes" },
	{ OPT_REFRESH, "refresh", 0, "SECONDS",
	  "read the repository again every SECONDS (default 60; 1 to 86400)" },
	{ OPT_HEALTH_LISTEN, "health-listen", 0, "ADDR:PORT",
	  "also answer GET /healthz, and nothing else, on this address, with a server of its"
	  " own: the liveness probe still gets through while clients hold the connections of"
	  " --listen" },
	{ 0, NULL, 0, NULL, NULL },
};

static const struct opts_cmd serve_cmd = {
	.name = "serve",
	.usage = "--listen ADDR:PORT --token-file FILE [--health-listen ADDR:PORT]"
		 " [--repo URL|PATH] [--ref REV] [--refresh SECONDS] [PATH]",
	.about = cli_help_serve,
	.common = OPTS_SOURCE,
	.own = serve_opts,
	.on_option = serve_option,
	.min_args = 0,
	.max_args = 1,
};

int
cmd_serve(int argc, char **argv)
{
	struct opts o;
	struct serve_config cfg;
	struct serve *s = NULL;
	char err[512];
	unsigned long refresh = SERVE_REFRESH_DEFAULT;
	int r;

	opts_init(&o);
	r = opts_parse(&o, &serve_cmd, argc, argv);
	if (r != OPTS_OK)
		return cmd_parse_exit(r);
	if (!serve_args.listen)
		return cmd_parse_exit(
			opts_usage_error(&serve_cmd, "--listen ADDR:PORT is required "
						     "(127.0.0.1:8080; port 0 picks a free one)"));
	if (!serve_args.token_file)
		return cmd_parse_exit(opts_usage_error(&serve_cmd,
						       "--token-file FILE is required: the Secret "
						       "key the plugin ConfigMap names"));
	if (o.staged)
		return cmd_parse_exit(opts_usage_error(
			&serve_cmd,
			"--staged is not for serve: serve a revision with --repo and --ref"));
	if (serve_args.refresh && opts_parse_ulong(&refresh, serve_args.refresh, 1, 86400) < 0)
		return cmd_parse_exit(opts_usage_error(
			&serve_cmd, "--refresh '%s' is not a number of seconds from 1 to 86400",
			serve_args.refresh));
	cfg.src = opts_source(&o, (const char *const *)o.args, o.nargs);
	cfg.token_file = serve_args.token_file;
	cfg.refresh = (unsigned)refresh;
	if (serve_open(&s, &cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "gpusite serve: error: %s\n", err);
		return GS_EXIT_FAILURE;
	}
	r = serve_http_run(s, serve_args.listen, serve_args.health_listen, err, sizeof(err));
	serve_close(s);
	if (r == -2)
		return cmd_parse_exit(opts_usage_error(&serve_cmd, "%s", err));
	if (r < 0) {
		fprintf(stderr, "gpusite serve: error: %s\n", err);
		return GS_EXIT_FAILURE;
	}
	return GS_EXIT_OK;
}
