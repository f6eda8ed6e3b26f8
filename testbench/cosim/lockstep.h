// lockstep.h: the lockstep driver of the cosims. A harness (testbench/cosim/cosim_*.cpp) derives from
// lockstep_block<Top> what is particular to its block (Top: the Verilated model); its main calls
// lockstep_run / lockstep_main, which own everything else: the options (cosim_opts.h), the reset,
// the cycle loop, the FST window, the mismatch and invariant reports with their replay command,
// and the last line
//     PASS: config=CFG seed=S cycles=C mismatches=0 invariant_violations=0
// (FAIL: ... on a mismatch or an invariant violation; exit status 1, else 0).
//
// The block's contract, one call each per cycle c = 0, 1, ... (after start and two reset cycles of the RTL):
//   generate()      the environment draws the stimulus of cycle c and the C model evaluates it
//   drive(top)      the RTL's inputs from the same stimulus (the driver then evaluates with clk low)
//   compare(top, c) both observation vectors (C model: reference; RTL: outputs and, unless MUTANT,
//                   state); prints every differing signal (obs_diff) and returns their number
//                   (lockstep_vec_block does it for a block observed as one vector)
//   commit()        monitors and invariants on the C model, then the clock edge of the environment
//                   and the C model; returns the number of violations (each printed)
// then clk high. A mismatch ends the run in cycle c (cycles=c), an invariant violation after it
// (cycles=c+1); finish(passed, summary) ends every run (end-of-run checks when passed, statistics
// when summary) and returns further violations.
#ifndef LOCKSTEP_H
#define LOCKSTEP_H
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#else
#include "cosim_wave.h" // COSIM_WAVE_MAKE, COSIM_WAVE_DIR: the twin with waveforms
#endif
#if VM_COVERAGE
#include "verilated_cov.h"
#endif
#include "cosim_opts.h"
#include "smk_cfg.h"
#include "vl_bits.h"
extern "C" {
#include "cosim_env.h"
}

template <class Top> struct lockstep_block {
    virtual ~lockstep_block() {}
    // the harness's own options (cosim_opts.h; a list ended by name == nullptr), or nullptr. A choice
    // option is part of the run: " NAME=WORD" in the banner, " --NAME WORD" in the replay command.
    virtual const cosim_extra *extras() { return nullptr; }
    // an exit status to return instead of the lockstep run (cosim_issue --bench), or -1
    virtual int alternate(Top *, const cosim_opts &) { return -1; }
    virtual void start(uint64_t seed) = 0; // C model reset, environment seeded
    virtual void generate() = 0;
    virtual void drive(Top *top) = 0;
    virtual int compare(Top *top, uint64_t cycle) = 0;
    virtual int commit() = 0;
    virtual int finish(bool passed, bool summary) = 0;
};

// A block observed as one vector Obs (a struct holding uint64_t v[]) with the signal table t and its
// state elements from `first` on: compare() takes the reference from the C model (reference()) and
// the RTL's outputs and state through outputs(top, v) and state(top, v), and diffs them. The state
// function is LOCKSTEP_STATE(f): f, or in a mutant harness (-DMUTANT, scripts/mutate.sh: the Yosys
// netlist keeps no register names) none, and the state elements are the reference's (only the
// outputs are compared).
#ifdef MUTANT
#define LOCKSTEP_STATE(f) nullptr
#else
#define LOCKSTEP_STATE(f) f
#endif
template <class Top, class Obs> struct lockstep_vec_block : lockstep_block<Top> {
    typedef void vl_fn(Top *top, uint64_t *v);
    Obs ref, rtl;
    const obs_table_t *table;
    int first;
    vl_fn *read_outputs, *read_state;
    lockstep_vec_block(const obs_table_t *t, int first_state, vl_fn *outputs, vl_fn *state)
        : table(t), first(first_state), read_outputs(outputs), read_state(state)
    {
    }
    virtual void reference(Obs *o) = 0;
    int compare(Top *top, uint64_t cycle) override
    {
        reference(&ref);
        read_outputs(top, rtl.v);
        if (read_state)
            read_state(top, rtl.v);
        else
            std::memcpy(rtl.v + first, ref.v + first, (size_t)(table->nv - first) * sizeof rtl.v[0]);
        return obs_diff(table, ref.v, rtl.v, cycle, nullptr, -1, 0, 12);
    }
};

struct lockstep_info {
    const char *name;  // the banner's first word, e.g. "cosim_pe"
    uint64_t cycles;   // --cycles unless given
    std::string about; // what --help prints after the usage line
};

// the file name of a path (the harness's name in its replay command)
static inline const char *cosim_base(const char *p)
{
    const char *b = std::strrchr(p, '/');
    return b ? b + 1 : p;
}

template <class Top> int lockstep_main(int argc, char **argv, const lockstep_info &info, lockstep_block<Top> &b)
{
    cosim_opts o{1, info.cycles, 0, 0, 0, 0, 0, 0, nullptr};
    const cosim_extra *extra = b.extras();
    const int rc = cosim_parse(argc, argv, o, extra, [&](const char *p) {
        std::printf("usage: %s [--seed N] [--cycles N] [--rand-reset] [--fst FILE --window FIRST:LAST]\n"
                    "          [--summary] [--quiet] [--mutant ID]%s\n%s",
                    p, cosim_extra_usage(extra).c_str(), info.about.c_str());
    });
    if (rc >= 0)
        return rc;
#if !VM_TRACE
    if (o.fst) {
        std::fprintf(stderr, "%s: built without waveforms (--fst); its twin with them: %s %s/%s\n", argv[0], COSIM_WAVE_MAKE,
                     COSIM_WAVE_DIR, cosim_base(argv[0]));
        return 2;
    }
#endif
    std::string tag, again; // the choice options, for the banner and the replay command
    for (const cosim_extra *x = extra; x && x->name; x++)
        if (x->choices) {
            tag += std::string(" ") + (x->name + 2) + "=" + x->choices[*x->choice];
            again += std::string(" ") + x->name + " " + x->choices[*x->choice];
        }
    const unsigned long long seed = o.seed;
    cosim_verilated_args(argv[0], o);
    Top *top = new Top;
    if (const int r = cosim_set_mutant(top, o.mutant, argv[0]))
        return r;
    const int alt = b.alternate(top, o);
    if (alt >= 0)
        return alt;
#if VM_TRACE
    VerilatedFstC *tfp = nullptr;
    if (o.fst) {
        Verilated::traceEverOn(true);
        tfp = new VerilatedFstC;
        top->trace(tfp, 99);
        tfp->open(o.fst);
    }
#else
    struct nowave { void dump(uint64_t) {} void close() {} } *tfp = nullptr;
#endif
    if (!o.quiet)
        std::printf("%s config=%s seed=%llu%s cycles=%llu%s\n", info.name, SMK_CFG_NAME, seed, tag.c_str(),
                    (unsigned long long)o.cycles, o.rand_reset ? " rand-reset" : "");
    // the command that reruns this run up to cycle c, with an FST window of its last 50 cycles
    auto replay = [&](uint64_t c) {
        char s[2048], mut[32] = "";
        if (o.mutant)
            std::snprintf(mut, sizeof mut, " --mutant %llu", (unsigned long long)o.mutant);
#if VM_TRACE
        const std::string bin = argv[0];
#else
        const std::string bin = std::string(COSIM_WAVE_MAKE) + " " + COSIM_WAVE_DIR + "/" + cosim_base(argv[0]) + " && " +
                                COSIM_WAVE_DIR + "/" + cosim_base(argv[0]);
#endif
        std::snprintf(s, sizeof s, "%s --seed %llu%s --cycles %llu%s%s --fst mismatch_%llu.fst --window %llu:%llu",
                      bin.c_str(), seed, again.c_str(), (unsigned long long)(c + 1), o.rand_reset ? " --rand-reset" : "",
                      mut, seed, (unsigned long long)(c > 50 ? c - 50 : 0), (unsigned long long)c);
        return std::string(s);
    };

    // reset both sides: two cycles of rst before cycle 0 (the RTL may start from random values)
    b.start(o.seed);
    for (int i = 0; i < 2; i++)
        top->rst = 1, top->clk = 0, top->eval(), top->clk = 1, top->eval();
    uint64_t mism = 0, inv = 0, c;
    const auto dump = [&](uint64_t t) {
        if (tfp && c >= o.win_a && c <= o.win_b)
            tfp->dump(t);
    };
    for (c = 0; c < o.cycles; c++) {
        b.generate();
        b.drive(top);
        top->clk = 0;
        top->eval();
        dump(2 * c);
        if (const int bad = b.compare(top, c)) {
            obs_report(bad, c, replay(c).c_str());
            std::printf("seed=%llu config=%s\n", seed, SMK_CFG_NAME);
            mism++;
            break;
        }
        const int v = b.commit();
        top->clk = 1;
        top->eval();
        dump(2 * c + 1);
        if (v) {
            inv += (uint64_t)v;
            std::printf("INVARIANT violation(s) at cycle %llu, seed=%llu config=%s; replay with waveform window:\n  %s\n",
                        (unsigned long long)c, seed, SMK_CFG_NAME, replay(c).c_str());
            c++;
            break;
        }
    }
    if (tfp)
        tfp->close();
    inv += (uint64_t)b.finish(!mism && !inv, o.summary);
    std::printf("%s: config=%s seed=%llu cycles=%llu mismatches=%llu invariant_violations=%llu\n",
                (mism || inv) ? "FAIL" : "PASS", SMK_CFG_NAME, seed, (unsigned long long)c, (unsigned long long)mism,
                (unsigned long long)inv);
    top->final();
#if VM_COVERAGE
    // the coverage build (make coverage, scripts/coverage.sh): this run's points into $SMK_COV_FILE
    const char *cov = std::getenv("SMK_COV_FILE");
    Verilated::threadContextp()->coveragep()->write(cov && *cov ? cov : "coverage.dat");
#endif
    delete top;
    return (mism || inv) ? 1 : 0;
}

// A harness's main: the block in static storage (large models), then the driver.
template <class Block> int lockstep_run(int argc, char **argv, const lockstep_info &info)
{
    static Block b;
    return lockstep_main(argc, argv, info, b);
}
#endif
