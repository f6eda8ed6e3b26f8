# parboil.wl: the ten Parboil kernels of the papers' evaluation (ISCA'17 4.1, thesis 2.5/3.5) on the
# GTX980-like machine of docs/papers.md 1. Format and units: docs/workload.md. Sources of every figure:
# docs/workload.md "Calibration". A figure without a source is marked "ASSUMED" on its line.
#
#   [T22]  thesis Table 2-2 (resource use on GTX980, limiting resource in bold), solved for per-TB
#          numbers: per SM 65536 registers, 96 KB shared memory, 2048 threads, 32 TBs
#   [CQ1]  C-QoS (Long et al. 2020) Table 1: registers per thread, shared memory per TB, grid, block
#   [GTX]  docs/papers.md 1 / ISCA'17 Table 1 (16 SMs, 4 memory controllers, 1216 MHz core, 7 GHz GDDR5)
#
# Compute-bound: cutcp, mri-q, sgemm, tpacf. Memory-bound: histo, lbm, mri-gridding, sad, spmv,
# stencil. Instruction mixes, dependence, coalescing, hit rates and divergence are not published in
# the papers: they are ASSUMED, chosen so that the compute-bound kernels issue often and the
# memory-bound ones saturate the memory channels alone (calibration targets: [T22] stall-cycle
# fractions, docs/workload.md).

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
end

# ---------------------------------------------------------------- compute-bound

kernel cutcp            # cuda_cutoff_potential_lattice6overlap ("lattice6overlap" in [T22])
  threads    128        # [CQ1] block 128; [T22] threads 100% = 16 TBs of 128
  regs       25         # [CQ1] 25 (T22's 87.5% = 28 per thread after allocation rounding)
  smem_bytes 4124       # [CQ1] 4124 B; [T22] 67.1% of 96 KB / 16 TBs = 4123 B
  grid       121        # [CQ1]
  insts      20000      # ASSUMED (C-QoS: 63.9e9 instructions in all of cutcp's launches)
  mix_alu    0.80       # ASSUMED
  mix_sfu    0.05       # ASSUMED
  mix_shared 0.12       # ASSUMED: atoms cached in shared memory
  mix_global 0.03       # ASSUMED
  dep        0.45       # ASSUMED
  lines      1          # ASSUMED: coalesced
  l1_hit     0.6        # ASSUMED
  l2_hit     0.8        # ASSUMED
  active     32:0.85 24:0.10 8:0.05   # ASSUMED: cutoff test diverges a little
  idempotent yes        # ASSUMED: writes only its own lattice points
end

kernel mri-q            # ComputeQ_GPU (the larger of mri-q's two kernels)
  threads    256        # [CQ1] 256
  regs       27         # [CQ1] 27
  smem_bytes 0          # [CQ1] 0
  grid       128        # [CQ1] 128
  insts      12000      # ASSUMED
  mix_alu    0.72       # ASSUMED
  mix_sfu    0.20       # ASSUMED: sin/cos per k-space sample
  mix_shared 0.0        # [CQ1] no shared memory
  mix_global 0.08       # ASSUMED: constant/global k-space reads, mostly cached
  dep        0.40       # ASSUMED
  lines      1          # ASSUMED
  l1_hit     0.9        # ASSUMED
  l2_hit     0.9        # ASSUMED
  active     32:1       # ASSUMED: no divergence
  idempotent yes        # ASSUMED
end

kernel sgemm            # mysgemmNT
  threads    128        # [T22] threads 68.8% = 11 TBs of 128 (Parboil's TILE_N x TILE_TB_HEIGHT = 16 x 8)
  regs       44         # [T22] registers 94.5% / 1408 threads = 44 per thread
  smem_bytes 512        # [T22] shared memory 5.7% / 11 TBs = 512 B
  grid       528        # ASSUMED
  insts      8000       # ASSUMED
  mix_alu    0.82       # ASSUMED: FMA-heavy register tiling
  mix_sfu    0.0        # ASSUMED
  mix_shared 0.10       # ASSUMED
  mix_global 0.08       # ASSUMED
  dep        0.35       # ASSUMED
  lines      1          # ASSUMED
  l1_hit     0.5        # ASSUMED
  l2_hit     0.7        # ASSUMED
  active     32:1       # ASSUMED
  idempotent yes        # ASSUMED: C = A x B without accumulation into C
end

kernel tpacf            # gen_hists ("genhists" in [T22])
  threads    256        # ASSUMED block 256 ([T22] threads 87.5% = 7 TBs of 256, consistent)
  regs       28         # [T22] registers 76.6% / 1792 threads = 28 per thread
  smem_bytes 13312      # [T22] shared memory 94.8% (limiting) / 7 TBs = 13312 B
  grid       201        # ASSUMED
  insts      15000      # ASSUMED
  mix_alu    0.70       # ASSUMED
  mix_sfu    0.05       # ASSUMED
  mix_shared 0.20       # ASSUMED: histogram in shared memory
  mix_global 0.05       # ASSUMED
  dep        0.45       # ASSUMED
  lines      1          # ASSUMED
  l1_hit     0.7        # ASSUMED
  l2_hit     0.8        # ASSUMED
  active     32:0.7 20:0.2 8:0.1   # ASSUMED: binary search over bins diverges
  idempotent no         # ASSUMED: atomic histogram updates in global memory
end

# ---------------------------------------------------------------- memory-bound

kernel histo            # histo_main_kernel (the largest of histo's four kernels)
  threads    768        # [CQ1] 768
  regs       21         # [CQ1] 21
  smem_bytes 24576      # [CQ1] 24576 B
  grid       84         # [CQ1] 84
  insts      3000       # ASSUMED
  mix_alu    0.55       # ASSUMED
  mix_sfu    0.0        # ASSUMED
  mix_shared 0.15       # ASSUMED
  mix_global 0.30       # ASSUMED: scattered bin updates
  dep        0.6        # ASSUMED
  lines      4          # ASSUMED: poorly coalesced
  l1_hit     0.1        # ASSUMED
  l2_hit     0.4        # ASSUMED
  active     32:0.6 16:0.25 4:0.15  # ASSUMED
  idempotent no         # ASSUMED: atomics
end

kernel lbm              # StreamCollide
  threads    120        # [CQ1] block 120; [T22] threads 52.7% = 9 TBs of 120
  regs       54         # [CQ1] 54 (T22's 92.3% = 56 per thread after allocation rounding)
  smem_bytes 0          # [CQ1] 0; [T22] 0%
  grid       18000      # [CQ1] 18000
  insts      600        # ASSUMED
  mix_alu    0.70       # ASSUMED
  mix_sfu    0.0        # ASSUMED
  mix_shared 0.0        # [CQ1] no shared memory
  mix_global 0.30       # ASSUMED: 19 loads + 19 stores per cell
  dep        0.5        # ASSUMED
  lines      2          # ASSUMED: structure-of-arrays, partly coalesced
  l1_hit     0.05       # ASSUMED: streaming
  l2_hit     0.2        # ASSUMED
  active     32:0.95 24:0.05   # ASSUMED: obstacle cells diverge a little
  idempotent no         # ASSUMED: in-place update of the grid it reads
end

kernel mri-gridding     # gridding_GPU
  threads    256        # ASSUMED
  regs       30         # ASSUMED
  smem_bytes 0          # ASSUMED
  grid       1024       # ASSUMED
  insts      1500       # ASSUMED
  mix_alu    0.60       # ASSUMED
  mix_sfu    0.05       # ASSUMED: kernel weights
  mix_shared 0.0        # ASSUMED
  mix_global 0.35       # ASSUMED: scattered grid updates
  dep        0.55       # ASSUMED
  lines      3          # ASSUMED
  l1_hit     0.15       # ASSUMED
  l2_hit     0.4        # ASSUMED
  active     32:0.5 16:0.3 4:0.2   # ASSUMED: samples fall in few grid cells
  idempotent no         # ASSUMED: accumulates into the grid
end

kernel sad              # mb_sad_calc
  threads    61         # ASSUMED: Parboil sad launches 61 threads per TB (one per search position row)
  regs       24         # ASSUMED
  smem_bytes 0          # ASSUMED
  grid       1584       # ASSUMED
  insts      2000       # ASSUMED
  mix_alu    0.65       # ASSUMED
  mix_sfu    0.0        # ASSUMED
  mix_shared 0.0        # ASSUMED
  mix_global 0.35       # ASSUMED: texture reads of the reference frame
  dep        0.5        # ASSUMED
  lines      2          # ASSUMED
  l1_hit     0.4        # ASSUMED: cache-sensitive (thesis 2.5)
  l2_hit     0.5        # ASSUMED
  active     32:1       # ASSUMED (the TB's second warp has 29 threads)
  idempotent yes        # ASSUMED: writes each SAD once
end

kernel spmv             # spmv_jds ("spmvjds" in [T22])
  threads    192        # [CQ1] block 192; [T22] threads 93.8% = 10 TBs of 192
  regs       16         # [CQ1] 16; [T22] registers 46.9% / 1920 threads = 16
  smem_bytes 0          # [CQ1] 0; [T22] 0%
  grid       765        # [CQ1] 765
  insts      800        # ASSUMED
  mix_alu    0.55       # ASSUMED
  mix_sfu    0.0        # ASSUMED
  mix_shared 0.0        # [CQ1] no shared memory
  mix_global 0.45       # ASSUMED: value, column index, x gather per non-zero
  dep        0.65       # ASSUMED
  lines      3          # ASSUMED: gather of x is uncoalesced
  l1_hit     0.2        # ASSUMED
  l2_hit     0.3        # ASSUMED
  active     32:0.7 16:0.2 8:0.1    # ASSUMED: rows of different lengths
  idempotent yes        # ASSUMED: y = A x
end

kernel stencil          # block2D_reg_tiling ("block2Dregtiling" in [T22])
  threads    128        # ASSUMED block 128 ([T22] threads 100% = 16 TBs of 128, consistent)
  regs       24         # [T22] registers 75% / 2048 threads = 24 per thread
  smem_bytes 0          # [T22] 0%
  grid       512        # ASSUMED
  insts      1200       # ASSUMED
  mix_alu    0.65       # ASSUMED
  mix_sfu    0.0        # ASSUMED
  mix_shared 0.0        # [T22] no shared memory
  mix_global 0.35       # ASSUMED
  dep        0.5        # ASSUMED
  lines      1.5        # ASSUMED
  l1_hit     0.3        # ASSUMED: cache-sensitive (thesis 2.5)
  l2_hit     0.4        # ASSUMED
  active     32:0.95 30:0.05  # ASSUMED: boundary threads idle
  idempotent yes        # ASSUMED: out-of-place (reads one grid, writes the other)
end
