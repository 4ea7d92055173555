#pragma once
// Internal to model/: the builder the built-in networks and the JSON layer lists are made with.

#include "model/network.h"
#include "model/unet.h"

#include <string>
#include <utility>

namespace rfx::detail {

struct BuildError {
    std::string message;
};

// Builds a network layer by layer with shape inference; each method returns the new row's index
// (or, for identities, the input's). Errors name the layer and the reason.
class GraphBuilder {
public:
    GraphBuilder(std::string name, const Shape& input, bool fusion)
        : m_fusion(fusion)
    {
        m_net.name = std::move(name);
        m_net.input = input;
    }

    const Shape& shapeOf(int idx) const { return idx < 0 ? m_net.input : m_net.layers[static_cast<size_t>(idx)].out; }

    int conv(const std::string& name, int in, std::int64_t cout, int k, int stride, int pad, int groups = 1)
    {
        const Shape s = shapeOf(in);
        if (groups < 1 || s.c % groups != 0 || cout % groups != 0)
            fail(name,
                "groups " + std::to_string(groups) + " must divide the input channels (" + std::to_string(s.c)
                    + ") and the output channels (" + std::to_string(cout) + ")");
        Layer l = single(name, Op::Conv, in);
        l.kh = l.kw = k;
        l.stride = stride;
        l.padding = pad;
        l.groups = groups;
        l.out = Shape { s.n, cout, extent(name, s.h, k, stride, pad), extent(name, s.w, k, stride, pad) };
        return push(std::move(l));
    }

    int convTranspose(const std::string& name, int in, std::int64_t cout, int k, int stride, int pad)
    {
        const Shape s = shapeOf(in);
        Layer l = single(name, Op::ConvTranspose, in);
        l.kh = l.kw = k;
        l.stride = stride;
        l.padding = pad;
        const std::int64_t h = (s.h - 1) * stride - 2 * pad + k, w = (s.w - 1) * stride - 2 * pad + k;
        if (h < 1 || w < 1)
            fail(name, "the padding leaves no output");
        l.out = Shape { s.n, cout, h, w };
        return push(std::move(l));
    }

    int linear(const std::string& name, int in, std::int64_t features)
    {
        const Shape s = shapeOf(in);
        Layer l = single(name, Op::Linear, in);
        l.out = Shape { s.n, features, 1, 1 };
        return push(std::move(l));
    }

    int pool(const std::string& name, Op op, int in, int k, int stride, int pad)
    {
        const Shape s = shapeOf(in);
        if (2 * pad > k)
            fail(name,
                "padding " + std::to_string(pad) + " is more than half the " + std::to_string(k) + "x"
                    + std::to_string(k) + " window");
        Layer l = single(name, op, in);
        l.kh = l.kw = k;
        l.stride = stride;
        l.padding = pad;
        l.out = Shape { s.n, s.c, extent(name, s.h, k, stride, pad), extent(name, s.w, k, stride, pad) };
        return push(std::move(l));
    }

    // PyTorch's AdaptiveAvgPool2d to oh x ow: nothing when the map already has that size. Otherwise
    // output i averages inputs [floor(i * in / out), ceil((i + 1) * in / out)): windows of
    // ceil(in / out) when out divides in, else of varying size; counted at the largest window.
    int adaptiveAvgPool(const std::string& name, int in, std::int64_t oh, std::int64_t ow)
    {
        const Shape s = shapeOf(in);
        if (s.h == oh && s.w == ow)
            return in;
        Layer l = single(name, Op::AvgPool, in);
        l.kh = int((s.h + oh - 1) / oh);
        l.kw = int((s.w + ow - 1) / ow);
        l.stride = l.kh;
        l.out = Shape { s.n, s.c, oh, ow };
        return push(std::move(l));
    }

    int elementwise(const std::string& name, Op op, int in) { return push(single(name, op, in)); }

    int add(const std::string& name, int a, int b)
    {
        if (!(shapeOf(a) == shapeOf(b)))
            fail(name,
                "adds tensors of different shapes, " + shapeString(shapeOf(a)) + " and " + shapeString(shapeOf(b)));
        Layer l;
        l.name = name;
        l.op = Op::Add;
        l.inputs = { a, b };
        l.inShapes = { shapeOf(a), shapeOf(b) };
        l.out = shapeOf(a);
        return push(std::move(l));
    }

    int concat(const std::string& name, const std::vector<int>& inputs)
    {
        Layer l;
        l.name = name;
        l.op = Op::Concat;
        Shape out = shapeOf(inputs.front());
        out.c = 0;
        for (int i : inputs) {
            const Shape& s = shapeOf(i);
            if (s.n != out.n || s.h != out.h || s.w != out.w)
                fail(name,
                    "joins maps of different sizes, " + shapeString(shapeOf(inputs.front())) + " and "
                        + shapeString(s));
            out.c += s.c;
            l.inputs.push_back(i);
            l.inShapes.push_back(s);
        }
        l.out = out;
        return push(std::move(l));
    }

    // The elementwise rows after a convolution or linear layer: separate rows, or fused into it.
    int post(int x, const std::string& base, bool bias, bool bn, bool relu)
    {
        for (const auto& op : epilogueOps(bias, bn, relu)) {
            if (m_fusion && x >= 0) {
                Layer& l = m_net.layers[static_cast<size_t>(x)];
                l.epilogue.push_back(op.first);
                l.name += std::string("+") + op.second;
            } else {
                x = elementwise(base + "." + op.second, op.first, x);
            }
        }
        return x;
    }

    Network take() { return std::move(m_net); }

    [[noreturn]] static void fail(const std::string& layer, const std::string& reason)
    {
        throw BuildError { layer + ": " + reason };
    }

private:
    static std::int64_t extent(const std::string& name, std::int64_t s, int k, int stride, int pad)
    {
        if (s + 2 * pad < k)
            fail(name,
                "the map has shrunk to " + std::to_string(s) + (s == 1 ? " pixel" : " pixels") + ", smaller than the "
                    + std::to_string(k) + "x" + std::to_string(k) + " window" + (pad ? " even with padding" : "")
                    + "; use a larger image");
        return (s + 2 * pad - k) / stride + 1;
    }

    Layer single(const std::string& name, Op op, int in) const { return singleInputLayer(name, op, in, shapeOf(in)); }

    int push(Layer layer)
    {
        // Keep every count far inside 64-bit integers (a chain of up-samplings grows without bound).
        const Shape& o = layer.out;
        const double elements = double(o.n) * double(o.c) * double(o.h) * double(o.w);
        const Shape& in = layer.inShapes.empty() ? o : layer.inShapes.front();
        const double weights = layer.op == Op::Linear ? double(o.c) * double(in.c) * double(in.h) * double(in.w)
                                                      : double(o.c) * double(in.c) * layer.kh * layer.kw;
        if (o.h > (1 << 24) || o.w > (1 << 24) || o.c > (1 << 24) || elements > 1e15 || weights > 1e15)
            fail(layer.name,
                "the tensor grows too large (" + shapeString(o) + "); these sizes are beyond what the tool models");
        m_net.layers.push_back(std::move(layer));
        return static_cast<int>(m_net.layers.size()) - 1;
    }

    bool m_fusion;
    Network m_net;
};

template <typename F> BuildResult guarded(F&& build)
{
    BuildResult r;
    try {
        r.network = build();
    } catch (const BuildError& e) {
        r.error = e.message;
    }
    return r;
}

} // namespace rfx::detail
