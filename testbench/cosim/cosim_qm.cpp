// cosim_qm.cpp: the stand-alone QoS manager cosim's harness: what the lockstep driver (lockstep.h)
// needs of this block. It moves values between the C environment (qm_env.c: stimulus, C model,
// observation) and the Verilated qos_mgr; all decisions live in C.
#include "Vqos_mgr.h"
#ifndef MUTANT
#include "Vqos_mgr___024root.h"
#endif
#include "lockstep.h"

extern "C" {
#include "qm_env.h"
}

// outputs and state: qm_rtl_state.h
#define QM_RTL(sig) top->rootp->qos_mgr__DOT__##sig
#define QM_OUT(port) top->port
#include "qm_rtl_state.h"

static void drive(Vqos_mgr *top, const qm_stim_t *st)
{
    const qm_in_t *in = &st->in;
    top->rst = st->rst;
    top->m_we = in->m_we;
    top->m_addr = in->m_addr;
    top->m_wdata = in->m_wdata;
    top->m_raddr = in->m_raddr;
    for (int s = 0; s < QM_NSM; s++) sbits(top->rd_data, s * 32, 32, in->rd_data[s]);
    top->kl_v = in->kl_v;
    top->kl_k = in->kl_k;
    top->kl_n = in->kl_n;
    top->kl_qos = in->kl_qos;
    top->kl_goal = in->kl_goal;
    top->kl_x = in->kl_x;
    top->kl_t = in->kl_t;
    top->kl_keep = in->kl_keep;
    top->kl_rej = in->kl_rej;
    top->kdone_v = in->kdone_v;
    top->kdone_k = in->kdone_k;
    top->lk_cnt = in->lk_cnt;
    top->lk_part = in->lk_part;
    top->lk_ksv = in->lk_ksv;
    top->lk_ks = in->lk_ks;
    top->rq_rdy = in->rq_rdy;
    top->rq_ack_v = in->rq_ack_v;
    top->rq_ack_st = in->rq_ack_st;
    top->rq_ack_kv = in->rq_ack_kv;
    top->rq_ack_n = in->rq_ack_n;
}

struct qm_block : lockstep_vec_block<Vqos_mgr, qm_obs_t> {
    qm_model_t m;
    qm_env_t env;
    qm_stim_t st;
    qm_block()
        : lockstep_vec_block(&qm_obs_table, QO_FIRST_STATE, qm_rtl_outputs<Vqos_mgr>, LOCKSTEP_STATE(qm_rtl_state<Vqos_mgr>))
    {
    }
    void start(uint64_t seed) override
    {
        qm_model_reset(&m);
        qm_env_init(&env, seed);
    }
    void generate() override
    {
        qm_env_gen(&env, &st);
        qm_model_eval(&m, &st);          // outputs: a function of the state (and m_raddr)
        qm_env_respond(&env, &m.o, &st); // lookup results and SM read data for those outputs
        qm_model_eval(&m, &st);
    }
    void drive(Vqos_mgr *top) override { ::drive(top, &st); }
    void reference(qm_obs_t *o) override { qm_obs_from_model(&m, o); }
    int commit() override
    {
        const int v = qm_env_commit(&env, &st, &m.o);
        qm_model_commit(&m, &st);
        return v;
    }
    int finish(bool, bool summary) override
    {
        if (summary) {
            std::printf("config %s, ", SMK_CFG_NAME);
            qm_env_summary(&env);
        }
        return 0;
    }
};

static const char about[] = // --help
    "Runs the C model and the RTL of the QoS manager in lockstep with a random host (register\n"
    "writes, launches with goals, refusals, completions), scripted SM register responses and a\n"
    "random driver stub (lookup port, request port with random latencies and statuses),\n"
    "comparing every output and every state element of docs/qos_mgr.md section 13 every cycle.\n";

int main(int argc, char **argv) { return lockstep_run<qm_block>(argc, argv, {"cosim_qm", 300000, about}); }
