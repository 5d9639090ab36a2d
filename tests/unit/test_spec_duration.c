/*
 * test_spec_duration.c - durations as Karpenter's NodePool CRD takes them:
 * ^(([0-9]+(s|m|h))+|Never)$, exact to the nanosecond, never rounded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"

static void
test_spec_duration__karpenter_normalised_exactly(void **state)
{
	static const struct {
		const char *in, *out;
	} ok[] = {
		{ "720h", "720h" },
		{ "5m", "5m" },
		{ "1h30m", "1h30m" },
		{ "336h0m0s", "336h0m0s" },
		{ "Never", "Never" },
		{ "90s", "90s" },
		{ "1.5h", "90m" },
		{ "1.25h", "75m" },
		{ "0.5m", "30s" },
		{ "2.5m", "150s" },
		{ "7200000ms", "2h" },
		{ "1500ms500ms", "2s" },
		{ "86400000000000ns", "24h" },
		{ "60000000us", "1m" },
		{ "0", "0s" },
		{ "+5m", "5m" },
		{ "0.0000001h0.99964s", "1s" },
		{ "1.000000000000000000h", "1h" },
		{ "2562047h47m16s", "2562047h47m16s" },
	};
	static const char *const refused[] = {
		"500ms",    "2m30.5s", "1h0m0.5s", "1.0000000001h",
		"999us",    "1ns",     "0.1s",     "1.0000000000000000001h",
		"2562048h", "",        "5",        "1d",
	};
	char out[SPEC_DURATION_BUFSZ];
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int r;

		snprintf(out, sizeof(out), "untouched");
		r = spec_duration_karpenter(ok[i].in, out, sizeof(out), &why);
		if (r < 0)
			fail_msg("%s refused: %s", ok[i].in, why);
		/* 1: kept as written */
		assert_string_equal(r == 1 ? ok[i].in : out, ok[i].out);
		assert_int_equal(r == 1, strcmp(ok[i].in, ok[i].out) == 0);
		assert_null(why);
	}
	/* a long text of the CRD's form is kept whole, never cut to a buffer */
	assert_int_equal(
		spec_duration_karpenter("1h3h3h303001h3h30001h3h300m", out, sizeof(out), &why), 1);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (spec_duration_karpenter(refused[i], out, sizeof(out), &why) == 0)
			fail_msg("%s taken as %s", refused[i], out);
		assert_non_null(why);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_duration__karpenter_normalised_exactly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
