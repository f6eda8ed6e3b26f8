# smk-qos: top-level build. `make run` and `make test` do their own set-up (scripts/setup.sh).
#
#   make run            default scenario: smk on gtx980, QoS tpacf + non-QoS spmv, QoS manager, Rollover (C model)
#   make run-sm         one gtx980 SM, two kernels, Rollover, fixed quotas, C model + RTL lockstep
#   make test           set-up, lint, hw/ checks, unit tests on every named configuration, cosim on small and gtx980,
#                       the edge configurations and one random one (under 15 minutes on 2 cores)
#   make cosim-all      the cosim regression's seeds on every named configuration (pascal56's is not in make test)
#   make lint           verilator --lint-only -Wall on every RTL unit (named configurations, or CONFIG if given)
#   make cosim          the cosim regression's seeds on CONFIG only (testbench/cosim/plan.sh quick)
#   make cosim-long     many seeds and cycles on every named configuration (not in `make test`)
#   make test-configs   N random legal configurations from SEED (or CFGS=files): build, lint, unit, short cosims
#   make area           Yosys area per block and configuration -> docs/area.md, build/area/area.csv
#   make bench          C model vs Verilator speed on the same SM-level stimulus (CONFIG)
#   make mutate         Yosys mutation testing of the RTL against the cosim -> docs/mutation.md
#   make formal         Yosys SAT induction proofs of warp_sched, preempt_engine, quota_unit and qos_mgr (small), non-vacuity checked
#   make formal-long    the slow proofs (sm_top's slot table, about 10 minutes; the population count on
#                       32-48 bits, about 3; not in make test)
#   make formal-driver  the sm_driver induction proof (testbench/formal/drv_formal.cfg, drv_pipe 1 and 0; not in make test)
#   make formal-driver-large  the same on 4 kernels and on 3 SMs (drv_formal_k4.cfg, drv_formal_s3.cfg; not in make test)
#   make timing         logic depth per block (AND2 levels, FO4 at 1216 MHz, iCE40 LUT levels) -> docs/timing.md
#   make fpga           every block out of context on an iCE40 HX8K (nextpnr): LCs, Fmax -> docs/fpga.md
#   make fpga-sig       bitstreams of preempt_engine, warp_sched, quota_unit and sm_top (one SM) with an on-chip stimulus: C model = RTL = netlists' signature
#   make coverage       Verilator line, toggle and spec-rule cover-point coverage of the cosim regression (small), lcov HTML
#   make sweep          the papers' pair evaluation (QoS_reach, STP) on the C model -> build/sweep (docs/sweep.md)
#   make reproduce      every published figure of the papers against the model -> docs/reproduce.md (hours; docs/sweep.md)
#   make ctx-table      save/restore cycles of the Parboil-like TB shapes (formula = C model) -> docs/ctx_table.md
#   make fuzz           libFuzzer on every parser a user feeds, a short deterministic run each (in make test)
#   make fuzz-long      the long fuzzing campaign: 10M executions or 1 hour per parser (docs/verification.md)
#   make clean
#
# CONFIG is a name in hw/configs/ or a path to your own .cfg (same format).
# The RTL units, their files and their cosim harnesses: hw/blocks.def (scripts/blocks.sh).

CONFIG  ?= gtx980
CONFIGS := gtx980 pascal56 small
# the named configurations whose cosims run in `make test` (every one's in make cosim-all / cosim-long):
# pascal56's harnesses take 291 s of CPU to build and run, and it differs from gtx980 only in NUM_SM
# (56) and SCHED_PER_SM (2, small's); make test still runs its unit tests and smk. Its lint (78 s of
# CPU, 62 of them gpu_top's 56 SMs) is make lint's and make cosim-all's
TEST_COSIM_CONFIGS := small gtx980
COSIM_CONFIGS ?= $(CONFIGS)
BENCH_RTL_CYCLES ?= 1000000
B       := build
SHELL   := /bin/bash

CC      ?= gcc
CXX     ?= g++
CFLAGS_COMMON := -std=c11 -Wall -Wextra -Werror -g
# The C model is the architects' fast path: -O3, and the hardware popcount where the CPU has it
COPT    := -O3 $(if $(filter x86_64,$(shell uname -m)),-mpopcnt)
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# every object records the headers it read (automatic dependencies, included below)
DEP     := -MMD -MP
JOBS    ?= 2

CMODEL_SRC := $(wildcard cmodel/*.c)
SIM_SRC    := $(wildcard cmodel/sim/*.c)
TB_SRC     := $(wildcard testbench/cosim/*.c)
UNIT_SRC   := $(wildcard testbench/test_*.c)
# include paths of everything built from C: the generated header of the configuration comes first
c_inc   = -I$(B)/$(1) -Icmodel -Icmodel/sim -Itestbench -Itestbench/cosim

# ---- the RTL manifest (hw/blocks.def): UNITS, RTL_<unit> (files in dependency order), HARNESSES,
# HARNESS_<name> (unit and shim)
ifneq ($(MAKECMDGOALS),clean)
include $(B)/blocks.mk
endif
$(B)/blocks.mk: hw/blocks.def scripts/blocks.sh
	@mkdir -p $(B)
	bash scripts/blocks.sh mk > $@.tmp && mv $@.tmp $@
RTL_FILES := $(sort $(foreach u,$(UNITS),$(RTL_$(u))) $(wildcard rtl/*.vh))
# the units whose own RTL file has spec-rule cover points (`ifdef SMK_COVER; make coverage)
COVER_UNITS := $(foreach u,$(UNITS),$(if $(shell grep -l 'ifdef SMK_COVER' rtl/$(u).v 2>/dev/null),$(u)))
# a harness's top unit and its C++ sources (the shim first)
vl_unit = $(word 1,$(HARNESS_$(1)))
vl_cpp  = $(addprefix testbench/cosim/,$(wordlist 2,99,$(HARNESS_$(1))))

# A named configuration builds in build/NAME; a file given by its path in build/BASE-HASH, HASH from
# its absolute path, so that two files of the same base name never share a directory and a file
# never shares one with the named configuration of its base name.
cfgname = $(if $(filter %.cfg,$(1)),$(basename $(notdir $(1)))-$(shell printf '%s' '$(abspath $(1))' | sha1sum | cut -c1-8),$(1))
cfgfile = $(if $(filter %.cfg,$(1)),$(1),hw/configs/$(1).cfg)
CFGN    := $(call cfgname,$(CONFIG))
ifneq ($(filter %.cfg,$(CONFIG)),)
ifneq ($(filter $(B)/$(basename $(notdir $(CONFIG)))/%,$(MAKECMDGOALS)),)
$(error CONFIG=$(CONFIG) builds in $(B)/$(CFGN)/; $(B)/$(basename $(notdir $(CONFIG)))/ is another configuration's: make CONFIG=$(CONFIG) $(patsubst $(B)/$(basename $(notdir $(CONFIG)))/%,$(B)/$(CFGN)/%,$(filter $(B)/$(basename $(notdir $(CONFIG)))/%,$(MAKECMDGOALS))))
endif
endif

# the harnesses are built without waveforms (a quarter less to compile, a sixth faster to run); each
# has a twin with --trace-fst in build/CONFIG/wave/ that its replay command builds (cosim_wave.h)
# The Verilated model in one translation unit (VM_PARALLEL_BUILDS=0: 5% less CPU; the harnesses build
# JOBS at a time anyway), and Verilator's run-time library (verilated*.cpp, 4.6 s a harness) compiled
# once per set of flags through ccache where it is installed, its cache in build/ccache
# -fno-const-bit-op-tree: Verilator 5.006 miscompiles some bit-op trees (docs/verification.md "Tool
# problems found"), among them SMK_SKL_ADD's prefix nets in a generate loop
VERILATOR_FLAGS := --cc --exe --build -j $(JOBS) -Wno-fatal -fno-const-bit-op-tree -MAKEFLAGS VM_PARALLEL_BUILDS=0 \
                   $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache) -CFLAGS -std=c++14
export CCACHE_DIR ?= $(abspath $(B))/ccache
# the Verilated model's optimisation (Verilator's OPT_FAST) for configuration $(1): -O2 for the named
# configurations (hw/configs: the long regressions and make bench); -O1 for a configuration given as a
# file (edge-test, test-configs: built for a few short runs), which halves the compile for 8% more run
# time (testbench/configs/ks1.cfg's cosim_drv: 23.6 s of CPU to compile against 43.5 s, 12.6 s against
# 11.7 s to run 100K cycles; -O0 compiles in 11 s and runs in 521 s). VL_OPT=-On sets both
vl_opt = $(or $(VL_OPT),$(if $(filter $(1),$(CONFIGS)),-O2,-O1))

.PHONY: FORCE all run run-sm test setup lint cosim cosim-all cosim-long area area-test bench mutate formal formal-long formal-driver formal-driver-large clean unit hwgen-test help edge-test print-cfgdir \
        sweep ctx-table ctx-table-check workload-test smk-check reproduce reproduce-test fuzz fuzz-long test-configs config-test \
        timing timing-test fpga fpga-sig fpga-sig-test coverage
.DELETE_ON_ERROR:

all: $(B)/$(CFGN)/cosim_issue

FORCE:

help:
	@sed -n '2,25p' Makefile | sed 's/^# \{0,1\}//'

setup:
	@bash scripts/setup.sh

$(B)/hwgen: hw/hwgen.c
	@mkdir -p $(B)
	$(CC) $(CFLAGS_COMMON) -O2 -o $@ $<

# the default scenario's workload embedded in smk as a C string (`smk run` needs no file; docs/smk.md)
$(B)/default_wl.c: cmodel/sim/workloads/parboil.wl
	@mkdir -p $(B)
	awk 'BEGIN { print "/* generated from cmodel/sim/workloads/parboil.wl by the Makefile: do not edit */"; \
	  print "const char smk_default_wl[] ="; } { sub(/\r$$/, ""); o = ""; for (i = 1; i <= length($$0); i++) { \
	  c = substr($$0, i, 1); o = o (c == "\\" || c == "\"" || c == "?" ? "\\" : "") c; } \
	  printf "    \"%s\\n\"\n", o; } END { print "    \"\";"; }' $< > $@

# ---- one Verilator harness: $(1) = configuration, $(2) = harness (hw/blocks.def), $(3) = extra
# archives, $(4) = extra Verilator arguments, $(5) = a variant's subdirectory of build/$(1) (cov/: the
# coverage build of `make coverage`). The C model and the environments are built by gcc into
# archives and linked by absolute path; the shim's header dependencies are recorded after each build.
define VL_HARNESS
$(B)/$(1)/$(5)$(2): $(RTL_$(call vl_unit,$(2))) $(wildcard rtl/$(call vl_unit,$(2)).vlt) $(call vl_cpp,$(2)) $(3) \
                $(B)/$(1)/libtb.a $(B)/$(1)/libsmk.a $(B)/$(1)/smk_cfg.vh $(wildcard rtl/*.vh) $(B)/$(1)/cosim_wave.h
	@mkdir -p $(B)/$(1)/$(5)
	@rm -f $$@ $(B)/$(1)/$(5)vl_$(2)/$(2)  # relink: Verilator's make only relinks a missing executable, and finds $$@ through its VPATH
	verilator $(VERILATOR_FLAGS) -MAKEFLAGS OPT_FAST=$(call vl_opt,$(1)) --top-module $(call vl_unit,$(2)) -I$(abspath $(B)/$(1)) -I$(abspath rtl) \
	  --Mdir $(B)/$(1)/$(5)vl_$(2) -o $(2) -CFLAGS "$(foreach d,$(call c_inc,$(1)),-I$(abspath $(patsubst -I%,%,$(d))))" $(4) \
	  $(abspath $(wildcard rtl/$(call vl_unit,$(2)).vlt) $(RTL_$(call vl_unit,$(2))) $(call vl_cpp,$(2))) \
	  $(abspath $(3) $(B)/$(1)/libtb.a $(B)/$(1)/libsmk.a) > $(B)/$(1)/$(5)vl_$(2).log 2>&1 \
	  || { tail -30 $(B)/$(1)/$(5)vl_$(2).log; exit 1; }
	@bash scripts/deps.sh $$@ $(call c_inc,$(1)) $(call vl_cpp,$(2)) > $(B)/$(1)/$(5)vl_$(2).d
	install -m 755 $(B)/$(1)/$(5)vl_$(2)/$(2) $$@
-include $(B)/$(1)/$(5)vl_$(2).d
endef

# ---- per-configuration rules: $(1) = name, $(2) = configuration file
define CONFIG_RULES
$(B)/$(1)/smk_cfg.h: $(2) hw/regmap.def $(B)/hwgen
	@mkdir -p $(B)/$(1)
	$(B)/hwgen $(2) hw/regmap.def $(B)/$(1)
$(B)/$(1)/smk_cfg.vh: $(B)/$(1)/smk_cfg.h
	@test -f $$@

# the C model (libsmk.a); the simulator (sim/); the cosim environments (libtb.a); the same three
# with the self-checks (chk/), with -DSMK_RTL (smkrun/) and with the sanitizers (san/, unit tests)
$(B)/$(1)/obj/%.o: cmodel/%.c $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) $(COPT) $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<
$(B)/$(1)/libsmk.a: $(patsubst cmodel/%.c,$(B)/$(1)/obj/%.o,$(CMODEL_SRC))
	rm -f $$@ && ar rcs $$@ $$^
$(B)/$(1)/sim/%.o: cmodel/sim/%.c $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) $(COPT) $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<
$(B)/$(1)/tbobj/%.o: testbench/cosim/%.c $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) $(COPT) $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<
$(B)/$(1)/libtb.a: $(patsubst testbench/cosim/%.c,$(B)/$(1)/tbobj/%.o,$(TB_SRC))
	rm -f $$@ && ar rcs $$@ $$^
$(B)/$(1)/chk/%.o: cmodel/%.c $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) -O2 -DSMK_QUIET_CHECK -DTM_CHECK $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<
$(B)/$(1)/smkrun/%.o: cmodel/sim/%.c $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) $(COPT) -DSMK_RTL $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<
$(B)/$(1)/san/%.o: %.c $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) -O1 $(SAN) $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<
-include $(wildcard $(B)/$(1)/*.d $(B)/$(1)/*/*.d $(B)/$(1)/*/*/*.d $(B)/$(1)/*/*/*/*.d)

# Criterion unit tests, with address and undefined-behaviour sanitizers
$(B)/$(1)/unit: $(patsubst %.c,$(B)/$(1)/san/%.o,$(UNIT_SRC) $(CMODEL_SRC) testbench/cosim/drv_env.c testbench/cosim/cosim_env.c)
	$(CC) $(SAN) -o $$@ $$^ -lcriterion

# save/restore time table: formula vs C model (docs/ctx_table.md)
$(B)/$(1)/ctx_table: $(B)/$(1)/ctx_table.o $(B)/$(1)/libsmk.a
	$(CC) -o $$@ $$^
$(B)/$(1)/ctx_table.o: testbench/ctx_table.c $(B)/$(1)/smk_cfg.h
	$(CC) $(CFLAGS_COMMON) -O2 $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<

# the C model's prediction of make fpga-sig's signature (testbench/fpga/sig_model.c, docs/fpga.md)
$(B)/$(1)/sig_model: $(B)/$(1)/sig_model.o $(B)/$(1)/libsmk.a
	$(CC) -o $$@ $$^
$(B)/$(1)/sig_model.o: testbench/fpga/sig_model.c $(B)/$(1)/smk_cfg.h
	$(CC) $(CFLAGS_COMMON) -O2 $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<

# one sm_top on a workload-like random stimulus, replayed: SM-cycles/s and instructions per cycle
$(B)/$(1)/bench_sm: $(B)/$(1)/bench_sm.o $(B)/$(1)/libtb.a $(B)/$(1)/libsmk.a
	$(CC) -o $$@ $$^
$(B)/$(1)/bench_sm.o: testbench/bench_sm.c $(B)/$(1)/smk_cfg.h
	$(CC) $(CFLAGS_COMMON) $(COPT) $(DEP) $(call c_inc,$(1)) -c -o $$@ $$<

# smk command: the workload and timing models and the command (cmodel/sim/) around the whole-GPU C
# model (docs/smk.md)
$(B)/$(1)/smk: $(patsubst cmodel/sim/%.c,$(B)/$(1)/sim/%.o,$(SIM_SRC)) $(B)/$(1)/default_wl.o $(B)/$(1)/libsmk.a
	$(CC) -o $$@ $$^ -lm
$(B)/$(1)/default_wl.o: $(B)/default_wl.c
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) -c -o $$@ $$<

# the same with the self-checks: -DSMK_QUIET_CHECK (every quiet SM cycle again through sm_eval /
# sm_commit, docs/sm_top.md "Quiet cycles") and -DTM_CHECK (the timing model, docs/workload.md)
$(B)/$(1)/smk_check: $(patsubst cmodel/%.c,$(B)/$(1)/chk/%.o,$(SIM_SRC) $(CMODEL_SRC)) $(B)/$(1)/default_wl.o
	$(CC) -o $$@ $$^ -lm

# `smk run --rtl` (docs/smk.md "RTL back-end"): smk's C code built by gcc with -DSMK_RTL into an
# archive (main is smk.c's) around the Verilated gpu_top (shim testbench/cosim/smk_rtl.cpp); not
# built by `make run`. The plain smk execs it for --rtl.
$(B)/$(1)/libsmkrun.a: $(patsubst cmodel/sim/%.c,$(B)/$(1)/smkrun/%.o,$(SIM_SRC)) $(B)/$(1)/default_wl.o
	rm -f $$@ && ar rcs $$@ $$^

$(foreach h,$(filter-out smk_rtl,$(HARNESSES)),$(eval $(call VL_HARNESS,$(1),$(h))))
$(eval $(call VL_HARNESS,$(1),smk_rtl,$(B)/$(1)/libsmkrun.a,-LDFLAGS -lm))
# after cosim_gpu (order only): its Verilated gpu_top is smk_rtl's, a ccache hit when built first
$(B)/$(1)/smk_rtl: | $(B)/$(1)/cosim_gpu
# the same harnesses with waveforms (--fst FILE --window A:B), built by a failure's replay command:
# cosim_wave.h names them and the make command that builds them (rewritten only when it changes).
# smk_rtl's twin is what `smk run --rtl --fst` runs. Without waveforms smk_rtl's Verilated gpu_top is
# cosim_gpu's, byte for byte, so ccache compiles it once for both (5 s of CPU instead of 107 s;
# smk_rtl is built after cosim_gpu, above)
$(foreach h,$(filter-out smk_rtl,$(HARNESSES)),$(eval $(call VL_HARNESS,$(1),$(h),,--trace-fst,wave/)))
$(eval $(call VL_HARNESS,$(1),smk_rtl,$(B)/$(1)/libsmkrun.a,-LDFLAGS -lm --trace-fst,wave/))
$(B)/$(1)/cosim_wave.h: FORCE
	@mkdir -p $$(@D)
	@printf '/* generated by the Makefile: the waveform twins of the harnesses */\n#define COSIM_WAVE_MAKE "make -C %s CONFIG=%s B=%s"\n#define COSIM_WAVE_DIR "%s"\n' \
	  '$(CURDIR)' '$(if $(filter hw/configs/$(1).cfg,$(2)),$(1),$(abspath $(2)))' '$(abspath $(B))' '$(abspath $(B)/$(1))/wave' > $$@.tmp
	@cmp -s $$@.tmp $$@ && rm -f $$@.tmp || mv -f $$@.tmp $$@
# the same harnesses with line, toggle and user coverage (make coverage; SMK_COVER: the RTL's cover
# points of the spec rules)
$(foreach h,$(filter-out smk_rtl,$(HARNESSES)),$(eval $(call VL_HARNESS,$(1),$(h),,--coverage-line --coverage-toggle --coverage-user +define+SMK_COVER,cov/)))

# every RTL unit of hw/blocks.def, linted alone; the units whose own file has cover points
# (COVER_UNITS) also with them (+define+SMK_COVER: a parent's lint would only repeat theirs)
$(B)/$(1)/lint.ok: $(RTL_FILES) $(B)/$(1)/smk_cfg.vh
	@set -e; $(foreach u,$(UNITS),echo "verilator --lint-only -Wall $(u) ($(1))"; \
	  verilator --lint-only -Wall -I$(B)/$(1) -Irtl --top-module $(u) $(RTL_$(u));) \
	  $(foreach u,$(COVER_UNITS),echo "verilator --lint-only -Wall +define+SMK_COVER $(u) ($(1))"; \
	  verilator --lint-only -Wall +define+SMK_COVER -I$(B)/$(1) -Irtl --top-module $(u) $(RTL_$(u));) touch $$@
endef

$(foreach c,$(CONFIGS),$(eval $(call CONFIG_RULES,$(c),hw/configs/$(c).cfg)))
ifeq ($(filter $(CFGN),$(CONFIGS)),)
$(eval $(call CONFIG_RULES,$(CFGN),$(call cfgfile,$(CONFIG))))
endif

# ---- user-facing targets
# the default scenario (docs/smk.md "Default scenario"): the whole GPU with the QoS manager, C model
run: setup
	@$(MAKE) --no-print-directory $(B)/gtx980/smk
	$(B)/gtx980/smk run --default

# the issue-path scenario of one SM with fixed quotas, C model + RTL in lockstep
run-sm: setup
	@$(MAKE) --no-print-directory $(B)/gtx980/cosim_issue
	$(B)/gtx980/cosim_issue --mode scenario --seed 1 --cycles 200000 --summary

# CONFIG given on the command line: that configuration only; otherwise every named one
LINT_CONFIGS := $(if $(filter command line,$(origin CONFIG)),$(CFGN),$(CONFIGS))
lint: $(foreach c,$(LINT_CONFIGS),$(B)/$(c)/lint.ok)
	@echo "lint: verilator --lint-only -Wall clean on $(LINT_CONFIGS)"

hwgen-test: $(B)/hwgen
	bash testbench/test_hwgen.sh $(B)/hwgen
	bash testbench/test_config_paths.sh

# workload files, the smk command's errors and the timing model's hand-computed rates (testbench/test_workload.sh),
# then scripts/sweep.sh and sweep_plot.sh on a small sweep (testbench/test_sweep.sh)
workload-test: $(B)/gtx980/smk
	bash testbench/test_workload.sh $(B)/gtx980/smk
	bash testbench/test_sweep.sh $(B)/gtx980/smk

# the papers' pair evaluation on the C model (docs/sweep.md): every ordered pair of the Parboil kernels x
# goals 0.5..0.95 x Naive, Spart (hill climbing), Rollover, 2M cycles each (2700 runs, roughly 75 min on 2 cores); resumes
# where it stopped. SWEEP_ARGS narrows it (scripts/sweep.sh -h), e.g. SWEEP_ARGS="-g 0.8 -m rollover"
SWEEP_DIR ?= $(B)/sweep
sweep: setup
	@$(MAKE) --no-print-directory $(B)/gtx980/smk
	bash scripts/sweep.sh -b $(B)/gtx980/smk -o $(SWEEP_DIR) $(SWEEP_ARGS)
	bash scripts/sweep_plot.sh $(SWEEP_DIR)

# every published figure of the papers against the model (docs/sweep.md "Every published figure"): the
# case sets of ISCA'17, the thesis and CAL'16 through scripts/sweep.sh into REPRO_DIR, then
# docs/reproduce.md and its plots; resumes where it stopped. REPRO_ARGS: scripts/reproduce.sh options
# (-j JOBS, -x SETS, --shard I/N, --merge DIR..., -r; scripts/reproduce.sh -h)
REPRO_DIR ?= $(B)/reproduce
reproduce: setup
	@$(MAKE) --no-print-directory $(B)/gtx980/smk $(B)/pascal56/smk
	bash scripts/reproduce.sh -o $(REPRO_DIR) $(REPRO_ARGS)

# the reproduction's pipeline on a few short cases: unsharded and as 3 shards merged, the report against
# the sets' cases (testbench/test_reproduce.sh; about 15 s of CPU)
reproduce-test: $(B)/gtx980/smk $(B)/pascal56/smk
	bash testbench/test_reproduce.sh $(B)

# smk's self-checking build on scenarios that cover every quota scheme, dispatch policy, preemption
# and eviction mode (exit status 3 and one line on the first difference)
SMK_CHECK_RUNS := "--default --cycles 300000" \
  "--default --kernels sgemm,lbm --goal sgemm=0.8 --scheme naive --cycles 200000" \
  "--default --kernels mri-q,sad --scheme elastic --goal mri-q=0.7 --preempt drop --cycles 200000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels stencil,spmv,mri-q --policy smkp --scheme smk --epoch 5000 --cycles 200000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels sgemm,lbm,tpacf,spmv,mri-q,stencil --policy smkp --max2 --seed 7 --cycles 200000 --iso-cycles 20000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels histo,cutcp --policy spart --evict drain --cycles 200000 --iso-cycles 20000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels lbm,spmv --policy qos --scheme naive --goal lbm=0.9 --seed 3 --cycles 200000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels tpacf,histo --policy fcfs --cycles 200000 --iso-cycles 20000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels tpacf,spmv --policy spart --goal tpacf=0.8 --hill 20000 --cycles 200000 --iso-cycles 20000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels mri-q,spmv --policy qos --scheme rollover --goal mri-q=0.8 --qos-preempt sm --seed 5 --cycles 200000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels tpacf,lbm --policy qos --scheme elastic --goal tpacf=0.9 --qos-keep off --seed 2 --cycles 200000" \
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels sgemm,lbm,spmv --policy qos --scheme rollover-time --goal sgemm=0.8 --epoch 5000 --cycles 200000 --iso-cycles 20000"
smk-check: $(B)/gtx980/smk_check $(B)/gtx980/smk
	@n=0; for a in $(SMK_CHECK_RUNS); do $(B)/gtx980/smk_check run $$a > /dev/null || { echo "smk-check failed: $(B)/gtx980/smk_check run $$a"; exit 1; }; n=$$((n+1)); done; \
	  echo "smk-check: SMK_QUIET_CHECK and TM_CHECK held on $$n runs"
	@# the product binary: quiet steps (tm_step) against the reference composition (--full-eval), the
	@# whole JSON output but the timings
	@n=0; for a in $(SMK_CHECK_RUNS); do \
	  x=$$($(B)/gtx980/smk run $$a --json | sed 's/"seconds":[^,]*,"cycles_per_second":[0-9]*//') && \
	  y=$$($(B)/gtx980/smk run $$a --json --full-eval | sed 's/"seconds":[^,]*,"cycles_per_second":[0-9]*//') && \
	  [ -n "$$x" ] && [ "$$x" = "$$y" ] || { echo "smk-check failed: $(B)/gtx980/smk run $$a --json differs with --full-eval"; exit 1; }; \
	  n=$$((n+1)); done; echo "smk-check: tm_step and --full-eval gave the same results on $$n runs"

unit: $(foreach c,$(CONFIGS),$(B)/$(c)/unit)
	@for c in $(CONFIGS); do echo "== unit tests, $$c"; ASAN_OPTIONS=fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$(abspath testbench/lsan.supp):print_suppressions=0 $(B)/$$c/unit || exit 1; done

# the cosim regression: the seed plan of testbench/cosim/plan.sh (quick), JOBS runs at a time
cosim_bins = $$(bash testbench/cosim/plan.sh quick $(1) | awk '{ print $$1 }' | sort -u)
# `smk run --rtl` on small (build/small/smk_rtl, docs/smk.md "RTL back-end"): QoS with TLP SAVEs, and
# SMK quotas with SMK_P SAVE / RESTORE; isolated runs included, about 4 s of CPU in all (":" = space)
SMK_RTL_RUNS ?= --kernels:cutcp,spmv:--policy:qos:--scheme:rollover:--goal:cutcp=0.9:--epoch:5000:--cycles:50000 \
                --kernels:sgemm,spmv,mri-q:--policy:smkp:--scheme:smk:--epoch:5000:--cycles:100000
cosim-all: $(foreach c,$(COSIM_CONFIGS),$(B)/$(c)/smk_cfg.h)
	@$(MAKE) --no-print-directory cosim-run
# cosim-all's runs, its harnesses as prerequisites (the plan read when make considers the target:
# the configurations' smk_cfg.h must exist, as cosim-all and test make sure)
.SECONDEXPANSION:
cosim-run: $$(shell bash testbench/cosim/plan.sh quick $$(COSIM_CONFIGS) | awk '{ print $$$$1 }' | sort -u) \
           $(B)/small/smk_rtl $(B)/small/smk $(foreach c,$(COSIM_CONFIGS),$(B)/$(c)/lint.ok)
	@bash testbench/cosim/plan.sh quick $(COSIM_CONFIGS) | bash testbench/cosim/run.sh cosim $(JOBS)
	@# every harness's answer to --help (0), a bad option (2) and --fst without waveforms (2, the twin named)
	@n=0; for h in $(call cosim_bins,$(COSIM_CONFIGS)); do r=0; $$h --help > /dev/null 2>&1 || r=$$?; \
	  [ $$r = 0 ] || { echo "$$h --help: exit status $$r, want 0"; exit 1; }; \
	  r=0; $$h --no-such-option > /dev/null 2>&1 || r=$$?; [ $$r = 2 ] || { echo "$$h --no-such-option: exit status $$r, want 2"; exit 1; }; \
	  r=0; e=$$($$h --fst /dev/null --window 0:0 2>&1 > /dev/null) || r=$$?; \
	  [ $$r = 2 ] && case "$$e" in *"make -C "*"/wave/$${h##*/}") ;; *) false ;; esac \
	  || { echo "$$h --fst: exit status $$r, want 2 and the twin's make command: $$e"; exit 1; }; n=$$((n+1)); done; \
	  echo "cosim harnesses: $$n answered --help, a bad option and --fst without waveforms"
	@# smk_rtl has no waveforms either: --fst names its twin wave/smk_rtl (exit 1, smk's error status)
	@r=0; e=$$($(B)/small/smk_rtl run --config small --rtl --fst /dev/null --window 0:0 2>&1 > /dev/null) || r=$$?; \
	  [ $$r = 1 ] && case "$$e" in *"make -C "*"/wave/smk_rtl (smk run --rtl --fst runs it)") ;; *) false ;; esac \
	  || { echo "$(B)/small/smk_rtl --fst: exit status $$r, want 1 and the twin's make command: $$e"; exit 1; }
	@# and the C-only smk (quiet steps, tm_step) must give the lockstep run's JSON, timings masked
	@set -e; m='s/"seconds":[^,]*,"cycles_per_second":[0-9]*//'; for a in $(SMK_RTL_RUNS); do \
	  x=$$($(B)/small/smk_rtl run --config small --workload cmodel/sim/workloads/parboil.wl $${a//:/ } --rtl --json 2>$(B)/small/smk_rtl.err) \
	  || { cat $(B)/small/smk_rtl.err; echo "smk --rtl: FAILED: $${a//:/ }"; exit 1; }; \
	  y=$$($(B)/small/smk run --config small --workload cmodel/sim/workloads/parboil.wl $${a//:/ } --json); \
	  [ -n "$$x" ] && [ "$$(echo "$$x" | sed "$$m")" = "$$(echo "$$y" | sed "$$m")" ] \
	  || { echo "smk --rtl: the C-only run differs from the lockstep run: $${a//:/ }"; exit 1; }; done; \
	  echo "smk --rtl: small x $(words $(SMK_RTL_RUNS)) lockstep runs passed, 0 failed; the C-only runs gave the same results"

cosim: $(B)/$(CFGN)/smk_cfg.h
	@$(MAKE) --no-print-directory $(call cosim_bins,$(CFGN))
	@bash testbench/cosim/plan.sh quick $(CFGN) | bash testbench/cosim/run.sh cosim $(JOBS)

LONG_SEEDS ?= 40
LONG_CYCLES ?= 1000000
cosim-long: setup $(foreach c,$(CONFIGS),$(B)/$(c)/smk_cfg.h)
	@$(MAKE) --no-print-directory $$(bash testbench/cosim/plan.sh long $(LONG_SEEDS) $(LONG_CYCLES) $(CONFIGS) | awk '{ print $$1 }' | sort -u)
	bash testbench/cosim/plan.sh long $(LONG_SEEDS) $(LONG_CYCLES) $(CONFIGS) | bash testbench/cosim/run.sh cosim-long $(JOBS)

# regression configurations at the edges of the widths (testbench/configs/*.cfg): lint and the
# driver cosim, whose width-dependent rules broke there (docs/verification.md "Edge configurations")
EDGE_CFGS := $(wildcard testbench/configs/*.cfg)
EDGE_CYCLES ?= 100000
edge-test:
	@set -e; for c in $(EDGE_CFGS); do d=$$($(MAKE) -s --no-print-directory CONFIG=$$c print-cfgdir); \
	  $(MAKE) --no-print-directory -j$(JOBS) CONFIG=$$c lint $$d/cosim_drv > /dev/null; \
	  for s in 1 2 3; do echo "$$d/cosim_drv --quiet --seed $$s --cycles $(EDGE_CYCLES)"; done; done \
	  | bash testbench/cosim/run.sh edge-test $(JOBS)
print-cfgdir:
	@echo $(B)/$(CFGN)

# ---- fuzzing (docs/verification.md "Fuzzing"): libFuzzer harnesses of the configuration parser and the
# register-map parser (hw/hwgen.c), the workload parser and smk's options (cmodel/sim), with ASan and
# UBSan, built by clang for gtx980; testbench/fuzz/run.sh runs them
FUZZ_CC    ?= clang
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
              -Wall -Wextra -Werror -DSRCROOT='"$(CURDIR)"'
FUZZ_INC   := -I$(B)/gtx980 -Icmodel -Icmodel/sim
FUZZ_BINS  := $(addprefix $(B)/fuzz/fuzz_,config regmap workload smk_args)
$(B)/fuzz/fuzz_config: testbench/fuzz/fuzz_hwgen.c hw/hwgen.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DHWGEN_FUZZ -DFUZZ_TARGET=1 -o $@ $<
$(B)/fuzz/fuzz_regmap: testbench/fuzz/fuzz_hwgen.c hw/hwgen.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DHWGEN_FUZZ -DFUZZ_TARGET=2 -o $@ $<
$(B)/fuzz/fuzz_workload: testbench/fuzz/fuzz_workload.c cmodel/sim/workload.c cmodel/sim/workload.h $(B)/gtx980/smk_cfg.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_INC) -o $@ testbench/fuzz/fuzz_workload.c cmodel/sim/workload.c -lm
$(B)/fuzz/fuzz_smk_args: testbench/fuzz/fuzz_smk_args.c cmodel/sim/smk_args.c cmodel/sim/workload.c $(B)/default_wl.c \
                         $(wildcard cmodel/sim/*.h cmodel/*.h) $(B)/gtx980/smk_cfg.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_INC) -DSMK_FUZZ -o $@ testbench/fuzz/fuzz_smk_args.c cmodel/sim/smk_args.c \
	  cmodel/sim/workload.c $(B)/default_wl.c -lm
fuzz: $(FUZZ_BINS)
	bash testbench/fuzz/run.sh quick $(B)/fuzz
fuzz-long: setup $(FUZZ_BINS)
	bash testbench/fuzz/run.sh long $(B)/fuzz

# make test: the configurations' headers, then one make of every check, JOBS recipes at a time and
# each check's output kept whole (-O): each check starts once its binaries are built (the cosims of
# TEST_COSIM_CONFIGS; edge-test and config-test build in their own directories from the start)
TEST_CHECKS := config-test edge-test formal smk-check fpga-sig-test fuzz unit workload-test reproduce-test \
               area-test hwgen-test ctx-table-check timing-test cosim-run
test: setup
	@$(MAKE) --no-print-directory $(B)/hwgen $(B)/default_wl.c $(foreach c,$(CONFIGS),$(B)/$(c)/smk_cfg.h)
	@$(MAKE) --no-print-directory -j$(JOBS) -O COSIM_CONFIGS="$(TEST_COSIM_CONFIGS)" $(TEST_CHECKS)
	@echo "make test: all passed"

# random legal configurations (docs/verification.md "Configurations"): scripts/randcfg.py draws N of
# them from SEED into build/randcfg/, testbench/test_configs.sh builds, lints, unit-tests and cosims
# each (plan.sh short); CFGS=FILES checks those files instead (a failure's replay)
N    ?= 20
SEED ?= 1
CFGS ?= $(foreach i,$(shell seq 0 $$(($(N) - 1))),$(B)/randcfg/s$(SEED)-$(i).cfg)
test-configs: setup $(B)/hwgen
	@mkdir -p $(B)/randcfg
	@if [ "$(origin CFGS)" = file ]; then python3 scripts/randcfg.py --seed $(SEED) --hwgen $(B)/hwgen $(CFGS); fi
	@bash testbench/test_configs.sh $(CFGS)

# make test's share of random configurations (in `make test`): CONFIG_TEST_N files of the fixed seed
# CONFIG_TEST_SEED through test-configs. Seed 2 file 0: 15 SMs, 8 schedulers of one warp, 10 kernel
# slots, 64 kernels, 1 TB slot, 629 bytes of shared memory (338 s with its fresh -O1 build inside a
# fresh clone's `bash .ci/run` on 2 cores, beside edge-test's builds; that run took 857 s); other seeds:
# make test-configs N=.. SEED=..
CONFIG_TEST_N    ?= 1
CONFIG_TEST_SEED ?= 2
config-test: $(B)/hwgen
	@$(MAKE) --no-print-directory test-configs N=$(CONFIG_TEST_N) SEED=$(CONFIG_TEST_SEED)

bench: setup
	@$(MAKE) --no-print-directory $(B)/$(CFGN)/cosim_issue $(B)/$(CFGN)/bench_sm $(B)/gtx980/smk
	$(B)/$(CFGN)/cosim_issue --bench 20000000 --seed 1
	$(B)/$(CFGN)/bench_sm --seed 1 --cycles 10000000
	@# whole GPU, C only (docs/bench.md "Whole GPU, C only"): the default scenario (its isolated runs and its
	@# shared run; the speed line gives CPU seconds), then the compute-bound worst case (tpacf alone: 16 SMs
	@# issuing about 63 warp instructions per cycle) and a memory-bound pair
	@echo "smk run --default (2M-cycle shared run, two 2M-cycle isolated runs):"; \
	  /usr/bin/time -f "  %U s user, %M KB peak memory" $(B)/gtx980/smk run --default | sed -n 's/^speed: /  /p'
	@for k in tpacf lbm,spmv; do echo "smk run --kernels $$k --policy smk (2M cycles):"; \
	  $(B)/gtx980/smk run --config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels $$k --policy smk \
	    --cycles 2000000 --iso-cycles 1 | sed -n 's/^speed: \(shared run [^,]*\),.*/  \1/p'; done
	@$(MAKE) --no-print-directory $(B)/small/smk $(B)/small/smk_rtl
	@# C-only against --rtl (C model + Verilated gpu_top in lockstep), same run: small, default scenario (docs/smk.md "RTL back-end")
	@set -e; a="run --default --config small --cycles $(BENCH_RTL_CYCLES)"; \
	  /usr/bin/time -f %U -o $(B)/small/bench_c.t $(B)/small/smk $$a > /dev/null; \
	  /usr/bin/time -f %U -o $(B)/small/bench_rtl.t $(B)/small/smk $$a --rtl > /dev/null 2>&1; \
	  awk -v c=$$(tail -1 $(B)/small/bench_c.t) -v r=$$(tail -1 $(B)/small/bench_rtl.t) -v n=$(BENCH_RTL_CYCLES) 'BEGIN { \
	    printf "smk --rtl (small, default scenario, %d cycles + 2 isolated runs): C only %.2f s, C + RTL lockstep %.2f s user, ratio %.1f\n", \
	    n, c, r, (c > 0 ? r / c : 0) }'

area: setup $(foreach c,$(CONFIGS),$(B)/$(c)/smk_cfg.vh)
	bash scripts/area.sh $(B)/area $(CONFIGS)
	cat $(B)/area/area.md docs/area_notes.md > docs/area.md

# make test's check of scripts/area.sh (`make area` is its own, long target): one block on small
# through the three flows, uncached; its row must be docs/area.md's (so the script runs and that row
# is current)
area-test: setup $(B)/small/smk_cfg.vh
	@rm -rf $(B)/area-test
	@SMK_AREA_BLOCKS=preempt_engine SMK_AREA_CACHE=none bash scripts/area.sh $(B)/area-test small > $(B)/area-test.log 2>&1 || \
	  { echo "area-test: scripts/area.sh failed ($(B)/area-test.log):"; tail -5 $(B)/area-test.log; exit 1; }
	@r=$$(grep '^| preempt_engine | small |' $(B)/area-test/area.md); d=$$(grep '^| preempt_engine | small |' docs/area.md); \
	  if [ -n "$$r" ] && [ "$$r" = "$$d" ]; then echo "area-test: preempt_engine on small as in docs/area.md: $$r"; \
	  else echo "area-test: preempt_engine on small gives '$$r', docs/area.md has '$$d'"; exit 1; fi

# the table is generated for gtx980; `make test` also checks formula = C model on small
ctx-table: $(B)/gtx980/ctx_table
	$(B)/gtx980/ctx_table > docs/ctx_table.md.tmp && mv docs/ctx_table.md.tmp docs/ctx_table.md \
	  || { rm -f docs/ctx_table.md.tmp; exit 1; }
	@echo "ctx-table: docs/ctx_table.md written"

ctx-table-check: $(B)/gtx980/ctx_table $(B)/small/ctx_table
	@for c in gtx980 small; do $(B)/$$c/ctx_table > /dev/null || exit 1; done; \
	  echo "ctx-table: formula = C model on gtx980 and small"

formal: $(B)/small/smk_cfg.vh
	bash testbench/formal/formal.sh small

formal-long: $(B)/small/smk_cfg.vh
	bash testbench/formal/formal.sh small --long

# the sm_driver induction proof on testbench/formal/drv_formal.cfg (drv_pipe 1 and 0) with its planted
# bugs (docs/verification.md "Formal proofs"); not in make test
formal-driver: $(B)/hwgen
	bash testbench/formal/formal.sh drv_formal --driver

# the same proof and planted bugs on two larger driver configurations: 4 kernels, and 3 SMs
# (testbench/formal/drv_formal_k4.cfg, drv_formal_s3.cfg; not in make test)
formal-driver-large: $(B)/hwgen
	DRV_FORMAL_CFG=testbench/formal/drv_formal_k4.cfg bash testbench/formal/formal.sh drv_formal --driver
	DRV_FORMAL_CFG=testbench/formal/drv_formal_s3.cfg bash testbench/formal/formal.sh drv_formal --driver

# logic depth per unit and configuration (generic AND2 levels, FO4 estimate at 1216 MHz, iCE40 LUT
# levels, critical path ends, targets) -> docs/timing.md; results cached in build/timing-cache
TIMING_CONFIGS ?= small gtx980 pascal56
timing: setup $(foreach c,$(TIMING_CONFIGS),$(B)/$(c)/smk_cfg.vh)
	bash scripts/timing.sh $(B)/timing $(TIMING_CONFIGS)
	cat docs/timing_head.md $(B)/timing/timing.md docs/timing_notes.md > docs/timing.md

# the depth measure of make timing on a netlist of known depth (testbench/test_timing.sh, about 3 s)
timing-test:
	bash testbench/test_timing.sh

# every unit out of context on an iCE40 HX8K (yosys synth_ice40 + nextpnr-ice40): utilisation and
# Fmax -> docs/fpga.md
FPGA_CONFIG ?= small
fpga: setup $(B)/$(FPGA_CONFIG)/smk_cfg.vh
	bash scripts/fpga.sh $(B)/fpga $(FPGA_CONFIG)
	@$(MAKE) --no-print-directory fpga-sig
	{ cat docs/fpga_head.md $(B)/fpga/fpga.md; printf '\n## Bitstream and signature\n\n`make fpga-sig` (`%s` for UNIT = %s):\n\n```\n' "$(FPGA_SIG_CMD)" "$(FPGA_SIG_UNITS)"; \
	  cat $(B)/fpga-sig/result.txt; printf '```\n\n'; cat docs/fpga_notes.md; } > docs/fpga.md

# a bitstream of each of FPGA_SIG_UNITS with an LFSR stimulus and a signature register; the C model,
# the RTL, the post-synthesis netlist and the post-route netlist read back from the bitstream (Icarus
# Verilog and Verilator) must give the same signature, and planted bugs must change it
# (scripts/fpga_sig.sh)
FPGA_SIG_UNITS := preempt_engine warp_sched quota_unit sm_top
FPGA_SIG_CMD = scripts/fpga_sig.sh $(B)/fpga-sig/UNIT small UNIT 20000 $(B)/small/sig_model
fpga-sig: setup $(B)/small/smk_cfg.vh $(B)/small/sig_model
	@mkdir -p $(B)/fpga-sig && rm -f $(B)/fpga-sig.txt
	set -o pipefail; for u in $(FPGA_SIG_UNITS); do \
	  SMK_SIG_VERILATOR=1 SMK_SIG_PLANT=1 bash $(subst UNIT,$$u,$(FPGA_SIG_CMD)) | tee -a $(B)/fpga-sig.txt || exit 1; done
	@mv $(B)/fpga-sig.txt $(B)/fpga-sig/result.txt

# make test's share (about 1 minute): the same flow for 2,000 cycles on the two smaller units, Icarus
# Verilog only, with the planted bugs; skipped, saying so, when a tool is missing
FPGA_SIG_TOOLS := yosys nextpnr-ice40 icepack icebox_vlog iverilog vvp
FPGA_SIG_TEST_UNITS := preempt_engine warp_sched
fpga-sig-test: $(B)/small/smk_cfg.vh $(B)/small/sig_model
	@m=$$(for t in $(FPGA_SIG_TOOLS); do command -v $$t >/dev/null || printf '%s ' $$t; done); \
	  if [ -n "$$m" ]; then echo "fpga-sig-test: SKIPPED: not installed: $$m(scripts/setup.sh)"; exit 0; fi; \
	  for u in $(FPGA_SIG_TEST_UNITS); do \
	    SMK_SIG_PLANT=1 bash scripts/fpga_sig.sh $(B)/fpga-sig-test/$$u small $$u 2000 $(B)/small/sig_model || exit 1; done

# line and toggle coverage of the RTL over the quick cosim regression on COV_CONFIGS (merged, lcov
# HTML in build/coverage/html) -> build/coverage/coverage.md (docs/verification.md "Coverage")
COV_CONFIGS ?= small
coverage: setup $(foreach c,$(COV_CONFIGS),$(B)/$(c)/smk_cfg.h)
	@$(MAKE) --no-print-directory $(foreach c,$(COV_CONFIGS),$$(bash testbench/cosim/plan.sh quick $(c) | awk '{ print $$1 }' | sort -u | sed 's|/\([^/]*\)$$|/cov/\1|'))
	bash scripts/coverage.sh $(B)/coverage $(COV_CONFIGS)

mutate: setup $(B)/small/libsmk.a $(B)/small/libtb.a
	bash scripts/mutate.sh small

clean:
	rm -rf $(B)
