#!/usr/bin/env python3
"""Makes the decoders of issue 75 as Hugging Face's exports write them (run it from anywhere; it writes
into wild/ next to itself). Needs Debian 12's python3-onnx (1.12) and python3-torch (1.13, CPU).

- wild/gqa_repeat_kv.onnx: a Llama-style decoder of 4 blocks with 8 query heads over 2 KV heads, exported
  by PyTorch's own exporter (torch.onnx.export, opset 17) with past keys and values and Optimum's axis
  names; the KV heads are repeated as Hugging Face's repeat_kv does, from the cache's own shape
  (Shape, Gather, Unsqueeze, Expand, Reshape), the rotary embedding from the inv_freq buffer.
- wild/optimum_merged.onnx: the same model as Optimum's decoder_model_merged.onnx: the decoder without
  the past and the one with it exported apart, then merged as optimum/onnx/graph_transformations.py's
  merge_decoders does (outputs of the decoder with the past, inputs of both, initializers deduplicated
  into the parent graph, one If 'optimum::if' on the boolean input use_cache_branch [1]: then the graph
  with the past, else the one without).

The fuzz targets' seeds (tests/fuzz/corpus/onnx/wild_*.onnx) are the same with one block. The
weights go to an external file that is deleted: the importer needs only the shapes. The parameter
count the tests hold (2,754,816) is printed from the module (sum of p.numel()).
"""
import os

import onnx
import torch
from onnx import TensorProto, helper
from torch import nn

from make_fixtures import HERE, randomize, strip_weights

HIDDEN, HEADS, KV_HEADS, HEAD_DIM, FFN, VOCAB, LAYERS = 256, 8, 2, 32, 512, 1024, 4


def repeat_kv(x, n_rep):
    """transformers' models/llama/modeling_llama.py repeat_kv: the extents read from the tensor's shape."""
    batch, kv_heads, length, head_dim = x.shape
    if n_rep == 1:
        return x
    x = x[:, :, None, :, :].expand(batch, kv_heads, n_rep, length, head_dim)
    return x.reshape(batch, kv_heads * n_rep, length, head_dim)


class RMSNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(HIDDEN))

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))


def rotate_half(x):
    return torch.cat((-x[..., x.shape[-1] // 2:], x[..., :x.shape[-1] // 2]), dim=-1)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(HIDDEN, HEADS * HEAD_DIM, bias=False)
        self.k_proj = nn.Linear(HIDDEN, KV_HEADS * HEAD_DIM, bias=False)
        self.v_proj = nn.Linear(HIDDEN, KV_HEADS * HEAD_DIM, bias=False)
        self.o_proj = nn.Linear(HEADS * HEAD_DIM, HIDDEN, bias=False)

    def forward(self, x, cos, sin, mask, past):
        batch, length, _ = x.size()
        q = self.q_proj(x).view(batch, length, HEADS, HEAD_DIM).transpose(1, 2)
        k = self.k_proj(x).view(batch, length, KV_HEADS, HEAD_DIM).transpose(1, 2)
        v = self.v_proj(x).view(batch, length, KV_HEADS, HEAD_DIM).transpose(1, 2)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        if past is not None:
            k, v = torch.cat([past[0], k], dim=-2), torch.cat([past[1], v], dim=-2)
        keys, values = repeat_kv(k, HEADS // KV_HEADS), repeat_kv(v, HEADS // KV_HEADS)
        w = torch.matmul(q, keys.transpose(2, 3)) / (HEAD_DIM ** 0.5) + mask
        w = nn.functional.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        out = torch.matmul(w, values).transpose(1, 2).contiguous().reshape(batch, length, -1)
        return self.o_proj(out), k, v


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(), RMSNorm()
        self.self_attn = Attention()
        self.gate_proj = nn.Linear(HIDDEN, FFN, bias=False)
        self.up_proj = nn.Linear(HIDDEN, FFN, bias=False)
        self.down_proj = nn.Linear(FFN, HIDDEN, bias=False)

    def forward(self, x, cos, sin, mask, past):
        a, k, v = self.self_attn(self.input_layernorm(x), cos, sin, mask, past)
        x = x + a
        y = self.post_attention_layernorm(x)
        return x + self.down_proj(nn.functional.silu(self.gate_proj(y)) * self.up_proj(y)), k, v


class Decoder(nn.Module):
    """input_ids, attention_mask and (with the past) past_key_values.N.key / .value in; logits and
    present.N.key / .value out."""

    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, HIDDEN)
        self.layers = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.norm = RMSNorm()
        self.lm_head = nn.Linear(HIDDEN, VOCAB, bias=False)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2).float() / HEAD_DIM))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, input_ids, attention_mask, *past):
        length, total = input_ids.shape[1], attention_mask.shape[1]
        cached = past[0].shape[2] if past else 0
        x = self.embed_tokens(input_ids)
        freqs = torch.outer(torch.arange(cached, cached + length, dtype=torch.float32), self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos()[None, None], emb.sin()[None, None]
        causal = torch.triu(torch.full((length, total), -1e9), diagonal=cached + 1)
        mask = causal[None, None] + (1.0 - attention_mask[:, None, None, :].float()) * -1e9
        present = []
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, cos, sin, mask, (past[2 * i], past[2 * i + 1]) if past else None)
            present += [k, v]
        return (self.lm_head(self.norm(x)), *present)


def export(model, with_past, path):
    """Optimum's TextDecoderOnnxConfig axes: the mask over past + new tokens with the past, the new
    tokens without."""
    batch, length, cached = 1, 3, 5
    total = "past_sequence_length + sequence_length" if with_past else "sequence_length"
    axes = {"input_ids": {0: "batch_size", 1: "sequence_length"}, "attention_mask": {0: "batch_size", 1: total},
            "logits": {0: "batch_size", 1: "sequence_length"}}
    names, outputs = ["input_ids", "attention_mask"], ["logits"]
    sample = [torch.zeros(batch, length, dtype=torch.int64),
              torch.ones(batch, (cached if with_past else 0) + length, dtype=torch.int64)]
    for i in range(LAYERS):
        for kv in ("key", "value"):
            outputs.append("present.%d.%s" % (i, kv))
            axes[outputs[-1]] = {0: "batch_size", 2: total}
            if with_past:
                names.append("past_key_values.%d.%s" % (i, kv))
                axes[names[-1]] = {0: "batch_size", 2: "past_sequence_length"}
                sample.append(torch.zeros(batch, KV_HEADS, cached, HEAD_DIM))
    torch.onnx.export(model, tuple(sample), path, input_names=names, output_names=outputs, dynamic_axes=axes,
                      opset_version=17, do_constant_folding=True)


def merge_decoders(decoder, with_past):
    """Optimum's merge_decoders, step by step (see the module's docstring)."""
    inputs, seen = [], set()
    for m in (decoder, with_past):
        for i in m.graph.input:
            if i.name not in seen:
                seen.add(i.name)
                inputs.append(i)
    kept, common = [], {}
    for m in (decoder, with_past):
        renamed = {}
        for t in m.graph.initializer:
            key = (t.data_type, t.raw_data, tuple(t.float_data), tuple(t.int64_data), tuple(t.dims))
            if key not in common:
                common[key] = t.name + "_merged"
                kept.append(onnx.TensorProto())
                kept[-1].CopyFrom(t)
                kept[-1].name = common[key]
            renamed[t.name] = common[key]
        for node in m.graph.node:
            for k, name in enumerate(node.input):
                node.input[k] = renamed.get(name, name)
    branches = [helper.make_graph(list(m.graph.node), name, [], list(with_past.graph.output))
                for m, name in ((decoder, "no_past"), (with_past, "with_past"))]
    flag = helper.make_tensor_value_info("use_cache_branch", TensorProto.BOOL, [1])
    node = helper.make_node("If", ["use_cache_branch"], [o.name for o in with_past.graph.output], name="optimum::if",
                            then_branch=branches[1], else_branch=branches[0])
    graph = helper.make_graph([node], "merged", inputs + [flag], list(with_past.graph.output), initializer=kept)
    merged = helper.make_model(graph, producer_name="optimum-onnx",
                               opset_imports=[helper.make_opsetid("", decoder.opset_import[0].version)])
    onnx.checker.check_model(merged)
    return merged


class WithoutPast(nn.Module):
    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder

    def forward(self, input_ids, attention_mask):
        return self.decoder(input_ids, attention_mask)


def write(folder, prefix):
    model = Decoder()
    randomize(model)
    model.eval()
    print("parameters:", sum(p.numel() for p in model.parameters()))
    path = os.path.join(folder, prefix + "gqa_repeat_kv.onnx")
    export(model, True, path)
    strip_weights(path, "gqa_repeat_kv.weights")
    print("wrote", path)
    parts = [os.path.join(folder, "optimum_part_%d.onnx" % k) for k in range(2)]
    export(WithoutPast(model), False, parts[0])
    export(model, True, parts[1])
    merged = merge_decoders(*(onnx.load(p) for p in parts))
    for p in parts:
        os.remove(p)
    path = os.path.join(folder, prefix + "optimum_merged.onnx")
    onnx.save(merged, path)
    strip_weights(path, "optimum_merged.weights")
    print("wrote", path)


if __name__ == "__main__":
    write(os.path.join(HERE, "wild"), "")
    # the fuzz targets' seeds: one block, so that each run mutates a file a quarter the size
    LAYERS = 1
    write(os.path.join(HERE, "..", "..", "fuzz", "corpus", "onnx"), "wild_")
