# make bench [BENCH_RUNS=5] [BENCH_SIZES="1 100 1000 10000"]: the machine,
# then one table of validate/render time, peak memory and system-time
# share per fleet size, each paired with its libyaml floor (parse only for
# validate, parse + emit for render), helm template vs one-site generate
# and the live drift scenario vs kubectl; then the goals table, one row per
# performance goal with its same-run figure and whether it is met
# (bench/run.sh).  Uses the optimised build in $(O); never part of
# `make test` (timings vary from machine to machine).
.PHONY: bench bench-tools
bench-tools: $(O)/bench/yaml_floor $(O)/bench/spawn_time

$(O)/bench/yaml_floor: bench/yaml_floor.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LDLIBS_ALL)

$(O)/bench/spawn_time: bench/spawn_time.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<

bench: all bench-tools
	@O=$(O) sh bench/run.sh
