# make lint: library includes stay in their module (mk/lint.sh).
# make lint-format: also clang-format --dry-run (optional; needs clang-format).
.PHONY: lint-format
lint:
	@sh mk/lint.sh

lint-format:
	@LINT_FORMAT=1 sh mk/lint.sh
