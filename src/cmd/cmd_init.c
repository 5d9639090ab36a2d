/*
 * cmd_init.c - `gpusite init NAME [-o DIR]`: write a commented starter
 * site spec, DIR/NAME.yaml (DIR defaults to sites/), that validates as it
 * is, with no warning.  Never overwrites a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cmd/cmd.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "emit/emit_file.h"
#include "k8s/k8s_names.h"
#include "spec/spec_starter.h"

enum { OPT_OUTPUT = 1 };

static const struct opt_spec init_opts[] = {
	{ OPT_OUTPUT, "output", 'o', "DIR", "write DIR/NAME.yaml (default: sites)" },
	{ 0, NULL, 0, NULL, NULL },
};

static int init_option(void *payload, int id, const char *value);

static const struct opts_cmd init_cmd = {
	.name = "init",
	.usage = "[-o DIR] NAME",
	.about = cli_help_init,
	.common = 0,
	.own = init_opts,
	.on_option = init_option,
	.payload = NULL,
	.min_args = 1,
	.max_args = 1,
};

static int
init_option(void *payload, int id, const char *value)
{
	const char **dir = payload;

	if (id == OPT_OUTPUT) {
		if (!*value)
			return opts_usage_error(&init_cmd, "option '--output' needs a"
							   " directory");
		*dir = value;
	}
	return 0;
}

int
cmd_init(int argc, char **argv)
{
	struct arena a = ARENA_INIT;
	struct buf b = BUF_INIT;
	struct opts_cmd cmd = init_cmd;
	struct opts o;
	const char *name, *dir = "sites", *path, *schema;
	int r, fd = -1, code = GS_EXIT_FAILURE;

	cmd.payload = &dir;
	r = opts_parse(&o, &cmd, argc, argv);
	if (r != OPTS_OK)
		return cmd_parse_exit(r);
	name = o.args[0];
	if (!k8s_is_dns1123_label(name))
		return cmd_parse_exit(opts_usage_error(
			&init_cmd,
			"'%s' is not a valid site name: use a DNS-1123 label (lower-case"
			" letters, digits and '-', starting and ending with a letter or"
			" digit, at most 63 characters)",
			name));

	arena_init(&a);
	buf_init(&b, 1u << 20);
	path = arena_printf(&a, "%s/%s.yaml", dir, name);
	if (emit_mkdirs(&a, dir) < 0) {
		fprintf(stderr, "gpusite init: error: cannot create directory '%s': %s\n", dir,
			strerror(errno));
		goto out;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		if (errno == EEXIST)
			fprintf(stderr,
				"gpusite init: error: %s exists; pick another name"
				" or remove the file first\n",
				path);
		else
			fprintf(stderr, "gpusite init: error: cannot create '%s': %s\n", path,
				strerror(errno));
		goto out;
	}
	schema = emit_path_from(&a, dir, SPEC_SCHEMA_PATH);
	if (!schema) {
		fprintf(stderr, "gpusite init: error: cannot resolve '%s': %s\n", dir,
			strerror(errno));
		goto out;
	}
	if (spec_starter(&b, name, schema) < 0 || write(fd, b.data, b.len) != (ssize_t)b.len ||
	    close(fd) < 0) {
		fprintf(stderr, "gpusite init: error: cannot write '%s': %s\n", path,
			strerror(errno));
		fd = -1;
		unlink(path);
		goto out;
	}
	fd = -1;
	printf("%s\n", path);
	code = GS_EXIT_OK;
out:
	if (fd >= 0)
		close(fd);
	buf_release(&b);
	arena_release(&a);
	return code;
}
