# tests/fuzz/fuzz.mk - `make fuzz`: the libFuzzer harnesses of the readers
# of untrusted input (tests/fuzz/fuzz_*.c; docs/fuzzing.md), included from
# the Makefile. The grader's sources the harnesses reach are compiled again
# with clang, the fuzzer's coverage and AddressSanitizer +
# UndefinedBehaviorSanitizer (any report aborts), into build/fuzz/.
#
#   make fuzz                     every harness, FUZZ_RUNS executions each
#   make fuzz FUZZ_RUNS=100000    fewer
#   make fuzz FUZZ_NAMES=archive  one harness
#   make fuzz FUZZ_FLAGS=-jobs=2  extra libFuzzer flags
#   make fuzz-build               build the harnesses only
#   make fuzz-seeds               rewrite tests/fuzz/corpus/archive/ (seed_archives.c)
#
# Each harness starts from its committed seed corpus tests/fuzz/corpus/NAME/
# (read only) and keeps what it finds in build/fuzz/corpus/NAME/. A crash,
# a sanitizer report, a timeout (-timeout=10 s) or more than 2 GiB of memory
# fails make fuzz, naming the harness, its log and the input that did it.

FUZZ_CC    ?= clang
FUZZ_RUNS  ?= 10000000
FUZZ_NAMES ?= raw lab rubric archive measured group srccheck ptx trace
FUZZ_FLAGS ?=
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all
# -Wno-string-concatenation: score/checks.c's messages are long literals split over lines
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -Wno-string-concatenation -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) \
              -Igrader -Ilabs/common -Iemu/rewrite $(LIB_CFLAGS)
# The sources the harnesses reach (what fuzz_*.c call, and what that links).
FUZZ_SRC   := grader/util/util.c grader/util/sha256.c grader/util/root.c grader/util/tmpdir.c grader/util/fds.c \
              grader/util/strmap.c grader/util/tally.c grader/dataset/rawio.c \
              grader/course/config.c grader/course/lab.c grader/course/rubric.c \
              $(wildcard grader/kinds/*.c) grader/compare/compare.c grader/dataset/gen.c \
              grader/batch/archive.c grader/batch/archive_put.c $(wildcard grader/score/*.c) \
              grader/report/results.c grader/run/emureport.c grader/build/backend.c \
              grader/build/rules.c grader/build/rules_source.c grader/build/srclex.c grader/build/srccheck.c \
              grader/run/runner.c grader/run/sandbox.c grader/run/sandbox_argv.c \
              grader/run/sandbox_jail.c grader/run/sandbox_tier.c grader/run/group_split.c \
              grader/replay/trace.c grader/replay/replay.c grader/replay/replay_io.c
FUZZ_OBJ   := $(FUZZ_SRC:%.c=$(B)/fuzz/%.o)
FUZZ_BINS  := $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-seeds

$(B)/fuzz/grader/%.o: grader/%.c $(GRADER_HDR) labs/common/matbin.h | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(B)/fuzz/libcugrade.a: $(FUZZ_OBJ)
	@rm -f $@; ar rcs $@ $^

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(B)/fuzz/libcugrade.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(B)/fuzz/libcugrade.a $(LIBS) -lm -ldl -o $@

# the executor (C++17): its sources compiled into the harness itself
$(B)/fuzz/fuzz_ptx: tests/fuzz/fuzz_ptx.cpp $(PTX_SRC) $(wildcard emu/ptx/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC)++ -std=c++17 $(WARN) -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer \
	    -Iemu/ptx $< $(PTX_SRC) -o $@

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	tests/fuzz/run.sh "$(FUZZ_RUNS)" "$(FUZZ_FLAGS)" $(FUZZ_NAMES)

$(B)/fuzz/seed_archives: tests/fuzz/seed_archives.c tests/attacks/archive_fixtures.h | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< $(ARCHIVE_LIBS) -o $@

fuzz-seeds: $(B)/fuzz/seed_archives
	$(B)/fuzz/seed_archives tests/fuzz/corpus/archive
