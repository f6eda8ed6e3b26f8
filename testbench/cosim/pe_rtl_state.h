// The preemption engine's RTL state (docs/preempt_engine.md "State"; packed vectors as in the C
// struct) read into an observation vector, shared by cosim_pe.cpp (preempt_engine on top) and sm_rtl_state.h
// (u_pe inside sm_top). The includer defines, with the Verilated object `p` in scope, PE_RTL(sig):
// the member of the engine's register sig, and PE_IX(nm): the index of element nm in its vector
// (PE_IX_TMASK: of tmask).
#ifndef SMK_PE_RTL_STATE_H
#define SMK_PE_RTL_STATE_H
#include <cstdint>
#include "vl_bits.h"

template <class P> static void pe_rtl_state(P *p, uint64_t *v)
{
    v[PE_IX(fsm)] = PE_RTL(fsm);
    for (int i = 0; i < SMK_PE_QDEPTH; i++) {
        v[PE_IX(q_op) + i] = gbits(PE_RTL(q_op), i * 2, 2);
        v[PE_IX(q_tb) + i] = gbits(PE_RTL(q_tb), i * SMK_TBS_W, SMK_TBS_W);
        v[PE_IX(q_ptr) + i] = gbits(PE_RTL(q_ptr), i * SMK_CTX_PTR_W, SMK_CTX_PTR_W);
        v[PE_IX(q_idem) + i] = gbits(PE_RTL(q_idem), i, 1);
    }
    v[PE_IX(q_head)] = PE_RTL(q_head), v[PE_IX(q_cnt)] = PE_RTL(q_cnt);
    v[PE_IX(cur_op)] = PE_RTL(cur_op), v[PE_IX(cur_tb)] = PE_RTL(cur_tb), v[PE_IX(cur_st)] = PE_RTL(cur_st);
    v[PE_IX(cur_ptr)] = PE_RTL(cur_ptr), v[PE_IX_TMASK] = PE_RTL(tmask), v[PE_IX(nreg)] = PE_RTL(nreg);
    v[PE_IX(nsml)] = PE_RTL(nsml), v[PE_IX(klim)] = PE_RTL(klim), v[PE_IX(ph)] = PE_RTL(ph);
    v[PE_IX(wrem)] = PE_RTL(wrem), v[PE_IX(idx)] = PE_RTL(idx), v[PE_IX(addr)] = PE_RTL(addr);
    v[PE_IX(out)] = PE_RTL(out), v[PE_IX(drain)] = PE_RTL(drain), v[PE_IX(dpend)] = PE_RTL(dpend);
}
#endif
