/*
 * test_pipeline_live.c - a live run's errors on stderr: a message from a
 * server or a kubeconfig is outside text and goes through the one
 * terminal-safe printer, so an escape sequence in it is shown, not run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/arena.h"
#include "pipeline/live.h"

/* What live_run_print_errors(r) writes on stderr. */
static char *
errors_of(const struct live_run *r)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	static char got[4096];
	size_t n;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	live_run_print_errors(r);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(got, 1, sizeof(got) - 1, tmp);
	got[n] = '\0';
	fclose(tmp);
	return got;
}

static void
test_pipeline_live__errors_are_terminal_safe(void **state)
{
	struct arena a = ARENA_INIT;
	struct live_run r;

	(void)state;
	arena_init(&a);
	memset(&r, 0, sizeof(r));
	r.name = "gpusite drift";
	diags_init(&r.errors, &a);
	diag_add(&r.errors, DIAG_ERROR, (struct pos){ 0 }, "GS900", "",
		 "the server said \x1b[2Jgone\nfake: line");
	diag_add(&r.errors, DIAG_ERROR, (struct pos){ "kube\x1b]0;x\x07.conf", 3, 7 }, "GS901", "",
		 "bad %s", "context");
	assert_string_equal(errors_of(&r),
			    "gpusite drift: error: the server said \\x1b[2Jgone\\nfake: line\n"
			    "kube\\x1b]0;x\\x07.conf:3:7: error: bad context [GS901]\n");
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipeline_live__errors_are_terminal_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
