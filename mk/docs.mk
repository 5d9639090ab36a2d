# docs.mk - `make docs-rules-update` rewrites the ID, severity and meaning
# columns of the table in docs/rules.md from the diagnostics catalogue
# (src/rules/catalogue.c and rules_table), keeping each ID's "how to fix";
# tests/unit/test_catalogue.c then checks the two agree.
.PHONY: docs-rules-update
docs-rules-update: $(O)/tests/test_catalogue
	@GOLDEN_UPDATE=1 TEST_TOP=$(CURDIR) $(O)/tests/test_catalogue | grep -v '^ok' || true
	@git diff --stat -- docs/rules.md
