# base file of the tests (line numbers matter)
machine
  mem_channels 4
  mem_service 2.78
  mem_latency 200
  l1_latency 82
  l2_latency 200
  alu_latency 6
  sfu_latency 20
  shared_latency 24
  max_inflight 4
  mshr 64
  ctx_priority no
  alu_units 2
  alu_queue 8
  sfu_interval 8
  sfu_queue 9
  ldst_queue 3
  fetch_warps 1
  ibuffer 2
  imul_interval 2
  imad_interval 1
  fmul_interval 1
  fdiv_interval 4
end
kernel a
  threads 128
  regs 25
  smem_bytes 4124
  grid 121
  insts 1000
  mix_alu 0.8
  mix_sfu 0.05
  mix_shared 0.1
  mix_global 0.05
  mix_imul 0
  mix_imad 0
  mix_fmul 0
  mix_fdiv 0
  dep 0.5
  lines 1
  l1_hit 0.5
  l2_hit 0.5
  active 32:0.9 16:0.1
  idempotent yes
end
kernel b    # a comment after the name
  threads 120
  regs 54
  smem_bytes 0
  grid 18000
  insts 600
  mix_alu 0.7
  mix_sfu 0
  mix_shared 0
  mix_global 0.3
  mix_imul 0
  mix_imad 0
  mix_fmul 0
  mix_fdiv 0
  dep 0.5
  lines 2
  l1_hit 0.05
  l2_hit 0.2
  active 32:1
  idempotent no
end
