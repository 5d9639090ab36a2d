# make lint: every check in mk/lint/*.sh (mk/lint.sh): library includes in
# their module, commands only in src/cmd/, no include up the road, no
# banned function, clang-format clean files of mk/lint/format-files.txt.
# make lint-format: clang-format --dry-run over all of src/ and tests/unit/
# (the whole tree is not formatted yet).
.PHONY: lint-format
lint:
	@sh mk/lint.sh

lint-format:
	@find src tests/unit -name '*.[ch]' -print | sort | \
		xargs clang-format --dry-run -Werror
