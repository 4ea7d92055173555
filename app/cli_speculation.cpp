// --draft, --accept and --lookahead (llm, plan): speculative decoding's draft model, its acceptance
// and its lookahead, taken, checked and the draft loaded (cli_commands.h).
#include "cli_commands.h"

#include "base/format.h"
#include "llm/llm_files.h"

#include <cmath>
#include <cstdlib>

namespace rfx {

Speculation SpeculationOptions::speculation() const
{
    Speculation s;
    s.draft = model ? &*model : nullptr;
    s.accept = accept.value_or(0);
    s.lookahead = lookahead;
    return s;
}

std::optional<int> takeSpeculationOption(
    const std::vector<std::string>& args, size_t& i, SpeculationOptions& options, std::ostream& err)
{
    const SplitOption split = splitOption(args[i]);
    if (split.name != "--draft" && split.name != "--accept" && split.name != "--lookahead")
        return std::nullopt;
    if (!split.value && i + 1 >= args.size())
        return usageError(err, split.name + ": missing value");
    const std::string v = split.value ? *split.value : args[++i];
    if (split.name == "--draft") {
        options.draft = v;
        return ExitOk;
    }
    const std::optional<double> parsed = parseDecimal(v);
    const bool number = parsed.has_value();
    const double x = parsed.value_or(0);
    if (split.name == "--accept") {
        if (!number || x < 0 || x > 1)
            return usageError(err,
                "--accept " + v
                    + ": give the share of drafted tokens the target accepts, from 0 to 1 (measure it for your "
                      "draft and task: Leviathan et al. 2023 found 0.5 to 0.9 across their pairs)");
        options.accept = x;
        return ExitOk;
    }
    const int most = kDecodeTokensRange.max - 1;
    if (!number || x != std::floor(x) || x < 1 || x > most)
        return usageError(err,
            "--lookahead " + v + ": give the tokens drafted a round, a whole number from 1 to " + std::to_string(most));
    options.lookahead = int(x);
    options.lookaheadGiven = true;
    return ExitOk;
}

std::optional<int> finishSpeculation(SpeculationOptions& options, std::ostream& err)
{
    if (options.draft.empty()) {
        if (options.accept || options.lookaheadGiven)
            return usageError(err,
                std::string(options.accept ? "--accept" : "--lookahead")
                    + ": speculative decoding needs its draft model: add --draft MODEL (a built-in id, config.json, "
                      "a model directory or a .gguf file)");
        return std::nullopt;
    }
    if (!options.accept)
        return usageError(err,
            "--draft " + options.draft
                + ": give --accept A too, the share of drafted tokens the target accepts (it sets the speed-up; "
                  "measure it for your draft and task: Leviathan et al. 2023 found 0.5 to 0.9 across their pairs)");
    LlmLoad load = loadLanguageModel(options.draft);
    if (!load.model) {
        err << "roofline-cli: --draft: cannot use the draft model: " << load.error << "\n";
        return ExitUsage;
    }
    options.model = std::move(*load.model);
    return std::nullopt;
}

} // namespace rfx
