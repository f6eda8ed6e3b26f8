/* test_drv_env.c: the SM driver's C model under the driver cosim's environment, without the RTL
 * (testbench/cosim/drv_env.h: random host, SM-side responder, QoS manager; monitors of every
 * policy rule, of the decision pipeline and of the TB ledger). The cosim runs the same loop in
 * lockstep with the RTL; here it checks the model alone in every configuration `make unit` builds,
 * including drv_pipe = 1 (docs/sm_driver.md "Decision pipeline"). DRV_ENV_SUMMARY=1 prints each
 * run's summary. */
#include <criterion/criterion.h>

#include "drv_env.h"

#include <stdlib.h>

static void run(uint64_t seed, uint64_t cycles)
{
    drv_env_t *e = drv_env_new(seed);
    cr_assert_not_null(e);
    sm_driver_t m;
    drv_reset(&m);
    drv_stim_t st;
    drv_out_t o;
    int nv = 0;
    for (uint64_t c = 0; c < cycles && !nv; c++) {
        drv_env_gen(e, &st);
        drv_eval(&m, &st.in, &o);
        drv_env_react(e, &st, &o);
        nv = drv_env_observe(e, &st, &m, &o);
        if (st.rst)
            drv_reset(&m);
        else
            drv_commit(&m, &st.in, &o);
    }
    cr_expect_eq(nv, 0, "seed %llu: %d invariant violations (rerun: the cosim with --seed %llu --summary)",
                 (unsigned long long)seed, nv, (unsigned long long)seed);
    if (!nv)
        cr_expect_eq(drv_env_finish(e, &m, getenv("DRV_ENV_SUMMARY") != NULL), 0, "seed %llu: end-of-run checks", (unsigned long long)seed);
    drv_env_free(e);
}

Test(drv_env, model_seed_4000) { run(4000, 150000); }
Test(drv_env, model_seed_4001) { run(4001, 150000); }
Test(drv_env, model_seed_4003) { run(4003, 150000); }
