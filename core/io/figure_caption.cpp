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
        settings = ". " + std::string(1, char(std::toupper(static_cast<unsigned char>(settings[0])))) + settings.substr(1);
    }
    return reportTitle + settings + ". Devices: " + devices
        + ". FLOP: a multiply-add counts 2; bytes: " + trafficDescription(s.config)
        + (s.config.algorithm != ConvAlgorithm::Direct ? "; convolutions " + std::string(algorithmName(s.config.algorithm)) : "")
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
        + (byContext ? ": decode tokens per second per sequence against the context (tokens in each sequence's KV cache), batch "
                + formatCount(settings.batch)
                     : ": decode tokens per second per sequence against the whole batch's, batch 1, 2, 4, ... at context "
                + formatCount(decodeContext(settings)))
        + ". " + text + ". Devices: " + devices
        + ". Tokens per second = 1 / TPOT, the roofline bound of one decode step (FLOP: a multiply-add counts 2; bytes: "
          "compulsory DRAM traffic per layer; time = max(FLOP/peak, bytes/bandwidth)). A line ends where its device's memory "
          "(weights, KV cache, activations) runs out"
        + (byContext ? " or at the model's longest context" : "") + "; a ring marks the settings' own "
        + (byContext ? "context" : "batch") + ". Roofline Explorer " + kVersion;
}

} // namespace rfx
