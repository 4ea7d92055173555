#!/usr/bin/env python3
"""Times the prefill and decode steps of a Llama-shaped language model on a CUDA GPU, as serving
engines run them, and writes a CSV that `roofline-cli llm` is held to (tests/core/tst_llm_measured).

The model is built from random fp16 weights (nothing is downloaded) row by row as the engine counts
it (core/llm/llm_phase.cpp): embedding, per block attn_norm (RMSNorm), q/k/v projections, RoPE,
the KV-cache write, attention (PyTorch's scaled_dot_product_attention: FlashAttention, grouped-query
heads shared, never repeated in memory), o_proj, residual, mlp_norm, gate/up projections, SiLU times
up, down projection, residual; then final_norm (every token, as Hugging Face transformers and vLLM
normalize) and lm_head over the last token of each sequence.

- prefill (B, P): B sequences of P prompt tokens each, causal attention, the KV cache written;
  time to first token. tokens_per_s = B * P / time.
- decode (B, C): one new token for each of B sequences that attend to C cached tokens (the cache
  holds C - 1 earlier tokens, the new one is written at C - 1); time per output token.
  tokens_per_s = B / time. The step ends with the greedy token (argmax), as a server's does.

Each step is captured once in a CUDA graph and replayed (as vLLM and TensorRT-LLM run decode: the
launch overhead of a few hundred kernels is not what is measured); the time is the median of
--repeats replays timed with CUDA events after warm-up. With --eager, decode at batch 1 is also
timed without the graph (mode "eager"): Hugging Face transformers' way, launch overhead included.
Configurations whose KV cache and activations would not fit in --memory-gib are skipped and listed
in the comment. Rows are written and flushed as they are measured, so a run stopped by a time
limit leaves a valid file; --time-limit ends the sweep early and says so.

Not part of the default test run: it needs PyTorch and a CUDA GPU. `--self-test` checks the model
shapes, parameter counts and the CSV writing without either (ctest runs it when Python 3 is found);
`--device cpu --tiny` runs the whole sweep on a tiny model on the CPU (PyTorch, no graphs).

Examples:
  python3 tests/gpu/llm_benchmark.py --output llm-h200.csv
  python3 tests/gpu/llm_benchmark.py --model llama-2-7b --batches 1,8 --contexts 512,2048
  roofline-cli llm --model llama-2-7b --device h200-sxm --batch 8 --context 2048
"""

import argparse
import csv
import io
import math
import os
import statistics
import sys
import time

# Llama-shaped models, as their Hugging Face config.json says (the fields roofline-cli reads).
MODELS = {
    # meta-llama/Llama-3.2-1B config.json (tied embeddings); 1,235,814,400 parameters (its safetensors).
    # The same configuration is tests/gpu/models/llama-3.2-1b/config.json for roofline-cli.
    "llama-3.2-1b": dict(hidden=2048, layers=16, heads=32, kv_heads=8, head_dim=64, intermediate=8192,
                         vocab=128256, tied=True, cli="tests/gpu/models/llama-3.2-1b/config.json"),
    # meta-llama/Llama-2-7b-hf config.json; 6,738,415,616 parameters; roofline-cli's built-in llama-2-7b.
    "llama-2-7b": dict(hidden=4096, layers=32, heads=32, kv_heads=32, head_dim=128, intermediate=11008,
                       vocab=32000, tied=False, cli="llama-2-7b"),
    # A model small enough for the CPU run (--tiny); not a published model.
    "tiny": dict(hidden=64, layers=2, heads=4, kv_heads=2, head_dim=16, intermediate=128, vocab=256,
                 tied=True, cli=None),
}

FIELDS = ["model", "phase", "mode", "batch", "prompt", "context", "time_s", "min_s", "max_s",
          "tokens_per_s", "repeats"]


def parameters(m):
    """The model's parameter count, from its shapes (embedding, blocks, final norm, untied head)."""
    h, d = m["hidden"], m["head_dim"]
    attn = h * m["heads"] * d + 2 * h * m["kv_heads"] * d + m["heads"] * d * h
    mlp = 3 * h * m["intermediate"]
    block = attn + mlp + 2 * h
    total = m["vocab"] * h + m["layers"] * block + h
    if not m["tied"]:
        total += m["vocab"] * h
    return total


def kv_bytes_per_token(m, bytes_per_value=2):
    return 2 * m["layers"] * m["kv_heads"] * m["head_dim"] * bytes_per_value


def sweep_points(m, batches, prompts, contexts, max_prefill_tokens, memory_bytes):
    """(phase, batch, prompt, context) in measuring order, and the skipped ones with the reason."""
    weights = parameters(m) * 2
    points, skipped = [], []
    for b in batches:
        for p in prompts:
            if b * p > max_prefill_tokens:
                skipped.append(("prefill", b, p, p, f"{b * p} tokens > --max-prefill-tokens {max_prefill_tokens}"))
                continue
            # KV cache, plus the widest activations (gate and up, 3 hidden-sized tensors) of all tokens.
            need = weights + b * p * kv_bytes_per_token(m) + b * p * (3 * m["intermediate"] + 6 * m["hidden"]) * 2
            if need > memory_bytes:
                skipped.append(("prefill", b, p, p, f"needs {need / 2**30:.1f} GiB"))
                continue
            points.append(("prefill", b, p, p))
    for b in batches:
        for c in contexts:
            need = weights + b * c * kv_bytes_per_token(m)
            if need > memory_bytes:
                skipped.append(("decode", b, 0, c, f"needs {need / 2**30:.1f} GiB"))
                continue
            points.append(("decode", b, 0, c))
    return points, skipped


def check_weights_fit(names, dev, bytes_per_value, memory):
    """Exits with a message, before anything is allocated, when a model's weights alone would not fit:
    --memory-gib on a GPU, and on the CPU also 80 % of this machine's RAM (Llama-2-7B in fp32 is 27 GB)."""
    limit = memory
    if dev.type != "cuda":
        try:
            limit = min(limit, 0.8 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
        except (ValueError, OSError):
            pass
    for n in names:
        need = parameters(MODELS[n]) * bytes_per_value
        if need > limit:
            sys.exit(f"llm_benchmark.py: {n}'s weights need {need / 1e9:.1f} GB on the {dev.type.upper()}, more than the "
                     f"{limit / 1e9:.1f} GB this run may use: use --tiny on the CPU, pick a smaller --model, "
                     f"or raise --memory-gib on a larger GPU")


def write_header(out, comment):
    for line in comment.splitlines():
        out.write(f"# {line}\n")
    csv.writer(out, lineterminator="\n").writerow(FIELDS)


def write_row(out, row):
    if not (row["time_s"] > 0) or not math.isfinite(row["time_s"]):
        raise ValueError(f"{row['model']} {row['phase']}: time must be positive, got {row['time_s']}")
    csv.writer(out, lineterminator="\n").writerow(
        [row["model"], row["phase"], row["mode"], row["batch"], row["prompt"], row["context"],
         f"{row['time_s']:.6g}", f"{row['min_s']:.6g}", f"{row['max_s']:.6g}",
         f"{row['tokens_per_s']:.6g}", row["repeats"]])
    out.flush()


class Model:
    """Random fp16 weights on `dev`, and the prefill and decode steps written as the engine's rows."""

    def __init__(self, torch, m, dev, dtype):
        self.t, self.m, self.dev, self.dtype = torch, m, dev, dtype
        h, d = m["hidden"], m["head_dim"]

        def w(*shape):
            return torch.empty(*shape, device=dev, dtype=dtype).normal_(0, 0.02)

        self.embed = w(m["vocab"], h)
        self.head = self.embed if m["tied"] else w(m["vocab"], h)
        self.blocks = []
        for _ in range(m["layers"]):
            self.blocks.append(dict(
                attn_norm=torch.ones(h, device=dev, dtype=dtype), mlp_norm=torch.ones(h, device=dev, dtype=dtype),
                q=w(m["heads"] * d, h), k=w(m["kv_heads"] * d, h), v=w(m["kv_heads"] * d, h),
                o=w(h, m["heads"] * d), gate=w(m["intermediate"], h), up=w(m["intermediate"], h),
                down=w(h, m["intermediate"])))
        self.final_norm = torch.ones(h, device=dev, dtype=dtype)
        inv = 1.0 / (500000.0 ** (torch.arange(0, d, 2, device=dev, dtype=torch.float32) / d))
        self.inv_freq = inv
        self.attention = self.choose_attention()

    def choose_attention(self):
        """FlashAttention where PyTorch has it for this GPU and these heads; else PyTorch's own choice."""
        import contextlib
        t = self.t
        self.attention_kernels = contextlib.nullcontext
        if self.dev.type != "cuda":
            return "PyTorch's choice (CPU)"
        from torch.nn.attention import SDPBackend, sdpa_kernel
        m = self.m
        q = t.randn(1, m["heads"], 16, m["head_dim"], device=self.dev, dtype=self.dtype)
        k = t.randn(1, m["kv_heads"], 16, m["head_dim"], device=self.dev, dtype=self.dtype)
        try:
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                t.nn.functional.scaled_dot_product_attention(q, k, k, is_causal=True,
                                                             enable_gqa=m["kv_heads"] != m["heads"])
        except RuntimeError:
            return "PyTorch's choice (FlashAttention refused these heads)"
        self.attention_kernels = lambda: sdpa_kernel(SDPBackend.FLASH_ATTENTION)
        return "FlashAttention"

    def rms_norm(self, x, shape, weight, eps):
        F = self.t.nn.functional
        if hasattr(F, "rms_norm"):  # PyTorch 2.4 and later: one kernel
            return F.rms_norm(x, shape, weight, eps)
        return x * self.t.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight  # older (the CPU check)

    def attend(self, q, k, v, causal):
        F, m = self.t.nn.functional, self.m
        gqa = m["kv_heads"] != m["heads"]
        if self.dev.type == "cuda" or hasattr(F, "scaled_dot_product_attention") and self.t.__version__ >= "2.5":
            with self.attention_kernels():
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=gqa)
        # Older PyTorch (Debian 12's, for the CPU check): the same arithmetic written out.
        if gqa:
            k = k.repeat_interleave(m["heads"] // m["kv_heads"], dim=1)
            v = v.repeat_interleave(m["heads"] // m["kv_heads"], dim=1)
        s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        if causal:
            n = q.shape[-2]
            s = s + self.t.full((n, n), float("-inf"), device=self.dev, dtype=s.dtype).triu(1)
        return s.softmax(-1) @ v

    def rope_tables(self, start, n):
        t = self.t
        pos = t.arange(start, start + n, device=self.dev, dtype=t.float32)
        f = t.outer(pos, self.inv_freq)
        emb = t.cat([f, f], dim=-1)
        return emb.cos().to(self.dtype), emb.sin().to(self.dtype)

    def rope(self, x, cos, sin):
        half = x.shape[-1] // 2
        rotated = self.t.cat([-x[..., half:], x[..., :half]], dim=-1)
        return x * cos + rotated * sin

    def kv_cache(self, batch, length):
        m, t = self.m, self.t
        shape = (batch, m["kv_heads"], length, m["head_dim"])
        return [(t.empty(shape, device=self.dev, dtype=self.dtype).normal_(0, 1),
                 t.empty(shape, device=self.dev, dtype=self.dtype).normal_(0, 1)) for _ in range(m["layers"])]

    def step(self, ids, cache, start, cos, sin, causal):
        """One forward pass over `ids` [B, n] at positions start..start+n-1, the cache written there;
        returns the greedy next token of each sequence (from the last position's logits)."""
        t, m = self.t, self.m
        F = t.nn.functional
        b, n = ids.shape
        h, d = m["hidden"], m["head_dim"]
        rms_norm = self.rms_norm
        x = F.embedding(ids, self.embed)  # embedding
        for blk, (kc, vc) in zip(self.blocks, cache):
            a = rms_norm(x, (h,), blk["attn_norm"], 1e-5)  # attn_norm
            q = F.linear(a, blk["q"]).view(b, n, m["heads"], d).transpose(1, 2)  # q_proj
            k = F.linear(a, blk["k"]).view(b, n, m["kv_heads"], d).transpose(1, 2)  # k_proj
            v = F.linear(a, blk["v"]).view(b, n, m["kv_heads"], d).transpose(1, 2)  # v_proj
            q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)  # rope
            kc[:, :, start:start + n].copy_(k)  # kv_cache_write
            vc[:, :, start:start + n].copy_(v)
            keys, values = kc[:, :, :start + n], vc[:, :, :start + n]
            o = self.attend(q, keys, values, causal)  # attention
            o = o.transpose(1, 2).reshape(b, n, m["heads"] * d)
            x = x + F.linear(o, blk["o"])  # o_proj, attn_residual
            a = rms_norm(x, (h,), blk["mlp_norm"], 1e-5)  # mlp_norm
            g = F.silu(F.linear(a, blk["gate"])) * F.linear(a, blk["up"])  # gate_proj, up_proj, act_mul
            x = x + F.linear(g, blk["down"])  # down_proj, mlp_residual
        x = rms_norm(x, (h,), self.final_norm, 1e-5)  # final_norm, every token (as HF and vLLM do)
        logits = F.linear(x[:, -1], self.head)  # lm_head, the last token of each sequence
        return logits.argmax(dim=-1)


def row_calls(model, ids, cache, start, cos, sin, causal):
    """Each of the step's rows alone, over all blocks, on inputs of the step's shapes: [(engine row
    name, callable)]. Each callable runs its row once per block with that block's own weights (as the
    step does: no block's weights are still in cache for the next), so its time is the engine's
    'blk0-N' row; the rows outside the blocks run once."""
    t, m = model.t, model.m
    F = t.nn.functional
    b, n = ids.shape
    h, d, L = m["hidden"], m["head_dim"], m["layers"]
    blocks = f"blk0-{L - 1}."
    x = F.embedding(ids, model.embed)
    a = model.rms_norm(x, (h,), model.blocks[0]["attn_norm"], 1e-5)
    q = F.linear(a, model.blocks[0]["q"]).view(b, n, m["heads"], d).transpose(1, 2)
    k = F.linear(a, model.blocks[0]["k"]).view(b, n, m["kv_heads"], d).transpose(1, 2)
    o = t.empty(b, n, m["heads"] * d, device=model.dev, dtype=model.dtype).normal_()
    y = t.empty_like(x).normal_()  # a block's output added to the residual stream: its own tensor
    g = t.empty(b, n, m["intermediate"], device=model.dev, dtype=model.dtype).normal_()
    B = model.blocks

    def each(fn):
        return lambda: [fn(i) for i in range(L)]

    def attention(i):
        kc, vc = cache[i]
        return model.attend(q, kc[:, :, :start + n], vc[:, :, :start + n], causal)

    def write(i):
        cache[i][0][:, :, start:start + n].copy_(k)
        cache[i][1][:, :, start:start + n].copy_(k)

    return [
        ("embedding", lambda: F.embedding(ids, model.embed)),
        (blocks + "attn_norm", each(lambda i: model.rms_norm(x, (h,), B[i]["attn_norm"], 1e-5))),
        (blocks + "q_proj", each(lambda i: F.linear(a, B[i]["q"]))),
        (blocks + "k_proj", each(lambda i: F.linear(a, B[i]["k"]))),
        (blocks + "v_proj", each(lambda i: F.linear(a, B[i]["v"]))),
        (blocks + "rope", each(lambda i: (model.rope(q, cos, sin), model.rope(k, cos, sin)))),
        (blocks + "kv_cache_write", each(write)),
        (blocks + "attention", each(attention)),
        (blocks + "o_proj", each(lambda i: F.linear(o, B[i]["o"]))),
        (blocks + "attn_residual", each(lambda i: x + y)),
        (blocks + "mlp_norm", each(lambda i: model.rms_norm(x, (h,), B[i]["mlp_norm"], 1e-5))),
        (blocks + "gate_proj", each(lambda i: F.linear(a, B[i]["gate"]))),
        (blocks + "up_proj", each(lambda i: F.linear(a, B[i]["up"]))),
        (blocks + "act_mul", each(lambda i: F.silu(g) * g)),
        (blocks + "down_proj", each(lambda i: F.linear(g, B[i]["down"]))),
        (blocks + "mlp_residual", each(lambda i: x + y)),
        ("final_norm", lambda: model.rms_norm(x, (h,), model.final_norm, 1e-5)),
        ("lm_head", lambda: F.linear(x[:, -1], model.head)),
    ]


def run_rows(args, out):
    """--rows: the plain measurement CSV (layer,time_s), a row per engine row, 'prefill.' or
    'decode.' before its name, for each --model at batch --batches[0] and context --contexts[0]."""
    import torch
    dev = torch.device(args.device)
    dtype = torch.float16 if dev.type == "cuda" else torch.float32
    names = ["tiny"] if args.tiny else args.model
    b, c = args.batches[0], args.contexts[0]
    gpu = torch.cuda.get_device_name(0) if dev.type == "cuda" else "CPU"
    time_fn = timer(torch, dev, args.warmup, args.repeats, graphs=dev.type == "cuda")
    for n in names:
        m = MODELS[n]
        out.write(f"# {n}: each row alone over all blocks, batch {b}, prefill of {c} tokens and decode at context {c}\n"
                  f"# {gpu}, PyTorch {torch.__version__}; median of {args.repeats} "
                  f"{'CUDA-graph replays' if dev.type == 'cuda' else 'calls'} after {args.warmup} warm-up runs\n")
        if m["cli"]:
            out.write(f"# roofline-cli llm --model {m['cli']} --batch {b} --prompt {c} --context {c} --device DEVICE\n")
    csv.writer(out, lineterminator="\n").writerow(["layer", "time_s"])
    spread = 0.0
    with torch.no_grad():
        for n in names:
            m = MODELS[n]
            model = Model(torch, m, dev, dtype)
            cache = model.kv_cache(b, c)
            for phase, p, start, causal in (("prefill", c, 0, True), ("decode", 1, c - 1, False)):
                ids = torch.randint(0, m["vocab"], (b, p), device=dev)
                cos, sin = model.rope_tables(start, p)
                for row, fn in row_calls(model, ids, cache, start, cos, sin, causal):
                    med, lo, _ = time_fn(fn)
                    spread = max(spread, (med - lo) / med)
                    prefix = (n + "." if len(names) > 1 else "") + phase + "."
                    csv.writer(out, lineterminator="\n").writerow([prefix + row, f"{med:.6g}"])
                    out.flush()
            del model, cache
            if dev.type == "cuda":
                torch.cuda.empty_cache()
    # tests/core/llm/tst_llm_measured reads this line: a row may sit below its bound by this much.
    out.write(f"# spread: every row's fastest replay within {100 * spread:.2f} % of its median\n")


def timer(torch, dev, warmup, repeats, graphs):
    """Returns time(fn) -> (median, min, max) seconds: a CUDA graph replayed and timed with events,
    or (on the CPU, or eager) the call itself timed."""
    cuda = dev.type == "cuda"

    def sync():
        if cuda:
            torch.cuda.synchronize()

    def time_calls(call):
        times = []
        for _ in range(repeats):
            if cuda:
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                call()
                e.record()
                e.synchronize()
                times.append(s.elapsed_time(e) * 1e-3)
            else:
                t0 = time.perf_counter()
                call()
                times.append(time.perf_counter() - t0)
        return statistics.median(times), min(times), max(times)

    def time_fn(fn, use_graph=graphs):
        if cuda and use_graph:
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                for _ in range(warmup):
                    fn()
            torch.cuda.current_stream().wait_stream(stream)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                fn()
            sync()
            result = time_calls(graph.replay)
            del graph
            return result
        for _ in range(warmup):
            fn()
        sync()
        return time_calls(fn)

    return time_fn


def measure_ceilings(torch, dev):
    """The copy bandwidth (bytes read + written) and the fp16 matrix rate, for the comment."""
    if dev.type != "cuda":
        return "ceilings not measured on the CPU"
    a = torch.empty(2**30, device=dev, dtype=torch.uint8)
    b = torch.empty_like(a)
    time_fn = timer(torch, dev, 3, 10, graphs=False)
    copy = time_fn(lambda: b.copy_(a))[0]
    x = torch.randn(8192, 8192, device=dev, dtype=torch.float16)
    y = torch.randn(8192, 8192, device=dev, dtype=torch.float16)
    mm = time_fn(lambda: x @ y)[0]
    del a, b, x, y
    return (f"ceilings measured here: copy {2 * 2**30 / copy / 1e12:.2f} TB/s (1 GiB read + written), "
            f"fp16 8192^3 matrix product {2 * 8192**3 / mm / 1e12:.0f} TFLOP/s (medians of 10)")


def run(args, out):
    try:
        import torch
    except ImportError:
        sys.exit("llm_benchmark.py: needs PyTorch (pip install torch); --self-test runs without it")
    dev = torch.device(args.device)
    if dev.type == "cuda" and not torch.cuda.is_available():
        sys.exit("llm_benchmark.py: no CUDA GPU visible to PyTorch (use --device cpu --tiny to try it on the CPU)")
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = True
    dtype = torch.float16 if dev.type == "cuda" else torch.float32
    names = ["tiny"] if args.tiny else args.model
    gpu = torch.cuda.get_device_name(0) if dev.type == "cuda" else "CPU"
    memory = args.memory_gib * 2**30
    check_weights_fit(names, dev, 2 if dtype == torch.float16 else 4, memory)
    t_start = time.monotonic()
    comment = [f"Llama-shaped prefill and decode steps, random {'fp16' if dtype == torch.float16 else 'fp32'} weights, "
               f"KV cache and activations; attention by scaled_dot_product_attention (each model's kernel on its line)",
               f"{gpu}, PyTorch {torch.__version__}; median of {args.repeats} "
               f"{'CUDA-graph replays timed with CUDA events' if dev.type == 'cuda' else 'calls'} "
               f"after {args.warmup} warm-up runs (mode eager: the step's kernels launched one by one)",
               measure_ceilings(torch, dev),
               "models: " + "; ".join(f"{n} = roofline-cli llm --model {MODELS[n]['cli']}" for n in names
                                      if MODELS[n]["cli"]),
               "phase prefill: time to first token of B prompts of P tokens, tokens_per_s = B * P / time_s; "
               "decode: one token for each of B sequences at context C, tokens_per_s = B / time_s"]
    plans = {n: sweep_points(MODELS[n], args.batches, args.prompts, args.contexts, args.max_prefill_tokens, memory)
             for n in names}
    for n in names:
        for phase, b, p, c, why in plans[n][1]:
            comment.append(f"skipped {n} {phase} batch {b} {'prompt ' + str(p) if phase == 'prefill' else 'context ' + str(c)}: {why}")
    write_header(out, "\n".join(comment))
    time_fn = timer(torch, dev, args.warmup, args.repeats, graphs=dev.type == "cuda")
    stopped = None
    with torch.no_grad():
        for n in names:
            m = MODELS[n]
            model = Model(torch, m, dev, dtype)
            out.write(f"# {n}: {parameters(m):,} parameters; attention kernel: {model.attention}\n")
            for phase, b, p, c in plans[n][0]:
                if time.monotonic() - t_start > args.time_limit:
                    stopped = f"stopped at --time-limit {args.time_limit} s before {n} {phase} batch {b} context {c}"
                    break
                ids = torch.randint(0, m["vocab"], (b, p if phase == "prefill" else 1), device=dev)
                cache = model.kv_cache(b, c)
                if phase == "prefill":
                    cos, sin = model.rope_tables(0, p)
                    fn = lambda: model.step(ids, cache, 0, cos, sin, causal=True)  # noqa: E731
                else:
                    cos, sin = model.rope_tables(c - 1, 1)
                    fn = lambda: model.step(ids, cache, c - 1, cos, sin, causal=False)  # noqa: E731
                modes = [("graph" if dev.type == "cuda" else "eager", dev.type == "cuda")]
                if args.eager and phase == "decode" and b == 1 and dev.type == "cuda":
                    modes.append(("eager", False))
                for mode, use_graph in modes:
                    med, lo, hi = time_fn(fn, use_graph)
                    tokens = b * p if phase == "prefill" else b
                    write_row(out, dict(model=n, phase=phase, mode=mode, batch=b, prompt=p, context=c,
                                        time_s=med, min_s=lo, max_s=hi, tokens_per_s=tokens / med,
                                        repeats=args.repeats))
                del cache, ids, fn
                if dev.type == "cuda":
                    torch.cuda.empty_cache()
            del model
            if dev.type == "cuda":
                torch.cuda.empty_cache()
            if stopped:
                break
    if stopped:
        out.write(f"# {stopped}\n")
    out.write(f"# sweep took {time.monotonic() - t_start:.0f} s\n")


def int_list(text):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of whole numbers")
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"'{text}': every value must be 1 or more")
    return values


def self_test():
    # Published parameter counts (each model's safetensors, as Hugging Face lists them).
    assert parameters(MODELS["llama-3.2-1b"]) == 1_235_814_400, parameters(MODELS["llama-3.2-1b"])
    assert parameters(MODELS["llama-2-7b"]) == 6_738_415_616, parameters(MODELS["llama-2-7b"])
    # Llama-2-7B's KV cache: 2 (K, V) x 32 layers x 4096 x 2 bytes = 512 KiB per token, as roofline-cli says.
    assert kv_bytes_per_token(MODELS["llama-2-7b"]) == 512 * 1024
    assert kv_bytes_per_token(MODELS["llama-3.2-1b"]) == 32 * 1024  # 2 x 16 x 8 x 64 x 2
    pts, skipped = sweep_points(MODELS["llama-2-7b"], [1, 64], [128, 4096], [128, 4096], 32768, 100 * 2**30)
    assert ("prefill", 1, 128, 128) in pts and ("decode", 64, 0, 128) in pts, pts
    assert ("decode", 64, 0, 4096) not in pts, pts  # 128 GiB of KV cache alone
    assert any(s[:4] == ("prefill", 64, 4096, 4096) and "tokens" in s[4] for s in skipped), skipped
    buf = io.StringIO()
    write_header(buf, "a\nb")
    write_row(buf, dict(model="llama-2-7b", phase="decode", mode="graph", batch=1, prompt=0, context=2048,
                        time_s=0.0031234567, min_s=0.003, max_s=0.0032, tokens_per_s=320.158, repeats=20))
    assert buf.getvalue() == ("# a\n# b\nmodel,phase,mode,batch,prompt,context,time_s,min_s,max_s,tokens_per_s,repeats\n"
                              "llama-2-7b,decode,graph,1,0,2048,0.00312346,0.003,0.0032,320.158,20\n"), repr(buf.getvalue())
    try:
        write_row(io.StringIO(), dict(model="x", phase="decode", mode="graph", batch=1, prompt=0, context=1,
                                      time_s=float("nan"), min_s=0, max_s=0, tokens_per_s=0, repeats=1))
    except ValueError:
        pass
    else:
        raise AssertionError("a NaN time should be refused")
    try:
        check_weights_fit(["llama-2-7b"], type("Dev", (), {"type": "cpu"})(), 4, 16 * 2**30)
    except SystemExit as e:
        assert "llama-2-7b's weights need 27.0 GB on the CPU" in str(e), e  # 6,738,415,616 x 4 bytes
    else:
        raise AssertionError("Llama-2-7B in fp32 should be refused in 16 GiB")
    check_weights_fit(["tiny"], type("Dev", (), {"type": "cpu"})(), 4, 16 * 2**30)
    print("llm_benchmark.py self-test: ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", action="append", choices=[m for m in MODELS if m != "tiny"],
                    help="repeatable (default: llama-3.2-1b and llama-2-7b)")
    ap.add_argument("--tiny", action="store_true", help="a tiny model instead (for --device cpu)")
    ap.add_argument("--batches", type=int_list, default=[1, 2, 4, 8, 16, 32, 64])
    ap.add_argument("--prompts", type=int_list, default=[128, 512, 1024, 2048, 4096])
    ap.add_argument("--contexts", type=int_list, default=[128, 256, 512, 1024, 2048, 4096])
    ap.add_argument("--max-prefill-tokens", type=int, default=32768, help="B x P above this is skipped")
    ap.add_argument("--memory-gib", type=float, default=120, help="skip what would need more")
    ap.add_argument("--eager", action="store_true", help="also time decode at batch 1 without a CUDA graph")
    ap.add_argument("--rows", action="store_true",
                    help="time each engine row alone (at the first of --batches and --contexts) instead of the sweep")
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=1e9, help="seconds; the sweep stops starting points after it")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--output", default="-", help="CSV file (default: standard output)")
    ap.add_argument("--self-test", action="store_true", help="check shapes, counts and CSV writing; needs no GPU")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return
    args.model = args.model or ["llama-3.2-1b", "llama-2-7b"]
    work = run_rows if args.rows else run
    if args.output == "-":
        work(args, sys.stdout)
        return
    # Written as measured (a run cut short keeps its rows), then renamed: the name holds a whole run.
    try:
        with open(args.output + ".partial", "w", newline="") as f:
            work(args, f)
    except SystemExit:
        if os.path.getsize(args.output + ".partial") == 0:
            os.remove(args.output + ".partial")  # refused before a row was written: nothing to keep
        raise
    os.replace(args.output + ".partial", args.output)


if __name__ == "__main__":
    main()
