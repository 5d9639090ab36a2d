# make bench [BENCH_RUNS=5] [BENCH_SIZES="1 100 1000 10000"]: one table of
# validate/render time and peak memory per fleet size, the libyaml floor,
# helm template vs one-site generate and the live drift scenario vs
# kubectl (bench/run.sh).  Uses the optimised build in $(O); never part of
# `make test` (timings vary from machine to machine).
.PHONY: bench bench-tools
bench-tools: $(O)/bench/yaml_floor

$(O)/bench/yaml_floor: bench/yaml_floor.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LDLIBS_ALL)

bench: all bench-tools
	@O=$(O) sh bench/run.sh
