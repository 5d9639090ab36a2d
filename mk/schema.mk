# schema.mk - schema-check, the library's per-document schema verdict,
# used by the ajv cross-check and the schema golden cases (tests/e2e/t11xx).
SCHEMA_CHECK := $(O)/tests/schema-check

all: $(SCHEMA_CHECK)

$(SCHEMA_CHECK): tests/tools/schema_check.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS_ALL)

# The built-in schema compiled at build time: schema-gen (mk/schema-gen.c)
# runs the runtime compiler over the embedded schema and writes its result
# as static C tables, $(O)/gen/schema_tables.c (generated, never
# committed), so no run parses or compiles the schema's JSON.  The
# generator links everything but those tables (libgpusite-gen.a).
SCHEMA_GEN := $(O)/tools/schema-gen

$(O)/tools/libgpusite-gen.a: $(LIB_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

$(SCHEMA_GEN): mk/schema-gen.c $(O)/tools/libgpusite-gen.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(O)/tools/libgpusite-gen.a $(LDLIBS_ALL)

$(O)/gen/schema_tables.c: $(SCHEMA_GEN)
	@mkdir -p $(@D)
	$(SCHEMA_GEN) $@

$(O)/gen/schema_tables.o: $(O)/gen/schema_tables.c
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(O)/gen/schema_tables.o
