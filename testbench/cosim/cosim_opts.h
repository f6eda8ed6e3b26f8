// cosim_opts.h: the command-line options of the lockstep cosims (--seed --cycles --rand-reset
// --fst FILE --window FIRST:LAST --summary --quiet --mutant ID, plus each harness's own options,
// e.g. cosim_issue's --mode and --bench), their usage line, and the Verilator arguments they imply.
// Used by the lockstep driver (lockstep.h).
#ifndef COSIM_OPTS_H
#define COSIM_OPTS_H
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "verilated.h"

struct cosim_opts {
    uint64_t seed, cycles, win_a, win_b, mutant;
    int rand_reset, summary, quiet;
    const char *fst;
};

// A harness's own option NAME VALUE: a number (choices == nullptr) stored in *num, or one of the
// words choices[0..] (nullptr-terminated) whose index is stored in *choice. what: the value in the
// usage line and in "NAME needs WHAT".
struct cosim_extra {
    const char *name, *what;
    uint64_t *num;
    const char *const *choices;
    int *choice;
};

// " [--mode random|scenario] [--bench N]": the usage of the extras (a list ended by name == nullptr)
static inline std::string cosim_extra_usage(const cosim_extra *x)
{
    std::string u;
    for (; x && x->name; x++)
        u += std::string(" [") + x->name + " " + (x->choices ? x->what : "N") + "]";
    return u;
}

// Parses argv into o (o holds the defaults on entry) and into the extras. Returns -1 to go on, or the
// exit status (0 after --help, 2 after a bad option, with a one-line error on stderr).
static inline int cosim_parse(int argc, char **argv, cosim_opts &o, const cosim_extra *extra,
                              const std::function<void(const char *)> &usage)
{
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto need = [&](const char *what) -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s: %s needs %s\n", argv[0], a.c_str(), what);
                std::exit(2);
            }
            return argv[++i];
        };
        auto num = [&](const char *s) -> uint64_t {
            char *e;
            unsigned long long v = std::strtoull(s, &e, 0);
            if (*s == '\0' || *e != '\0') {
                std::fprintf(stderr, "%s: %s expects a non-negative integer, got '%s'\n", argv[0], a.c_str(), s);
                std::exit(2);
            }
            return v;
        };
        const cosim_extra *x = extra;
        while (x && x->name && a != x->name)
            x++;
        if (x && x->name && !x->choices) {
            *x->num = num(need(x->what));
        } else if (x && x->name) {
            const std::string w = need(x->what);
            int k = 0;
            while (x->choices[k] && w != x->choices[k])
                k++;
            if (!x->choices[k]) {
                std::string alt;
                for (int j = 0; x->choices[j]; j++)
                    alt += std::string(j ? (x->choices[j + 1] ? ", " : " or ") : "") + x->choices[j];
                std::fprintf(stderr, "%s: %s expects %s, got '%s'\n", argv[0], a.c_str(), alt.c_str(), w.c_str());
                return 2;
            }
            *x->choice = k;
        } else if (a == "--seed") o.seed = num(need("a number"));
        else if (a == "--cycles") o.cycles = num(need("a number"));
        else if (a == "--mutant") o.mutant = num(need("a mutant id"));
        else if (a == "--rand-reset") o.rand_reset = 1;
        else if (a == "--summary") o.summary = 1;
        else if (a == "--quiet") o.quiet = 1;
        else if (a == "--fst") o.fst = need("a file name");
        else if (a == "--window") {
            const char *w = need("FIRST:LAST");
            unsigned long long p, q;
            char tail;
            if (std::sscanf(w, "%llu:%llu%c", &p, &q, &tail) != 2 || q < p) {
                std::fprintf(stderr, "%s: --window expects FIRST:LAST cycles, got '%s'\n", argv[0], w);
                return 2;
            }
            o.win_a = p, o.win_b = q;
        } else if (a == "--help" || a == "-h") { usage(argv[0]); return 0; }
        else { std::fprintf(stderr, "%s: unknown option '%s' (try --help)\n", argv[0], a.c_str()); return 2; }
    }
    return -1;
}

// Hands Verilator its arguments: with --rand-reset, random initial register values from a seed
// derived from --seed, so that the run replays exactly.
static inline void cosim_verilated_args(const char *argv0, const cosim_opts &o)
{
    std::vector<std::string> vargs = {argv0};
    if (o.rand_reset) {
        vargs.push_back("+verilator+rand+reset+2");
        vargs.push_back("+verilator+seed+" + std::to_string((o.seed % 2147483646) + 1));
    }
    std::vector<const char *> vargv;
    for (auto &s : vargs) vargv.push_back(s.c_str());
    Verilated::commandArgs((int)vargv.size(), vargv.data());
}
// --mutant ID: selects mutant ID of a harness built by scripts/mutate.sh (-DMUTANT: the Yosys netlist
// has a `mutsel` input); a normal build refuses a nonzero ID. Returns 0, or the exit status 2.
template <class Top> static inline int cosim_set_mutant(Top *top, uint64_t mutant, const char *argv0)
{
#ifdef MUTANT
    top->mutsel = (uint8_t)mutant;
    (void)argv0;
#else
    (void)top;
    if (mutant) {
        std::fprintf(stderr, "%s: --mutant needs a harness built by scripts/mutate.sh\n", argv0);
        return 2;
    }
#endif
    return 0;
}

#endif
