# Times dense GEMMs with PyTorch (cuBLAS) to calibrate core/gpu/tile_gemm's model:
# bf16 and fp8 (torch._scaled_mm), shapes of the seeds' expert GEMMs (DeepSeek-V3) and of
# a TP-8 LLaMA-7B layer (CAIS), plus a square reference. CSV on stdout.
import torch, sys
dev = torch.device("cuda")
props = torch.cuda.get_device_properties(dev)
print(f"# {props.name}, {props.multi_processor_count} SMs, torch {torch.__version__}", flush=True)
shapes = [("square", 8192, 8192, 8192)]
for m in (128, 256, 512, 1024, 2048, 4096, 8192, 16384):
    shapes.append(("dsv3_gemm1", m, 4096, 7168))
    shapes.append(("dsv3_gemm2", m, 7168, 2048))
for m in (2048, 4096, 8192):
    shapes += [("llama7b_tp8_qkv", m, 1536, 4096), ("llama7b_tp8_out", m, 4096, 512),
               ("llama7b_tp8_ffn1", m, 2752, 4096), ("llama7b_tp8_ffn2", m, 4096, 1376),
               ("llama7b_full_ffn1", m, 22016, 4096)]

def timeit(fn, reps):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    best = []
    for _ in range(5):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps): fn()
        b.record(); torch.cuda.synchronize()
        best.append(a.elapsed_time(b) / reps * 1e3)  # us
    best.sort()
    return best[len(best) // 2]

print("dtype,label,m,n,k,us,tflops")
for dtype in ("bf16", "fp8"):
    for label, m, n, k in shapes:
        try:
            if dtype == "bf16":
                A = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
                B = torch.randn(k, n, device=dev, dtype=torch.bfloat16)
                fn = lambda: torch.matmul(A, B)
            else:
                A = torch.randn(m, k, device=dev).to(torch.float8_e4m3fn)
                B = torch.randn(n, k, device=dev).to(torch.float8_e4m3fn).t()
                one = torch.tensor(1.0, device=dev)
                fn = lambda: torch._scaled_mm(A, B, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
            flops = 2.0 * m * n * k
            reps = max(3, min(200, int(2e13 / flops)))
            us = timeit(fn, reps)
            print(f"{dtype},{label},{m},{n},{k},{us:.2f},{flops / us / 1e6:.1f}", flush=True)
        except Exception as e:
            print(f"# {dtype} {label} {m}x{n}x{k}: {e}", file=sys.stderr, flush=True)
