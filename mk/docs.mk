# docs.mk - `make docs-rules-update` rewrites every findings table of the
# documents from the table of findings (src/base/findings.c): in
# docs/rules.md which part of gpusite reports which IDs and the catalogue
# (ID, severity and meaning; each ID's "how to fix" is kept, and every row
# whose "how to fix" is written gets its anchor, <a id="gs041"></a>, which
# the SARIF rules' helpUri points at), in the README the drift findings.
# findings-gen (mk/findings-gen.c) writes them into $(O)/findings/ and
# they are copied back; t1144 fails when the tree's differ from what it
# writes, and tests/unit/test_catalogue.c when docs/rules.md disagrees.
# The --help lists of findings need no update: the commands print them
# from the same table.
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
FINDINGS_GEN := $(O)/tools/findings-gen

all: $(FINDINGS_GEN)

$(FINDINGS_GEN): mk/findings-gen.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS_ALL)

.PHONY: docs-rules-update docs-spec-update
docs-rules-update: $(FINDINGS_GEN)
	@rm -rf $(O)/findings
	@$(FINDINGS_GEN) . $(O)/findings
	@cp $(O)/findings/docs/rules.md docs/rules.md
	@cp $(O)/findings/README.md README.md
	@git diff --stat -- docs/rules.md README.md

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
