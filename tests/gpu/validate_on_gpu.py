#!/usr/bin/env python3
"""Times each row of a configured U-Net on a CUDA GPU and writes Roofline Explorer's plain
measurement CSV (layer,time_s), ready for `roofline-cli compare FILE` or File > Import measurements.

The network is built row by row as the engine counts it (core/model/unet.cpp): every 3x3 convolution
without bias, then its bias add and its ReLU as their own rows, 2x2 max-pool, 2x2 transposed
convolution plus bias, crop-and-concatenate, the 1x1 head plus bias. Each row is timed alone
with CUDA events on its real input (median of --repeats after --warmup), so the CSV has one
time per model row under the model's names (enc1.conv1, enc1.conv1.bias, ...).

Not part of the default test run: it needs PyTorch and a CUDA GPU. `--self-test` checks the
network description and the CSV writing without either (ctest runs it when Python 3 is found).

Examples:
  python3 tests/gpu/validate_on_gpu.py --output unet-default.csv
  python3 tests/gpu/validate_on_gpu.py --image 128 --padding same --batch 16 --output unet-2022.csv
  roofline-cli compare unet-default.csv --device h200-sxm
"""

import argparse
import csv
import io
import statistics
import sys


def unet_rows(image, in_channels=1, classes=2, filters=64, depth=4, padding="valid"):
    """The model's rows in execution order: (name, op, params) with the shapes each op needs.

    Mirrors core/model/unet.cpp for the classic U-Net (max-pool downsampling, stride 2, standard
    convolutions, no batch norm). Raises ValueError for a size that does not work, as the app does.
    """
    pad = 1 if padding == "same" else 0
    rows = []
    h = w = image
    c = in_channels
    skips = []

    def conv3(name, cin, cout):
        nonlocal h, w
        h, w = h - 2 + 2 * pad, w - 2 + 2 * pad
        if h < 1 or w < 1:
            raise ValueError(f"{name}: the image shrinks to nothing; use a larger image")
        rows.append((name, "conv", dict(cin=cin, cout=cout, k=3, pad=pad)))
        rows.append((name + ".bias", "bias", dict(c=cout)))
        rows.append((name + ".relu", "relu", {}))

    for d in range(1, depth + 1):
        f = filters * 2 ** (d - 1)
        conv3(f"enc{d}.conv1", c, f)
        conv3(f"enc{d}.conv2", f, f)
        c = f
        skips.append((c, h, w))
        if h % 2 or w % 2:
            raise ValueError(f"enc{d}.pool: {h}x{w} does not divide by 2; pick another image size")
        rows.append((f"enc{d}.pool", "maxpool", {}))
        h, w = h // 2, w // 2
    f = filters * 2 ** depth
    conv3("bottom.conv1", c, f)
    conv3("bottom.conv2", f, f)
    c = f
    for d in range(depth, 0, -1):
        f = filters * 2 ** (d - 1)
        rows.append((f"dec{d}.up", "conv_transpose", dict(cin=c, cout=f)))
        rows.append((f"dec{d}.up.bias", "bias", dict(c=f)))
        h, w = h * 2, w * 2
        sc, sh, sw = skips[d - 1]
        if sh < h or sw < w:
            raise ValueError(f"dec{d}.concat: skip {sh}x{sw} smaller than {h}x{w}")
        rows.append((f"dec{d}.concat", "concat", dict(skip=d - 1)))
        c = f + sc
        conv3(f"dec{d}.conv1", c, f)
        conv3(f"dec{d}.conv2", f, f)
        c = f
    rows.append(("head.conv", "conv", dict(cin=c, cout=classes, k=1, pad=0)))
    rows.append(("head.conv.bias", "bias", dict(c=classes)))
    return rows


def write_csv(out, timings, comment):
    """Writes `timings` [(layer, seconds)] as the plain format: '#' comment lines, header layer,time_s."""
    for line in comment.splitlines():
        out.write(f"# {line}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["layer", "time_s"])
    for name, seconds in timings:
        if not (seconds > 0):
            raise ValueError(f"{name}: time must be positive, got {seconds}")
        writer.writerow([name, f"{seconds:.9g}"])


def self_test():
    rows = unet_rows(572)
    names = [r[0] for r in rows]
    assert len(rows) == 72, len(rows)  # the app's default U-Net: 72 rows (roofline-cli analyze --format csv)
    assert names[:4] == ["enc1.conv1", "enc1.conv1.bias", "enc1.conv1.relu", "enc1.conv2"], names[:4]
    assert names[-2:] == ["head.conv", "head.conv.bias"], names[-2:]
    convs = sum(1 for r in rows if r[1] in ("conv", "conv_transpose"))
    assert convs == 23, convs  # 23 convolutions
    params = 0
    for _, op, p in rows:
        if op == "conv":
            params += p["cin"] * p["cout"] * p["k"] ** 2
        elif op == "conv_transpose":
            params += p["cin"] * p["cout"] * 4
        elif op == "bias":
            params += p["c"]
    assert params == 31_030_658, params  # Ronneberger et al. 2015, as the app counts it
    assert len(unet_rows(128, padding="same")) == 72
    try:
        unet_rows(580)
    except ValueError as e:
        assert "does not divide by 2" in str(e), e
    else:
        raise AssertionError("580 x 580 with valid padding should be refused")
    buf = io.StringIO()
    write_csv(buf, [("enc1.conv1", 0.000412), ("enc1.conv1.bias", 3.7e-4)], "U-Net 572, batch 1, fp32\nNVIDIA H200")
    text = buf.getvalue()
    assert text == ("# U-Net 572, batch 1, fp32\n# NVIDIA H200\nlayer,time_s\n"
                    "enc1.conv1,0.000412\nenc1.conv1.bias,0.00037\n"), repr(text)
    try:
        write_csv(io.StringIO(), [("x", 0.0)], "")
    except ValueError:
        pass
    else:
        raise AssertionError("a zero time should be refused")
    print("validate_on_gpu.py self-test: ok")


def time_on_gpu(args):
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        sys.exit("validate_on_gpu.py: needs PyTorch with CUDA (pip install torch); --self-test runs without it")

    if not torch.cuda.is_available():
        sys.exit("validate_on_gpu.py: no CUDA GPU visible to PyTorch")
    dev = torch.device("cuda")
    dtype = torch.float16 if args.bits == 16 else torch.float32
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    rows = unet_rows(args.image, args.in_channels, args.classes, args.filters, args.depth, args.padding)

    def timed(fn):
        for _ in range(args.warmup):
            fn()
        times = []
        for _ in range(args.repeats):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1e-3)
        return statistics.median(times)

    x = torch.randn(args.batch, args.in_channels, args.image, args.image, device=dev, dtype=dtype)
    skips = []
    timings = []
    with torch.no_grad():
        for name, op, p in rows:
            if op == "conv":
                wgt = torch.randn(p["cout"], p["cin"], p["k"], p["k"], device=dev, dtype=dtype)
                inp = x
                t = timed(lambda: F.conv2d(inp, wgt, padding=p["pad"]))
                x = F.conv2d(inp, wgt, padding=p["pad"])
            elif op == "conv_transpose":
                wgt = torch.randn(p["cin"], p["cout"], 2, 2, device=dev, dtype=dtype)
                inp = x
                t = timed(lambda: F.conv_transpose2d(inp, wgt, stride=2))
                x = F.conv_transpose2d(inp, wgt, stride=2)
            elif op == "bias":
                b = torch.randn(1, p["c"], 1, 1, device=dev, dtype=dtype)
                inp = x
                t = timed(lambda: inp + b)
                x = inp + b
            elif op == "relu":
                inp = x
                t = timed(lambda: F.relu(inp))
                x = F.relu(inp)
                if name.endswith("conv2.relu") and name.startswith("enc"):
                    skips.append(x)
            elif op == "maxpool":
                inp = x
                t = timed(lambda: F.max_pool2d(inp, 2))
                x = F.max_pool2d(inp, 2)
            elif op == "concat":
                s = skips[p["skip"]]
                dh, dw = (s.shape[2] - x.shape[2]) // 2, (s.shape[3] - x.shape[3]) // 2
                inp = x

                def cat():
                    return torch.cat([s[:, :, dh:dh + inp.shape[2], dw:dw + inp.shape[3]], inp], dim=1)

                t = timed(cat)
                x = cat()
            else:
                raise AssertionError(op)
            timings.append((name, t))
    gpu = torch.cuda.get_device_name(0)
    return timings, gpu, torch.__version__


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--image", type=int, default=572)
    ap.add_argument("--in-channels", type=int, default=1)
    ap.add_argument("--classes", type=int, default=2)
    ap.add_argument("--filters", type=int, default=64)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--padding", choices=["valid", "same"], default="valid")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--bits", type=int, choices=[16, 32], default=32)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--output", default="-", help="CSV file (default: standard output)")
    ap.add_argument("--self-test", action="store_true", help="check the network and CSV writing; needs no GPU")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return
    try:
        timings, gpu, version = time_on_gpu(args)
    except ValueError as e:
        sys.exit(f"validate_on_gpu.py: {e}")
    comment = (f"U-Net {args.image}x{args.image}x{args.in_channels}, {args.filters} filters, depth {args.depth}, "
               f"{args.padding} padding, batch {args.batch}, {args.bits}-bit, inference\n"
               f"{gpu}, PyTorch {version}; median of {args.repeats} CUDA-event timings per row after {args.warmup} warm-up runs\n"
               f"roofline-cli compare THIS_FILE --image {args.image} --padding {args.padding} --batch {args.batch} "
               f"--bits {args.bits} --device DEVICE")
    if args.output == "-":
        write_csv(sys.stdout, timings, comment)
    else:
        with open(args.output + ".tmp", "w", newline="") as f:
            write_csv(f, timings, comment)
        import os
        os.replace(args.output + ".tmp", args.output)  # atomic: a finished file or none


if __name__ == "__main__":
    main()
