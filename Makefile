# cugrade - CUDA lab harness and autograder.
#
#   make            build bin/cugrade, bin/emucc and the emulator library
#   make grade      grade student/ (SUBMISSION=reference grades the reference;
#                   VERBOSE=1 lists every dataset)
#   make test       the whole test suite (Criterion), the race check (where
#                   ThreadSanitizer runs), then the Slurm test
#   make slurm-test tests/slurm/test_slurm.sh alone: cugrade batch --slurm on a
#                   one-node Slurm of its own (root; installs Debian's slurm)
#   make datasets   regenerate the shipped datasets from datasets/*/manifest.txt
#   make bench      print the speed benchmarks
#   make bench-hints the hint-accuracy benchmark: each buggy program of tests/hints/
#                   graded and its report judged right, generic or wrong (make test
#                   fails on a wrong one; bench/hint_corpus.c)
#   make gpu-build  compile (not run) the GPU build of the lab drivers with nvcc
#   make gpu-test   on a machine with a CUDA device: the jail's system calls
#                   on every lab (tests/gpu/sandbox.sh, with strace), the red-team submissions
#                   (tests/attacks/) and the challenge lab (its reference's
#                   score against cuBLAS, the rule on the SASS) on the GPU backend,
#                   the executor's results against the GPU's (tests/gpu/ptx_conformance.sh),
#                   and its launch records replayed there (tests/gpu/replay.sh)
#   make fuzz       run the libFuzzer harnesses (tests/fuzz/fuzz.mk, docs/fuzzing.md)
#   make race-check the grader's threads under ThreadSanitizer: a small batch on
#                   the emulator's GPU path (tools/race_check.sh, a few minutes)

CC       ?= gcc
CXX      ?= g++
# nvcc: $CUGRADE_NVCC, the one the grader compiles with (a toolkit of NVIDIA's
# wheels: tools/cuda_pip.sh), else PATH's, else the toolkit's usual place
NVCC     ?= $(or $(CUGRADE_NVCC),$(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc))
# the GPU architecture of the executor's test programs (not NVARCH: NVIDIA's
# CUDA images set that to the CPU's, x86_64)
CUGRADE_NVARCH ?= sm_90
LAB      ?= lab3
SUBMISSION ?= student
BACKEND  ?= auto

# Read on first use, after `deps` may have installed json-c and pkg-config.
JSON_CFLAGS = $(eval JSON_CFLAGS := $$(shell pkg-config --cflags json-c 2>/dev/null))$(JSON_CFLAGS)
JSON_LIBS   = $(eval JSON_LIBS := $$(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c))$(JSON_LIBS)
ARCHIVE_CFLAGS = $(eval ARCHIVE_CFLAGS := $$(shell pkg-config --cflags libarchive 2>/dev/null))$(ARCHIVE_CFLAGS)
ARCHIVE_LIBS   = $(eval ARCHIVE_LIBS := $$(shell pkg-config --libs libarchive 2>/dev/null || echo -larchive))$(ARCHIVE_LIBS)
NETTLE_CFLAGS = $(eval NETTLE_CFLAGS := $$(shell pkg-config --cflags nettle 2>/dev/null))$(NETTLE_CFLAGS)
NETTLE_LIBS   = $(eval NETTLE_LIBS := $$(shell pkg-config --libs nettle 2>/dev/null || echo -lnettle))$(NETTLE_LIBS)
PNG_CFLAGS = $(eval PNG_CFLAGS := $$(shell pkg-config --cflags libpng 2>/dev/null))$(PNG_CFLAGS)
PNG_LIBS   = $(eval PNG_LIBS := $$(shell pkg-config --libs libpng 2>/dev/null || echo -lpng16))$(PNG_LIBS)
SECCOMP_CFLAGS = $(eval SECCOMP_CFLAGS := $$(shell pkg-config --cflags libseccomp 2>/dev/null))$(SECCOMP_CFLAGS)
SECCOMP_LIBS   = $(eval SECCOMP_LIBS := $$(shell pkg-config --libs-only-L libseccomp 2>/dev/null) -Wl,-Bstatic -lseccomp -Wl,-Bdynamic)$(SECCOMP_LIBS)
LIBS = $(JSON_LIBS) $(ARCHIVE_LIBS) $(NETTLE_LIBS) $(PNG_LIBS)
LIB_CFLAGS = $(JSON_CFLAGS) $(ARCHIVE_CFLAGS) $(NETTLE_CFLAGS) $(PNG_CFLAGS) $(SECCOMP_CFLAGS)

# Warnings are errors here, in development and CI; an install elsewhere (the
# exported autograders, on whatever compiler their image has) builds with
# WERROR= so that a newer compiler's new warning cannot break a course.
WERROR    ?= -Werror
WARN      := -Wall -Wextra $(WERROR)
CFLAGS    ?= -O2 -g
CXXFLAGS  ?= -O2 -g
ALL_CFLAGS   = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Igrader -Ilabs/common -Iemu/rewrite $(LIB_CFLAGS)
EMU_CXXFLAGS = -std=c++17 $(WARN) $(CXXFLAGS) -Iemu/include -Iemu/src

B := build

# ---- the grader (C11) -------------------------------------------------------
# One folder per pipeline stage (grader/README.md); headers are included by
# their path under grader/, e.g. #include "run/runner.h".
# (bin/cugrade-replay's main is a program of its own, built where the toolkit is)
GRADER_SRC  := $(filter-out grader/replay/cugrade_replay%.c,$(wildcard grader/*/*.c))
GRADER_HDR  := $(wildcard grader/*/*.h)
GRADER_OBJ  := $(GRADER_SRC:%.c=$(B)/%.o)
GRADER_LIBOBJ := $(filter-out $(B)/grader/cli/main.o $(B)/grader/jail/%,$(GRADER_OBJ))
# bin/cugrade-jail: its own program (grader/jail/), linked with libseccomp
# statically, so that it runs wherever the sandbox shows it (no library of
# an unpacked .deb is seen inside bubblewrap)
JAIL_OBJ    := $(filter $(B)/grader/jail/%,$(GRADER_OBJ))
JAIL_LIBOBJ := $(filter-out $(B)/grader/jail/jail.o,$(JAIL_OBJ))

# ---- the emulator: launch rewriter (C11), runtime (C++17 + asm), emucc -------
REWRITE_SRC := $(wildcard emu/rewrite/*.c)
REWRITE_OBJ := $(REWRITE_SRC:%.c=$(B)/%.o)
EMU_SRC     := $(wildcard emu/src/*.cpp emu/src/*.c emu/src/*.S)
EMU_OBJ     := $(patsubst %,$(B)/%.o,$(EMU_SRC))

# ---- the executor: the PTX of nvcc run on a virtual GPU (C++17, emu/ptx/) ----
PTX_SRC     := $(wildcard emu/ptx/*.cpp)
PTX_OBJ     := $(patsubst %,$(B)/%.o,$(PTX_SRC))
# The runtime a program links instead of libcudart to run on the executor
# (emu/vcudart/), built against the toolkit's own headers; bin/cugrade-vgpu,
# the executor as a program; and the executor tests' programs (nvcc -c, then
# linked with that runtime, never with libcudart).
CUDA_INC    = $(patsubst %/bin/nvcc,%/include,$(realpath $(NVCC)))
VGPU_PROGS  := $(patsubst emu/tests/vgpu/%.cu,$(B)/vgpu/%,$(wildcard emu/tests/vgpu/*.cu))
# Its tests' kernels, compiled to PTX by nvcc as the executor will be given
# them: the references of lab 2, lab 3 and the dot product, and emu/tests/ptx/.
# lab 3's corpus of bug classes (tests/e2e/test_corpus.c), for emu/tests/test_ptx_corpus.cpp
PTX_CORPUS  := missing_first_barrier missing_second_barrier barrier_in_if early_return unguarded_loads \
               unguarded_store uninit_shared untiled transposed_mapping tile8 tile32 course_style
PTX_SUBMISSIONS := $(PTX_CORPUS:%=$(B)/ptx/%.ptx)
PTX_KERNELS := $(B)/ptx/lab2.ptx $(B)/ptx/lab3.ptx $(B)/ptx/dotprod.ptx \
               $(PTX_SUBMISSIONS) \
               $(patsubst emu/tests/ptx/%.cu,$(B)/ptx/%.ptx,$(wildcard emu/tests/ptx/*.cu))

.PHONY: all deps grade test unit-tests slurm-test datasets bench bench-hints gpu-build gpu-test race-check clean
# the vgpu backend's runtime, built against the CUDA toolkit's headers: with
# the toolkit only (an LMS image without it grades on the emulator)
# and the GPU's trusted runner, which replays the executor's launch records
# (grader/replay/): it opens libcuda at run time and needs only cuda.h to build
VGPU_RUNTIME := $(if $(wildcard $(NVCC)),$(B)/libcugrade_vcudart.a bin/cugrade-replay)
all: bin/cugrade bin/cugrade-jail bin/cugrade-vgpu bin/emucc $(B)/libcugrade_emu.a $(VGPU_RUNTIME) $(B)/emu-pch/stamp

# ---- the Debian packages (tools/deps.txt), checked before anything builds ----
# Every compile waits for it (order-only); it costs one dpkg-query when all is
# there, and installs what is missing as root (else: exit 2 and the sudo line).
DEPS_FOR := $(if $(filter test unit-tests slurm-test bench $(B)/tests/% $(B)/emu-tests/%,$(MAKECMDGOALS)),test,$(if $(filter fuzz fuzz-build fuzz-seeds $(B)/fuzz/%,$(MAKECMDGOALS)),fuzz,grade))
deps:
	@tools/deps.sh $(DEPS_FOR)

$(B)/grader/%.o: grader/%.c $(GRADER_HDR) labs/common/matbin.h | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/emu/rewrite/%.o: emu/rewrite/%.c $(wildcard emu/rewrite/*.h) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/emu/src/%.cpp.o: emu/src/%.cpp $(wildcard emu/src/*.h emu/include/*.h) | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -c $< -o $@
$(B)/emu/src/%.c.o: emu/src/%.c $(wildcard emu/src/*.h) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Iemu/src -c $< -o $@
$(B)/emu/src/%.S.o: emu/src/%.S | deps
	@mkdir -p $(@D)
	$(CC) -c $< -o $@

$(B)/libcugrade.a: $(GRADER_LIBOBJ)
	@rm -f $@; ar rcs $@ $^
$(B)/librewrite.a: $(REWRITE_OBJ)
	@rm -f $@; ar rcs $@ $^
$(B)/libcugrade_emu.a: $(EMU_OBJ)
	@rm -f $@; ar rcs $@ $^
$(B)/emu/ptx/%.cpp.o: emu/ptx/%.cpp $(wildcard emu/ptx/*.h) | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -Iemu/ptx -c $< -o $@
$(B)/libcugrade_ptx.a: $(PTX_OBJ)
	@rm -f $@; ar rcs $@ $^
$(B)/emu/vcudart/vcudart.o: emu/vcudart/vcudart.cpp emu/vcudart/host_blocks.h emu/vcudart/vcudart_wire.h emu/ptx/vgpu_protocol.h | deps
	@mkdir -p $(@D)
	$(CXX) -std=c++17 $(WARN) $(CXXFLAGS) -I$(CUDA_INC) -Iemu/ptx -c $< -o $@
$(B)/emu/vcudart/host_blocks.o: emu/vcudart/host_blocks.cpp emu/vcudart/host_blocks.h | deps
	@mkdir -p $(@D)
	$(CXX) -std=c++17 $(WARN) $(CXXFLAGS) -c $< -o $@
$(B)/emu/vcudart/symbols.o: emu/vcudart/symbols.cpp emu/vcudart/vcudart_wire.h emu/ptx/vgpu_protocol.h | deps
	@mkdir -p $(@D)
	$(CXX) -std=c++17 $(WARN) $(CXXFLAGS) -I$(CUDA_INC) -Iemu/ptx -c $< -o $@
$(B)/libcugrade_vcudart.a: $(B)/emu/vcudart/vcudart.o $(B)/emu/vcudart/host_blocks.o $(B)/emu/vcudart/symbols.o
	@rm -f $@; ar rcs $@ $^
VGPU_TOOL_SRC := emu/tools/cugrade_vgpu.cpp emu/tools/vgpu_calls.cpp emu/tools/vgpu_findings.cpp emu/tools/vgpu_replay.cpp
bin/cugrade-vgpu: $(VGPU_TOOL_SRC) $(wildcard emu/tools/vgpu_*.h) labs/common/matbin.h $(B)/libcugrade_ptx.a $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -Iemu/ptx -Igrader -Ilabs/common $(JSON_CFLAGS) $(VGPU_TOOL_SRC) \
	    $(B)/libcugrade_ptx.a $(B)/libcugrade.a $(LIBS) -lm -ldl -o $@
REPLAY_SRC  := $(wildcard grader/replay/cugrade_replay*.c)
bin/cugrade-replay: $(REPLAY_SRC) $(wildcard grader/replay/cugrade_replay*.h) $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(CUDA_INC) -DCUGRADE_CUDA_LIB='"$(patsubst %/include,%/lib64,$(CUDA_INC))"' \
	    $(REPLAY_SRC) $(B)/libcugrade.a $(LIBS) -lm -ldl -o $@
# a lab's program on the executor: its kind's vgpu_main.cu and a student's file
VGPU_CALL = @mkdir -p $(@D); \
	$(NVCC) -c -arch=$(CUGRADE_NVARCH) -Ilabs/common $< -o $@.student.o && \
	$(NVCC) -c -arch=$(CUGRADE_NVARCH) -Ilabs/common -Ilabs/kinds/matmul -DCUGRADE_LAUNCH=launchMatrixMultiplyShared \
	    labs/kinds/matmul/vgpu_main.cu -o $@.main.o && \
	$(CXX) $@.student.o $@.main.o $(B)/libcugrade_vcudart.a -lpthread -o $@
VGPU_CALLS  := $(B)/vgpu/call_lab3 $(B)/vgpu/call_host_launch $(B)/vgpu/wb_lab3 $(B)/vgpu/wb_host_solution \
               $(B)/vgpu/call_dotprod
$(B)/vgpu/call_dotprod: reference/dotprod/dotprod.cu labs/kinds/reduction/vgpu_main.cu $(B)/libcugrade_vcudart.a | deps
	@mkdir -p $(@D)
	$(NVCC) -c -arch=$(CUGRADE_NVARCH) -Ilabs/common $< -o $@.student.o
	$(NVCC) -c -arch=$(CUGRADE_NVARCH) -DCUGRADE_LAUNCH=launchDotProduct labs/kinds/reduction/vgpu_main.cu -o $@.main.o
	$(CXX) $@.student.o $@.main.o $(B)/libcugrade_vcudart.a -lpthread -o $@
# a libwb program on the executor: wb_io.cu with -DCUGRADE_VGPU hands wbSolution to it
VGPU_WB = @mkdir -p $(@D); \
	$(NVCC) -c -arch=$(CUGRADE_NVARCH) -Ilabs/common $< -o $@.student.o && \
	$(NVCC) -c -arch=$(CUGRADE_NVARCH) -Ilabs/common -DCUGRADE_VGPU labs/common/wb_io.cu -o $@.wb_io.o && \
	$(CXX) $@.student.o $@.wb_io.o $(B)/libcugrade_vcudart.a -lpthread -o $@
$(B)/vgpu/wb_lab3: reference/lab3-wb/template.cu labs/common/wb_io.cu labs/common/wb.h $(B)/libcugrade_vcudart.a | deps
	$(VGPU_WB)
$(B)/vgpu/wb_host_solution: emu/tests/vgpu/wb/host_solution.cu labs/common/wb_io.cu labs/common/wb.h $(B)/libcugrade_vcudart.a | deps
	$(VGPU_WB)
$(B)/ptx/lab3wb.ptx: reference/lab3-wb/template.cu | deps
	$(NVCC_PTX)
$(B)/ptx/wb_host_solution.ptx: emu/tests/vgpu/wb/host_solution.cu | deps
	$(NVCC_PTX)
$(B)/vgpu/call_lab3: reference/lab3/matmul.cu labs/kinds/matmul/vgpu_main.cu $(B)/libcugrade_vcudart.a | deps
	$(VGPU_CALL)
$(B)/vgpu/call_host_launch: emu/tests/vgpu/students/host_launch.cu labs/kinds/matmul/vgpu_main.cu $(B)/libcugrade_vcudart.a | deps
	$(VGPU_CALL)
$(VGPU_PROGS): $(B)/vgpu/%: emu/tests/vgpu/%.cu $(B)/libcugrade_vcudart.a reference/lab3/matmul.cu $(wildcard emu/tests/ptx/*.cu) | deps
	@mkdir -p $(@D)
	$(NVCC) -c -arch=$(CUGRADE_NVARCH) -Ilabs/common $< -o $@.o
	$(CXX) $@.o $(B)/libcugrade_vcudart.a -lpthread -o $@
NVCC_PTX = @mkdir -p $(@D); $(NVCC) -ptx -lineinfo -arch=$(CUGRADE_NVARCH) -Ilabs/common $< -o $@
$(B)/ptx/lab2.ptx: reference/lab2/matmul.cu | deps
	$(NVCC_PTX)
$(B)/ptx/lab3.ptx: reference/lab3/matmul.cu | deps
	$(NVCC_PTX)
$(B)/ptx/dotprod.ptx: reference/dotprod/dotprod.cu | deps
	$(NVCC_PTX)
$(PTX_SUBMISSIONS): $(B)/ptx/%.ptx: tests/submissions/lab3/%.cu | deps
	$(NVCC_PTX)
$(patsubst emu/tests/ptx/%.cu,$(B)/ptx/%.ptx,$(wildcard emu/tests/ptx/*.cu)): $(B)/ptx/%.ptx: emu/tests/ptx/%.cu | deps
	$(NVCC_PTX)

bin/cugrade: $(B)/grader/cli/main.o $(B)/libcugrade.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $^ $(LIBS) -lm -ldl -o $@

# libseccomp's argument macros (SCMP_A0_32, ...) leave a field to its zero, which
# a newer gcc than Debian 12's warns about (seen with the GPU image's): theirs, not ours
$(B)/grader/jail/policy.o: WARN += -Wno-missing-field-initializers

bin/cugrade-jail: $(JAIL_OBJ) $(B)/libcugrade.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $^ $(SECCOMP_LIBS) -o $@

# The same grader built with ThreadSanitizer, for tools/race_check.sh (make race-check).
bin/cugrade-tsan: $(GRADER_SRC) $(GRADER_HDR) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O1 -fsanitize=thread $(filter-out grader/jail/%,$(GRADER_SRC)) $(LIBS) -lm -ldl -lpthread -o $@

# emucc shares the grader's file helpers (grader/util/util.c), from its library;
# they hash with nettle (grader/util/sha256.c).
bin/emucc: emu/tools/emucc.c $(wildcard emu/tools/*.h) $(B)/librewrite.a $(B)/libcugrade_emu.a $(B)/libcugrade.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) emu/tools/emucc.c $(B)/librewrite.a $(B)/libcugrade.a $(NETTLE_LIBS) -o $@

# the emulator's header precompiled for g++, the compiler emucc uses unless
# CUGRADE_CXX says otherwise (emu/tools/emucc_pch.h): a student file's
# emulator compile in about a third of the time
$(B)/emu-pch/stamp: bin/emucc $(wildcard emu/include/*.h)
	env -u CUGRADE_CXX bin/emucc --pch
	@touch $@

# ---- grading -----------------------------------------------------------------
# A value as one word of the shell, whatever it holds (a path with a space or a quote).
shell_word = '$(subst ','\'',$(1))'

grade: all | deps
	@bin/cugrade run --lab $(call shell_word,$(LAB)) --backend $(call shell_word,$(BACKEND)) $(if $(VERBOSE),--verbose) --json $(B)/results.json --html $(B)/report.html $(call shell_word,$(SUBMISSION))

datasets: bin/cugrade
	tools/make_datasets.sh $(LAB)

# ---- tests -------------------------------------------------------------------
CRIT_LIBS := -lcriterion
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
E2E_SRC   := $(wildcard tests/e2e/test_*.c)
E2E_BIN   := $(E2E_SRC:tests/e2e/%.c=$(B)/tests/%)
EMUT_C    := $(wildcard emu/tests/test_*.c)
EMUT_CPP  := $(wildcard emu/tests/test_*.cpp)
EMUT_BIN  := $(EMUT_C:emu/tests/%.c=$(B)/emu-tests/%) $(EMUT_CPP:emu/tests/%.cpp=$(B)/emu-tests/%)

$(B)/tests/%: tests/unit/%.c $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-field-initializers $< $(B)/libcugrade.a $(CRIT_LIBS) $(LIBS) -lm -ldl -o $@
$(B)/tests/%: tests/e2e/%.c $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-field-initializers $< $(B)/libcugrade.a $(CRIT_LIBS) $(LIBS) -lm -ldl -o $@
$(B)/tests/test_jail_%: tests/unit/test_jail_%.c $(JAIL_LIBOBJ) $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-field-initializers $< $(JAIL_LIBOBJ) $(B)/libcugrade.a $(CRIT_LIBS) $(LIBS) $(SECCOMP_LIBS) -lm -ldl -o $@
$(B)/tests/test_archive $(B)/tests/test_attack_archives $(B)/tests/test_submission_files: tests/attacks/archive_fixtures.h
$(B)/tests/test_hypotheses_layout $(B)/tests/test_hypotheses_phases $(B)/tests/test_hypotheses_limits: tests/unit/hypotheses_case.h
$(B)/tests/test_grouped $(B)/tests/test_grouped_crashes: tests/e2e/grouped_case.h
$(B)/tests/test_html_report $(B)/tests/test_student_report_browser: tests/e2e/browser.h
$(B)/tests/test_grader_fault $(B)/tests/test_build_cache: tests/e2e/tree_case.h
$(B)/emu-tests/%: emu/tests/%.c $(wildcard emu/tests/*.h) $(B)/librewrite.a $(B)/libcugrade_emu.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-field-initializers $< $(B)/librewrite.a $(CRIT_LIBS) -o $@
$(B)/emu-tests/%: emu/tests/%.cpp $(B)/libcugrade_emu.a $(wildcard emu/include/*.h emu/tests/*.h) | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -include cugrade_emu.h $< $(B)/libcugrade_emu.a $(CRIT_LIBS) -lpthread -o $@
$(B)/emu-tests/test_ptx_%: emu/tests/test_ptx_%.cpp $(B)/libcugrade_ptx.a $(PTX_KERNELS) $(wildcard emu/ptx/*.h emu/tests/*.h emu/tests/ptx/*.h) | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -Iemu/ptx $< $(B)/libcugrade_ptx.a $(CRIT_LIBS) -lpthread -o $@
$(B)/emu-tests/test_vgpu: emu/tests/test_vgpu.cpp bin/cugrade-vgpu $(VGPU_PROGS) $(VGPU_CALLS) $(PTX_KERNELS) $(B)/ptx/lab3wb.ptx $(B)/ptx/wb_host_solution.ptx bin/cugrade | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -Igrader $(JSON_CFLAGS) $< $(B)/libcugrade.a $(CRIT_LIBS) $(LIBS) -lm -ldl -o $@
# test_wb*.cpp test labs/common/wb.h (included by a relative path) with its
# harness object, labs/common/wb_io.cu, linked as the grader links it.
$(B)/emu-tests/wb_io.o: labs/common/wb_io.cu labs/common/wb.h labs/common/wb_raw.h $(wildcard emu/include/*.h) | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -include cugrade_emu.h -x c++ -c $< -o $@
$(B)/emu-tests/test_wb $(B)/emu-tests/test_wb_run: $(B)/emu-tests/test_%: emu/tests/test_%.cpp $(B)/emu-tests/wb_io.o $(B)/libcugrade_emu.a $(wildcard emu/include/*.h emu/tests/*.h) labs/common/wb.h
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -include cugrade_emu.h $< $(B)/emu-tests/wb_io.o $(B)/libcugrade_emu.a $(CRIT_LIBS) -lpthread -o $@

# Kernels of the checking-mode tests (emu/tests/check_*.cpp) are compiled like
# `emucc --checks` compiles student code: with the access hooks, linked without
# libtsan. A static pattern rule, so the generic test rule above never applies.
EMUT_CHECK_OBJ := $(patsubst emu/tests/%.cpp,$(B)/emu-tests/%.o,$(wildcard emu/tests/check_*.cpp))
$(EMUT_CHECK_OBJ): $(B)/emu-tests/%.o: emu/tests/%.cpp $(wildcard emu/include/*.h emu/tests/*.h) | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -include cugrade_emu.h -fsanitize=thread -O1 -g -fno-omit-frame-pointer -fno-tree-sra -c $< -o $@
$(B)/emu-tests/test_emu_check%: emu/tests/test_emu_check%.cpp $(EMUT_CHECK_OBJ) $(B)/libcugrade_emu.a $(wildcard emu/include/*.h emu/tests/*.h)
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -include cugrade_emu.h $< $(EMUT_CHECK_OBJ) $(B)/libcugrade_emu.a $(CRIT_LIBS) -lpthread -o $@

# the red team's own program, started by the tests as a student's program is
# (tests/e2e/test_sandbox_tiers.c); never run it outside a sandbox by hand
$(B)/tests/sandbox_probe: tests/attacks/sandbox_probe.c | deps
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -O1 $< -o $@

unit-tests: $(UNIT_BIN) $(EMUT_BIN) $(E2E_BIN) $(B)/tests/sandbox_probe

test: all unit-tests $(B)/bench/hint_corpus | deps
	tests/run_all.sh $(EMUT_BIN) $(UNIT_BIN) $(E2E_BIN)
	$(B)/bench/hint_corpus --backend auto --jobs 2
	tools/race_check.sh --if-usable
	tests/slurm/test_slurm.sh

slurm-test: all | deps
	tests/slurm/test_slurm.sh

# ---- benchmarks and the GPU build check --------------------------------------
bench: all $(B)/bench/queue_scaling $(B)/bench/ptx_exec
	bench/run.sh
	bench/queue_scaling.sh
	$(B)/bench/ptx_exec
	bench/vgpu_grade.sh

$(B)/bench/ptx_exec: bench/ptx_exec.cpp $(B)/libcugrade_ptx.a $(PTX_KERNELS) | deps
	@mkdir -p $(@D)
	$(CXX) $(EMU_CXXFLAGS) -Iemu/ptx $< $(B)/libcugrade_ptx.a -o $@

# what one sandboxed run costs (bench/sandbox_runs.c); not in make bench: the
# machine's namespaces, not cugrade, are most of it
$(B)/bench/sandbox_runs: bench/sandbox_runs.c $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< $(B)/libcugrade.a $(LIBS) -lm -lpthread -o $@

# the hint-accuracy benchmark (bench/hint_corpus.c) and its rules' unit test
bench-hints: all $(B)/bench/hint_corpus
	$(B)/bench/hint_corpus --backend emu --jobs 2
	$(B)/bench/hint_corpus --backend vgpu --jobs 2
$(B)/bench/hint_corpus: bench/hint_corpus.c bench/hint_classify.c bench/hint_classify.h $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) bench/hint_corpus.c bench/hint_classify.c $(B)/libcugrade.a $(LIBS) -lm -lpthread -o $@
$(B)/tests/test_hint_classify: tests/unit/test_hint_classify.c bench/hint_classify.c bench/hint_classify.h $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ibench -Wno-missing-field-initializers $< bench/hint_classify.c $(B)/libcugrade.a $(CRIT_LIBS) $(LIBS) -lm -ldl -o $@

$(B)/bench/queue_scaling: bench/queue_scaling.c $(B)/libcugrade.a | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< $(B)/libcugrade.a $(LIBS) -lm -lpthread -o $@
$(B)/bench/report_channel: bench/report_channel.c $(B)/libcugrade.a | deps ; @mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) $< $(B)/libcugrade.a $(LIBS) -lm -lpthread -o $@

gpu-build: bin/cugrade
	tools/gpu_build_check.sh "$(NVCC)" "$(CUGRADE_NVARCH)"

gpu-test: all
	tests/gpu/sandbox.sh
	tests/gpu/attacks.sh
	CUGRADE_GPU_TEST_BACKEND=gpu tests/gpu/attacks.sh
	tests/gpu/challenge.sh
	CUGRADE_GPU_TEST_BACKEND=gpu tests/gpu/challenge.sh
	tests/gpu/ptx_conformance.sh
	tests/gpu/replay.sh

race-check: all
	tools/race_check.sh

include tests/fuzz/fuzz.mk

clean:
	rm -rf $(B) bin
