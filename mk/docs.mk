# docs.mk - `make docs-rules-update` rewrites the ID, severity and meaning
# columns of the table in docs/rules.md from the diagnostics catalogue
# (src/rules/catalogue.c and rules_table), keeping each ID's "how to fix";
# tests/unit/test_catalogue.c then checks the two agree.  Every row whose
# "how to fix" is written gets its anchor (<a id="gs041"></a>), which the
# SARIF rules' helpUri points at.
#
# docs/rules.md is also built into the binary: the SARIF report takes each
# rule's fullDescription and help ("how to fix") from its table, so the
# document stays the one source of that text.
#
# `make docs-spec-update` rewrites docs/spec.md, the field reference, from
# the embedded schema (`gpusite schema --reference`); t1142 fails when it
# is stale.
#
# GPUSITE_REPO_URL is where the project's repository lives: the SARIF
# informationUri, and the base of each rule's helpUri
# ($(GPUSITE_REPO_URL)/blob/v$(VERSION)/docs/rules.md#gs041).  Set it to
# the real repository when building a release.
GPUSITE_REPO_URL ?= https://github.com/example-org/gpusite

.PHONY: docs-rules-update docs-spec-update
docs-rules-update: $(O)/tests/test_catalogue
	@GOLDEN_UPDATE=1 TEST_TOP=$(CURDIR) $(O)/tests/test_catalogue | grep -v '^ok' || true
	@awk -f mk/rules-anchors.awk docs/rules.md >docs/rules.md.tmp && mv docs/rules.md.tmp docs/rules.md
	@git diff --stat -- docs/rules.md

docs-spec-update: $(BIN)
	@$(BIN) schema --reference >$(O)/spec-fields.md
	@awk -v fields=$(O)/spec-fields.md \
		'/^<!-- fields: end -->/ { skip = 0 } !skip { print } \
		 /^<!-- fields: begin -->/ { while ((getline l < fields) > 0) print l; skip = 1 }' \
		docs/spec.md >docs/spec.md.tmp && mv docs/spec.md.tmp docs/spec.md
	@git diff --stat -- docs/spec.md

$(O)/gen/rules_md_embed.c: docs/rules.md mk/embed.sh
	@mkdir -p $(@D)
	sh mk/embed.sh docs_rules_md $< > $@.tmp && mv $@.tmp $@

$(O)/gen/rules_md_embed.o: $(O)/gen/rules_md_embed.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(O)/gen/rules_md_embed.o

$(O)/src/report/report_sarif.o: ALL_CFLAGS += -DGPUSITE_REPO_URL='"$(GPUSITE_REPO_URL)"'
