# make bench [BENCH_RUNS=5] [BENCH_SIZES="1 100 1000 10000"]: the machine,
# then one table of validate/render time, peak memory and system-time
# share per fleet size, each paired with its libyaml floor (parse only for
# validate, on a clean fleet and on one with a warning in every file;
# parse + emit for render), helm template vs one-site generate and the
# live drift scenario vs kubectl; then the goals table, one row per
# performance goal with its same-run figure and whether it is met
# (bench/run.sh), kept in $(O)/bench/table.md.
# make bench-readme: the same, then that table in the README's
# Performance section, between its markers (bench/readme.sh); t0007
# fails when the README lacks the markers or a row bench/run.sh makes.
# Uses the optimised build in $(O); never part of `make test` (timings
# vary from machine to machine).
.PHONY: bench bench-tools bench-readme
bench-tools: $(O)/bench/yaml_floor $(O)/bench/spawn_time

$(O)/bench/yaml_floor: bench/yaml_floor.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LDLIBS_ALL)

$(O)/bench/spawn_time: bench/spawn_time.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<

# the table is kept only from a run that finished
bench: all bench-tools
	@rm -f $(O)/bench/table.md
	@{ O=$(O) sh bench/run.sh; echo $$? >$(O)/bench/run.rc; } | tee $(O)/bench/table.md.tmp
	@test "$$(cat $(O)/bench/run.rc)" = 0 && mv $(O)/bench/table.md.tmp $(O)/bench/table.md
	@echo "bench: table in $(O)/bench/table.md (make bench-readme puts it in README.md)"

bench-readme: bench
	@sh bench/readme.sh $(O)/bench/table.md README.md
	@echo "bench: README.md's Performance section holds this run; review it with git diff"
