# wpsim - two commands on a fresh Debian machine:
#   make demo    install what is missing, build, run the main job
#   make test    install what is missing, build, run the quick test suite
# and the tiers behind them:
#   make bench       benchmarks (print ratios; never fail on timing)
#   make sanitize    the quick suite under ASan+UBSan (build-asan/)
#   make coverage    the quick suite with gcov, HTML report (build-cov/)
#   make deep        the deep tier (long explorations)
#   make install-check  install into a staging dir, build examples/ on it
#   make deb         the Debian packages wpsim, libwpsim-dev (build-deb/)
BUILD ?= build

.PHONY: all build demo test bench sanitize coverage deep clean probe-ext4-dio \
	probe-dontcache install-check deb

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

bench: build
	@$(BUILD)/bench/bench-switch
	@$(BUILD)/bench/bench-exec
	@$(BUILD)/bench/bench-dpor
	@$(BUILD)/bench/bench-device
	@$(BUILD)/bench/bench-timed
	@$(BUILD)/bench/calibrate-cpu

sanitize:
	@tools/bootstrap.sh build-asan -Db_sanitize=address,undefined \
		-Dcontext=ucontext -Djemalloc=disabled -Dbuildtype=debug
	@ninja -C build-asan
	@# The guard-page test needs the real SIGSEGV, not ASan's report.
	@# Leak checking is off: wpsim exits on usage errors without freeing
	@# what it parsed, and LeakSanitizer would turn exit 2 into exit 1.
	@ASAN_OPTIONS=handle_segv=0:detect_leaks=0 meson test -C build-asan \
		--suite quick \
		--print-errorlogs; \
	rc=$$?; tools/test-summary.py build-asan/meson-logs/testlog.json; \
	rc2=$$?; [ $$rc -eq 0 ] && [ $$rc2 -eq 0 ]

coverage:
	@tools/bootstrap.sh build-cov -Db_coverage=true
	@ninja -C build-cov
	@meson test -C build-cov --suite quick; true
	@ninja -C build-cov coverage-html
	@echo "report: build-cov/meson-logs/coveragereport/index.html"

deep:
	@tools/bootstrap.sh build-deep -Ddeep=true
	@ninja -C build-deep
	@meson test -C build-deep --suite quick --suite deep --print-errorlogs; \
	rc=$$?; tools/test-summary.py build-deep/meson-logs/testlog.json; \
	rc2=$$?; [ $$rc -eq 0 ] && [ $$rc2 -eq 0 ]
	@# A short fuzz run of the scenario parser (libFuzzer needs clang).
	@if command -v clang >/dev/null; then tools/litmus/fuzz.sh 60; \
	else echo "deep: no clang, fuzzing skipped (apt-get install clang)"; fi

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

clean:
	rm -rf build build-asan build-cov build-deep build-deb
