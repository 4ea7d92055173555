// The words stamped on a figure: its title, its caption, and where a caption too long for it goes.
#include "io/figure.h"

#include "base/format.h"
#include "base/version.h"
#include "engine/roofline.h"
#include "io/llm_options.h"
#include "io/llm_writer.h"
#include "io/options.h"
#include "io/report_writer.h"
#include "model/networks.h"

#include <cctype>
#include <filesystem>

namespace rfx {

std::string captionFileFor(const std::string& figureFile)
{
    std::string base = figureFile;
    for (const char* ext : { ".png", ".svg", ".pdf", ".PNG", ".SVG", ".PDF" }) {
        const std::string e(ext);
        if (base.size() > e.size() && base.compare(base.size() - e.size(), e.size(), e) == 0) {
            base.resize(base.size() - e.size());
            break;
        }
    }
    return base + ".caption.txt";
}

std::string figureTitle(const Report& report, const FigureSpec& spec)
{
    return spec.llm ? report.network : reportTitle(report);
}

std::string figureCaption(const FigureSpec& s, const std::string& reportTitle, bool cacheAware)
{
    std::string devices;
    for (const std::string& d : s.devices)
        devices += (devices.empty() ? "" : ", ") + d;
    std::string settings;
    if (s.llm) {
        settings = llmSettingsText(s.llm->settings, isOnnxFile(s.llm->model));
        settings
            = ". " + std::string(1, char(std::toupper(static_cast<unsigned char>(settings[0])))) + settings.substr(1);
    }
    return reportTitle + settings + ". Devices: " + devices
        + ". FLOP: a multiply-add counts 2; bytes: " + trafficDescription(s.config)
        + (s.config.algorithm != ConvAlgorithm::Direct
                ? "; convolutions " + std::string(algorithmName(s.config.algorithm))
                : "")
        + "; " + timeBoundText(s.config, cacheAware)
        + (s.measurements.empty() ? std::string()
                                  : ". Diamonds: measured (" + std::filesystem::path(s.measurements).filename().string()
                    + (s.measuredDevice.empty() ? std::string() : ", on " + s.measuredDevice) + ")")
        + (s.calibration.empty() ? std::string()
                                 : ". Times calibrated with " + std::filesystem::path(s.calibration).filename().string()
                    + " (points at the calibrated rate)")
        + ". Roofline Explorer " + kVersion;
}

std::string sweepCaption(const FigureSpec& s, const std::string& modelTitle)
{
    std::string devices;
    for (const std::string& d : s.devices)
        devices += (devices.empty() ? "" : ", ") + d;
    const LlmSettings& settings = s.llm->settings;
    std::string text = llmSettingsText(settings, isOnnxFile(s.llm->model));
    text[0] = char(std::toupper(static_cast<unsigned char>(text[0])));
    const bool byContext = s.sweep == LlmSweepAxis::Context;
    return modelTitle
        + (byContext
                ? ": decode tokens per second per sequence against the context (tokens in each sequence's KV cache), "
                  "batch "
                    + formatCount(settings.batch)
                : ": decode tokens per second per sequence against the whole batch's, batch 1, 2, 4, ... at context "
                    + formatCount(decodeContext(settings)))
        + ". " + text + ". Devices: " + devices
        + ". Tokens per second = 1 / TPOT, the roofline bound of one decode step (FLOP: a multiply-add counts 2; "
          "bytes: "
          "compulsory DRAM traffic per layer; time = max(FLOP/peak, bytes/bandwidth)). A line ends where its device's "
          "memory "
          "(weights, KV cache, activations) runs out"
        + (byContext ? " or at the model's longest context" : "") + "; a ring marks the settings' own "
        + (byContext ? "context" : "batch") + ". Roofline Explorer " + kVersion;
}

std::string servingCaption(const FigureSpec& s, const std::string& modelTitle)
{
    std::string devices;
    for (const std::string& d : s.devices)
        devices += (devices.empty() ? "" : ", ") + d;
    const LlmSettings& settings = s.llm->settings;
    const ServingFigure& f = *s.serving;
    std::string targets;
    if (f.ttft > 0)
        targets = "TTFT <= " + formatTime(f.ttft);
    if (f.tpot > 0)
        targets += (targets.empty() ? "" : ", ") + std::string("TPOT <= ") + formatTime(f.tpot);
    return modelTitle + " served by continuous batching, " + formatCount(settings.prompt) + " tokens in and "
        + formatCount(settings.generate) + " out a request" + (targets.empty() ? std::string() : "; targets " + targets)
        + (f.users > 0 ? "; " + formatCount(f.users) + " users at once" : std::string()) + ". Devices: " + devices
        + ". Each device's Pareto front of output tokens/s per GPU against tokens/s per user (1 / TPOT) over tensor "
          "parallelism 1-8 on its own link, weights at 16, 8 (fp8 or int8) and 4 bits, the KV cache at 16 and 8, and "
          "the users a replica serves; filled points meet the targets, a ring marks the best (the most tokens/s per "
          "GPU, the fewest GPUs for the load), the dashed line the TPOT target. Roofline bounds of the steady state "
          "(FLOP: a multiply-add counts 2; time = max(FLOP/peak, bytes/bandwidth) per row): real engines run below "
          "them. Roofline Explorer "
        + kVersion;
}

} // namespace rfx
