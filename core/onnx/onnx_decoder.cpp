// A decoder with past keys and values (Optimum's and ONNX Runtime GenAI's exports): which symbolic
// extents are the batch, the new tokens, the tokens already cached and their sum, read from the inputs'
// names and places, and the extents they take by default (a prefill from an empty cache); Optimum's
// merged decoder's flag, which chooses between its graphs without and with the past.
#include "onnx/onnx_model.h"

#include "onnx/onnx_internal.h"

#include <algorithm>
#include <cctype>

namespace rfx {

namespace {

std::string lower(std::string_view s)
{
    std::string out;
    for (char ch : s)
        out += char(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

bool symbolic(const std::string& extent)
{
    return extent.empty() || !std::isdigit(static_cast<unsigned char>(extent[0]));
}
/// A symbolic extent with a name --dim can bind ("?": the file gives none).
bool named(const std::string& extent) { return symbolic(extent) && extent != "?"; }

} // namespace

std::optional<OnnxDecoderDims> recognizeDecoder(const std::vector<OnnxInput>& inputs)
{
    OnnxDecoderDims d;
    const OnnxInput* firstPast = nullptr;
    for (const OnnxInput& in : inputs) {
        const std::string name = lower(in.name);
        if (name.find("past") == std::string::npos || in.dims.size() != 4 || !in.floating)
            continue;
        if (!firstPast)
            firstPast = &in;
        else if (in.dims[1] != firstPast->dims[1] || in.dims[2] != firstPast->dims[2]
            || in.dims[3] != firstPast->dims[3] || in.bits != firstPast->bits)
            continue; // not the same cache (a cross-attention's encoder keys, Whisper's): the first kind is counted
        d.pastInputs.push_back(in.name);
    }
    if (!firstPast || d.pastInputs.size() < 2 || symbolic(firstPast->dims[1]) || symbolic(firstPast->dims[3]))
        return std::nullopt;
    d.layers = int(d.pastInputs.size() / 2);
    d.kvHeads = std::stoll(firstPast->dims[1]);
    d.headDim = std::stoll(firstPast->dims[3]);
    d.kvBits = firstPast->bits;
    if (named(firstPast->dims[0]))
        d.batch = firstPast->dims[0];
    if (named(firstPast->dims[2]))
        d.past = firstPast->dims[2];
    // The new tokens: extent 1 of the token ids (or of the embeddings given instead), else of the first input
    // that is not the cache, the mask or the positions.
    const OnnxInput* tokens = nullptr;
    for (const OnnxInput& in : inputs) {
        const std::string name = lower(in.name);
        if (std::find(d.pastInputs.begin(), d.pastInputs.end(), in.name) != d.pastInputs.end() || in.dims.size() < 2)
            continue;
        if (name.find("input_ids") != std::string::npos || name.find("inputs_embeds") != std::string::npos) {
            tokens = &in;
            break;
        }
        if (!tokens && name.find("mask") == std::string::npos && name.find("position") == std::string::npos)
            tokens = &in;
    }
    if (tokens && named(tokens->dims[1]) && tokens->dims[1] != d.past)
        d.sequence = tokens->dims[1];
    // Past and new tokens together: the attention mask's extent 1 where it is a name of its own.
    for (const OnnxInput& in : inputs)
        if (lower(in.name).find("mask") != std::string::npos && in.dims.size() == 2 && named(in.dims[1])
            && in.dims[1] != d.sequence && in.dims[1] != d.past)
            d.total = in.dims[1];
    for (const OnnxInput& in : inputs)
        if (!in.floating && in.dims.size() <= 1
            && std::all_of(in.dims.begin(), in.dims.end(), [](const std::string& e) { return e == "1"; })
            && lower(in.name).find("use_cache") != std::string::npos)
            d.cacheFlag = in.name;
    return d;
}

std::map<std::string, std::int64_t> decoderExtents(const OnnxDecoderDims& d, std::int64_t tokens, std::int64_t past)
{
    std::map<std::string, std::int64_t> out;
    if (!d.sequence.empty())
        out[d.sequence] = tokens;
    if (!d.past.empty())
        out[d.past] = past;
    if (!d.total.empty())
        out[d.total] = tokens + past;
    return out;
}

Config withDecoderDefaults(const OnnxDecoderDims& d, Config config)
{
    if (d.past.empty())
        return config;
    // What --dim leaves unbound: nothing past (a prefill from an empty cache), the new tokens the sequence
    // length (the image height), and the total their sum.
    auto bound = [&](const std::string& name, std::int64_t fallback) {
        auto it = config.dims.find(name);
        return name.empty() || it == config.dims.end() ? fallback : it->second;
    };
    const std::int64_t tokens = bound(d.sequence, config.unet.height), past = bound(d.past, 0);
    for (const auto& [name, extent] : decoderExtents(d, tokens, past))
        config.dims.emplace(name, extent);
    // a merged decoder runs its graph without the past when nothing is cached, the other after
    if (!d.cacheFlag.empty())
        config.inputValues.emplace(d.cacheFlag, past > 0 ? 1.0 : 0.0);
    return config;
}

} // namespace rfx
