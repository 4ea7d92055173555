// The language-model options (roofline-cli llm, sessions, figures) read and written as arguments.
#include "io/llm_options.h"

#include "base/enum_words.h"
#include "base/number_type.h"
#include "io/options.h"

#include <cmath>

namespace rfx {

std::optional<LlmPhase> parseLlmPhase(const std::string& word) { return parseEnum(kLlmPhaseWords, word); }

OptionStatus applyLlmOption(const std::vector<std::string>& args, std::size_t& i, LlmOptions& o, std::string& error)
{
    static const char* const kNames[] = { "--prompt", "--generate", "--context", "--batch", "--kv-bits", "--act-bits",
        "--tp", "--interconnect", "--weights-bits", "--all-logits", "--attention" };
    const SplitOption split = splitOption(args[i]);
    const std::string& name = split.name;
    bool ours = false;
    for (const char* n : kNames)
        ours = ours || name == n;
    if (!ours)
        return OptionStatus::NotConfigOption;
    LlmSettings& s = o.settings;
    auto fail = [&](std::string message) {
        error = std::move(message);
        return OptionStatus::Error;
    };
    if (name == "--all-logits") {
        if (split.value)
            return fail("--all-logits takes no value");
        s.allLogits = true;
        return OptionStatus::Consumed;
    }
    std::optional<std::string> value = split.value;
    if (!value && i + 1 < args.size())
        value = args[++i];
    if (!value) {
        if (name == "--interconnect")
            return fail("--interconnect: missing value (nvlink4, pcie5-x16, ...)");
        if (name == "--weights-bits")
            return fail("--weights-bits: missing value (4, 8, 16, 32 or file)");
        return fail(name + ": missing value");
    }
    const std::string& v = *value;
    auto number = [&](int& target) {
        const auto n = parseWholeNumber(v);
        if (!n)
            return fail(name + ": expected a whole number, got '" + v + "'");
        target = *n;
        return OptionStatus::Consumed;
    };
    if (name == "--prompt")
        return number(s.prompt);
    if (name == "--generate")
        return number(s.generate);
    if (name == "--context")
        return number(s.context);
    if (name == "--batch")
        return number(s.batch);
    if (name == "--tp")
        return number(s.tensorParallel);
    if (name == "--interconnect") {
        s.interconnect = v;
        return OptionStatus::Consumed;
    }
    if (name == "--attention") {
        const auto a = parseEnum(kLlmAttentionWords, v);
        if (!a)
            return fail("--attention: expected flash or naive, got '" + v + "'");
        s.attention = *a;
        o.widthOptions.push_back(name);
        return OptionStatus::Consumed;
    }
    if (name == "--weights-bits") {
        o.weightsGiven = true;
        o.widthOptions.push_back(name);
        if (v == "file")
            s.weightBits = 0;
        else if (const auto n = parseWholeNumber(v))
            s.weightBits = *n;
        else if (const auto t = parseNumberType(v))
            s.weightBits = numberBits(*t); // fp8 and int8 weights are both one byte each
        else if (v == "int4")
            s.weightBits = 4;
        else if (v == "mxfp4" || v == "MXFP4")
            s.weightBits = kMxfp4Bits;
        else
            return fail("--weights-bits: expected 4, 8, 16, 32 (int4, int8, fp8, fp16, bf16, fp32), mxfp4 or file, got '" + v + "'");
        return OptionStatus::Consumed;
    }
    // A width as a number or an arithmetic type's name: --act-bits fp8, --kv-bits int4.
    const bool act = name == "--act-bits";
    int& bits = act ? s.actBits : s.kvBits;
    if (!act)
        o.widthOptions.push_back(name);
    if (const auto n = parseWholeNumber(v)) {
        bits = *n;
        if (act)
            s.actType = NumberType::Unset;
    } else if (const auto t = parseNumberType(v)) {
        bits = numberBits(*t);
        if (act)
            s.actType = *t;
    } else if (!act && v == "int4")
        bits = 4;
    else
        return fail(name + ": expected a width in bits or int8, fp8, fp16, bf16, fp32" + std::string(act ? "" : ", int4")
            + ", got '" + v + "'");
    return OptionStatus::Consumed;
}

std::vector<std::string> llmSettingsToArgs(const LlmSettings& s)
{
    std::vector<std::string> a { "--prompt", std::to_string(s.prompt), "--generate", std::to_string(s.generate), "--context",
        std::to_string(s.context), "--batch", std::to_string(s.batch), "--weights-bits",
        s.weightBits == 0 ? std::string("file") : s.weightBits == kMxfp4Bits ? std::string("mxfp4") : std::to_string(int(s.weightBits)), "--kv-bits", std::to_string(s.kvBits),
        "--act-bits", s.actType == NumberType::Unset ? std::to_string(s.actBits) : std::string(numberWord(s.actType)),
        "--attention", std::string(enumName(kLlmAttentionWords, s.attention)), "--tp", std::to_string(s.tensorParallel),
        "--interconnect", s.interconnect };
    if (s.allLogits)
        a.push_back("--all-logits");
    return a;
}

std::optional<LlmSettings> llmSettingsFromArgList(const std::vector<std::string>& args, std::string& error)
{
    LlmOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const OptionStatus st = applyLlmOption(args, i, o, error);
        if (st == OptionStatus::NotConfigOption)
            error = "not a language-model option: " + args[i];
        if (st != OptionStatus::Consumed) {
            error = "llm_args: " + error;
            return std::nullopt;
        }
    }
    if (auto e = validateLlmSettings(o.settings)) {
        error = "llm_args: " + *e;
        return std::nullopt;
    }
    return o.settings;
}

std::optional<double> parseDuration(const std::string& text)
{
    struct Unit {
        const char* suffix;
        double seconds;
    };
    for (const Unit u : { Unit { "ms", 1e-3 }, Unit { "us", 1e-6 }, Unit { "s", 1 }, Unit { "", 1 } }) {
        const std::string suffix = u.suffix;
        if (text.size() <= suffix.size() || text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::optional<double> v = parseDecimal(std::string_view(text).substr(0, text.size() - suffix.size()));
        if (!v || *v <= 0)
            return std::nullopt;
        return *v * u.seconds;
    }
    return std::nullopt;
}

} // namespace rfx
