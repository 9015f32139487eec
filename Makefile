# wpsim - two commands on a fresh Debian machine:
#   make demo    install what is missing, build, run the main job
#   make test    install what is missing, build, run the quick test suite
# and the tiers behind them:
#   make bench       benchmarks (print ratios; never fail on timing)
#   make realcode    the real-code tier: real lib/xarray.c and rwsem.c under
#                    the engine (docs/realcode.md; Debian's linux-source-6.12)
#   make sanitize    the quick suite under ASan+UBSan (build-asan/)
#   make coverage    the quick suite with gcov, HTML report (build-cov/)
#   make deep        the deep tier (long explorations)
#   make install-check  install into a staging dir, build examples/ on it
#   make deb         the Debian packages wpsim, libwpsim-dev (build-deb/)
#   make fuzz        every libFuzzer target for SECONDS (default 60) each
#   make mutate      seeded mutation testing (MUTATE_SEED, MUTATE_N; long)
#   make diff-kernel the running kernel as a differential oracle (root;
#                    DIFF_SEED, DIFF_N, DIFF_SECONDS; not CI)
#   make calibrate   this machine's CPU and device profiles from named
#                    microbenchmarks (root, loop XFS; CAL_NAME; not CI)
#   make validate    the validation grid on this kernel and in the model
#                    (root; VAL_PROFILES, VAL_REPS, VAL_ROWS; not CI)
BUILD ?= build
SECONDS ?= 60
TARGETS ?=

.PHONY: all build demo test bench realcode sanitize coverage deep fuzz mpi clean \
	probe-ext4-dio probe-dontcache install-check deb tables probe-fio \
	probe-xfs mutate diff-kernel diff-kernel-corpus calibrate validate \
	sitting cal-tools

all: build

build:
	@tools/bootstrap.sh $(BUILD)
	@ninja -C $(BUILD)

demo: build
	@$(BUILD)/wpsim demo

test: build
	@meson test -C $(BUILD) --suite quick --print-errorlogs; \
	rc=$$?; tools/test-summary.py $(BUILD)/meson-logs/testlog.json; \
	rc2=$$?; [ $$rc -eq 0 ] && [ $$rc2 -eq 0 ]

# MUTATE_SEED=N MUTATE_N=N MUTATE_JUDGE=covered|quick: mutants of model/ and
# sim/ built and judged in a scratch copy (docs/reliability.md).
# MUTATE_WORK: the scratch copy, kept between runs with its coverage map
# (default: a new one in /tmp); MUTATE_CHECK: mutants whose verdict is
# checked against the whole quick suite after the run; MUTATE_RESULTS: each
# verdict as a JSON line.
MUTATE_SEED ?= 1
MUTATE_N ?= 100
MUTATE_JUDGE ?= covered
MUTATE_DIRS ?= model
MUTATE_JOBS ?= 2
MUTATE_WORK ?=
MUTATE_CHECK ?= 0
MUTATE_RESULTS ?=

mutate:
	@nice -n 19 tools/mutate/mutate.py . --seed $(MUTATE_SEED) --n $(MUTATE_N) \
		--judge $(MUTATE_JUDGE) --dirs $(MUTATE_DIRS) --jobs $(MUTATE_JOBS) \
		--check-sample $(MUTATE_CHECK) \
		$(if $(MUTATE_WORK),--work $(MUTATE_WORK)) \
		$(if $(MUTATE_RESULTS),--results $(MUTATE_RESULTS))

bench: build
	@$(BUILD)/bench/bench-switch
	@$(BUILD)/bench/bench-exec
	@$(BUILD)/bench/bench-dpor
	@$(BUILD)/bench/bench-sashiko
	@$(BUILD)/bench/bench-device
	@$(BUILD)/bench/bench-timed
	@$(BUILD)/bench/calibrate-cpu
	@if [ -x $(BUILD)/realcode/bench-realcode ]; then \
		$(BUILD)/realcode/bench-realcode; fi

# The real-code tier alone (docs/realcode.md): builds the unchanged
# lib/xarray.c and kernel/locking/rwsem.c against realcode/shim and runs
# its tests; skipped with a message when no kernel tree is available.
realcode: build
	@meson test -C $(BUILD) --suite quick --print-errorlogs realcode \
		realcode-differential realcode-rwsem-differential

# The sanitizer tier's scale (tests/scale.h, tests/scenarios/meson.build)
# and how much longer than a plain build's each test may take.
SANITIZE_SCALE ?= 5
SANITIZE_TIMEOUT_MULTIPLIER ?= 3

sanitize:
	@tools/bootstrap.sh build-asan -Db_sanitize=address,undefined \
		-Dcontext=ucontext -Djemalloc=disabled -Dbuildtype=debug \
		-Dtest_scale=$(SANITIZE_SCALE)
	@meson setup --reconfigure build-asan \
		-Dtest_scale=$(SANITIZE_SCALE) >/dev/null
	@ninja -C build-asan
	@# The guard-page test needs the real SIGSEGV, not ASan's report.
	@# Leak checking is off: wpsim exits on usage errors without freeing
	@# what it parsed, and LeakSanitizer would turn exit 2 into exit 1.
	@# An ASan or UBSan report fails the test that printed it.
	@ASAN_OPTIONS=handle_segv=0:detect_leaks=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		meson test -C build-asan --suite quick --print-errorlogs \
		--timeout-multiplier $(SANITIZE_TIMEOUT_MULTIPLIER); \
	rc=$$?; tools/test-summary.py build-asan/meson-logs/testlog.json; \
	rc2=$$?; [ $$rc -eq 0 ] && [ $$rc2 -eq 0 ]

coverage:
	@tools/bootstrap.sh build-cov -Db_coverage=true
	@ninja -C build-cov
	@meson test -C build-cov --suite quick; true
	@ninja -C build-cov coverage-html >/dev/null
	@tools/coverage-summary.sh build-cov
	@echo "report: build-cov/meson-logs/coveragereport/index.html"

deep:
	@tools/bootstrap.sh build-deep -Ddeep=true
	@ninja -C build-deep
	@meson test -C build-deep --suite quick --suite deep --print-errorlogs; \
	rc=$$?; tools/test-summary.py build-deep/meson-logs/testlog.json; \
	rc2=$$?; [ $$rc -eq 0 ] && [ $$rc2 -eq 0 ]
	@$(MAKE) --no-print-directory fuzz SECONDS=60

# libFuzzer targets (tests/fuzz/meson.build), built with clang, ASan and
# UBSan in build-fuzz/; tools/fuzz.sh prints executions and crashes per
# target.  TARGETS=name... runs only those.
fuzz:
	@CC=clang tools/bootstrap.sh build-fuzz -Dfuzz=true -Dtests=disabled \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fsanitize=fuzzer-no-link -Dcontext=ucontext \
		-Djemalloc=disabled -Dbuildtype=debugoptimized
	@ninja -C build-fuzz
	@tools/fuzz.sh build-fuzz $(SECONDS) $(TARGETS)

# MPI ranks as the workers of a split search, in build-mpi/:
# tools/bootstrap.sh installs Open MPI for -Dmpi=enabled; tests/cli/
# test-mpi.sh compares mpirun -np 2 and 3 with the single process.
mpi:
	@tools/bootstrap.sh build-mpi -Dmpi=enabled
	@ninja -C build-mpi
	@meson test -C build-mpi cli-mpi cli-split --print-errorlogs

install-check: build
	@tools/install-check.sh $(BUILD)

# wpsim, libwpsim0, libwpsim-dev in build-deb/, then lintian (tools/deb.sh).
# tools/bootstrap.sh --deb installs debhelper, lintian, devscripts.
deb:
	@tools/bootstrap.sh --deb
	@tools/deb.sh build-deb

# The real kernel as a witness (not a test: CI's kernel may differ).
# PROBE_DIR must be on ext4 (the machine's root is).
PROBE_DIR ?= /tmp/wpsim-probe
probe-ext4-dio:
	@mkdir -p $(BUILD) $(PROBE_DIR)
	@gcc -O2 -Wall -Wextra -D_GNU_SOURCE -o $(BUILD)/ext4-dio-nowait-probe \
		tools/ext4-dio-nowait-probe.c
	@$(BUILD)/ext4-dio-nowait-probe $(PROBE_DIR)

probe-dontcache:
	@mkdir -p $(BUILD) $(PROBE_DIR)
	@gcc -O2 -Wall -Wextra -D_GNU_SOURCE -o $(BUILD)/dontcache-probe \
		tools/dontcache-probe.c
	@$(BUILD)/dontcache-probe $(PROBE_DIR) 2000

# The seeds' tables in the model (bench tier, not CI): docs/seed-tables.md.
# Two runs print the same bytes.
# Plots (gnuplot-nox, tools/bootstrap.sh --bench) in docs/plots/, with
# the latest probe-fio run as the witness.
tables: build
	@tools/bootstrap.sh --bench
	@python3 bench/seed-tables.py $(BUILD)/wpsim . --out $(BUILD)/tables
	@python3 bench/seed-plots.py $(BUILD)/tables docs/plots \
		$$(ls traces/real-kernel/probe-fio-*.txt | tail -1)

# The same jobs on this machine's kernel and in the model, side by side
# (not CI); results kept in traces/real-kernel/ with the kernel and date.
probe-fio: build
	@tools/bootstrap.sh --bench
	@mkdir -p $(PROBE_DIR) traces/real-kernel
	@gcc -O2 -Wall -Wextra -D_GNU_SOURCE -pthread \
		-o $(BUILD)/dontcache-interleaved-probe \
		tools/dontcache-interleaved-probe.c
	@tools/probe-fio.sh $(BUILD)/wpsim $(PROBE_DIR) \
		traces/real-kernel/probe-fio-$$(uname -r)-$$(date -u +%Y-%m-%d).txt

# Seed 004's inline io_uring buffered write on this kernel's XFS (a loop
# mount in /tmp; root) against the model's (not CI).
probe-xfs: build
	@tools/bootstrap.sh --bench
	@mkdir -p traces/real-kernel
	@tools/probe-xfs-uring.sh $(BUILD)/wpsim \
		traces/real-kernel/probe-xfs-uring-$$(uname -r)-$$(date -u +%Y-%m-%d).txt

# The running kernel as a differential oracle (issue 30; root, loop
# mounts of XFS and ext4 at 1 KiB and 4 KiB blocks in a temporary
# directory; xfsprogs: tools/bootstrap.sh --bench).  Not CI: CI's kernel
# may differ.  docs/model/fidelity.md, "Issue 30".
DIFF_SEED ?= 1
DIFF_N ?= 1000
DIFF_SECONDS ?= 0
diff-kernel: build
	@nice python3 tools/diff-kernel/diff-kernel.py --wpsim $(BUILD)/wpsim \
		run --seed $(DIFF_SEED) --n $(DIFF_N) --seconds $(DIFF_SECONDS)

# The kept corpus: tools/diff-kernel/cases.txt on this kernel (and kept
# random sequences given in DIFF_KEEP), into traces/real-kernel/.
DIFF_KEEP ?=
diff-kernel-corpus: build
	@python3 tools/diff-kernel/diff-kernel.py --wpsim $(BUILD)/wpsim \
		corpus-make tools/diff-kernel/cases.txt \
		traces/real-kernel/diff-kernel-$$(uname -r)-$$(date -u +%Y-%m-%d).txt \
		$(if $(DIFF_KEEP),--keep $(DIFF_KEEP))

# Issue 32 (docs/validation.md; root, not CI): `calibrate` measures this
# machine with named microbenchmarks on an XFS loop filesystem
# (tools/calibrate/loopfs.sh) and writes profiles/calibrated/$(CAL_NAME).cpu
# and .dev (wpsim fio --device/--cpu-profile take their paths); `validate` runs
# experiments/validation/grid.txt (which calibrate never reads) on the
# kernel and in the model and prints the error distribution.
CAL_NAME ?= virtio-vm-cal
CAL_REPS ?= 3
CAL_PROFILES ?= profiles/calibrated
LOOP_DIR ?= /var/tmp/wpsim-loop
VAL_PROFILES ?= virtio-vm,virtio-vm-cal
VAL_REPS ?= 3
VAL_ROWS ?=
# Drift anchors (validate.py ANCHORS): runs of each at the sitting's start
# and end, 0 for none; calibrate-ubench is their CPU micro-benchmark.
VAL_ANCHOR_REPS ?= 3
# What the three real-kernel targets share: the model built, the two probes
# they run on the kernel (the CPU micro-benchmark and the DONTCACHE
# interleaved writer), the loop filesystems up.
cal-tools: build
	@mkdir -p traces/real-kernel
	@gcc -O2 -Wall -Wextra -o $(BUILD)/calibrate-ubench \
		tools/calibrate/ubench.c
	@gcc -O2 -Wall -Wextra -D_GNU_SOURCE -pthread \
		-o $(BUILD)/dontcache-interleaved-probe \
		tools/dontcache-interleaved-probe.c
	@tools/calibrate/loopfs.sh up $(LOOP_DIR)

calibrate: cal-tools
	@python3 tools/calibrate/calibrate.py --wpsim-build $(BUILD) \
		--loop $(LOOP_DIR) --name $(CAL_NAME) --reps $(CAL_REPS) \
		--profiles $(CAL_PROFILES) \
		--out-raw traces/real-kernel/calibrate-$$(uname -r)-$$(date -u +%Y-%m-%dT%H%M).json

validate: cal-tools
	@python3 tools/calibrate/validate.py run --wpsim $(BUILD)/wpsim \
		--loop $(LOOP_DIR) --reps $(VAL_REPS) --profiles $(VAL_PROFILES) \
		--anchor-reps $(VAL_ANCHOR_REPS) \
		$(if $(VAL_ROWS),--rows '$(VAL_ROWS)') \
		--out traces/real-kernel/validate-$$(uname -r)-$$(date -u +%Y-%m-%dT%H%M).json

# Calibrate and validate in one sitting, round by round (the two sets
# alternate; tools/calibrate/sitting.sh, docs/validation.md "One sitting").
SIT_ROUNDS ?= 3
SIT_WITHOUT ?= loop.worker-cpu,virtio.ring
SIT_ACCEPT ?=
sitting: cal-tools
	@tools/calibrate/sitting.sh --build $(BUILD) --loop $(LOOP_DIR) \
		--name $(CAL_NAME) --rounds $(SIT_ROUNDS) \
		--profiles $(CAL_PROFILES) \
		$(if $(SIT_WITHOUT),--without $(SIT_WITHOUT)) \
		$(if $(SIT_ACCEPT),--accept-mode-change) \
		$(if $(VAL_ROWS),--rows '$(VAL_ROWS)')

clean:
	rm -rf build build-asan build-cov build-deep build-deb build-fuzz
