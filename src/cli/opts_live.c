/*
 * opts_live.c - the cluster options of the live commands.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/opts_live.h"
#include "spec/spec.h"

int
live_on_option(struct live_opts *lo, const struct opts_cmd *cmd, int id, const char *value)
{
	switch (id) {
	case LIVE_OPT_KUBECONFIG:
		if (!*value)
			return opts_usage_error(cmd, "--kubeconfig needs a file");
		lo->kubeconfig = value;
		return 0;
	case LIVE_OPT_CONTEXT:
		if (!*value)
			return opts_usage_error(cmd, "--context needs a context name");
		lo->context = value;
		return 0;
	case LIVE_OPT_CLUSTER:
		if (!*value)
			return opts_usage_error(cmd, "--cluster needs a cluster name");
		lo->cluster = value;
		return 0;
	case LIVE_OPT_TIMEOUT: {
		char *end;
		double v = strtod(value, &end);
		struct spec_duration dur;

		if (end != value && *end == '\0' && v > 0) {
			lo->timeout = v; /* plain seconds */
			return 0;
		}
		if (spec_parse_duration(value, false, &dur) < 0 || dur.seconds <= 0)
			return opts_usage_error(cmd,
						"--timeout '%s' is not a duration"
						" such as 30s, 2m or 90",
						value);
		lo->timeout = (double)dur.seconds;
		return 0;
	}
	}
	return 1;
}
