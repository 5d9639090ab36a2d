# schema.mk - schema-check, the library's per-document schema verdict,
# used by the ajv cross-check and the schema golden cases (tests/e2e/t11xx).
SCHEMA_CHECK := $(O)/tests/schema-check

all: $(SCHEMA_CHECK)

$(SCHEMA_CHECK): tests/tools/schema_check.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS_ALL)
