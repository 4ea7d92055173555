// The command line: one argument per line. Configuration, export and tuning options are parsed; a
// configuration that parses and validates is built and analysed on a fixed device, and tuned when
// its ranges are small.
#include "engine/energy.h"
#include "engine/roofline.h"
#include "fuzzdevice.h"
#include "io/figure.h"
#include "io/llm_measure_header.h"
#include "io/llm_options.h"
#include "io/options.h"
#include "io/tune_options.h"
#include "open/analyses.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::vector<std::string> args;
    std::string current;
    for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n') {
            args.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    args.push_back(current);

    rfx::ConfigOptions options;
    std::string error;
    if (rfx::parseConfigArgs(args, options, error)) {
        // Keep analyses small enough for the fuzzer's pace; large ones are the property tests' job.
        const rfx::Config& c = options.config;
        if (!rfx::validate(c) && c.batch <= 64 && c.unet.height <= 2048 && c.unet.width <= 2048) {
            (void)rfx::analyzeConfig(c, { rfx::fuzz::device() });
        }
    } else if (error.empty()) {
        __builtin_trap();
    }

    // The language-model options (roofline-cli llm, sessions, figures): a refusal says why, and what
    // they give comes back through their own argument list unchanged.
    std::string llmError;
    if (const auto llm = rfx::llmSettingsFromArgList(args, llmError)) {
        const auto again = rfx::llmSettingsFromArgList(rfx::llmSettingsToArgs(*llm), llmError);
        if (!again || !(*again == *llm))
            __builtin_trap();
    } else if (llmError.empty()) {
        __builtin_trap();
    }

    // A measure --llm file's configuration line (calibrate, compare read it): refused with a reason,
    // or read back unchanged from what measure --llm writes of it.
    std::string headerError;
    if (const auto h = rfx::llmMeasureHeader(args, headerError)) {
        const auto back = rfx::llmMeasureHeader(rfx::llmMeasureArgs(h->model, h->settings), headerError);
        if (!back || back->model != h->model || !(back->settings == h->settings))
            __builtin_trap();
    } else if (headerError.empty()) {
        __builtin_trap();
    }

    // `roofline-cli tune`: its own options first, then the configuration's (as app/cli.cpp does).
    rfx::ConfigOptions tuneOptions;
    rfx::TuneRanges ranges;
    rfx::Objective objective = rfx::Objective::Energy;
    bool tuneOk = true;
    for (std::size_t i = 0; i < args.size() && tuneOk; ++i) {
        rfx::OptionStatus st = rfx::applyTuneOption(args, i, ranges, objective, error);
        if (st == rfx::OptionStatus::NotConfigOption)
            st = rfx::applyConfigOption(args, i, tuneOptions, error);
        if (st == rfx::OptionStatus::Error && error.empty())
            __builtin_trap(); // a refused option must say why
        tuneOk = st == rfx::OptionStatus::Consumed;
    }
    const rfx::Config& t = tuneOptions.config;
    const long long span = (long long)ranges.gpusMax - ranges.gpusMin;
    if (tuneOk && !rfx::validate(t) && t.unet.height <= 256 && t.unet.width <= 256 && span >= 0 && span < 4
        && ranges.batchMax <= 64 && ranges.clockStep >= 10) {
        const rfx::TuneOutcome outcome = rfx::tune(t, { rfx::fuzz::device() }, ranges);
        if (outcome.error.empty() == outcome.results.empty())
            __builtin_trap(); // results or a reason, never both or neither
    }

    rfx::FigureSpec spec;
    if (!rfx::parseExportArgs(args, spec, error) && error.empty())
        __builtin_trap();
    return 0;
}
