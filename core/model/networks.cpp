#include "networks.h"
#include "json_error.h"
#include "onnx_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace rfx {

namespace {

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
            fail(name, "groups " + std::to_string(groups) + " must divide the input channels (" + std::to_string(s.c)
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
            fail(name, "padding " + std::to_string(pad) + " is more than half the " + std::to_string(k) + "x"
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
            fail(name, "adds tensors of different shapes, " + shapeString(shapeOf(a)) + " and " + shapeString(shapeOf(b)));
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
                fail(name, "joins maps of different sizes, " + shapeString(shapeOf(inputs.front())) + " and " + shapeString(s));
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
            fail(name, "the map has shrunk to " + std::to_string(s) + (s == 1 ? " pixel" : " pixels") + ", smaller than the " + std::to_string(k) + "x"
                    + std::to_string(k) + " window" + (pad ? " even with padding" : "") + "; use a larger image");
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
            fail(layer.name, "the tensor grows too large (" + shapeString(o) + "); these sizes are beyond what the tool models");
        m_net.layers.push_back(std::move(layer));
        return static_cast<int>(m_net.layers.size()) - 1;
    }

    bool m_fusion;
    Network m_net;
};

template <typename F>
BuildResult guarded(F&& build)
{
    BuildResult r;
    try {
        r.network = build();
    } catch (const BuildError& e) {
        r.error = e.message;
    }
    return r;
}

} // namespace

const std::vector<ModelInfo>& builtinModels()
{
    static const std::vector<ModelInfo> models {
        { "unet", "U-Net (Ronneberger et al. 2015)", 572, 572, 1, 2 },
        { "alexnet", "AlexNet (torchvision)", 224, 224, 3, 1000 },
        { "vgg16", "VGG-16 (torchvision)", 224, 224, 3, 1000 },
        { "resnet18", "ResNet-18 (torchvision)", 224, 224, 3, 1000 },
        { "resnet34", "ResNet-34 (torchvision)", 224, 224, 3, 1000 },
        { "resnet50", "ResNet-50 (torchvision)", 224, 224, 3, 1000 },
        { "resnet101", "ResNet-101 (torchvision)", 224, 224, 3, 1000 },
        { "resnet152", "ResNet-152 (torchvision)", 224, 224, 3, 1000 },
    };
    return models;
}

const ModelInfo* findModel(std::string_view id)
{
    for (const ModelInfo& m : builtinModels())
        if (m.id == id)
            return &m;
    return nullptr;
}

bool isNetworkFile(std::string_view model) { return (model.size() > 5 && model.ends_with(".json")) || isOnnxFile(model); }

namespace {
// AlexNet's and VGG's classifier: fc 4096 + ReLU, fc 4096 + ReLU, fc to the classes (with biases).
void classifier(GraphBuilder& b, int x, int classes)
{
    for (int i = 1; i <= 3; ++i) {
        const std::string name = "classifier.fc" + std::to_string(i);
        x = b.linear(name, x, i < 3 ? 4096 : classes);
        x = b.post(x, name, true, false, i < 3);
    }
}
} // namespace

BuildResult buildAlexNet(const Shape& input, int classes, bool fusion)
{
    return guarded([&] {
        GraphBuilder b("AlexNet", input, fusion);
        int x = -1;
        auto convRelu = [&](const std::string& name, std::int64_t cout, int k, int stride, int pad) {
            x = b.conv(name, x, cout, k, stride, pad);
            x = b.post(x, name, true, false, true);
        };
        convRelu("features.conv1", 64, 11, 4, 2);
        x = b.pool("features.pool1", Op::MaxPool, x, 3, 2, 0);
        convRelu("features.conv2", 192, 5, 1, 2);
        x = b.pool("features.pool2", Op::MaxPool, x, 3, 2, 0);
        convRelu("features.conv3", 384, 3, 1, 1);
        convRelu("features.conv4", 256, 3, 1, 1);
        convRelu("features.conv5", 256, 3, 1, 1);
        x = b.pool("features.pool5", Op::MaxPool, x, 3, 2, 0);
        x = b.adaptiveAvgPool("avgpool", x, 6, 6);
        // Dropout is the identity at inference and costs no FLOPs: not a row.
        classifier(b, x, classes);
        return b.take();
    });
}

BuildResult buildVgg16(const Shape& input, int classes, bool fusion)
{
    return guarded([&] {
        GraphBuilder b("VGG-16", input, fusion);
        int x = -1;
        const int blocks[5][2] = { { 2, 64 }, { 2, 128 }, { 3, 256 }, { 3, 512 }, { 3, 512 } };
        for (int s = 0; s < 5; ++s) {
            for (int i = 0; i < blocks[s][0]; ++i) {
                const std::string name = "block" + std::to_string(s + 1) + ".conv" + std::to_string(i + 1);
                x = b.conv(name, x, blocks[s][1], 3, 1, 1);
                x = b.post(x, name, true, false, true);
            }
            x = b.pool("block" + std::to_string(s + 1) + ".pool", Op::MaxPool, x, 2, 2, 0);
        }
        x = b.adaptiveAvgPool("avgpool", x, 7, 7);
        classifier(b, x, classes);
        return b.take();
    });
}

BuildResult buildResNet(int depth, const Shape& input, int classes, bool fusion)
{
    std::array<int, 4> blocks {};
    bool bottleneck = true;
    switch (depth) {
    case 18:
        blocks = { 2, 2, 2, 2 }, bottleneck = false;
        break;
    case 34:
        blocks = { 3, 4, 6, 3 }, bottleneck = false;
        break;
    case 50:
        blocks = { 3, 4, 6, 3 };
        break;
    case 101:
        blocks = { 3, 4, 23, 3 };
        break;
    case 152:
        blocks = { 3, 8, 36, 3 };
        break;
    default:
        return { std::nullopt, "ResNet depth must be 18, 34, 50, 101 or 152, got " + std::to_string(depth) };
    }
    return guarded([&] {
        GraphBuilder b("ResNet-" + std::to_string(depth), input, fusion);
        auto convBn = [&](const std::string& name, int in, std::int64_t cout, int k, int stride, int pad, bool relu) {
            const int x = b.conv(name, in, cout, k, stride, pad);
            return b.post(x, name, false, true, relu);
        };
        int x = convBn("conv1", -1, 64, 7, 2, 3, true);
        x = b.pool("maxpool", Op::MaxPool, x, 3, 2, 1);
        const int expansion = bottleneck ? 4 : 1;
        std::int64_t channels = 64;
        for (int s = 0; s < 4; ++s) {
            const std::int64_t width = 64LL << s;
            for (int i = 0; i < blocks[static_cast<size_t>(s)]; ++i) {
                const std::string name = "layer" + std::to_string(s + 1) + "." + std::to_string(i);
                const int stride = (i == 0 && s > 0) ? 2 : 1;
                const int identity = x;
                if (bottleneck) {
                    x = convBn(name + ".conv1", x, width, 1, 1, 0, true);
                    x = convBn(name + ".conv2", x, width, 3, stride, 1, true);
                    x = convBn(name + ".conv3", x, width * expansion, 1, 1, 0, false);
                } else {
                    x = convBn(name + ".conv1", x, width, 3, stride, 1, true);
                    x = convBn(name + ".conv2", x, width, 3, 1, 1, false);
                }
                int shortcut = identity;
                if (stride != 1 || channels != width * expansion)
                    shortcut = convBn(name + ".downsample", identity, width * expansion, 1, stride, 0, false);
                x = b.add(name + ".add", x, shortcut);
                x = b.elementwise(name + ".relu", Op::ReLU, x);
                channels = width * expansion;
            }
        }
        x = b.adaptiveAvgPool("avgpool", x, 1, 1);
        x = b.linear("fc", x, classes);
        b.post(x, "fc", true, false, false);
        return b.take();
    });
}

// ---- Custom networks from JSON ----

namespace {

using nlohmann::json;

struct LayerSpec {
    std::string name;
    Op op = Op::Conv;
    std::int64_t outChannels = 0;
    int kernel = 1, stride = 1, padding = 0, groups = 1;
    bool bias = true, batchNorm = false, relu = false;
    std::vector<std::string> inputs; ///< empty: the previous layer
};

struct NetworkSpec {
    std::string name;
    std::int64_t channels = 0, height = 0, width = 0;
    std::vector<LayerSpec> layers;
};

struct SpecError {
    std::string message;
};

const std::map<std::string, Op, std::less<>>& opsByName()
{
    static const std::map<std::string, Op, std::less<>> ops { { "conv", Op::Conv }, { "conv_transpose", Op::ConvTranspose },
        { "linear", Op::Linear }, { "maxpool", Op::MaxPool }, { "avgpool", Op::AvgPool }, { "relu", Op::ReLU },
        { "batchnorm", Op::BatchNorm }, { "bias", Op::Bias }, { "add", Op::Add }, { "concat", Op::Concat } };
    return ops;
}

std::int64_t wholeNumber(const json& j, const std::string& where, const char* field, std::int64_t lo, std::int64_t hi)
{
    if (!j.is_number_integer() && !(j.is_number_float() && std::floor(j.get<double>()) == j.get<double>()))
        throw SpecError { where + field + ": expected a whole number from " + std::to_string(lo) + " to "
            + std::to_string(hi) + ", got " + j.dump() };
    const double v = j.get<double>();
    if (v < double(lo) || v > double(hi))
        throw SpecError { where + field + ": must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got "
            + j.dump() };
    return static_cast<std::int64_t>(v);
}

bool boolean(const json& j, const std::string& where, const char* field)
{
    if (!j.is_boolean())
        throw SpecError { where + field + ": expected true or false, got " + j.dump() };
    return j.get<bool>();
}

NetworkSpec parseSpec(std::string_view text, const std::string& file)
{
    const std::string at = file + ": ";
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) {
        // parse_error, and out_of_range for numbers such as 1e999 (found by fuzz_network).
        throw SpecError { at + "not valid JSON: " + describeJsonError(e) };
    }
    if (!doc.is_object())
        throw SpecError { at + "expected a JSON object with \"schema\", \"name\", \"input\" and \"layers\"" };
    for (const auto& [key, value] : doc.items()) {
        (void)value;
        if (key != "schema" && key != "name" && key != "input" && key != "layers" && key != "notes" && key != "sources")
            throw SpecError { at + key + ": unknown field (expected schema, name, input, layers, notes, sources)" };
    }
    if (!doc.contains("schema"))
        throw SpecError { at + "schema: missing (this format is schema 1)" };
    if (!doc["schema"].is_number_integer() || doc["schema"].get<std::int64_t>() != 1)
        throw SpecError { at + "schema: this version reads schema 1, got " + doc["schema"].dump() };
    NetworkSpec spec;
    if (!doc.contains("name") || !doc["name"].is_string() || doc["name"].get<std::string>().empty())
        throw SpecError { at + "name: missing or not a non-empty string" };
    spec.name = doc["name"].get<std::string>();

    if (!doc.contains("input") || !doc["input"].is_object())
        throw SpecError { at + "input: missing or not an object like {\"channels\": 3, \"height\": 224, \"width\": 224}" };
    const json& in = doc["input"];
    for (const char* f : { "channels", "height", "width" })
        if (!in.contains(f))
            throw SpecError { at + "input." + f + ": missing" };
    for (const auto& [key, value] : in.items()) {
        (void)value;
        if (key != "channels" && key != "height" && key != "width")
            throw SpecError { at + "input." + key + ": unknown field (expected channels, height, width)" };
    }
    spec.channels = wholeNumber(in["channels"], at + "input.", "channels", kChannelRange.min, kChannelRange.max);
    spec.height = wholeNumber(in["height"], at + "input.", "height", kImageRange.min, kImageRange.max);
    spec.width = wholeNumber(in["width"], at + "input.", "width", kImageRange.min, kImageRange.max);

    if (!doc.contains("layers") || !doc["layers"].is_array() || doc["layers"].empty())
        throw SpecError { at + "layers: missing, not an array, or empty" };
    const json& layers = doc["layers"];
    if (layers.size() > 10000)
        throw SpecError { at + "layers: more than 10000 layers" };
    std::map<std::string, size_t, std::less<>> seen;
    for (size_t i = 0; i < layers.size(); ++i) {
        const json& l = layers[i];
        std::string where = at + "layers[" + std::to_string(i) + "]: ";
        if (!l.is_object())
            throw SpecError { where + "expected an object with at least \"name\" and \"op\"" };
        if (!l.contains("name") || !l["name"].is_string() || l["name"].get<std::string>().empty())
            throw SpecError { where + "name: missing or not a non-empty string" };
        LayerSpec s;
        s.name = l["name"].get<std::string>();
        where = at + "layers[" + std::to_string(i) + "] (" + s.name + "): ";
        if (seen.count(s.name))
            throw SpecError { where + "name: used before, by layers[" + std::to_string(seen[s.name]) + "]" };
        if (s.name == "input")
            throw SpecError { where + "name: \"input\" is reserved for the network input" };
        if (!l.contains("op") || !l["op"].is_string())
            throw SpecError { where + "op: missing or not a string" };
        const std::string op = l["op"].get<std::string>();
        auto it = opsByName().find(op);
        if (it == opsByName().end())
            throw SpecError { where + "op: unknown '" + op
                + "' (expected conv, conv_transpose, linear, maxpool, avgpool, relu, batchnorm, bias, add, concat)" };
        s.op = it->second;

        // Which fields each op takes; anything else is a typo worth reporting.
        std::vector<std::string> allowed { "name", "op", "inputs" };
        switch (s.op) {
        case Op::Conv:
            allowed.insert(allowed.end(), { "out_channels", "kernel", "stride", "padding", "groups", "bias", "batch_norm", "relu" });
            break;
        case Op::ConvTranspose:
            allowed.insert(allowed.end(), { "out_channels", "kernel", "stride", "padding", "bias", "batch_norm", "relu" });
            break;
        case Op::Linear:
            allowed.insert(allowed.end(), { "out_features", "bias", "relu" });
            break;
        case Op::MaxPool:
        case Op::AvgPool:
            allowed.insert(allowed.end(), { "kernel", "stride", "padding" });
            break;
        default:
            break;
        }
        for (const auto& [key, value] : l.items()) {
            (void)value;
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::string list;
                for (const std::string& a : allowed)
                    list += (list.empty() ? "" : ", ") + a;
                throw SpecError { where + key + ": not a field of " + op + " (expected " + list + ")" };
            }
        }
        const bool needsChannels = s.op == Op::Conv || s.op == Op::ConvTranspose;
        if (needsChannels) {
            if (!l.contains("out_channels"))
                throw SpecError { where + "out_channels: missing" };
            s.outChannels = wholeNumber(l["out_channels"], where, "out_channels", 1, 1 << 20);
        }
        if (s.op == Op::Linear) {
            if (!l.contains("out_features"))
                throw SpecError { where + "out_features: missing" };
            s.outChannels = wholeNumber(l["out_features"], where, "out_features", 1, 1 << 24);
        }
        const bool windowed = needsChannels || s.op == Op::MaxPool || s.op == Op::AvgPool;
        if (windowed) {
            if (!l.contains("kernel"))
                throw SpecError { where + "kernel: missing" };
            s.kernel = int(wholeNumber(l["kernel"], where, "kernel", 1, 1024));
            const bool poolLike = s.op != Op::Conv; // pools and transposed convolutions step by their window by default
            s.stride = l.contains("stride") ? int(wholeNumber(l["stride"], where, "stride", 1, 1024)) : (poolLike ? s.kernel : 1);
            s.padding = l.contains("padding") ? int(wholeNumber(l["padding"], where, "padding", 0, 1024)) : 0;
        }
        if (l.contains("groups"))
            s.groups = int(wholeNumber(l["groups"], where, "groups", 1, 1 << 20));
        s.bias = !(needsChannels || s.op == Op::Linear) ? false : (l.contains("bias") ? boolean(l["bias"], where, "bias") : true);
        if (l.contains("batch_norm"))
            s.batchNorm = boolean(l["batch_norm"], where, "batch_norm");
        if (l.contains("relu"))
            s.relu = boolean(l["relu"], where, "relu");

        if (l.contains("inputs")) {
            const json& ins = l["inputs"];
            if (!ins.is_array() || ins.empty())
                throw SpecError { where + "inputs: expected a non-empty array of layer names (or \"input\")" };
            for (const json& n : ins) {
                if (!n.is_string())
                    throw SpecError { where + "inputs: expected layer names, got " + n.dump() };
                const std::string name = n.get<std::string>();
                if (name != "input" && !seen.count(name))
                    throw SpecError { where + "inputs: '" + name + "' is not an earlier layer" };
                s.inputs.push_back(name);
            }
        }
        const size_t wanted = s.inputs.empty() ? 1 : s.inputs.size();
        if (s.op == Op::Add && wanted != 2)
            throw SpecError { where + "inputs: add takes exactly two inputs" };
        if (s.op == Op::Concat && wanted < 2)
            throw SpecError { where + "inputs: concat takes two or more inputs" };
        if (s.op != Op::Add && s.op != Op::Concat && wanted != 1)
            throw SpecError { where + "inputs: " + op + " takes one input" };
        seen[s.name] = i;
        spec.layers.push_back(std::move(s));
    }
    return spec;
}

BuildResult buildFromSpec(const NetworkSpec& spec, const std::string& file, int batch, bool fusion)
{
    return guarded([&] {
        GraphBuilder b(spec.name, Shape { batch, spec.channels, spec.height, spec.width }, fusion);
        std::map<std::string, int, std::less<>> index; // layer name -> row index of its output
        int prev = -1;
        for (size_t i = 0; i < spec.layers.size(); ++i) {
            const LayerSpec& s = spec.layers[i];
            std::vector<int> in;
            for (const std::string& n : s.inputs)
                in.push_back(n == "input" ? -1 : index.at(n));
            if (in.empty())
                in.push_back(prev);
            const std::string where = file + ": layers[" + std::to_string(i) + "] (" + s.name + ")";
            try {
                int x = 0;
                switch (s.op) {
                case Op::Conv:
                    x = b.conv(s.name, in[0], s.outChannels, s.kernel, s.stride, s.padding, s.groups);
                    x = b.post(x, s.name, s.bias, s.batchNorm, s.relu);
                    break;
                case Op::ConvTranspose:
                    x = b.convTranspose(s.name, in[0], s.outChannels, s.kernel, s.stride, s.padding);
                    x = b.post(x, s.name, s.bias, s.batchNorm, s.relu);
                    break;
                case Op::Linear:
                    x = b.linear(s.name, in[0], s.outChannels);
                    x = b.post(x, s.name, s.bias, false, s.relu);
                    break;
                case Op::MaxPool:
                case Op::AvgPool:
                    x = b.pool(s.name, s.op, in[0], s.kernel, s.stride, s.padding);
                    break;
                case Op::Add:
                    x = b.add(s.name, in[0], in[1]);
                    break;
                case Op::Concat:
                    x = b.concat(s.name, in);
                    break;
                default:
                    x = b.elementwise(s.name, s.op, in[0]);
                    break;
                }
                index[s.name] = x;
                prev = x;
            } catch (const BuildError& e) {
                // "conv2: the map has shrunk..." -> "file: layers[3] (conv2): the map has shrunk..."
                const std::string prefix = s.name + ": ";
                throw BuildError { where + ": " + (e.message.starts_with(prefix) ? e.message.substr(prefix.size()) : e.message) };
            }
        }
        return b.take();
    });
}

} // namespace

BuildResult parseNetworkJson(std::string_view text, const std::string& file, int batch, bool fusion)
{
    try {
        return buildFromSpec(parseSpec(text, file), file, batch, fusion);
    } catch (const SpecError& e) {
        return { std::nullopt, e.message };
    } catch (const nlohmann::json::exception& e) {
        return { std::nullopt, file + ": " + e.what() }; // a type the checks above missed: still a message
    }
}

BuildResult loadNetworkFile(const std::string& path, int batch, bool fusion)
{
    // A slider step rebuilds the network: parse each file once per modification.
    struct Cached {
        std::filesystem::file_time_type mtime;
        std::uintmax_t size = 0;
        std::optional<NetworkSpec> spec;
        std::string error;
    };
    static std::mutex mutex;
    static std::map<std::string, Cached> cache;

    std::error_code ec;
    const auto mtime = std::filesystem::last_write_time(path, ec);
    const auto size = ec ? 0 : std::filesystem::file_size(path, ec);
    if (ec)
        return { std::nullopt, path + ": cannot read the network file (" + ec.message() + ")" };
    std::lock_guard lock(mutex);
    Cached& c = cache[path];
    if (!(c.spec || !c.error.empty()) || c.mtime != mtime || c.size != size) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (!in && !in.eof())
            return { std::nullopt, path + ": cannot read the network file" };
        c = Cached { mtime, size, std::nullopt, {} };
        try {
            c.spec = parseSpec(text.str(), path);
        } catch (const SpecError& e) {
            c.error = e.message;
        } catch (const json::exception& e) {
            c.error = path + ": " + e.what();
        }
    }
    if (!c.spec)
        return { std::nullopt, c.error };
    return buildFromSpec(*c.spec, path, batch, fusion);
}

BuildResult buildCheckedNetwork(const Config& config)
{
    if (auto err = validate(config)) {
        BuildResult refused;
        refused.error = *err;
        return refused;
    }
    return buildNetwork(config);
}

BuildResult buildNetwork(const Config& configIn)
{
    // The fused traffic model is compulsory traffic with the elementwise rows fused (DESIGN.md).
    Config config = configIn;
    config.fusion = config.fusion || config.traffic == TrafficModel::Fused;
    const UNetParams& u = config.unet;
    if (config.model == "unet")
        return buildUNet(u, config.batch, config.fusion);
    if (isOnnxFile(config.model)) {
        const OnnxLoad load = cachedOnnxModel(config.model);
        return load.model ? load.model->build(config) : BuildResult { std::nullopt, load.error };
    }
    if (isNetworkFile(config.model))
        return loadNetworkFile(config.model, config.batch, config.fusion);
    const Shape input { config.batch, u.inChannels, u.height, u.width };
    if (config.model == "alexnet")
        return buildAlexNet(input, u.classes, config.fusion);
    if (config.model == "vgg16")
        return buildVgg16(input, u.classes, config.fusion);
    if (config.model.starts_with("resnet")) {
        const std::string digits = config.model.substr(6);
        if (!digits.empty() && digits.size() <= 3 && std::all_of(digits.begin(), digits.end(), ::isdigit))
            return buildResNet(std::stoi(digits), input, u.classes, config.fusion);
    }
    std::string names;
    for (const ModelInfo& m : builtinModels())
        names += (names.empty() ? "" : ", ") + std::string(m.id);
    return { std::nullopt, "unknown model '" + config.model + "' (available: " + names + ", or a network file FILE.json or FILE.onnx)" };
}

std::string networkFormatHelp()
{
    return R"(Custom networks: a JSON file, schema 1.
{
  "schema": 1,
  "name": "Small CNN",
  "input": { "channels": 3, "height": 32, "width": 32 },
  "layers": [
    { "name": "conv1", "op": "conv", "out_channels": 32, "kernel": 3, "padding": 1, "relu": true },
    { "name": "pool1", "op": "maxpool", "kernel": 2 },
    { "name": "conv2", "op": "conv", "out_channels": 32, "kernel": 3, "padding": 1, "batch_norm": true, "bias": false },
    { "name": "res", "op": "add", "inputs": ["pool1", "conv2"] },
    { "name": "fc", "op": "linear", "out_features": 10 }
  ]
}
Layers run in file order; each reads the previous layer unless "inputs" names earlier layers
("input" is the network input).
  conv            out_channels, kernel; stride (1), padding (0), groups (1), bias (true),
                  batch_norm (false), relu (false): the extra rows follow the convolution
  conv_transpose  out_channels, kernel; stride (= kernel), padding (0), bias, batch_norm, relu
  linear          out_features; bias (true), relu (false); flattens its input
  maxpool, avgpool  kernel; stride (= kernel), padding (0)
  relu, batchnorm, bias  elementwise rows
  add             exactly two inputs of the same shape
  concat          two or more inputs, joined along channels
Unknown fields are errors (a typo is reported, not ignored). "notes" and "sources" may document
the file.
)";
}

} // namespace rfx
