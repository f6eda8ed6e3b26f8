# smk-qos: top-level build. `make run` and `make test` do their own set-up (scripts/setup.sh).
#
#   make run            default scenario: smk on gtx980, QoS tpacf + non-QoS spmv, QoS manager, Rollover (C model)
#   make run-sm         one gtx980 SM, two kernels, Rollover, fixed quotas, C model + RTL lockstep
#   make test           set-up, lint, hw/ checks, unit tests and cosim on every named configuration
#   make lint           verilator --lint-only -Wall on all RTL, every named configuration
#   make cosim          lockstep cosim, a few seeds, CONFIG only
#   make cosim-long     many seeds and cycles on every named configuration (not in `make test`)
#   make area           Yosys area per block and configuration -> docs/area.md, build/area/area.csv
#   make bench          C model vs Verilator speed on the same SM-level stimulus (CONFIG)
#   make mutate         Yosys mutation testing of the RTL against the cosim -> docs/mutation.md
#   make formal         Yosys SAT induction proofs of warp_sched and preempt_engine (small), non-vacuity checked
#   make sweep          the papers' pair evaluation (QoS_reach, STP) on the C model -> build/sweep (docs/sweep.md)
#   make ctx-table      save/restore cycles of the Parboil-like TB shapes (formula = C model) -> docs/ctx_table.md
#   make clean
#
# CONFIG is a name in hw/configs/ or a path to your own .cfg (same format).

CONFIG  ?= gtx980
CONFIGS := gtx980 pascal56 small
BENCH_RTL_CYCLES ?= 1000000
B       := build
SHELL   := /bin/bash

CC      ?= gcc
CFLAGS_COMMON := -std=c11 -Wall -Wextra -Werror -g
# The C model is the architects' fast path: -O3, and the hardware popcount where the CPU has it
COPT    := -O3 $(if $(filter x86_64,$(shell uname -m)),-mpopcnt)
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
JOBS    ?= 2

CMODEL_SRC := cmodel/warp_sched.c cmodel/quota_unit.c cmodel/preempt_engine.c cmodel/sm_top.c cmodel/sm_driver.c cmodel/gpu_top.c cmodel/qos_mgr.c
CMODEL_HDR := $(wildcard cmodel/*.h)
TB_SRC     := testbench/cosim/cosim_env.c testbench/cosim/sm_side.c testbench/cosim/issue_env.c testbench/cosim/pe_env.c testbench/cosim/sm_env.c testbench/cosim/drv_env.c testbench/cosim/gpu_env.c testbench/cosim/qm_env.c
TB_HDR     := cmodel/sim/rng.h testbench/cosim/cosim_env.h testbench/cosim/sm_side.h testbench/cosim/issue_env.h testbench/cosim/pe_env.h testbench/cosim/sm_env.h testbench/cosim/drv_env.h testbench/cosim/gpu_env.h testbench/cosim/qm_env.h
# the lockstep driver and the RTL-side helpers every cosim harness includes
COSIM_HDR  := testbench/cosim/lockstep.h testbench/cosim/cosim_opts.h testbench/cosim/vl_bits.h testbench/cosim/pe_rtl_state.h testbench/cosim/sm_rtl_state.h testbench/cosim/drv_rtl_state.h testbench/cosim/qm_rtl_state.h
UNIT_SRC   := testbench/test_warp_sched.c testbench/test_quota_unit.c testbench/test_preempt_engine.c testbench/test_sm_top.c testbench/test_sm_driver.c testbench/test_qos_mgr.c
RTL_ISSUE  := rtl/warp_sched.v rtl/quota_unit.v testbench/cosim/issue_path.v
RTL_ALL    := rtl/warp_sched.v rtl/quota_unit.v
RTL_SM     := rtl/warp_sched.v rtl/quota_unit.v rtl/preempt_engine.v rtl/sm_top.v
RTL_GPU    := rtl/warp_sched.v rtl/quota_unit.v rtl/preempt_engine.v rtl/sm_top.v rtl/sm_driver.v rtl/qos_mgr.v rtl/gpu_top.v

cfgname = $(basename $(notdir $(1)))
cfgfile = $(if $(filter %.cfg,$(1)),$(1),hw/configs/$(1).cfg)
CFGN    := $(call cfgname,$(CONFIG))

VERILATOR_FLAGS := --cc --exe --build -j $(JOBS) --trace-fst -Wno-fatal -MAKEFLAGS OPT_FAST=-O2 \
                   -CFLAGS -std=c++14

.PHONY: all run run-sm test setup lint cosim cosim-long area bench mutate formal clean unit hwgen-test help sweep \
        ctx-table ctx-table-check workload-test smk-check
.DELETE_ON_ERROR:

all: $(B)/$(CFGN)/cosim_issue

help:
	@sed -n '2,18p' Makefile | sed 's/^# \{0,1\}//'

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

# ---- per-configuration rules: $(1) = name, $(2) = configuration file
define CONFIG_RULES
$(B)/$(1)/smk_cfg.h: $(2) hw/regmap.def $(B)/hwgen
	@mkdir -p $(B)/$(1)
	$(B)/hwgen $(2) hw/regmap.def $(B)/$(1)
$(B)/$(1)/smk_cfg.vh: $(B)/$(1)/smk_cfg.h
	@test -f $$@

$(B)/$(1)/obj/%.o: cmodel/%.c $(CMODEL_HDR) $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) $(COPT) -I$(B)/$(1) -Icmodel -c -o $$@ $$<
$(B)/$(1)/libsmk.a: $(patsubst cmodel/%.c,$(B)/$(1)/obj/%.o,$(CMODEL_SRC))
	rm -f $$@ && ar rcs $$@ $$^

$(B)/$(1)/tbobj/%.o: testbench/cosim/%.c $(TB_HDR) $(CMODEL_HDR) $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) $(COPT) -I$(B)/$(1) -Icmodel -Itestbench -Icmodel/sim -Itestbench/cosim -c -o $$@ $$<
$(B)/$(1)/libtb.a: $(patsubst testbench/cosim/%.c,$(B)/$(1)/tbobj/%.o,$(TB_SRC))
	rm -f $$@ && ar rcs $$@ $$^

# Criterion unit tests, with address and undefined-behaviour sanitizers
$(B)/$(1)/unit: $(UNIT_SRC) $(CMODEL_SRC) $(CMODEL_HDR) $(wildcard testbench/*.h) $(B)/$(1)/smk_cfg.h
	$(CC) $(CFLAGS_COMMON) -O1 $(SAN) -I$(B)/$(1) -Icmodel -Itestbench -Icmodel/sim -o $$@ $(UNIT_SRC) $(CMODEL_SRC) -lcriterion

# save/restore time table: formula vs C model (docs/ctx_table.md)
$(B)/$(1)/ctx_table: testbench/ctx_table.c $(B)/$(1)/libsmk.a $(CMODEL_HDR) $(B)/$(1)/smk_cfg.h
	$(CC) $(CFLAGS_COMMON) -O2 -I$(B)/$(1) -Icmodel -o $$@ testbench/ctx_table.c $(B)/$(1)/libsmk.a

# one sm_top on a workload-like random stimulus, replayed: SM-cycles/s and instructions per cycle
$(B)/$(1)/bench_sm: testbench/bench_sm.c cmodel/sim/rng.h $(TB_HDR) $(CMODEL_HDR) $(B)/$(1)/libsmk.a $(B)/$(1)/libtb.a $(B)/$(1)/smk_cfg.h
	$(CC) $(CFLAGS_COMMON) $(COPT) -I$(B)/$(1) -Icmodel -Itestbench -Icmodel/sim -o $$@ testbench/bench_sm.c $(B)/$(1)/libtb.a $(B)/$(1)/libsmk.a

# smk command: workload model (cmodel/sim/workload.c, timing.c) around the whole-GPU C model (docs/smk.md)
$(B)/$(1)/smk: cmodel/sim/smk.c cmodel/sim/workload.c cmodel/sim/timing.c cmodel/sim/workload.h cmodel/sim/timing.h cmodel/sim/rng.h $(B)/default_wl.c $(B)/$(1)/libsmk.a $(CMODEL_HDR) $(B)/$(1)/smk_cfg.h
	$(CC) $(CFLAGS_COMMON) $(COPT) -I$(B)/$(1) -Icmodel -Itestbench -Icmodel/sim -o $$@ cmodel/sim/smk.c cmodel/sim/workload.c cmodel/sim/timing.c $(B)/default_wl.c $(B)/$(1)/libsmk.a -lm

# the same with the self-checks: -DSMK_QUIET_CHECK (every quiet SM cycle again through sm_eval /
# sm_commit, docs/sm_top.md "Quiet cycles") and -DTM_CHECK (the timing model, docs/workload.md)
$(B)/$(1)/smk_check: cmodel/sim/smk.c cmodel/sim/workload.c cmodel/sim/timing.c cmodel/sim/workload.h cmodel/sim/timing.h cmodel/sim/rng.h $(B)/default_wl.c $(CMODEL_SRC) $(CMODEL_HDR) $(B)/$(1)/smk_cfg.h
	$(CC) $(CFLAGS_COMMON) -O2 -DSMK_QUIET_CHECK -DTM_CHECK -I$(B)/$(1) -Icmodel -Itestbench -Icmodel/sim -o $$@ cmodel/sim/smk.c cmodel/sim/workload.c cmodel/sim/timing.c $(B)/default_wl.c $(CMODEL_SRC) -lm

# Verilator lockstep harness: C model and environment built by gcc into archives, linked by absolute path
$(B)/$(1)/cosim_issue: $(RTL_ISSUE) testbench/cosim/cosim_issue.cpp $(COSIM_HDR) $(B)/$(1)/libsmk.a $(B)/$(1)/libtb.a $(B)/$(1)/smk_cfg.vh
	@rm -f $$@ $(B)/$(1)/vl_issue/cosim_issue  # relink: Verilator's make only relinks a missing executable, and finds $$@ through its VPATH
	verilator $(VERILATOR_FLAGS) --top-module issue_path -I$(abspath $(B)/$(1)) \
	  --Mdir $(B)/$(1)/vl_issue -o cosim_issue \
	  -CFLAGS "-I$(abspath $(B)/$(1)) -I$(abspath cmodel) -I$(abspath testbench) -I$(abspath cmodel/sim) -I$(abspath testbench/cosim)" \
	  $(abspath $(RTL_ISSUE)) $(abspath testbench/cosim/cosim_issue.cpp) \
	  $(abspath $(B)/$(1)/libtb.a) $(abspath $(B)/$(1)/libsmk.a) > $(B)/$(1)/vl_issue.log 2>&1 \
	  || { tail -30 $(B)/$(1)/vl_issue.log; exit 1; }
	install -m 755 $(B)/$(1)/vl_issue/cosim_issue $$@

# preemption engine alone, C model vs RTL (environment and monitors: testbench/cosim/pe_env.c)
$(B)/$(1)/cosim_pe: rtl/preempt_engine.v testbench/cosim/cosim_pe.cpp $(COSIM_HDR) $(B)/$(1)/libsmk.a $(B)/$(1)/libtb.a $(B)/$(1)/smk_cfg.vh
	@rm -f $$@ $(B)/$(1)/vl_pe/cosim_pe  # relink: Verilator's make only relinks a missing executable, and finds $$@ through its VPATH
	verilator $(VERILATOR_FLAGS) --top-module preempt_engine -I$(abspath $(B)/$(1)) \
	  --Mdir $(B)/$(1)/vl_pe -o cosim_pe \
	  -CFLAGS "-I$(abspath $(B)/$(1)) -I$(abspath cmodel) -I$(abspath testbench) -I$(abspath cmodel/sim) -I$(abspath testbench/cosim)" \
	  $(abspath rtl/preempt_engine.v) $(abspath testbench/cosim/cosim_pe.cpp) \
	  $(abspath $(B)/$(1)/libtb.a) $(abspath $(B)/$(1)/libsmk.a) > $(B)/$(1)/vl_pe.log 2>&1 \
	  || { tail -30 $(B)/$(1)/vl_pe.log; exit 1; }
	install -m 755 $(B)/$(1)/vl_pe/cosim_pe $$@

# whole SM (sm_top), C model vs RTL, random environment and TB-ledger monitors (testbench/cosim/sm_env.c)
$(B)/$(1)/cosim_sm: $(RTL_SM) testbench/cosim/cosim_sm.cpp $(COSIM_HDR) $(B)/$(1)/libsmk.a $(B)/$(1)/libtb.a $(B)/$(1)/smk_cfg.vh
	@rm -f $$@ $(B)/$(1)/vl_sm/cosim_sm  # relink: Verilator's make only relinks a missing executable, and finds $$@ through its VPATH
	verilator $(VERILATOR_FLAGS) --top-module sm_top -I$(abspath $(B)/$(1)) \
	  --Mdir $(B)/$(1)/vl_sm -o cosim_sm \
	  -CFLAGS "-I$(abspath $(B)/$(1)) -I$(abspath cmodel) -I$(abspath testbench) -I$(abspath cmodel/sim) -I$(abspath testbench/cosim)" \
	  $(abspath $(RTL_SM)) $(abspath testbench/cosim/cosim_sm.cpp) \
	  $(abspath $(B)/$(1)/libtb.a) $(abspath $(B)/$(1)/libsmk.a) > $(B)/$(1)/vl_sm.log 2>&1 \
	  || { tail -30 $(B)/$(1)/vl_sm.log; exit 1; }
	install -m 755 $(B)/$(1)/vl_sm/cosim_sm $$@

# SM driver alone, C model vs RTL, random host and SM-side responder, driver invariants (testbench/cosim/drv_env.c)
$(B)/$(1)/cosim_drv: rtl/sm_driver.v testbench/cosim/cosim_drv.cpp $(COSIM_HDR) $(B)/$(1)/libsmk.a $(B)/$(1)/libtb.a $(B)/$(1)/smk_cfg.vh
	@rm -f $$@ $(B)/$(1)/vl_drv/cosim_drv  # relink: Verilator's make only relinks a missing executable, and finds $$@ through its VPATH
	verilator $(VERILATOR_FLAGS) --top-module sm_driver -I$(abspath $(B)/$(1)) \
	  --Mdir $(B)/$(1)/vl_drv -o cosim_drv \
	  -CFLAGS "-I$(abspath $(B)/$(1)) -I$(abspath cmodel) -I$(abspath testbench) -I$(abspath cmodel/sim) -I$(abspath testbench/cosim)" \
	  $(abspath rtl/sm_driver.v) $(abspath testbench/cosim/cosim_drv.cpp) \
	  $(abspath $(B)/$(1)/libtb.a) $(abspath $(B)/$(1)/libsmk.a) > $(B)/$(1)/vl_drv.log 2>&1 \
	  || { tail -30 $(B)/$(1)/vl_drv.log; exit 1; }
	install -m 755 $(B)/$(1)/vl_drv/cosim_drv $$@

# whole GPU (gpu_top: SM driver + NUM_SM SM tops), C model vs RTL, workload-like random environment and
# system-level ledger monitors (testbench/cosim/gpu_env.c)
$(B)/$(1)/cosim_gpu: $(RTL_GPU) testbench/cosim/cosim_gpu.cpp testbench/cosim/gpu_vl.cpp testbench/cosim/gpu_vl.h $(COSIM_HDR) $(B)/$(1)/libsmk.a $(B)/$(1)/libtb.a $(B)/$(1)/smk_cfg.vh
	@rm -f $$@ $(B)/$(1)/vl_gpu/cosim_gpu  # relink: Verilator's make only relinks a missing executable, and finds $$@ through its VPATH
	verilator $(VERILATOR_FLAGS) --top-module gpu_top -I$(abspath $(B)/$(1)) \
	  --Mdir $(B)/$(1)/vl_gpu -o cosim_gpu \
	  -CFLAGS "-I$(abspath $(B)/$(1)) -I$(abspath cmodel) -I$(abspath testbench) -I$(abspath cmodel/sim) -I$(abspath testbench/cosim)" \
	  $(abspath $(RTL_GPU)) $(abspath testbench/cosim/cosim_gpu.cpp) $(abspath testbench/cosim/gpu_vl.cpp) \
	  $(abspath $(B)/$(1)/libtb.a) $(abspath $(B)/$(1)/libsmk.a) > $(B)/$(1)/vl_gpu.log 2>&1 \
	  || { tail -30 $(B)/$(1)/vl_gpu.log; exit 1; }
	install -m 755 $(B)/$(1)/vl_gpu/cosim_gpu $$@

# `smk run --rtl` (docs/smk.md "RTL back-end"): smk's C code built by gcc with -DSMK_RTL into an archive
# (main is smk.c's), the shim testbench/cosim/smk_rtl.cpp and the GPU cosim's adapter gpu_vl.cpp
# around the Verilated gpu_top; not built by `make run`. The plain smk execs it for --rtl.
$(B)/$(1)/smkrun/%.o: cmodel/sim/%.c cmodel/sim/workload.h cmodel/sim/timing.h cmodel/sim/rng.h testbench/cosim/smk_rtl.h $(CMODEL_HDR) $(B)/$(1)/smk_cfg.h
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) $(COPT) -DSMK_RTL -I$(B)/$(1) -Icmodel -Itestbench -Icmodel/sim -Itestbench/cosim -c -o $$@ $$<
$(B)/$(1)/smkrun/default_wl.o: $(B)/default_wl.c
	@mkdir -p $$(@D)
	$(CC) $(CFLAGS_COMMON) -c -o $$@ $$<
$(B)/$(1)/libsmkrun.a: $(B)/$(1)/smkrun/smk.o $(B)/$(1)/smkrun/workload.o $(B)/$(1)/smkrun/timing.o $(B)/$(1)/smkrun/default_wl.o
	rm -f $$@ && ar rcs $$@ $$^
$(B)/$(1)/smk_rtl: $(RTL_GPU) testbench/cosim/smk_rtl.cpp testbench/cosim/smk_rtl.h testbench/cosim/gpu_vl.cpp testbench/cosim/gpu_vl.h $(COSIM_HDR) $(B)/$(1)/libsmkrun.a $(B)/$(1)/libsmk.a $(B)/$(1)/libtb.a $(B)/$(1)/smk_cfg.vh
	@rm -f $$@ $(B)/$(1)/vl_smk/smk_rtl  # relink: Verilator's make only relinks a missing executable, and finds $$@ through its VPATH
	verilator $(VERILATOR_FLAGS) --top-module gpu_top -I$(abspath $(B)/$(1)) \
	  --Mdir $(B)/$(1)/vl_smk -o smk_rtl \
	  -CFLAGS "-I$(abspath $(B)/$(1)) -I$(abspath cmodel) -I$(abspath testbench) -I$(abspath cmodel/sim) -I$(abspath testbench/cosim)" \
	  -LDFLAGS -lm \
	  $(abspath $(RTL_GPU)) $(abspath testbench/cosim/smk_rtl.cpp) $(abspath testbench/cosim/gpu_vl.cpp) \
	  $(abspath $(B)/$(1)/libsmkrun.a) $(abspath $(B)/$(1)/libtb.a) $(abspath $(B)/$(1)/libsmk.a) > $(B)/$(1)/vl_smk.log 2>&1 \
	  || { tail -30 $(B)/$(1)/vl_smk.log; exit 1; }
	install -m 755 $(B)/$(1)/vl_smk/smk_rtl $$@

# QoS manager alone, C model vs RTL (random host, SM-register script, driver stub: testbench/cosim/qm_env.c)
$(B)/$(1)/cosim_qm: rtl/qos_mgr.v testbench/cosim/cosim_qm.cpp $(COSIM_HDR) $(B)/$(1)/libsmk.a $(B)/$(1)/libtb.a $(B)/$(1)/smk_cfg.vh
	@rm -f $$@ $(B)/$(1)/vl_qm/cosim_qm  # relink: Verilator's make only relinks a missing executable, and finds $$@ through its VPATH
	verilator $(VERILATOR_FLAGS) --top-module qos_mgr -I$(abspath $(B)/$(1)) \
	  --Mdir $(B)/$(1)/vl_qm -o cosim_qm \
	  -CFLAGS "-I$(abspath $(B)/$(1)) -I$(abspath cmodel) -I$(abspath testbench) -I$(abspath cmodel/sim) -I$(abspath testbench/cosim)" \
	  $(abspath rtl/qos_mgr.v) $(abspath testbench/cosim/cosim_qm.cpp) \
	  $(abspath $(B)/$(1)/libtb.a) $(abspath $(B)/$(1)/libsmk.a) > $(B)/$(1)/vl_qm.log 2>&1 \
	  || { tail -30 $(B)/$(1)/vl_qm.log; exit 1; }
	install -m 755 $(B)/$(1)/vl_qm/cosim_qm $$@

$(B)/$(1)/lint.ok: $(RTL_ISSUE) $(RTL_GPU) rtl/qos_mgr.v $(B)/$(1)/smk_cfg.vh
	verilator --lint-only -Wall -I$(B)/$(1) --top-module warp_sched rtl/warp_sched.v
	verilator --lint-only -Wall -I$(B)/$(1) --top-module quota_unit rtl/quota_unit.v
	verilator --lint-only -Wall -I$(B)/$(1) --top-module issue_path $(RTL_ISSUE)
	verilator --lint-only -Wall -I$(B)/$(1) --top-module preempt_engine rtl/preempt_engine.v
	verilator --lint-only -Wall -I$(B)/$(1) --top-module sm_top rtl/sm_top.v rtl/warp_sched.v rtl/quota_unit.v rtl/preempt_engine.v
	verilator --lint-only -Wall -I$(B)/$(1) --top-module sm_driver rtl/sm_driver.v
	verilator --lint-only -Wall -I$(B)/$(1) --top-module gpu_top $(RTL_GPU)
	verilator --lint-only -Wall -I$(B)/$(1) --top-module qos_mgr rtl/qos_mgr.v
	@touch $$@
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

# the issue-path scenario of one SM with fixed quotas, C model + RTL in lockstep (the `make run` before issue 5)
run-sm: setup
	@$(MAKE) --no-print-directory $(B)/gtx980/cosim_issue
	$(B)/gtx980/cosim_issue --mode scenario --seed 1 --cycles 200000 --summary

lint: $(foreach c,$(CONFIGS),$(B)/$(c)/lint.ok)
	@echo "lint: verilator --lint-only -Wall clean on $(CONFIGS)"

hwgen-test: $(B)/hwgen
	bash testbench/test_hwgen.sh $(B)/hwgen

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
  "--config gtx980 --workload cmodel/sim/workloads/parboil.wl --kernels tpacf,spmv --policy spart --goal tpacf=0.8 --hill 20000 --cycles 200000 --iso-cycles 20000"
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

# several seeds on every named configuration, some with random initial register values
COSIM_CYCLES ?= 300000
SM_CYCLES ?= 400000
PE_CYCLES ?= 1000000
# the QoS manager alone (cosim_qm): small and fast
QM_CYCLES ?= 1000000
# the driver cosim (cosim_drv): cycles per configuration (the RTL's speed scales with NSM x T); runs JOBS at a time
DRV_CYCLES ?= 300000
DRV_CYCLES_small ?= 1000000
DRV_CYCLES_gtx980 ?= 300000
DRV_CYCLES_pascal56 ?= 100000
drv_cycles = $(or $(DRV_CYCLES_$(1)),$(DRV_CYCLES))
# the GPU cosim (cosim_gpu: driver + NUM_SM SM tops): small only in cosim-all (3 runs, one --rand-reset)
GPU_CYCLES ?= 300000
# `smk run --rtl` on small (build/small/smk_rtl, docs/smk.md "RTL back-end"): QoS with TLP SAVEs, and
# SMK quotas with SMK_P SAVE / RESTORE; isolated runs included, about 4 s of CPU in all (":" = space)
SMK_RTL_RUNS ?= --kernels:mri-q,stencil:--policy:qos:--scheme:rollover:--goal:mri-q=0.8:--epoch:5000:--cycles:50000 \
                --kernels:stencil,spmv,mri-q:--policy:smkp:--scheme:smk:--epoch:5000:--cycles:100000
cosim-all: $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_qm) $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_issue) $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_pe) $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_sm) $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_drv) $(B)/small/cosim_gpu $(B)/small/smk_rtl $(B)/small/smk
	@set -e; n=0; for c in $(CONFIGS); do \
	  for s in 1 2 3 4 5; do $(B)/$$c/cosim_issue --quiet --seed $$s --cycles $(COSIM_CYCLES); n=$$((n+1)); done; \
	  for s in 11 12 13; do $(B)/$$c/cosim_issue --quiet --seed $$s --cycles $(COSIM_CYCLES) --rand-reset; n=$$((n+1)); done; \
	  for s in 21 22; do $(B)/$$c/cosim_issue --quiet --seed $$s --cycles $(COSIM_CYCLES) --mode scenario; n=$$((n+1)); done; \
	  $(B)/$$c/cosim_pe --quiet --seed 31 --cycles $(PE_CYCLES); n=$$((n+1)); \
	  for s in 32 33; do $(B)/$$c/cosim_pe --quiet --seed $$s --cycles $(PE_CYCLES) --rand-reset; n=$$((n+1)); done; \
	  $(B)/$$c/cosim_sm --quiet --seed 41 --cycles $(SM_CYCLES); n=$$((n+1)); \
	  for s in 42 43; do $(B)/$$c/cosim_sm --quiet --seed $$s --cycles $(SM_CYCLES) --rand-reset; n=$$((n+1)); done; \
	  for s in 71 72; do $(B)/$$c/cosim_qm --quiet --seed $$s --cycles $(QM_CYCLES); n=$$((n+1)); done; \
	  $(B)/$$c/cosim_qm --quiet --seed 73 --cycles $(QM_CYCLES) --rand-reset; n=$$((n+1)); \
	done; echo "cosim: $$n passed, 0 failed"
	@printf '%s\n' $(foreach c,$(CONFIGS),"$(B)/$(c)/cosim_drv --quiet --seed 51 --cycles $(call drv_cycles,$(c))" \
	  "$(B)/$(c)/cosim_drv --quiet --seed 52 --cycles $(call drv_cycles,$(c))" \
	  "$(B)/$(c)/cosim_drv --quiet --seed 53 --cycles $(call drv_cycles,$(c)) --rand-reset") \
	  | xargs -P $(JOBS) -I{} bash -c '{}' && echo "cosim-drv: $(words $(CONFIGS)) x 3 passed, 0 failed"
	@set -e; for s in 61 62; do $(B)/small/cosim_gpu --quiet --seed $$s --cycles $(GPU_CYCLES); done; \
	  $(B)/small/cosim_gpu --quiet --seed 63 --cycles $(GPU_CYCLES) --rand-reset; echo "cosim-gpu: small x 3 passed, 0 failed"
	@# and the C-only smk (quiet steps, tm_step) must give the lockstep run's JSON, timings masked
	@set -e; m='s/"seconds":[^,]*,"cycles_per_second":[0-9]*//'; for a in $(SMK_RTL_RUNS); do \
	  x=$$($(B)/small/smk_rtl run --config small --workload cmodel/sim/workloads/parboil.wl $${a//:/ } --rtl --json 2>$(B)/small/smk_rtl.err) \
	  || { cat $(B)/small/smk_rtl.err; echo "smk --rtl: FAILED: $${a//:/ }"; exit 1; }; \
	  y=$$($(B)/small/smk run --config small --workload cmodel/sim/workloads/parboil.wl $${a//:/ } --json); \
	  [ -n "$$x" ] && [ "$$(echo "$$x" | sed "$$m")" = "$$(echo "$$y" | sed "$$m")" ] \
	  || { echo "smk --rtl: the C-only run differs from the lockstep run: $${a//:/ }"; exit 1; }; done; \
	  echo "smk --rtl: small x $(words $(SMK_RTL_RUNS)) lockstep runs passed, 0 failed; the C-only runs gave the same results"

cosim: $(B)/$(CFGN)/cosim_issue $(B)/$(CFGN)/cosim_pe $(B)/$(CFGN)/cosim_sm $(B)/$(CFGN)/cosim_drv
	@set -e; for s in 1 2 3 4; do $(B)/$(CFGN)/cosim_issue --quiet --seed $$s --cycles $(COSIM_CYCLES); done; \
	  $(B)/$(CFGN)/cosim_issue --quiet --seed 5 --cycles $(COSIM_CYCLES) --rand-reset
	@set -e; for s in 1 2; do $(B)/$(CFGN)/cosim_pe --quiet --seed $$s --cycles $(PE_CYCLES); done; \
	  $(B)/$(CFGN)/cosim_pe --quiet --seed 3 --cycles $(PE_CYCLES) --rand-reset
	@set -e; for s in 1 2; do $(B)/$(CFGN)/cosim_sm --quiet --seed $$s --cycles $(SM_CYCLES); done; \
	  $(B)/$(CFGN)/cosim_sm --quiet --seed 3 --cycles $(SM_CYCLES) --rand-reset
	@set -e; for s in 1 2; do $(B)/$(CFGN)/cosim_drv --quiet --seed $$s --cycles $(call drv_cycles,$(CFGN)); done; \
	  $(B)/$(CFGN)/cosim_drv --quiet --seed 3 --cycles $(call drv_cycles,$(CFGN)) --rand-reset

LONG_SEEDS ?= 40
LONG_CYCLES ?= 1000000
cosim-long: setup $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_qm) $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_issue) $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_pe) $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_sm) $(foreach c,$(CONFIGS),$(B)/$(c)/cosim_drv) $(B)/small/cosim_gpu $(B)/gtx980/cosim_gpu
	bash scripts/cosim_long.sh "$(CONFIGS)" $(LONG_SEEDS) $(LONG_CYCLES)

test: setup
	@$(MAKE) --no-print-directory lint hwgen-test unit workload-test smk-check ctx-table-check formal cosim-all
	@echo "make test: all passed"

bench: setup
	@$(MAKE) --no-print-directory $(B)/$(CFGN)/cosim_issue $(B)/$(CFGN)/bench_sm $(B)/gtx980/smk
	$(B)/$(CFGN)/cosim_issue --bench 20000000 --seed 1
	$(B)/$(CFGN)/bench_sm --seed 1 --cycles 10000000
	@# whole GPU, C only (docs/bench.md "Whole GPU, C only"): the default scenario (its isolated runs and its
	@# shared run; the speed line gives CPU seconds), then the compute-bound worst case (tpacf alone: 16 SMs
	@# issuing about 63 warp instructions per cycle) and a memory-bound pair; target 1 M GPU cycles per CPU s
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

mutate: setup $(B)/small/libsmk.a $(B)/small/libtb.a $(B)/small/tbobj/qm_env.o
	bash scripts/mutate.sh small
	cat docs/mutation_notes.md >> docs/mutation.md

clean:
	rm -rf $(B)
