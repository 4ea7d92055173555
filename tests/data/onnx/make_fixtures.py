#!/usr/bin/env python3
"""Makes the ONNX test fixtures under tests/data/onnx/ (run it from anywhere; it writes next to itself).

Needs Debian 12's python3-onnx (1.12), python3-torch and python3-torchvision (CPU). The fixtures are
committed, so the tests need none of these.

- Real models come from PyTorch's own exporter (torch.onnx.export, opset 13) with a dynamic batch and,
  where the network allows, a dynamic image size. Their weights are moved to an external data file
  that is *not* shipped (the importer only needs shapes; a missing weight file is a warning).
- ops/*.onnx: one small graph per operator, built with onnx.helper, for the hand-worked tests in
  tests/core/onnx/tst_onnx_ops.cpp.
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))


def strip_weights(path, data_name, size_threshold=0):
    """Moves every initializer's data (of at least `size_threshold` bytes) to `data_name` beside the model,
    then deletes that file."""
    model = onnx.load(path)
    onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=data_name, size_threshold=size_threshold)
    os.remove(os.path.join(os.path.dirname(path), data_name))


def randomize(module):
    """Random weights and statistics: the exporter merges initializers that are equal (fresh batch norms
    fold into identical zero biases), which would hide how many the real, trained model stores."""
    import torch
    torch.manual_seed(0)
    with torch.no_grad():
        for t in list(module.parameters()) + [b for b in module.buffers() if b.dtype.is_floating_point]:
            t.copy_(torch.rand_like(t) + 0.5)


def export(module, sample, name, dynamic_size=True):
    import torch
    randomize(module)
    module.eval()
    path = os.path.join(HERE, name + ".onnx")
    axes = {0: "batch"}
    if dynamic_size:
        axes.update({2: "height", 3: "width"})
    torch.onnx.export(module, sample, path, input_names=["input"], output_names=["output"],
                      dynamic_axes={"input": axes, "output": {0: "batch"}}, opset_version=13,
                      do_constant_folding=True)
    strip_weights(path, name + ".weights")
    print("wrote", path)


def unet():
    """The classic U-Net (Ronneberger et al. 2015): valid 3x3 convolutions, 2x2 max-pools, 2x2 up-convolutions
    and centre crops of the skip connections (the crop is traced as Shape/Slice arithmetic)."""
    import torch
    from torch import nn

    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3), nn.ReLU(inplace=True), nn.Conv2d(cout, cout, 3),
                             nn.ReLU(inplace=True))

    class UNet(nn.Module):
        def __init__(self, cin=1, classes=2, f=64, depth=4):
            super().__init__()
            ch = [f * 2 ** d for d in range(depth + 1)]
            self.down = nn.ModuleList([block(cin if d == 0 else ch[d - 1], ch[d]) for d in range(depth)])
            self.bottom = block(ch[depth - 1], ch[depth])
            self.up = nn.ModuleList([nn.ConvTranspose2d(ch[d + 1], ch[d], 2, stride=2) for d in reversed(range(depth))])
            self.dec = nn.ModuleList([block(2 * ch[d], ch[d]) for d in reversed(range(depth))])
            self.head = nn.Conv2d(ch[0], classes, 1)
            self.pool = nn.MaxPool2d(2)

        def forward(self, x):
            skips = []
            for b in self.down:
                x = b(x)
                skips.append(x)
                x = self.pool(x)
            x = self.bottom(x)
            for up, dec, s in zip(self.up, self.dec, reversed(skips)):
                x = up(x)
                dy = (s.shape[2] - x.shape[2]) // 2
                dx = (s.shape[3] - x.shape[3]) // 2
                s = s[:, :, dy:dy + x.shape[2], dx:dx + x.shape[3]]
                x = dec(torch.cat([s, x], dim=1))
            return self.head(x)

    export(UNet(), torch.randn(1, 1, 572, 572), "unet")


def video3d():
    """A small 3-D CNN (video clips [N, 3, 8 frames, H, W]): Conv3d, BatchNorm3d (folded into the
    convolution by the exporter), MaxPool3d, a (1,3,3) Conv3d, global average pool, linear."""
    import torch
    from torch import nn
    model = nn.Sequential(nn.Conv3d(3, 8, 3, padding=1), nn.BatchNorm3d(8), nn.ReLU(), nn.MaxPool3d(2),
                          nn.Conv3d(8, 16, (1, 3, 3)), nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(16, 10))
    randomize(model)
    model.eval()
    path = os.path.join(HERE, "video3d.onnx")
    torch.onnx.export(model, torch.randn(1, 3, 8, 32, 32), path, input_names=["clip"], output_names=["output"],
                      dynamic_axes={"clip": {0: "batch", 3: "height", 4: "width"}, "output": {0: "batch"}},
                      opset_version=13)
    print("wrote", path)


def torchvision_models():
    import torch
    import torchvision
    export(torchvision.models.alexnet(), torch.randn(1, 3, 224, 224), "alexnet", dynamic_size=False)
    export(torchvision.models.resnet50(), torch.randn(1, 3, 224, 224), "resnet50")
    # Depthwise and pointwise convolutions with batch norm: the classes ResNet and U-Net lack.
    export(torchvision.models.mobilenet_v2(), torch.randn(1, 3, 224, 224), "mobilenetv2")


# --- one small graph per operator -----------------------------------------------------------------
F = TensorProto.FLOAT


def const(name, values, dims=None, dtype=F):
    import numpy as np
    arr = np.array(values, dtype=np.float32 if dtype == F else np.int64)
    return helper.make_tensor(name, dtype, dims if dims is not None else arr.shape, arr.flatten().tolist())


def weight(name, dims):
    n = 1
    for d in dims:
        n *= d
    return helper.make_tensor(name, F, dims, [0.5] * n)


def op_model(name, nodes, x_dims, initializers=(), opset=13, x_type=F, extra_inputs=()):
    x = helper.make_tensor_value_info("x", x_type, x_dims)
    y = helper.make_tensor_value_info("y", F, None)
    graph = helper.make_graph(nodes, name, [x] + list(extra_inputs), [y], list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_fixtures.py")
    os.makedirs(os.path.join(HERE, "ops"), exist_ok=True)
    onnx.save(model, os.path.join(HERE, "ops", name + ".onnx"))


def n(op, inputs, outputs=("y",), **attrs):
    return helper.make_node(op, list(inputs), list(outputs), name=op.lower(), **attrs)


X4 = ["N", 4, 8, 8]  # 256 elements at batch 1


def operators():
    op_model("conv2d", [n("Conv", ["x", "w", "b"], pads=[1, 1, 1, 1])], X4, [weight("w", [8, 4, 3, 3]), weight("b", [8])])
    op_model("conv1d", [n("Conv", ["x", "w"])], ["N", 4, 16], [weight("w", [8, 4, 3])])
    op_model("conv_grouped", [n("Conv", ["x", "w"], group=2, strides=[2, 2], dilations=[2, 2], pads=[1, 0, 0, 1])], X4,
             [weight("w", [8, 2, 3, 3])])
    op_model("conv_autopad", [n("Conv", ["x", "w"], strides=[2, 2], auto_pad="SAME_UPPER")], X4, [weight("w", [8, 4, 3, 3])])
    op_model("conv_transpose", [n("ConvTranspose", ["x", "w"], strides=[2, 2], output_padding=[1, 1])], X4,
             [weight("w", [4, 6, 2, 2])])
    op_model("conv_transpose_shape", [n("ConvTranspose", ["x", "w"], strides=[2, 2], output_shape=[16, 16])], X4,
             [weight("w", [4, 6, 2, 2])])
    op_model("gemm", [n("Gemm", ["x", "w", "b"], transB=1)], ["N", 16], [weight("w", [8, 16]), weight("b", [8])])
    op_model("gemm_transa", [n("Gemm", ["x", "w"], transA=1)], [16, 3], [weight("w", [16, 8])])
    op_model("matmul3d", [n("MatMul", ["x", "w"])], ["N", 5, 6], [weight("w", [6, 7])])
    op_model("matmul4d", [n("MatMul", ["x", "w"])], ["N", 2, 5, 6], [weight("w", [1, 6, 3])])
    op_model("batchnorm", [n("BatchNormalization", ["x", "s", "b", "m", "v"])], X4,
             [weight("s", [4]), weight("b", [4]), weight("m", [4]), weight("v", [4])])
    op_model("instancenorm", [n("InstanceNormalization", ["x", "s", "b"])], X4, [weight("s", [4]), weight("b", [4])])
    op_model("layernorm", [n("LayerNormalization", ["x", "s", "b"], axis=-1)], ["N", 5, 6], [weight("s", [6]), weight("b", [6])],
             opset=17)
    for op in ["Relu", "Sigmoid", "Tanh", "HardSigmoid", "Erf", "Sqrt", "Exp", "Neg", "Reciprocal"]:
        op_model(op.lower(), [n(op, ["x"])], X4)
    op_model("hardswish", [n("HardSwish", ["x"])], X4, opset=14)
    op_model("leakyrelu", [n("LeakyRelu", ["x"], alpha=0.1)], X4)
    op_model("prelu", [n("PRelu", ["x", "slope"])], X4, [weight("slope", [4, 1, 1])])
    op_model("clip", [n("Clip", ["x", "lo", "hi"])], X4, [const("lo", 0.0, []), const("hi", 6.0, [])])
    op_model("softmax", [n("Softmax", ["x"], axis=1)], X4)
    op_model("logsoftmax", [n("LogSoftmax", ["x"], axis=1)], X4)
    for op in ["Add", "Sub", "Mul", "Div", "Pow"]:  # broadcasting a per-channel constant
        op_model(op.lower(), [n(op, ["x", "k"])], X4, [const("k", [1.0, 2.0, 3.0, 4.0], [4, 1, 1])])
    op_model("add_residual", [n("Relu", ["x"], ["r"]), n("Add", ["x", "r"])], X4)
    op_model("reducemean", [n("ReduceMean", ["x"], axes=[2, 3])], X4)
    op_model("reducesum", [n("ReduceSum", ["x", "axes"])], X4, [const("axes", [2, 3], dtype=TensorProto.INT64)])
    op_model("maxpool", [n("MaxPool", ["x"], kernel_shape=[2, 2], strides=[2, 2])], X4)
    op_model("averagepool", [n("AveragePool", ["x"], kernel_shape=[3, 3], pads=[1, 1, 1, 1])], X4)
    op_model("globalaveragepool", [n("GlobalAveragePool", ["x"])], X4)
    op_model("globalmaxpool", [n("GlobalMaxPool", ["x"])], X4)
    op_model("concat", [n("Relu", ["x"], ["r"]), n("Concat", ["x", "r"], axis=1)], X4)
    op_model("split", [n("Split", ["x"], ["y", "z"], axis=1)], X4)
    op_model("slice", [n("Slice", ["x", "st", "en", "ax"])], X4,
             [const("st", [2], dtype=TensorProto.INT64), const("en", [6], dtype=TensorProto.INT64),
              const("ax", [2], dtype=TensorProto.INT64)])
    op_model("pad", [n("Pad", ["x", "p"])], X4, [const("p", [0, 0, 1, 1, 0, 0, 1, 1], dtype=TensorProto.INT64)])
    op_model("resize_nearest", [n("Resize", ["x", "", "sc"], mode="nearest")], X4, [const("sc", [1.0, 1.0, 2.0, 2.0])])
    op_model("resize_linear", [n("Resize", ["x", "", "sc"], mode="linear")], X4, [const("sc", [1.0, 1.0, 2.0, 2.0])])
    op_model("upsample", [n("Upsample", ["x", "sc"], mode="nearest")], X4, [const("sc", [1.0, 1.0, 2.0, 2.0])], opset=9)
    op_model("transpose", [n("Transpose", ["x"], perm=[0, 2, 3, 1])], X4)
    op_model("gather", [n("Gather", ["x", "i"], axis=1)], X4, [const("i", [0, 2], dtype=TensorProto.INT64)])
    op_model("where", [n("Greater", ["x", "zero"], ["c"]), n("Where", ["c", "x", "zero"])], X4, [const("zero", 0.0, [])])
    op_model("expand", [n("Expand", ["x", "s"])], ["N", 4, 1, 8], [const("s", [1, 4, 8, 8], dtype=TensorProto.INT64)])
    op_model("tile", [n("Tile", ["x", "r"])], X4, [const("r", [1, 1, 2, 1], dtype=TensorProto.INT64)])
    # Token ids [N, L] through an embedding, a projection, a bias and a softmax (a transformer's first steps).
    ids = helper.make_tensor_value_info("x", TensorProto.INT64, ["batch", "sequence"])
    y = helper.make_tensor_value_info("y", F, None)
    graph = helper.make_graph([n("Gather", ["emb", "x"], ["e"]), n("MatMul", ["e", "w"], ["m"]), n("Add", ["m", "b"], ["a"]),
                               n("Softmax", ["a"], axis=-1)], "tokens", [ids], [y],
                              [weight("emb", [100, 16]), weight("w", [16, 16]), weight("b", [16])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, os.path.join(HERE, "ops", "tokens.onnx"))
    # Gelu as ONNX Runtime's contrib operator (the standard Gelu is opset 20).
    gelu = helper.make_node("Gelu", ["x"], ["y"], name="gelu", domain="com.microsoft")
    graph = helper.make_graph([gelu], "gelu", [helper.make_tensor_value_info("x", F, X4)], [helper.make_tensor_value_info("y", F, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])
    onnx.save(model, os.path.join(HERE, "ops", "gelu.onnx"))
    # Free operators: a chain of metadata ops around one ReLU is one row.
    op_model("free", [n("Reshape", ["x", "s"], ["a"]), n("Identity", ["a"], ["b"]), n("Dropout", ["b"], ["c"]),
                      n("Unsqueeze", ["c", "ax"], ["d"]), n("Squeeze", ["d", "ax"], ["e"]), n("Flatten", ["e"], ["f"], axis=1),
                      n("Relu", ["f"])], X4,
             [const("s", [0, 16, 16], dtype=TensorProto.INT64), const("ax", [1], dtype=TensorProto.INT64)])
    # An operator the tool does not know (a custom domain) between two it does.
    unknown = helper.make_node("Frobnicate", ["r"], ["u"], name="frob", domain="com.example")
    x = helper.make_tensor_value_info("x", F, X4)
    y = helper.make_tensor_value_info("y", F, None)
    graph = helper.make_graph([n("Relu", ["x"], ["r"]), unknown, n("Sigmoid", ["u"])], "unknown", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.example", 1)])
    onnx.save(model, os.path.join(HERE, "ops", "unknown.onnx"))
    print("wrote", os.path.join(HERE, "ops"))


def bad_inputs():
    """Files the importer must refuse with a message naming the file, node and field."""
    d = os.path.join(HERE, "bad")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "not_protobuf.onnx"), "w") as f:
        f.write("this is a text file, not an ONNX model\n")
    open(os.path.join(d, "empty.onnx"), "w").close()
    with open(os.path.join(HERE, "alexnet.onnx"), "rb") as f:
        data = f.read()
    with open(os.path.join(d, "truncated.onnx"), "wb") as f:
        f.write(data[: len(data) // 2])

    def save(name, nodes, x_dims, inits=(), opset=13):
        x = helper.make_tensor_value_info("x", F, x_dims)
        y = helper.make_tensor_value_info("y", F, None)
        graph = helper.make_graph(nodes, name, [x], [y], list(inits))
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        onnx.save(model, os.path.join(d, name + ".onnx"))

    save("cycle", [n("Relu", ["b"], ["a"]), n("Add", ["x", "a"], ["b"]), n("Relu", ["b"])], X4)
    save("missing_producer", [n("Relu", ["x"], ["a"]), n("Add", ["a", "ghost"])], X4)
    save("zero_dim", [n("Relu", ["x"])], [1, 0, 8, 8])
    save("negative_dim", [n("Relu", ["x"])], [1, -3, 8, 8])
    save("overflow", [n("Relu", ["x"])], ["N", 2 ** 31, 2 ** 31, 2 ** 20])
    save("opset0", [n("Relu", ["x"])], X4, opset=0)
    save("bad_conv", [n("Conv", ["x", "w"])], X4, [weight("w", [8, 3, 3, 3])])  # 3 channels expected, 4 given
    # bad/conv_stride0.onnx and bad/conv_rank2.onnx are not made here: they are fuzz_onnx's first two
    # finds (crashes inside ONNX 1.12's Conv shape function), kept as they were found; so are
    # layernorm_axis.onnx and layernorm_rank0.onnx (LayerNormalization's shape function indexes by an
    # unchecked axis: given, and the default -1 on a rank-0 input; CI's fuzz runs).
    print("wrote", d)


# --- graphs as converters, quantizers and newer exporters write them -------------------------------
def wild_model(name, nodes, inputs, initializers=(), opset=13, extra_opsets=(), functions=(), outputs=None, ir_version=8):
    graph = helper.make_graph(nodes, name, inputs, outputs or [helper.make_tensor_value_info("y", F, None)],
                              list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="make_fixtures.py", functions=list(functions))
    model.ir_version = ir_version
    os.makedirs(os.path.join(HERE, "wild"), exist_ok=True)
    onnx.save(model, os.path.join(HERE, "wild", name + ".onnx"))


def xin(dims=None, dtype=F, name="x"):
    return helper.make_tensor_value_info(name, dtype, dims if dims is not None else X4)


def wild():
    import numpy as np
    from onnx import numpy_helper
    I8, I32, I64, U8, BOOL = TensorProto.INT8, TensorProto.INT32, TensorProto.INT64, TensorProto.UINT8, TensorProto.BOOL

    def tensor(name, arr):
        return numpy_helper.from_array(np.asarray(arr), name)

    # ONNX Runtime's fp16 converter: the input Cast appended after the nodes that read it.
    wild_model("unsorted", [n("Conv", ["xc", "w"], ["c"], pads=[1, 1, 1, 1]), n("Relu", ["c"]),
                            n("Cast", ["x"], ["xc"], to=F)], [xin()], [weight("w", [8, 4, 3, 3])])
    # PaddlePaddle's and spox's exporters: every weight in a Constant node; a one-element learned bias.
    wconst = helper.make_node("Constant", [], ["w"], name="wconst", value=weight("wv", [8, 4, 3, 3]))
    bconst = helper.make_node("Constant", [], ["b"], name="bconst", value=weight("bv", [8]))
    wild_model("constant_weights", [wconst, bconst, n("Conv", ["x", "w", "b"], pads=[1, 1, 1, 1])], [xin()])
    wild_model("gemm_one_output", [n("Gemm", ["x", "w", "b"], transB=1)], [xin(["N", 16])],
               [weight("w", [1, 16]), weight("b", [1])])
    # If: the condition computed from the input's shape (channels == 4): the then branch, whose weight
    # is an initializer of the branch only; the Sigmoid after the If reads its typed output.
    then_g = helper.make_graph([n("Conv", ["x", "wb"], ["t"], pads=[1, 1, 1, 1])], "then", [],
                               [helper.make_tensor_value_info("t", F, None)], [weight("wb", [8, 4, 3, 3])])
    else_g = helper.make_graph([n("Relu", ["x"], ["e"])], "else", [], [helper.make_tensor_value_info("e", F, None)])
    shape_cond = [n("Shape", ["x"], ["s"]), n("Gather", ["s", "one"], ["ch"], axis=0), n("Equal", ["ch", "four"], ["cond"])]
    wild_model("if_known", shape_cond + [helper.make_node("If", ["cond"], ["i"], name="branch", then_branch=then_g,
                                                          else_branch=else_g), n("Sigmoid", ["i"])],
               [xin()], [const("one", 1, [], I64), const("four", 4, [], I64)])
    # The same If on a flag the caller passes: unknown before the run.
    wild_model("if_flag", [helper.make_node("If", ["flag"], ["i"], name="branch", then_branch=then_g, else_branch=else_g),
                           n("Sigmoid", ["i"])], [xin(), xin([], BOOL, "flag")])
    # Loop: 3 trips of x <- MatMul(x, w), w [6, 6] (the body reads the outer scope's weight).
    body = helper.make_graph([n("MatMul", ["v_in", "w"], ["v_out"]), n("Identity", ["c_in"], ["c_out"])], "body",
                             [helper.make_tensor_value_info("it", I64, []), helper.make_tensor_value_info("c_in", BOOL, []),
                              helper.make_tensor_value_info("v_in", F, None)],
                             [helper.make_tensor_value_info("c_out", BOOL, []), helper.make_tensor_value_info("v_out", F, None)])
    wild_model("loop", [helper.make_node("Loop", ["trips", "", "x"], ["y"], name="loop", body=body)], [xin(["N", 5, 6])],
               [const("trips", 3, [], I64), weight("w", [6, 6])])
    # Scan over 5 steps of x [5, 4]: state <- state + x_t, the states stacked as the scan output.
    sbody = helper.make_graph([n("Add", ["s_in", "x_t"], ["s_out"]), n("Identity", ["s_out"], ["o_t"])], "scanbody",
                              [helper.make_tensor_value_info("s_in", F, [4]), helper.make_tensor_value_info("x_t", F, [4])],
                              [helper.make_tensor_value_info("s_out", F, [4]), helper.make_tensor_value_info("o_t", F, [4])])
    wild_model("scan", [n("Relu", ["x"], ["r"]), helper.make_node("Scan", ["s0", "r"], ["s_final", "y"], name="scan",
                                                                  body=sbody, num_scan_inputs=1)],
               [xin([5, 4])], [weight("s0", [4])], opset=11)
    # LSTM: X [seq 5, batch N, 8], hidden 16: W [1, 64, 8], R [1, 64, 16], B [1, 128].
    wild_model("lstm", [n("LSTM", ["x", "W", "R", "B"], ["y"], hidden_size=16)], [xin([5, "N", 8])],
               [weight("W", [1, 64, 8]), weight("R", [1, 64, 16]), weight("B", [1, 128])])
    wild_model("gru", [n("GRU", ["x", "W", "R"], ["y"], hidden_size=16)], [xin([5, "N", 8])],
               [weight("W", [1, 48, 8]), weight("R", [1, 48, 16])])
    # Opset 18: ReduceMean's axes as an input, Split's num_outputs (8 into 3, 3, 2), Pad with axes.
    wild_model("opset18", [n("ReduceMean", ["x", "axes"], ["m"]), n("Split", ["x"], ["p", "q", "r"], axis=2, num_outputs=3),
                           n("Pad", ["r", "pads", "", "padaxes"], ["pr"]), n("Add", ["pr", "p"], ["a"]), n("Mul", ["a", "m"])],
               [xin()], [const("axes", [2, 3], dtype=I64), const("pads", [0, 1], dtype=I64), const("padaxes", [2], dtype=I64)],
               opset=18)
    # Opset 23: RMSNormalization, Gelu (20), Attention (3-D, 2 heads) on x [N, 5, 8].
    wild_model("opset23", [n("RMSNormalization", ["x", "g"], ["r"], axis=-1), n("Gelu", ["r"], ["h"]),
                           n("Attention", ["h", "h", "h"], ["y"], q_num_heads=2, kv_num_heads=2)],
               [xin(["N", 5, 8])], [weight("g", [8])], opset=23)
    # A model-local function (PyTorch's dynamo exporter): Conv + Relu, the weight passed in.
    fn = helper.make_function("local", "ConvRelu", ["fx", "fw"], ["fy"],
                              [n("Conv", ["fx", "fw"], ["fc"], pads=[1, 1, 1, 1]), n("Relu", ["fc"], ["fy"])],
                              [helper.make_opsetid("", 18)])
    wild_model("function", [helper.make_node("ConvRelu", ["x", "w"], ["c"], name="block", domain="local"), n("Sigmoid", ["c"])],
               [xin()], [weight("w", [8, 4, 3, 3])], opset=18, extra_opsets=[("local", 1)], functions=[fn])
    # QDQ: Quantize the input; DequantizeLinear of the input and of the int8 weight and int32 bias feed
    # the Conv; Quantize and Dequantize its output.
    wild_model("qdq", [n("QuantizeLinear", ["x", "s", "z"], ["xq"]), n("DequantizeLinear", ["xq", "s", "z"], ["xd"]),
                       n("DequantizeLinear", ["wq", "ws"], ["wd"]), n("DequantizeLinear", ["bq", "bs"], ["bd"]),
                       n("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1]), n("QuantizeLinear", ["c", "s", "z"], ["cq"]),
                       n("DequantizeLinear", ["cq", "s", "z"])], [xin()],
               [const("s", 0.1, []), tensor("z", np.uint8(128)), tensor("wq", np.ones([8, 4, 3, 3], np.int8)),
                const("ws", [0.01] * 8, [8]), tensor("bq", np.ones([8], np.int32)), const("bs", 0.001, [])])
    # Dynamic quantization: DynamicQuantizeLinear -> ConvInteger (int8 weight) -> Cast -> Mul by the scale.
    wild_model("convinteger", [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"], name="dq"),
                               n("ConvInteger", ["xq", "wq", "xz"], ["ci"], pads=[1, 1, 1, 1]),
                               n("Cast", ["ci"], ["cf"], to=F), n("Mul", ["cf", "xs"])], [xin()],
               [tensor("wq", np.ones([8, 4, 3, 3], np.int8))])
    # ONNX Runtime's MatMulNBits: A [N, 5, 32] times 16 x 32 weights in 4 bits (blocks of 32).
    mnb = helper.make_node("MatMulNBits", ["x", "B", "scales"], ["y"], name="mnb", domain="com.microsoft",
                           K=32, N=16, bits=4, block_size=32)
    wild_model("matmulnbits", [mnb], [xin(["N", 5, 32])],
               [tensor("B", np.ones([16, 1, 16], np.uint8)), const("scales", [0.1] * 16, [16])],
               extra_opsets=[("com.microsoft", 1)])
    # PixelShuffle as exported: rank-6 reshape, transpose, reshape back: [N, 16, 4, 4] -> [N, 4, 8, 8].
    wild_model("rank6", [n("Reshape", ["x", "s6"], ["r6"]), n("Transpose", ["r6"], ["t6"], perm=[0, 1, 4, 2, 5, 3]),
                         n("Reshape", ["t6", "s4"])], [xin(["N", 16, 4, 4])],
               [const("s6", [-1, 4, 2, 2, 4, 4], dtype=I64), const("s4", [-1, 4, 8, 8], dtype=I64)])
    # ONNX Runtime's fp16 converter: Casts at the edges, fp16 weights and tensors inside.
    wild_model("fp16", [n("Cast", ["x"], ["xh"], to=TensorProto.FLOAT16), n("Conv", ["xh", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                        n("Cast", ["c"], to=F)], [xin()],
               [tensor("w", np.full([8, 4, 3, 3], 0.5, np.float16)), tensor("b", np.full([8], 0.5, np.float16))])
    # PyTorch's F.pad as exported (Swin's window padding): the pad list reversed pairwise by a Slice with
    # step -1, transposed and flattened, all on values known before the run. x [N, 4, 8] -> [N, 6, 9].
    wild_model("pad_reversed", [n("Slice", ["v", "st", "en", "ax", "sp"], ["r"]), n("Transpose", ["r"], ["t"], perm=[1, 0]),
                                n("Reshape", ["t", "flat"], ["p"]), n("Pad", ["x", "p"], ["padded"]), n("Relu", ["padded"])],
               [xin(["N", 4, 8])], [const("v", [[0, 1], [0, 2], [0, 0]], dtype=I64), const("st", [-1], dtype=I64),
                                   const("en", [-(2 ** 62)], dtype=I64), const("ax", [0], dtype=I64), const("sp", [-1], dtype=I64),
                                   const("flat", [-1], dtype=I64)])
    today()
    fixed_batch()
    print("wrote", os.path.join(HERE, "wild"))


def today():
    """Files as today's exporters write them (issue 34): values computed through Split and a Loop over a
    sequence, recurrent layers after Squeeze and Transpose (PyTorch's exporter, and inside an If branch on
    the data as spox writes it), 4- and 8-bit element types of IR 9 to 11."""
    import numpy as np
    from onnx import numpy_helper
    I64, BOOL = TensorProto.INT64, TensorProto.BOOL

    def tensor(name, arr):
        return numpy_helper.from_array(np.asarray(arr), name)

    # tf2onnx's Pad amounts: an 8-element constant Split into four pairs and joined again by a Concat.
    # x [N, 4, 8, 8] padded by 1 before and 2 after on H and W: [N, 4, 11, 11].
    wild_model("split_pads", [n("Split", ["pads8", "parts"], ["p0", "p1", "p2", "p3"], axis=0),
                              n("Concat", ["p0", "p1", "p2", "p3"], ["pads"], axis=0), n("Pad", ["x", "pads"], ["padded"]),
                              n("Relu", ["padded"])],
               [xin()], [const("pads8", [0, 0, 1, 1, 0, 0, 2, 2], dtype=I64), const("parts", [2, 2, 2, 2], dtype=I64)])

    # torchlib's as_strided (PyTorch 2.x's dynamo exporter): a Loop of `rank` trips builds the Gather's
    # indices, expanding them to size[j:] and adding Range(size[j]) * stride[j], reshaped with an If on
    # the trip number and a sequence of ones. x [1, 4, 6] viewed as size [2, 3, 4], stride [12, 1, 3]
    # (offset 0): [2, 3, 4] = 24 elements gathered, then a ReLU.
    def vi(name, elem=F, dims=None):
        return helper.make_tensor_value_info(name, elem, dims)
    then_g = helper.make_graph([n("Identity", ["size_j"], ["shape_then"])], "first_trip", [], [vi("shape_then", I64)])
    else_g = helper.make_graph([helper.make_node("ConcatFromSequence", ["ones_in"], ["ones_t"], name="ones", axis=0),
                                n("Cast", ["size_j"], ["size_f"], to=F),
                                n("Concat", ["size_f", "ones_t"], ["shape_f"], axis=0),
                                n("Cast", ["shape_f"], ["shape_else"], to=I64)], "later_trips", [], [vi("shape_else", I64)])
    body = helper.make_graph([
        n("Sub", ["rank_m1", "i"], ["j"]), n("Reshape", ["j", "neg1"], ["j1"]),
        n("Gather", ["size", "j1"], ["size_j"], axis=0), n("Slice", ["size", "j1", "rank1"], ["size_after"]),
        n("Gather", ["stride", "j1"], ["stride_j"], axis=0), n("Expand", ["idx_in", "size_after"], ["idx_e"]),
        n("Squeeze", ["size_j", "zero1"], ["size_s"]), n("Range", ["zero", "size_s", "one"], ["r"]),
        n("Mul", ["r", "stride_j"], ["add"]), n("Equal", ["i", "zero"], ["first"]),
        helper.make_node("If", ["first"], ["shape"], name="trip_shape", then_branch=then_g, else_branch=else_g),
        n("Reshape", ["add", "shape"], ["add_r"]), n("Add", ["idx_e", "add_r"], ["idx_out"]),
        helper.make_node("SequenceInsert", ["ones_in", "onef"], ["ones_out"], name="more_ones"),
        n("Identity", ["c_in"], ["c_out"])], "as_strided_body",
        [vi("i", I64, []), vi("c_in", BOOL, []), vi("idx_in", I64), helper.make_tensor_sequence_value_info("ones_in", F, None)],
        [vi("c_out", BOOL, []), vi("idx_out", I64), helper.make_tensor_sequence_value_info("ones_out", F, None)])
    wild_model("as_strided_loop", [
        helper.make_node("SequenceEmpty", [], ["ones0"], name="no_ones", dtype=F),
        helper.make_node("Loop", ["rank", "", "idx0", "ones0"], ["idx", "ones_final"], name="as_strided_indices", body=body),
        n("Reshape", ["x", "neg1"], ["flat"]), n("Gather", ["flat", "idx"], ["g"], axis=0), n("Relu", ["g"])],
        [xin([1, 4, 6])],
        [const("rank", 3, [], I64), const("rank_m1", 2, [], I64), const("rank1", [3], dtype=I64), const("neg1", [-1], dtype=I64),
         const("size", [2, 3, 4], dtype=I64), const("stride", [12, 1, 3], dtype=I64), const("idx0", 0, [], I64),
         const("zero", 0, [], I64), const("one", 1, [], I64), const("zero1", [0], dtype=I64), const("onef", [1.0], [1])],
        opset=18, ir_version=10)

    # An LSTM after Squeeze and Transpose, inside an If whose condition is a threshold on the data (spox's
    # writing of a voice-activity model): then an LSTM(16 -> 32), else a GRU(16 -> 8); x [1, 1, 16, T].
    lstm_then = helper.make_graph([n("LSTM", ["xt", "W", "R", "B"], ["yl"], hidden_size=32)], "then", [], [vi("yl")],
                                  [weight("W", [1, 128, 16]), weight("R", [1, 128, 32]), weight("B", [1, 256])])
    gru_else = helper.make_graph([n("GRU", ["xt", "Wg", "Rg"], ["yg"], hidden_size=8)], "else", [], [vi("yg")],
                                 [weight("Wg", [1, 24, 16]), weight("Rg", [1, 24, 8])])
    wild_model("rnn_in_if", [n("Squeeze", ["x", "one_axis"], ["xs"]), n("Transpose", ["xs"], ["xt"], perm=[2, 0, 1]),
                             n("ReduceMax", ["x"], ["peak"], keepdims=0), n("Greater", ["peak", "threshold"], ["loud"]),
                             helper.make_node("If", ["loud"], ["y"], name="loud_or_quiet", then_branch=lstm_then,
                                              else_branch=gru_else)],
               [xin(["N", 1, 16, "time"])], [const("one_axis", [1], dtype=I64), const("threshold", 0.5, [])], opset=15)

    # IR 10 and 11 element types: int4 and float8 (e4m3fn) weights, dequantized before their MatMuls;
    # x [N, 8] x (int4 [8, 16]) x (float8 [16, 8]). ONNX 1.12's Python writes the raw bytes by number.
    def raw(name, data_type, dims, nbytes):
        t = TensorProto()
        t.name, t.data_type = name, data_type
        t.dims.extend(dims)
        t.raw_data = bytes(range(nbytes % 256)) * (nbytes // 256) + bytes(range(nbytes % 256)) if False else bytes(nbytes)
        return t
    wild_model("lowbit", [n("DequantizeLinear", ["w4", "s4"], ["w4f"]), n("MatMul", ["x", "w4f"], ["h"]),
                          n("DequantizeLinear", ["w8", "s8"], ["w8f"]), n("MatMul", ["h", "w8f"])],
               [xin(["N", 8])], [raw("w4", 22, [8, 16], 64), const("s4", 0.1, []), raw("w8", 17, [16, 8], 128), const("s8", 0.1, [])],
               opset=21, ir_version=10)


def number_types():
    """Rows whose arithmetic their width does not name (issue 47): float8 activations, bfloat16 tensors."""
    def raw(name, data_type, dims, nbytes):
        t = TensorProto()
        t.name, t.data_type = name, data_type
        t.dims.extend(dims)
        t.raw_data = bytes(nbytes)
        return t
    # x [N, 16] quantized to float8 e4m3fn (QuantizeLinear with a float8 zero point, opset 19), dequantized
    # into a MatMul with float8 weights [16, 8]: both DequantizeLinears fold, the MatMul reads float8 and
    # is an fp8 row (tensor FP8), not an int8 one; the QuantizeLinear and the Relu are rows of their own.
    wild_model("fp8_qdq", [n("QuantizeLinear", ["x", "sx", "zx"], ["xq"]), n("DequantizeLinear", ["xq", "sx", "zx"], ["xf"]),
                           n("DequantizeLinear", ["w8", "s8", "z8"], ["w8f"]), n("MatMul", ["xf", "w8f"], ["h"]),
                           n("Relu", ["h"])],
               [xin(["N", 16])],
               [const("sx", 0.1, []), raw("zx", 17, [], 1), raw("w8", 17, [16, 8], 128), const("s8", 0.1, []),
                raw("z8", 17, [], 1)],
               opset=19, ir_version=9)
    # A bfloat16 model: x bf16 [N, 16] x bf16 weights [16, 8], then a Relu: bf16 rows (BF16 ceilings).
    wild_model("bf16", [n("MatMul", ["x", "w"], ["h"]), n("Relu", ["h"])], [xin(["N", 16], TensorProto.BFLOAT16)],
               [raw("w", TensorProto.BFLOAT16, [16, 8], 256)],
               outputs=[helper.make_tensor_value_info("y", TensorProto.BFLOAT16, None)], opset=17)


def fixed_batch():
    """A file that fixes its batch (x [1, 4, 8, 8], as background-removal models ship): a Conv. And one that
    fixes an oblong image (x [batch, 3, 48, 224], as OCR recognisers ship)."""
    wild_model("fixed_batch", [n("Conv", ["x", "w"], pads=[1, 1, 1, 1])], [xin([1, 4, 8, 8])], [weight("w", [8, 4, 3, 3])])
    wild_model("oblong", [n("Conv", ["x", "w"], pads=[1, 1, 1, 1])], [xin(["batch", 3, 48, 224])], [weight("w", [8, 3, 3, 3])])


def pytorch_recurrent():
    """nn.LSTM and nn.GRU after a Squeeze and a permute, as PyTorch's exporter writes them (opset 15)."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self, cell):
            super().__init__()
            self.conv = nn.Conv1d(16, 16, 3, padding=1)
            self.rnn = cell(16, 32)
            self.fc = nn.Linear(32, 1)

        def forward(self, x):  # [N, 1, 16, T]
            x = self.conv(x.squeeze(1)).permute(2, 0, 1)  # [T, N, 16]
            y, _ = self.rnn(x)
            return torch.sigmoid(self.fc(y))

    for name, cell in (("pytorch_lstm", nn.LSTM), ("pytorch_gru", nn.GRU)):
        module = Net(cell)
        randomize(module)
        module.eval()
        path = os.path.join(HERE, "wild", name + ".onnx")
        torch.onnx.export(module, torch.randn(1, 1, 16, 50), path, input_names=["x"], opset_version=15,
                          dynamic_axes={"x": {0: "batch", 3: "time"}})
        strip_weights(path, name + ".weights")
        print("wrote", path)


def scalar_vectors():
    """One-element tensors where ONNX's shape functions say scalars, as PyTorch 2.x's exporter writes
    them (its torchlib Range takes sizes gathered with 1-D indices, so they are [1], not []): Range
    over a size Gather'ed from Shape(x) with indices [3], a HannWindow of size [8], a Dropout whose
    ratio and training_mode are [1]. ONNX Runtime runs it; ONNX 1.12's shape inference refuses Range
    ("should be scalars"), HannWindow and Dropout. x [N, 4, 8, 8]: Range 0..8 -> [8], added to x's last
    axis; times the window; Conv 4 -> 8, 3x3, pads 1; Dropout."""
    import numpy as np
    from onnx import numpy_helper
    I64, BOOL = TensorProto.INT64, TensorProto.BOOL

    def tensor(name, arr):
        return numpy_helper.from_array(np.asarray(arr), name)

    wild_model("scalar_vectors",
               [n("Shape", ["x"], ["s"]), n("Gather", ["s", "three"], ["size"], axis=0),
                n("Range", ["zero", "size", "one"], ["r"]), n("Cast", ["r"], ["rf"], to=F), n("Add", ["x", "rf"], ["a"]),
                n("HannWindow", ["wsize"], ["win"]), n("Mul", ["a", "win"], ["m"]),
                n("Conv", ["m", "w"], ["c"], pads=[1, 1, 1, 1]), n("Dropout", ["c", "ratio", "training"], ["y"])],
               [xin()],
               [tensor("three", np.array([3], np.int64)), tensor("zero", np.array([0], np.int64)),
                tensor("one", np.array([1], np.int64)), tensor("wsize", np.array([8], np.int64)), weight("w", [8, 4, 3, 3]),
                tensor("ratio", np.array([0.1], np.float32)), tensor("training", np.array([False]))],
               opset=17)
    # The signal operators whose shape functions insist on scalars, each fed a [1] tensor: the three
    # windows of size 16, a 16-point STFT (frame_step [1] = 8 is not checked, frame_length [1] = 16 is)
    # of a 64-sample signal, a DFT of dft_length [1] = 16 (opset 17: axis an attribute) and a
    # MelWeightMatrix of num_mel_bins [1] = 8 and dft_length [1] = 16.
    F32 = np.float32
    wild_model("scalar_vectors_signal",
               [n("HannWindow", ["wsize"], ["hann"]), n("HammingWindow", ["wsize"], ["hamming"]),
                n("BlackmanWindow", ["wsize"], ["blackman"]),
                n("STFT", ["sig", "step", "hann", "flen"], ["spec"]),
                n("DFT", ["sig16", "flen"], ["dft"], axis=1),
                n("MelWeightMatrix", ["bins", "flen", "rate", "low", "high"], ["mel"]),
                n("Add", ["hamming", "blackman"], ["y"])],
               [xin([1, 64, 1], name="sig"), xin([1, 16, 1], name="sig16")],
               [tensor("wsize", np.array([16], np.int64)), tensor("step", np.array([8], np.int64)),
                tensor("flen", np.array([16], np.int64)), tensor("bins", np.array([8], np.int64)),
                tensor("rate", np.array(16000, np.int64)), tensor("low", np.array(0.0, F32)),
                tensor("high", np.array(8000.0, F32))],
               outputs=[helper.make_tensor_value_info(o, F, None) for o in ("y", "spec", "dft", "mel")], opset=17)
    # torchlib's functions as PyTorch 2.x's dynamo exporter writes them (IR 10): FunctionProto's
    # attribute_proto (field 11, attribute defaults) and overload (13), NodeProto's overload (8), which
    # ONNX 1.12's protobuf does not know: written here as the wire format lays them out. 'FlattenAt'
    # flattens at its attribute 'axis', default 2 (Flatten's own is 1), and the call gives none: x
    # [N, 4, 8, 8] -> [4 N, 64], times w [64, 10]. 'Act' has two overloads: "relu" and "sigmoid"; the
    # call asks for "sigmoid".
    def varint(v):
        out = b""
        while True:
            byte = v & 0x7F
            v >>= 7
            out += bytes([byte | (0x80 if v else 0)])
            if not v:
                return out

    def field(number, payload):
        return varint((number << 3) | 2) + varint(len(payload)) + payload

    def with_fields(message, extra):
        raw = message.SerializeToString() + extra
        copy = type(message)()
        copy.ParseFromString(raw)
        return copy

    axis_ref = helper.make_attribute("axis", 0)
    axis_ref.ClearField("i")
    axis_ref.ref_attr_name = "axis"
    flat = helper.make_node("Flatten", ["fx"], ["fy"], name="flat")
    flat.attribute.append(axis_ref)
    flatten_at = helper.make_function("pkg.torch", "FlattenAt", ["fx"], ["fy"], [flat], [helper.make_opsetid("", 18)],
                                      ["axis"])
    flatten_at.ClearField("attribute")  # the attribute lives in attribute_proto, with its default
    flatten_at = with_fields(flatten_at, field(11, helper.make_attribute("axis", 2).SerializeToString()))
    act_relu = with_fields(helper.make_function("pkg.torch", "Act", ["ax"], ["ay"], [n("Relu", ["ax"], ["ay"])],
                                                [helper.make_opsetid("", 18)], []), field(13, b"relu"))
    act_sigmoid = with_fields(helper.make_function("pkg.torch", "Act", ["ax"], ["ay"], [n("Sigmoid", ["ax"], ["ay"])],
                                                   [helper.make_opsetid("", 18)], []), field(13, b"sigmoid"))
    call_act = with_fields(helper.make_node("Act", ["mm"], ["y"], name="act", domain="pkg.torch"), field(8, b"sigmoid"))
    wild_model("torchlib_functions", [helper.make_node("FlattenAt", ["x"], ["f"], name="flatten", domain="pkg.torch"),
                                      n("MatMul", ["f", "w"], ["mm"]), call_act],
               [xin()], [weight("w", [64, 10])], opset=18, extra_opsets=[("pkg.torch", 1)],
               functions=[flatten_at, act_sigmoid, act_relu], ir_version=10)
    # nn.Linear(16, 1) as PyTorch's exporter writes it for an input of rank 3 (and torchlib always):
    # MatMul by the transposed weight [16, 1], then Add of the one-element bias.
    wild_model("linear_one_output", [n("MatMul", ["x", "w"], ["mm"]), n("Add", ["mm", "b"])], [xin(["N", 5, 16])],
               [weight("w", [16, 1]), weight("b", [1])])


def decoder_past():
    """One attention block of a decoder with its past keys and values as inputs, as ONNX Runtime GenAI and
    Optimum export them: the sequence lengths are symbolic, bound by name with --dim."""
    import numpy as np
    from onnx import numpy_helper
    hidden, heads, head_dim = 64, 2, 32

    def w(name):
        return numpy_helper.from_array(np.zeros([hidden, hidden], np.float32), name)
    split = numpy_helper.from_array(np.array([0, 0, heads, head_dim], np.int64), "split_heads")
    merge = numpy_helper.from_array(np.array([0, 0, hidden], np.int64), "merge_heads")
    nodes = []
    for p in ("q", "k", "v"):
        nodes += [n("MatMul", ["x", "W" + p], [p + "_flat"]), n("Reshape", [p + "_flat", "split_heads"], [p + "_4d"]),
                  n("Transpose", [p + "_4d"], [p + "_heads"], perm=[0, 2, 1, 3])]
    nodes += [n("Concat", ["past_key", "k_heads"], ["present_key"], axis=2),
              n("Concat", ["past_value", "v_heads"], ["present_value"], axis=2),
              n("Transpose", ["present_key"], ["key_t"], perm=[0, 1, 3, 2]),
              n("MatMul", ["q_heads", "key_t"], ["scores"]), n("Softmax", ["scores"], ["probs"], axis=-1),
              n("MatMul", ["probs", "present_value"], ["context"]), n("Transpose", ["context"], ["context_t"], perm=[0, 2, 1, 3]),
              n("Reshape", ["context_t", "merge_heads"], ["context_flat"]), n("MatMul", ["context_flat", "Wo"], ["y"])]
    past = ["batch", heads, "past_sequence_length", head_dim]
    present = ["batch", heads, "total_sequence_length", head_dim]
    wild_model("decoder_past", nodes,
               [xin(["batch", "sequence_length", hidden]), xin(past, name="past_key"), xin(past, name="past_value")],
               [w("Wq"), w("Wk"), w("Wv"), w("Wo"), split, merge], opset=17,
               outputs=[helper.make_tensor_value_info("y", F, ["batch", "sequence_length", hidden]),
                        helper.make_tensor_value_info("present_key", F, present),
                        helper.make_tensor_value_info("present_value", F, present)])


# The two-block Llama of tests/core/llm/tst_llm_files.cpp (hidden 256, 4 heads and 2 KV heads of 64, MLP
# 512, vocabulary 1024, untied head), for the three-way agreement of issue 49 item 4.
TINY_LLAMA = dict(hidden=256, heads=4, kv_heads=2, head_dim=64, ffn=512, vocab=1024, layers=2)


def tiny_llama_past():
    """The tiny Llama as a decoder with past keys and values, exported by PyTorch's own exporter the way
    Optimum's decoders are: input_ids [batch, sequence_length], attention_mask [batch,
    total_sequence_length], past_key_values.N.key / .value [batch, 2, past_sequence_length, 64] in, logits
    and present.N.key / .value out. RMSNorm, rotary embeddings, grouped-query attention with a causal mask
    and SwiGLU are written as Hugging Face's LlamaModel writes them."""
    import torch
    from torch import nn
    c = TINY_LLAMA
    h, H, Hkv, d, f, V, L = (c[k] for k in ("hidden", "heads", "kv_heads", "head_dim", "ffn", "vocab", "layers"))

    class RMSNorm(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(h))

        def forward(self, x):
            return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5))

    def rotate(x):
        return torch.cat((-x[..., d // 2:], x[..., :d // 2]), dim=-1)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_layernorm, self.post_attention_layernorm = RMSNorm(), RMSNorm()
            self.q_proj = nn.Linear(h, H * d, bias=False)
            self.k_proj = nn.Linear(h, Hkv * d, bias=False)
            self.v_proj = nn.Linear(h, Hkv * d, bias=False)
            self.o_proj = nn.Linear(H * d, h, bias=False)
            self.gate_proj = nn.Linear(h, f, bias=False)
            self.up_proj = nn.Linear(h, f, bias=False)
            self.down_proj = nn.Linear(f, h, bias=False)

        def forward(self, x, cos, sin, mask, past_k, past_v):
            B, S = x.shape[0], x.shape[1]
            y = self.input_layernorm(x)
            q = self.q_proj(y).view(B, S, H, d).transpose(1, 2)
            k = self.k_proj(y).view(B, S, Hkv, d).transpose(1, 2)
            v = self.v_proj(y).view(B, S, Hkv, d).transpose(1, 2)
            q, k = q * cos + rotate(q) * sin, k * cos + rotate(k) * sin
            k, v = torch.cat([past_k, k], dim=2), torch.cat([past_v, v], dim=2)
            T = k.shape[2]  # Hugging Face's repeat_kv: each KV head read by H / Hkv query heads
            kr = k[:, :, None].expand(B, Hkv, H // Hkv, T, d).reshape(B, H, T, d)
            vr = v[:, :, None].expand(B, Hkv, H // Hkv, T, d).reshape(B, H, T, d)
            scores = torch.matmul(q, kr.transpose(2, 3)) / (d ** 0.5) + mask
            a = torch.matmul(torch.softmax(scores, dim=-1), vr).transpose(1, 2).reshape(B, S, H * d)
            x = x + self.o_proj(a)
            y = self.post_attention_layernorm(x)
            x = x + self.down_proj(nn.functional.silu(self.gate_proj(y)) * self.up_proj(y))
            return x, k, v

    class Llama(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(V, h)
            self.layers = nn.ModuleList([Block() for _ in range(L)])
            self.norm = RMSNorm()
            self.lm_head = nn.Linear(h, V, bias=False)
            self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d)), persistent=False)

        def forward(self, input_ids, attention_mask, *past):
            S, T = input_ids.shape[1], attention_mask.shape[1]
            P = T - S
            x = self.embed_tokens(input_ids)
            pos = torch.arange(P, T, dtype=torch.float32)
            freqs = torch.outer(pos, self.inv_freq)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos()[None, None], emb.sin()[None, None]
            causal = (torch.arange(T)[None, :] > (torch.arange(S)[:, None] + P)).float() * -1e9
            mask = causal[None, None] + (1.0 - attention_mask[:, None, None, :].float()) * -1e9
            present = []
            for i, layer in enumerate(self.layers):
                x, k, v = layer(x, cos, sin, mask, past[2 * i], past[2 * i + 1])
                present += [k, v]
            return (self.lm_head(self.norm(x)), *present)

    model = Llama()
    randomize(model)
    model.eval()
    B, S, P = 1, 3, 5
    past_names, present_names, axes = [], [], {"input_ids": {0: "batch", 1: "sequence_length"},
                                               "attention_mask": {0: "batch", 1: "total_sequence_length"},
                                               "logits": {0: "batch", 1: "sequence_length"}}
    sample = [torch.zeros(B, S, dtype=torch.int64), torch.ones(B, P + S, dtype=torch.int64)]
    for i in range(L):
        for kv in ("key", "value"):
            past_names.append("past_key_values.%d.%s" % (i, kv))
            present_names.append("present.%d.%s" % (i, kv))
            axes[past_names[-1]] = {0: "batch", 2: "past_sequence_length"}
            axes[present_names[-1]] = {0: "batch", 2: "total_sequence_length"}
            sample.append(torch.zeros(B, Hkv, P, d))
    path = os.path.join(HERE, "wild", "tiny_llama_past.onnx")
    torch.onnx.export(model, tuple(sample), path, input_names=["input_ids", "attention_mask"] + past_names,
                      output_names=["logits"] + present_names, dynamic_axes=axes, opset_version=17,
                      do_constant_folding=True)
    strip_weights(path, "tiny_llama_past.weights")
    print("wrote", path)


def tiny_llama_genai():
    """The tiny Llama as ONNX Runtime GenAI's model builder writes an int4 decoder: MatMulNBits weights (4 bits,
    blocks of 32, one fp16 scale a block, no zero points: 18 bytes per 32 weights, GGUF's Q4_0), fp16
    embedding, norms and cache, SimplifiedLayerNormalization and SkipSimplifiedLayerNormalization (whose
    last output carries the residual), GroupQueryAttention with its rotary embedding (do_rotary, the cos and
    sin tables as initializers), seqlens_k and total_sequence_length computed from the attention mask."""
    import numpy as np
    from onnx import numpy_helper
    c = TINY_LLAMA
    h, H, Hkv, d, f, V, L = (c[k] for k in ("hidden", "heads", "kv_heads", "head_dim", "ffn", "vocab", "layers"))
    H16 = TensorProto.FLOAT16
    inits, nodes = [], []

    def fp16(name, dims):
        inits.append(numpy_helper.from_array(np.zeros(dims, np.float16), name))
        return name

    def nbits(x, name, n_out, k_in):
        inits.append(numpy_helper.from_array(np.zeros([n_out, k_in // 32, 16], np.uint8), name + ".weight_Q4"))
        inits.append(numpy_helper.from_array(np.zeros([n_out * k_in // 32], np.float16), name + ".weight_scales"))
        nodes.append(helper.make_node("MatMulNBits", [x, name + ".weight_Q4", name + ".weight_scales"], [name + "/out"],
                                      name=name + "/MatMul", domain="com.microsoft", K=k_in, N=n_out, bits=4,
                                      block_size=32, accuracy_level=4))
        return name + "/out"

    def skip_norm(x, skip, weight, name):
        nodes.append(helper.make_node("SkipSimplifiedLayerNormalization", [x, skip, fp16(weight, [h])],
                                      [name + "/out", "", "", name + "/residual"], name=name,
                                      domain="com.microsoft", epsilon=1e-5))
        return name + "/out", name + "/residual"

    inits.append(numpy_helper.from_array(np.array([1], np.int64), "one_axis"))
    inits.append(numpy_helper.from_array(np.array(1, np.int64), "one"))
    nodes += [helper.make_node("ReduceSum", ["attention_mask", "one_axis"], ["mask_sum"], keepdims=0),
              helper.make_node("Sub", ["mask_sum", "one"], ["mask_last"]),
              helper.make_node("Cast", ["mask_last"], ["seqlens_k"], to=TensorProto.INT32),
              helper.make_node("Shape", ["attention_mask"], ["mask_shape"]),
              helper.make_node("Gather", ["mask_shape", "one"], ["total_len64"], axis=0),
              helper.make_node("Cast", ["total_len64"], ["total_seq_len"], to=TensorProto.INT32),
              helper.make_node("Gather", [fp16("model.embed_tokens.weight", [V, h]), "input_ids"], ["embedded"])]
    fp16("cos_cache", [2048, d // 2])
    fp16("sin_cache", [2048, d // 2])
    nodes.append(helper.make_node("SimplifiedLayerNormalization", ["embedded", fp16("model.layers.0.input_layernorm.weight", [h])],
                                  ["layer0_norm"], name="layers.0/input_layernorm", axis=-1, epsilon=1e-5, stash_type=1))
    x, residual = "layer0_norm", "embedded"
    outputs = []
    for i in range(L):
        p = "model.layers.%d" % i
        if i > 0:
            x, residual = skip_norm(down, residual, p + ".input_layernorm.weight", "layers.%d/input_layernorm" % i)
        q, k, v = (nbits(x, "%s.attn.%s_proj" % (p, t), n, h) for t, n in (("q", H * d), ("k", Hkv * d), ("v", Hkv * d)))
        nodes.append(helper.make_node(
            "GroupQueryAttention", [q, k, v, "past_key_values.%d.key" % i, "past_key_values.%d.value" % i, "seqlens_k",
                                    "total_seq_len", "cos_cache", "sin_cache"],
            ["layers.%d/attn" % i, "present.%d.key" % i, "present.%d.value" % i], name="layers.%d/attn/GroupQueryAttention" % i,
            domain="com.microsoft", num_heads=H, kv_num_heads=Hkv, do_rotary=1, rotary_interleaved=0, local_window_size=-1))
        o = nbits("layers.%d/attn" % i, p + ".attn.o_proj", h, H * d)
        x, residual = skip_norm(o, residual, p + ".post_attention_layernorm.weight", "layers.%d/post_attention_layernorm" % i)
        gate = nbits(x, p + ".mlp.gate_proj", f, h)
        up = nbits(x, p + ".mlp.up_proj", f, h)
        nodes += [helper.make_node("Sigmoid", [gate], ["layers.%d/sig" % i], name="layers.%d/mlp/act_fn/Sigmoid" % i),
                  helper.make_node("Mul", [gate, "layers.%d/sig" % i], ["layers.%d/silu" % i], name="layers.%d/mlp/act_fn/Mul" % i),
                  helper.make_node("Mul", ["layers.%d/silu" % i, up], ["layers.%d/gated" % i], name="layers.%d/mlp/Mul" % i)]
        down = nbits("layers.%d/gated" % i, p + ".mlp.down_proj", h, f)
        outputs += [helper.make_tensor_value_info("present.%d.key" % i, H16, ["batch_size", Hkv, "total_sequence_length", d]),
                    helper.make_tensor_value_info("present.%d.value" % i, H16, ["batch_size", Hkv, "total_sequence_length", d])]
    x, _ = skip_norm(down, residual, "model.norm.weight", "norm")
    logits = nbits(x, "lm_head", V, h)
    nodes.append(helper.make_node("Identity", [logits], ["logits"]))
    inputs = [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch_size", "sequence_length"]),
              helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch_size", "total_sequence_length"])]
    for i in range(L):
        for kv in ("key", "value"):
            inputs.append(helper.make_tensor_value_info("past_key_values.%d.%s" % (i, kv), H16,
                                                        ["batch_size", Hkv, "past_sequence_length", d]))
    graph = helper.make_graph(nodes, "main_graph", inputs,
                              [helper.make_tensor_value_info("logits", H16, ["batch_size", "sequence_length", V])] + outputs,
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)],
                              producer_name="onnxruntime-genai")
    model.ir_version = 8
    path = os.path.join(HERE, "wild", "tiny_llama_genai.onnx")
    onnx.save(model, path)
    strip_weights(path, "tiny_llama_genai.weights", size_threshold=1024)  # the mask's axes and indices stay
    print("wrote", path)


def contrib_attention():
    """ONNX Runtime's attention operators with a cache, for hand-worked counts: MultiHeadAttention (2 heads of
    32, causal with unidirectional=1, its past keys and values inputs 6 and 7) after ONNX Runtime's
    RotaryEmbedding of the query; GroupQueryAttention with Q, K and V packed in one input (4 query heads and 2
    KV heads of 16) and a local window of 4 keys."""
    import numpy as np
    from onnx import numpy_helper
    ms = [("com.microsoft", 1)]
    past = ["batch", 2, "past_sequence_length", 32]
    present = ["batch", 2, "total_sequence_length", 32]
    cos = numpy_helper.from_array(np.zeros([64, 16], np.float32), "cos_cache")
    sin = numpy_helper.from_array(np.zeros([64, 16], np.float32), "sin_cache")
    nodes = [helper.make_node("RotaryEmbedding", ["q", "positions", "cos_cache", "sin_cache"], ["q_rot"], name="rope",
                              domain="com.microsoft", num_heads=2),
             helper.make_node("MultiHeadAttention", ["q_rot", "k", "v", "", "", "", "past_key", "past_value"],
                              ["y", "present_key", "present_value"], name="mha", domain="com.microsoft", num_heads=2,
                              unidirectional=1)]
    wild_model("mha_past", nodes,
               [xin(["batch", "sequence_length", 64], name="q"), xin(["batch", "sequence_length", 64], name="k"),
                xin(["batch", "sequence_length", 64], name="v"),
                helper.make_tensor_value_info("positions", TensorProto.INT64, ["batch", "sequence_length"]),
                xin(past, name="past_key"), xin(past, name="past_value")],
               [cos, sin], opset=17, extra_opsets=ms,
               outputs=[helper.make_tensor_value_info("y", F, ["batch", "sequence_length", 64]),
                        helper.make_tensor_value_info("present_key", F, present),
                        helper.make_tensor_value_info("present_value", F, present)])
    gqa_past = ["batch", 2, "past_sequence_length", 16]
    nodes = [helper.make_node("GroupQueryAttention", ["qkv", "", "", "past_key", "past_value", "seqlens_k", "total_len"],
                              ["y", "present_key", "present_value"], name="gqa", domain="com.microsoft", num_heads=4,
                              kv_num_heads=2, local_window_size=4)]
    wild_model("gqa_window", nodes,
               [xin(["batch", "sequence_length", (4 + 2 * 2) * 16], name="qkv"), xin(gqa_past, name="past_key"),
                xin(gqa_past, name="past_value"),
                helper.make_tensor_value_info("seqlens_k", TensorProto.INT32, ["batch"]),
                helper.make_tensor_value_info("total_len", TensorProto.INT32, [])],
               opset=17, extra_opsets=ms,
               outputs=[helper.make_tensor_value_info("y", F, ["batch", "sequence_length", 64])])


if __name__ == "__main__":
    if sys.argv[1:] == ["scalars"]:
        scalar_vectors()
        sys.exit(0)
    if sys.argv[1:] == ["today"]:
        today()
        number_types()
        fixed_batch()
        pytorch_recurrent()
        sys.exit(0)
    if sys.argv[1:] == ["types"]:
        number_types()
        sys.exit(0)
    if sys.argv[1:] == ["decoder"]:
        decoder_past()
        tiny_llama_past()
        tiny_llama_genai()
        contrib_attention()
        sys.exit(0)
    if sys.argv[1:] == ["wild"]:
        wild()
        sys.exit(0)
    bad_inputs()
    operators()
    wild()
    decoder_past()
    tiny_llama_past()
    tiny_llama_genai()
    contrib_attention()
    video3d()
    torchvision_models()
    unet()
