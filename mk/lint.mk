# make lint: every check in mk/lint/*.sh (mk/lint.sh): library includes in
# their module, commands only in src/cmd/, no include up the road, no
# banned function, no function over 100 lines, every C file of src/ and
# tests/unit/ clang-format clean, every test body &&-chained.
# make lint-format: the same clang-format check alone.
.PHONY: lint-format
lint:
	@sh mk/lint.sh

lint-format:
	@sh mk/lint/format.sh .
