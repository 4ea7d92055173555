// The language-model options (roofline-cli llm, sessions, figures) read and written as arguments.
#include "io/llm_options.h"

#include "base/enum_words.h"
#include "base/number_type.h"
#include "io/option_table.h"
#include "io/options.h"

#include <cmath>

namespace rfx {

std::optional<LlmPhase> parseLlmPhase(const std::string& word) { return parseEnum(kLlmPhaseWords, word); }

namespace {

using LlmIn = OptionInput<LlmOptions>;

LlmSettings& settings(const LlmIn& in) { return in.target.settings; }

OptionStatus setWeightBits(const LlmIn& in)
{
    LlmSettings& s = settings(in);
    const std::string& v = in.value;
    in.target.weightsGiven = true;
    in.target.widthOptions.push_back(in.name);
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
        return in.fail("--weights-bits: expected 4, 8, 16, 32 (int4, int8, fp8, fp16, bf16, fp32), mxfp4 or file, got '"
            + v + "'");
    return OptionStatus::Consumed;
}

// The cache's width as a number or an arithmetic type's name: --kv-bits int4, --kv-bits fp8.
OptionStatus setKvBits(const LlmIn& in)
{
    int& bits = settings(in).kvBits;
    in.target.widthOptions.push_back(in.name);
    if (const auto n = parseWholeNumber(in.value))
        bits = *n;
    else if (const auto t = parseNumberType(in.value))
        bits = numberBits(*t);
    else if (in.value == "int4")
        bits = 4;
    else
        return in.fail(
            in.name + ": expected a width in bits or int8, fp8, fp16, bf16, fp32, int4, got '" + in.value + "'");
    return OptionStatus::Consumed;
}

// The activations' width, or their arithmetic type (fp8 and bf16 rows run on those ceilings).
OptionStatus setActBits(const LlmIn& in)
{
    LlmSettings& s = settings(in);
    if (const auto n = parseWholeNumber(in.value)) {
        s.actBits = *n;
        s.actType = NumberType::Unset;
    } else if (const auto t = parseNumberType(in.value)) {
        s.actBits = numberBits(*t);
        s.actType = *t;
    } else
        return in.fail(in.name + ": expected a width in bits or int8, fp8, fp16, bf16, fp32, got '" + in.value + "'");
    return OptionStatus::Consumed;
}

OptionStatus setAttention(const LlmIn& in)
{
    const auto a = parseEnum(kLlmAttentionWords, in.value);
    if (!a)
        return in.fail("--attention: expected flash or naive, got '" + in.value + "'");
    settings(in).attention = *a;
    in.target.widthOptions.push_back(in.name);
    return OptionStatus::Consumed;
}

// Their help is each command's own (app/cli.cpp): llm and plan say --prompt in their own words.
constexpr OptionSpec<LlmOptions> kLlmOptions[] = {
    { "--prompt", true, [](const LlmIn& in) { return in.wholeNumber(settings(in).prompt); } },
    { "--generate", true, [](const LlmIn& in) { return in.wholeNumber(settings(in).generate); } },
    { "--context", true, [](const LlmIn& in) { return in.wholeNumber(settings(in).context); } },
    { "--batch", true, [](const LlmIn& in) { return in.wholeNumber(settings(in).batch); } },
    { "--kv-bits", true, setKvBits },
    { "--act-bits", true, setActBits },
    { "--tp", true, [](const LlmIn& in) { return in.wholeNumber(settings(in).tensorParallel); } },
    { .name = "--interconnect",
        .takesValue = true,
        .apply =
            [](const LlmIn& in) {
                settings(in).interconnect = in.value;
                return OptionStatus::Consumed;
            },
        .missingHint = " (nvlink4, pcie5-x16, ...)" },
    { .name = "--weights-bits", .takesValue = true, .apply = setWeightBits, .missingHint = " (4, 8, 16, 32 or file)" },
    { "--all-logits", false,
        [](const LlmIn& in) {
            settings(in).allLogits = true;
            return OptionStatus::Consumed;
        } },
    { "--attention", true, setAttention },
};

} // namespace

OptionStatus applyLlmOption(const std::vector<std::string>& args, std::size_t& i, LlmOptions& o, std::string& error)
{
    return applyOption(kLlmOptions, args, i, o, error);
}

std::vector<std::string> llmSettingsToArgs(const LlmSettings& s)
{
    std::vector<std::string> a { "--prompt", std::to_string(s.prompt), "--generate", std::to_string(s.generate),
        "--context", std::to_string(s.context), "--batch", std::to_string(s.batch), "--weights-bits",
        s.weightBits == 0                ? std::string("file")
            : s.weightBits == kMxfp4Bits ? std::string("mxfp4")
                                         : std::to_string(int(s.weightBits)),
        "--kv-bits", std::to_string(s.kvBits), "--act-bits",
        s.actType == NumberType::Unset ? std::to_string(s.actBits) : std::string(numberWord(s.actType)), "--attention",
        std::string(enumName(kLlmAttentionWords, s.attention)), "--tp", std::to_string(s.tensorParallel),
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
