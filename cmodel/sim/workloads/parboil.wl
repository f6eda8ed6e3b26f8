# parboil.wl: the ten Parboil kernels of the papers' evaluation (ISCA'17 4.1, thesis 2.5/3.5) on the
# GTX980-like machine of docs/papers.md 1, with the papers' datasets ("the largest datasets for all
# kernels"). Format and units: docs/workload.md. Derivations, uncertainty and the measured
# calibration: docs/calibration.md. Every value carries its source on its line; a value without
# one is marked "ASSUMED" with the reason.
#
#   [PB]   Parboil CUDA source, repository abduld/Parboil (commit a4c63da), benchmarks/K/src/cuda/
#          (stencil: src/cuda_fermi/, the variant with block2D_reg_tiling named in [T22]):
#          launch configuration, loop bounds, shared-memory arrays, access patterns
#   [PTX]  PTX instructions counted per basic block of the kernel: nvcc 13.0 -ptx -O3
#          -arch=compute_75 with the benchmark Makefile's flags (mri-q --use_fast_math), times the
#          loop trip counts of the dataset (docs/calibration.md "Instruction counts"). GPGPU-Sim,
#          which the papers used, executes PTX; the papers' older nvcc may differ by some 10-20%
#   [DS]   dataset and run arguments: Accel-Sim util/job_launching/apps/define-all-apps.yml
#          (accel-sim/accel-sim-framework) and the public run scripts cited in docs/calibration.md
#   [T22]  thesis Table 2-2 (resource use on GTX980, limiting resource in bold), solved for per-TB
#          numbers: per SM 65536 registers, 96 KB shared memory, 2048 threads, 32 TBs
#   [CQ1]  C-QoS (Long et al. 2020) Table 1: registers per thread, shared memory per TB, grid, block
#          (its grids are those of the datasets it ran, small ones for cutcp and mri-q)
#   [GS]   GPGPU-Sim 3.x (gpgpu-sim/gpgpu-sim_distribution commit 42115fb, May 2016, the release the papers'
#          "latest version" was): configs/GTX480/gpgpusim.config, src/gpgpu-sim/shader.cc (scheduler_unit::cycle
#          skips a warp whose pipeline register is full), src/cuda-sim/cuda-sim.cc (initiation intervals)
#   [GTX]  docs/papers.md 1 / ISCA'17 Table 1 (16 SMs, 4 memory controllers, 1216 MHz core, 7 GHz GDDR5)
#
# Instruction classes (docs/workload.md "Pipelines", GPGPU-Sim's set_opcode_and_latency [GS]): PTX
# ld.const (constant-cache reads) count as `shared` (on-chip, shared-memory latency); tex and
# ld/st/atom.global as `global`; sin/cos/ex2/lg2/rsqrt/rcp/sqrt as `sfu`; integer mul (lo, hi, wide)
# as `imul`, integer mad as `imad`, mul.f32 as `fmul`, float div as `fdiv`; everything else (bar,
# branches, fma and float mad, other integer and float arithmetic) as `alu`. sad's counts are those
# of its texture fetch compiled as a texture object (tex.2d, as GPGPU-Sim runs it): CUDA 13 has no
# texture references. `dep` has no source in the
# Parboil code that the model's single probability could be read from: it stays ASSUMED everywhere.
# Papers' classes (ISCA'17 4.1): compute-bound cutcp, mri-q, sgemm, tpacf; memory-bound histo, lbm,
# mri-gridding, sad, spmv, stencil. Measured classes: docs/calibration.md.

machine
  mem_channels   4      # [GTX] 4 memory controllers
  mem_service    2.78   # [GTX] 224 GB/s at 1216 MHz = 184 B/cycle = 1.44 lines of 128 B per cycle, over 4 channels
  mem_latency    200    # ASSUMED: DRAM latency beyond the channel's service (total about 350 core cycles unloaded)
  l1_latency     82     # ASSUMED: Maxwell L1/texture hit latency of microbenchmark studies
  l2_latency     200    # ASSUMED: L2 hit latency
  alu_latency    6      # ASSUMED: Maxwell dependent-issue latency of arithmetic instructions
  sfu_latency    20     # ASSUMED
  shared_latency 24     # ASSUMED: shared-memory load latency
  max_inflight   4      # ASSUMED: instructions one warp may have in flight (scoreboard entries)
  mshr           64     # ASSUMED: L1-miss lines in flight per SM
  ctx_priority   no     # ASSUMED: context lines queue with the other lines (no priority at the controllers)
  alu_units      2      # [GS] ASSUMED from GPGPU-Sim's GTX480 configuration (no pipeline parameter is published): gpgpu_pipeline_widths ID_OC_SP = OC_EX_SP = 2, gpgpu_num_sp_units 2, initiation interval 1 (ptx_opcode_initiation_int/fp ADD, MAD)
  alu_queue      8      # [GS] ID_OC_SP width 2 + gpgpu_operand_collector_num_units_sp 6
  sfu_interval   8      # [GS] gpgpu_num_sfu_units 1; SQRT/SIN/COS/EX2/LG2/RSQRT/RCP take dp initiation interval 8 (cuda-sim.cc, ptx_opcode_initiation_dp MUL)
  sfu_queue      9      # [GS] ID_OC_SFU width 1 + gpgpu_operand_collector_num_units_sfu 8
  ldst_queue     3      # [GS] ID_OC_MEM width 1 + gpgpu_operand_collector_num_units_mem 2 (the simulator's default); one line per cycle (ldst_unit: one access per cycle)
  fetch_warps    1      # [GS] shader_core_ctx::fetch: one fetch buffer per SM, one warp per cycle, round robin over the warps whose instruction buffer is empty (I-cache hits assumed)
  imul_interval  2      # [GS] integer mul (cuda-sim.cc MUL_OP, integer types: op = SFU_OP) starts on the SFU every ptx_opcode_initiation_int[2] = 2 cycles
  imad_interval  1      # [GS] integer mad (MAD_OP, integer types: op = SFU_OP), ptx_opcode_initiation_int[3] = 1
  fmul_interval  1      # [GS] f32 mul (MUL_OP F32: op = ALU_SFU_OP, the SFU when the SP pipeline register is full), ptx_opcode_initiation_fp[2] = 1
  fdiv_interval  4      # [GS] f32 div (DIV_OP: op = SFU_OP), ptx_opcode_initiation_fp[4] = 4
  ibuffer        2      # [GS] shd_warp_t::IBUFFER_SIZE 2; a fetch of 16 bytes brings two 8-byte instructions
end

# ---------------------------------------------------------------- compute-bound in the papers

kernel cutcp            # cuda_cutoff_potential_lattice6overlap, dataset large (watbox.sl100.pqr) [DS]; 26 launches per run, one per z plane of 8^3-point regions [PB]
  threads    128        # [PB] blockDim 8 x 2 x 8; [CQ1] 128
  regs       25         # [CQ1] 25 ([T22] 87.5% = 28 per thread after allocation rounding)
  smem_bytes 4124       # [CQ1] 4124 B; [PB] 4096 B atom-bin cache + shared scalars; [T22] 67.1% / 16 TBs = 4123 B
  grid       676        # [PB] xRegionDim x yRegionDim = 26 x 26: lattice spacing 0.5 A, padding 0.5 A, box side 100 A (ASSUMED from the file name sl100; the same formula gives [CQ1]'s 121 = 11 x 11 for sl40)
  insts      76000      # [PTX] 335 neighbour bins x 6.4 atoms x (26 + 4 x 7 x 0.51) + bin loop, 17% of bins empty at the box edges; +-25% (atoms per bin, cutoff geometry)
  mix_alu    0.6716     # [PTX] inner atom loop: compare/arith (p = 0.5 of the cutoff bodies per lattice point, which gives the sfu and shared fractions; 0.51 would give 0.051 / 0.099)
  mix_sfu    0.050      # [PTX] rsqrt.approx, one per lattice point inside the cutoff (4 x 0.51 per atom)
  mix_shared 0.100      # [PTX] 4 ld.shared per atom (the bin cache)
  mix_global 0.001      # [PTX] 2 loads per cached bin, 4 stores per thread
  mix_imul   0.0012     # [PTX] mul.wide.s32 x 2 per bin-cache load (42 per thread: neighbour-list and bin addresses) + 5 in the entry and stores: 89 of 76000
  mix_imad   0.0012     # [PTX] mad.lo.s32 x 2 per bin-cache load (bin index) + 4 in the entry: 88 of 76000
  mix_fmul   0.1750     # [PTX] mul.f32 x 1 of the atom's 26 (dz^2) + 3 per cutoff body of 7 (r2 x 1/cutoff2, q x rsqrt, s x q/r): 7 of 40 per atom
  mix_fdiv   0          # [PTX] none
  dep        0.45       # ASSUMED (no source)
  lines      2          # [PB] each half-warp reads its own 128-B atom bin; the stores of the two half-warps are 256 B apart
  l1_hit     0.1        # ASSUMED: a TB reads each bin once; TBs on one SM are 16 regions apart (no common bins)
  l2_hit     0.9        # ASSUMED: the bins of one z slab (~0.9 MB) are shared by all concurrent TBs and fit the 2 MB L2
  active     32:0.79 16:0.21   # [PB] derived: the 4 x 7-instruction bodies run for atoms inside the cutoff; a warp spans 3.5 x 0.5 x 0.5 A, so 21% of them see the cutoff boundary (about half the threads active)
  idempotent yes        # [PB] plain stores of the TB's own lattice region
end

kernel mri-q            # ComputeQ_GPU (>99% of mri-q's instructions; ComputePhiMag_GPU is one short launch), dataset large (64_64_64_dataset.bin) [DS]; ceil(numK / 1024) launches per run [PB]
  threads    256        # [PB] KERNEL_Q_THREADS_PER_BLOCK; [CQ1] 256
  regs       27         # [CQ1] 27
  smem_bytes 0          # [PB] k-space tile in constant memory; [CQ1] 0
  grid       1024       # [PB] numX / 256 with numX = 64^3 = 262144 (ASSUMED from the file name; [CQ1]'s 128 = 32^3 / 256 is the small set)
  insts      16438      # [PTX] 512 iterations (1024 k-space samples per launch, 2 per iteration) x 32 + 54
  mix_alu    0.4695     # [PTX] 15 of the loop's 32 (fma, adds, loop)
  mix_sfu    0.1247     # [PTX] sin.approx and cos.approx (--use_fast_math), 4 of 32
  mix_shared 0.2495     # [PTX] ld.const of the k-space sample (constant cache), 8 of 32
  mix_global 0.0004     # [PTX] 5 loads and 2 stores per thread
  mix_imul   0.0312     # [PTX] mul.wide.s32 x 1 of the loop's 32 (address of the k-space sample in constant memory)
  mix_imad   0          # [PTX] none in the loop
  mix_fmul   0.1247     # [PTX] mul.ftz.f32 x 4 of the loop's 32 (ky*y and the x 2pi of each of the 2 samples; the other products are fma)
  mix_fdiv   0          # [PTX] none
  dep        0.40       # ASSUMED (no source)
  lines      1          # [PB] x, y, z, Qr, Qi indexed by the thread: coalesced
  l1_hit     0.0        # [PB] each line is read once per launch
  l2_hit     0.0        # [PB] each line is read once per launch
  active     32:1       # [PB] no branch in the loop; numX a multiple of 256
  idempotent no         # [PB] Qr, Qi are read, accumulated and written back: a rerun TB would add twice
end

kernel sgemm            # mysgemmNT, dataset medium (the largest), m = 1024, k = 992, n = 1056 [DS]; 1 launch per run [PB]
  threads    128        # [PB] TILE_N x TILE_TB_HEIGHT = 16 x 8; [T22] threads 68.8% = 11 TBs of 128
  regs       44         # [T22] registers 94.5% / 1408 threads = 44 per thread
  smem_bytes 512        # [PB] b_s[8][16] floats; [T22] 5.7% / 11 TBs = 512 B
  grid       528        # [PB] (m / 128) x (n / 16) = 8 x 66 with the medium set
  insts      38201      # [PTX] 124 k-steps (992 / 8) x 307 + 133
  mix_alu    0.5312     # [PTX] 128 FFMA per k-step + address and loop arithmetic
  mix_sfu    0.0        # [PTX] none
  mix_shared 0.4187     # [PTX] one ld.shared per FFMA (b_s broadcast) + the tile store
  mix_global 0.0301     # [PTX] 8 loads of A and 1 of B per k-step, 32 C accesses at the end
  mix_imul   0.0098     # [PTX] mul.wide.u32/s32 x 3 per k-step (B tile and A row addresses): 375 of 38201
  mix_imad   0.0098     # [PTX] mad.lo.s32 x 3 per k-step (tile indices): 374 of 38201
  mix_fmul   0.0004     # [PTX] mul.f32 x 16 in the epilogue (alpha x C): 16 of 38201
  mix_fdiv   0          # [PTX] none
  dep        0.35       # ASSUMED (no source)
  lines      1.11       # [PB] A and C rows: 1 line per warp access; B: 2 half rows of 64 B per warp (2 lines)
  l1_hit     0.6        # ASSUMED: the TBs of one SM share blockIdx.x (TB id mod 16) and so read the same A rows
  l2_hit     0.85       # ASSUMED: each B tile is read by 8 TBs on other SMs, each A tile by the concurrent TBs of all columns
  active     32:1       # [PB] no divergence; m and n are multiples of the tiles
  idempotent yes        # [PB] C = alpha A B + beta C with beta = 0: the result does not depend on the old C
end

kernel tpacf            # gen_hists, dataset large (-n 100 -p 10391) [DS]; 1 launch per run [PB]
  threads    256        # [PB] BLOCK_SIZE 256 ([T22] threads 87.5% = 7 TBs of 256, consistent)
  regs       28         # [T22] registers 76.6% / 1792 threads = 28 per thread
  smem_bytes 13312      # [PB] data_s 256 x 12 B + warp_hists 20 x 128 x 4 B; [T22] 94.8% (limiting) / 7 TBs = 13312 B
  grid       201        # [PB] 2 x NUM_SETS + 1 with NUM_SETS = 100
  insts      30000000   # [PTX] 93 per point pair x 322,664 pairs per thread: the mean of 101 self-correlation TBs (220,311 pairs) and 100 cross TBs (41 x 10,391); the launch lasts hundreds of millions of cycles
  mix_alu    0.7851     # [PTX] dot product, 5-step binary search over 20 bins, loop
  mix_sfu    0.0        # [PTX] none
  mix_shared 0.1182     # [PTX] 3 ld.shared + 1 atom.shared + 7 ld.const (bin bounds) per pair
  mix_global 0.0001     # [PTX] 3 loads per 256 pairs
  mix_imul   0.0752     # [PTX] mul.wide.u32 x 7 of the pair's 93 (bin-bound addresses in constant memory: 5 search steps + 2 checks)
  mix_imad   0.0107     # [PTX] mad.lo.s32 x 1 of the pair's 93 (shared-memory address of the point, j x 12)
  mix_fmul   0.0107     # [PTX] mul.f32 x 1 of the pair's 93 (first product of the dot product; the other two are fma)
  mix_fdiv   0          # [PTX] none
  dep        0.45       # ASSUMED (no source)
  lines      1          # [PB] coordinates indexed by the thread: coalesced
  l1_hit     0.0        # ASSUMED: immaterial (one global access per 8,000 instructions)
  l2_hit     0.5        # ASSUMED: immaterial (one global access per 8,000 instructions)
  active     32:0.87 13:0.13   # [PB] derived: the binary search takes 4 or 5 steps; the warp runs 5, the 5th with the threads that need it
  idempotent yes        # [PB] atomics only in shared memory; the TB's histogram is stored with plain stores
end

# ---------------------------------------------------------------- memory-bound in the papers

kernel histo            # histo_main_kernel (81% of histo's warp instructions per iteration [PTX]; prescan, intermediates, final the rest), dataset large (-- 10000 4) [DS]; 4 launches per iteration, 10,000 iterations [PB]
  threads    768        # [PB] THREADS for KB = 24; [CQ1] 768
  regs       21         # [CQ1] 21
  smem_bytes 24576      # [PB] sub_histo[24][256] words; [CQ1] 24576 B
  grid       84         # [CQ1] 84 = BLOCK_X 14 x 6 histogram ranges [PB]
  insts      2900       # [PTX] 97 iterations x 28 + 200: 996 x 1040 pixels over 14 x 768 threads (image size from [CQ1]'s intermediates launch, 65 TBs of 498 threads; ASSUMED the same for the large set)
  mix_alu    0.8896     # [PTX] bin decode, range tests, loop
  mix_sfu    0.0        # [PTX] none
  mix_shared 0.039      # [PTX] 1 atom.shared per pixel + clearing and copying the sub-histogram
  mix_global 0.036      # [PTX] 1 uchar4 load per pixel + the sub-histogram copy-out
  mix_imul   0.0347     # [PTX] mul.wide.u32 x 1 of the pixel loop's 28 (pixel address) + 4 mul.lo.s32 per thread: 101 of 2908
  mix_imad   0.0007     # [PTX] mad.lo.s32 x 2 per thread (global thread index, copy-out offset)
  mix_fmul   0          # [PTX] none
  mix_fdiv   0          # [PTX] none
  dep        0.6        # ASSUMED (no source)
  lines      1          # [PB] uchar4 per thread: 128 B per warp
  l1_hit     0.0        # [PB] streaming: each TB reads each pixel once
  l2_hit     0.5        # ASSUMED: the 6 TBs of one blockIdx.x read the same pixels; about 2 of them are resident together
  active     32:0.57 5:0.43   # [PB] derived: the shared-atomic block (12 of 28 instructions) runs for the pixels of this TB's range, 1 in 6
  idempotent no         # [PB] global atomics (overflow and out-of-range bins)
end

kernel lbm              # performStreamCollide_kernel, dataset long (3000 time steps) [DS]; 1 launch per time step [PB]
  threads    120        # [PB] SIZE_X; [CQ1] 120
  regs       54         # [CQ1] 54 ([T22] 92.3% = 56 per thread after allocation rounding)
  smem_bytes 0          # [PB] none; [CQ1] 0
  grid       18000      # [PB] SIZE_Y x SIZE_Z = 120 x 150; [CQ1] 18000
  insts      255        # [PTX] one fluid cell per thread, straight-line code
  mix_alu    0.5922     # [PTX] collision arithmetic (adds, fma) and addressing
  mix_sfu    0.0        # [PTX] none (the 3 divisions are mix_fdiv)
  mix_shared 0.0        # [PB] no shared memory
  mix_global 0.1529     # [PTX] 20 loads (19 distributions + flags) and 19 stores
  mix_imul   0.0039     # [PTX] mul.wide.s32 x 1 of 255 (cell address)
  mix_imad   0.0039     # [PTX] mad.lo.s32 x 1 of 255 (cell index)
  mix_fmul   0.2353     # [PTX] mul.f32 x 60 of 255 (the collision arithmetic)
  mix_fdiv   0.0118     # [PTX] div.rn.f32 x 3 of 255 (velocity / density)
  dep        0.5        # ASSUMED (no source)
  lines      1.26       # [PB] structure of arrays, rows padded to 128 B: loads 1 line; 10 of the 19 scattered stores go to x +- 1 (2 lines)
  l1_hit     0.0        # [PB] each value is read once per time step (the grid is 170 MB)
  l2_hit     0.2        # [PB] derived: the second lines of the 10 shifted stores are the neighbouring warp's lines (10 of 49)
  active     32:0.5 31:0.5   # [PB] derived: the obstacle cells x = 0 and x = 119 leave one thread idle in 2 of the 4 warps
  idempotent yes        # [PB] out of place: reads srcGrid, writes dstGrid (swapped between time steps)
end

kernel mri-gridding     # gridding_GPU (the gather over the binned samples; binning, sort, scan and reorder are short), dataset small (the only one, -- 32 0) [DS]; 1 launch per run [PB]
  threads    64         # [PB] dims (8, 4, 2)
  regs       47         # compiled (ptxas -v, sm_75; no published figure)
  smem_bytes 1536       # [PB] 6 shared arrays of TILE = 64 floats
  grid       1024       # ASSUMED: (size_x / 8) x (size_y x size_z / 32); the grid size of small.uks was not found
  insts      1500       # ASSUMED: samples per thread depend on small.uks (sample count, grid size, kernel width), not found
  mix_alu    0.8174     # [PTX] per sample: distance to 4 grid points, Kaiser-Bessel weight (2 div.u32 per thread, 0.0013, counted here: integer divides are class alu, docs/workload.md)
  mix_sfu    0.019      # [PTX] sqrt.rn.f32, one per weight body (points inside the cutoff); the per-sample model gives 0.021, the fractions below are scaled to this line's 0.019
  mix_shared 0.046      # [PTX] 6 ld.shared per sample (the sample tile)
  mix_global 0.005      # [PTX] tile loads (2 per 64 samples per thread) and bin-start reads
  mix_imul   0.0080     # [PTX] mul.lo.s32/mul.wide.s32 x 12 per thread (entry indices, store-out addresses) of 1500 (ASSUMED insts); each bin visited adds 4, left out like its loads
  mix_imad   0.0027     # [PTX] mad.lo.s32 x 4 per thread (grid-point index)
  mix_fmul   0.0829     # [PTX] mul.f32 x 4 per weight body + 1 per sample (12.0 of 131 per sample), scaled to mix_sfu
  mix_fdiv   0.0190     # [PTX] div.approx.f32 x 1 per weight body, as many as the sqrt of mix_sfu
  dep        0.55       # ASSUMED (no source)
  lines      2.5        # [PB] float2 and float4 tile loads: 2 and 4 lines per warp
  l1_hit     0.5        # ASSUMED: a bin's samples are read by the TBs of neighbouring grid tiles
  l2_hit     0.8        # ASSUMED: a bin's samples are read by the TBs of neighbouring grid tiles
  active     32:0.7 16:0.3   # [PB] derived: the weight bodies run only for samples inside the cutoff (about 3 x 33 of 131 instructions)
  idempotent yes        # [PB] plain stores of the computed grid points
end

kernel sad              # mb_sad_calc (4x4 SADs; larger_sad_calc_8/16 only add them up), dataset large [DS]; 1 launch per run [PB]
  threads    61         # [PB] CEIL(MAX_POS 1089, POS_PER_THREAD 18)
  regs       63         # compiled (ptxas -v, sm_75, the texture reference replaced by a texture object; no published figure)
  smem_bytes 2224       # [PB] 1096 x 2 B dynamic SAD array + 32 B frame_loc
  grid       1584       # ASSUMED: (width / 4) x (height / 4); the frame size of the large set was not found (1584 is a 176 x 144 frame)
  insts      2638       # [PTX] 6 iterations (18 positions, 3 at a time) x 412 (4 rows x 6 texture fetches, unrolled) + 166 (block copy in, set-up, copy out): 2637.5
  mix_alu    0.9226     # [PTX] absolute differences and sums (the y loop unrolled, the current 4x4 block held in registers)
  mix_sfu    0.0        # [PTX] none
  mix_shared 0.0154     # [PTX] the current 4x4 block read once per thread + 3 SAD stores per 3 positions (40.5 of 2637.5)
  mix_global 0.0567     # [PTX] tex.2d, 24 per 3 positions (6 per row of the 4x4 block) + copy in and out (149.5 of 2637.5)
  mix_imul   0.0030     # [PTX] mul.lo.s32/mul.wide x 8 per thread (divisions by constants, position and SAD-array indices)
  mix_imad   0.0023     # [PTX] mad.lo.s32 x 6 per thread (frame and SAD-array indices)
  mix_fmul   0          # [PTX] none
  mix_fdiv   0          # [PTX] none
  dep        0.5        # ASSUMED (no source)
  lines      8          # ASSUMED: a warp's fetch spans about 17 rows of the 33 x 33 search window; a 2D-tiled texture layout halves that
  l1_hit     0.9        # ASSUMED: texture cache; every pixel of the 36 x 36 window is fetched by many threads (cache-sensitive, thesis 2.5)
  l2_hit     0.8        # ASSUMED: the search windows of neighbouring 4x4 blocks overlap
  active     32:1       # [PB] no divergence in the loop (the TB's second warp has 29 threads, which the model caps)
  idempotent yes        # [PB] plain stores of the SADs
end

kernel spmv             # spmv_jds, dataset large (Dubcova3) [DS]; 50 launches per run [PB]
  threads    192        # [PB] 1536 / 8 (compute_active_thread); [CQ1] 192; [T22] threads 93.8% = 10 TBs of 192
  regs       16         # [CQ1] 16; [T22] registers 46.9% / 1920 threads = 16
  smem_bytes 0          # [PB] none; [CQ1] 0
  grid       765        # [CQ1] 765 = [PB] ceil(warps x 32 / 192) for 146,689 rows
  insts      385        # [PTX] 12.5 per non-zero (4x unrolled) x 25 (3.64 M non-zeros / 146,689 rows of Dubcova3) + 80
  mix_alu    0.5870     # [PTX] index arithmetic, FFMA, loop
  mix_sfu    0.0        # [PTX] none
  mix_shared 0.0675     # [PTX] 1 ld.const (jds_ptr) per non-zero
  mix_global 0.20       # [PTX] 3 loads per non-zero: value, column index, x
  mix_imul   0.1429     # [PTX] mul.wide.s32 x 8 of the 4x-unrolled loop's 50 (2 per non-zero: value/index and x addresses): 55 of 385
  mix_imad   0.0026     # [PTX] mad.lo.s32 x 1 of 385 (d_perm index)
  mix_fmul   0          # [PTX] none
  mix_fdiv   0          # [PTX] none
  dep        0.65       # ASSUMED (no source)
  lines      2          # [PB] value and index rows coalesced (1 line each); x gather ASSUMED 4 lines
  l1_hit     0.2        # ASSUMED: x gather hits L1 0.3; values and indices stream
  l2_hit     0.55       # [PB] derived: x (0.6 MB) stays in L2; values and indices (29 MB per launch) go to DRAM
  active     32:1       # [PB] JDS pads each warp's rows to its longest
  idempotent yes        # [PB] y = A x with plain stores
end

kernel stencil          # block2D_reg_tiling (cuda_fermi; [T22] "block2Dregtiling"), dataset default 512 x 512 x 64 (the largest) [DS]; 100 launches per run [PB]
  threads    1024       # [PB] block 512 x 2 ([T22] threads 100% = 2 TBs of 1024, consistent)
  regs       24         # [T22] registers 75% / 2048 threads = 24 per thread
  smem_bytes 0          # [PB] none; [T22] 0%
  grid       256        # [PB] ceil(nx / 512) x ceil(ny / 2) = 1 x 256
  insts      1543       # [PTX] 62 z steps: 15 x 93 (4x unrolled) + 2 x 32 + 84
  mix_alu    0.5884     # [PTX] 6 adds, index arithmetic
  mix_sfu    0.0        # [PTX] none
  mix_shared 0.0        # [PB] no shared memory
  mix_global 0.2424     # [PTX] 5 loads and 1 store per z step
  mix_imul   0.0810     # [PTX] mul.wide.s32 x 7 of the 4x-unrolled loop's 93 (load addresses) + 12 per thread: 125 of 1543
  mix_imad   0.0078     # [PTX] mad.lo.s32 x 12 per thread (plane and row offsets): 12 of 1543
  mix_fmul   0.0804     # [PTX] mul.f32 x 2 per z step (sum x c1, current x c0): 124 of 1543
  mix_fdiv   0          # [PTX] none
  dep        0.5        # ASSUMED (no source)
  lines      1.33       # [PB] 8 lines per z step: the x +- 1 loads straddle two lines
  l1_hit     0.62       # [PB] derived: 5 of the 8 lines were loaded by the same TB one step earlier
  l2_hit     0.44       # [PB] derived: a row is fetched from DRAM once and read by the two neighbouring TBs; stores go to DRAM
  active     32:0.875 31:0.125   # [PB] derived: the threads at x = 0 and x = 511 skip the loop (4 of 32 warps)
  idempotent yes        # [PB] out of place (reads one grid, writes the other)
end
