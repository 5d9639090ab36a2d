# golden-invalid.mk - rewrite the expected output of the invalid golden
# cases (testdata/invalid/*/expected.err, expected.exit) from the current
# binary; review the result with `git diff testdata/invalid`.
.PHONY: golden-update-invalid instance-types
golden-update: golden-update-invalid
golden-update-invalid: all
	@TEST_TOP=$(CURDIR) GPUSITE=$(CURDIR)/$(BIN) O=$(O) sh tests/golden/t1000-invalid.sh --update

# Regenerate src/rules/instance_types.c from ../shared's Karpenter table.
instance-types:
	sh mk/gen-instance-types.sh > src/rules/instance_types.c.tmp
	mv src/rules/instance_types.c.tmp src/rules/instance_types.c
