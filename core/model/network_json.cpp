// Custom networks from the JSON layer-list format (networkFormatHelp()): parsing with messages
// that name the file, layer and field, building through GraphBuilder, and the per-file cache.
#include "base/file_cache.h"
#include "base/json_error.h"
#include "model/graph_builder.h"
#include "model/networks.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace rfx {

using detail::BuildError;
using detail::GraphBuilder;
using detail::guarded;

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
    static const std::map<std::string, Op, std::less<>> ops { { "conv", Op::Conv },
        { "conv_transpose", Op::ConvTranspose }, { "linear", Op::Linear }, { "maxpool", Op::MaxPool },
        { "avgpool", Op::AvgPool }, { "relu", Op::ReLU }, { "batchnorm", Op::BatchNorm }, { "bias", Op::Bias },
        { "add", Op::Add }, { "concat", Op::Concat } };
    return ops;
}

std::int64_t wholeNumber(const json& j, const std::string& where, const char* field, std::int64_t lo, std::int64_t hi)
{
    if (!j.is_number_integer() && !(j.is_number_float() && std::floor(j.get<double>()) == j.get<double>()))
        throw SpecError { where + field + ": expected a whole number from " + std::to_string(lo) + " to "
            + std::to_string(hi) + ", got " + j.dump() };
    const double v = j.get<double>();
    if (v < double(lo) || v > double(hi))
        throw SpecError { where + field + ": must be from " + std::to_string(lo) + " to " + std::to_string(hi)
            + ", got " + j.dump() };
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
        throw SpecError { at
            + "input: missing or not an object like {\"channels\": 3, \"height\": 224, \"width\": 224}" };
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
            allowed.insert(allowed.end(),
                { "out_channels", "kernel", "stride", "padding", "groups", "bias", "batch_norm", "relu" });
            break;
        case Op::ConvTranspose:
            allowed.insert(
                allowed.end(), { "out_channels", "kernel", "stride", "padding", "bias", "batch_norm", "relu" });
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
            s.stride = l.contains("stride") ? int(wholeNumber(l["stride"], where, "stride", 1, 1024))
                                            : (poolLike ? s.kernel : 1);
            s.padding = l.contains("padding") ? int(wholeNumber(l["padding"], where, "padding", 0, 1024)) : 0;
        }
        if (l.contains("groups"))
            s.groups = int(wholeNumber(l["groups"], where, "groups", 1, 1 << 20));
        s.bias = !(needsChannels || s.op == Op::Linear)
            ? false
            : (l.contains("bias") ? boolean(l["bias"], where, "bias") : true);
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
                throw BuildError { where + ": "
                    + (e.message.starts_with(prefix) ? e.message.substr(prefix.size()) : e.message) };
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
    struct Parsed {
        std::optional<NetworkSpec> spec;
        std::string error;
    };
    static FileCache<Parsed> cache;
    std::string why;
    const auto stamp = fileStamp(path, why);
    if (!stamp)
        return { std::nullopt, path + ": cannot read the network file (" + why + ")" };
    std::optional<Parsed> parsed = cache.find(path, *stamp);
    if (!parsed) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (!in && !in.eof())
            return { std::nullopt, path + ": cannot read the network file" };
        parsed.emplace();
        try {
            parsed->spec = parseSpec(text.str(), path);
        } catch (const SpecError& e) {
            parsed->error = e.message;
        } catch (const json::exception& e) {
            parsed->error = path + ": " + e.what();
        }
        cache.store(path, *stamp, *parsed);
    }
    if (!parsed->spec)
        return { std::nullopt, parsed->error };
    return buildFromSpec(*parsed->spec, path, batch, fusion);
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
