#include "io/figure.h"

#include <cstdint>

#include <filesystem>

#include "io/json_config.h"

#include "base/format.h"
#include "base/version.h"
#include "engine/roofline.h"
#include "io/llm_json.h"
#include "io/llm_options.h"
#include "io/llm_writer.h"
#include "io/options.h"
#include "io/report_writer.h"
#include "model/networks.h"
#include "open/analyses.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace rfx {

namespace {

using ojson = nlohmann::ordered_json;

constexpr double kMinInches = 1, kMaxInches = 40, kMinDpi = 50, kMaxDpi = 2400;
constexpr int kMinPx = 64, kMaxPx = 20000;

std::string argNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

} // namespace

std::optional<std::string> checkFigureSpec(const FigureSpec& s)
{
    if (s.file.empty())
        return std::string("no output file given");
    if (s.widthIn < kMinInches || s.widthIn > kMaxInches)
        return "width must be between 1 and 40 inches, got " + argNumber(s.widthIn);
    if (s.heightIn != 0 && (s.heightIn < 0.5 || s.heightIn > kMaxInches))
        return "height must be between 0.5 and 40 inches, got " + argNumber(s.heightIn);
    if (s.dpi < kMinDpi || s.dpi > kMaxDpi)
        return "dpi must be between 50 and 2400, got " + argNumber(s.dpi);
    if ((s.widthPx != 0) != (s.heightPx != 0))
        return std::string("give both --width-px and --height-px, or neither");
    if (s.widthPx != 0 && (s.widthPx < kMinPx || s.widthPx > kMaxPx || s.heightPx < kMinPx || s.heightPx > kMaxPx))
        return "pixel sizes must be between 64 and 20000, got " + std::to_string(s.widthPx) + "x"
            + std::to_string(s.heightPx);
    if (s.devices.empty())
        return std::string("no device given");
    if (!s.measuredDevice.empty() && s.measurements.empty())
        return std::string("--measured-device needs --measurements FILE");
    if (s.filter.topN < 0 || s.filter.topN > 9999)
        return "top must be between 0 and 9999, got " + std::to_string(s.filter.topN);
    if (auto err = validate(s.config))
        return err;
    if (s.widthPx == 0) {
        const double px = s.widthIn * s.dpi;
        if (px > kMaxPx)
            return "width x dpi gives " + argNumber(std::round(px)) + " pixels; at most 20000";
    }
    return std::nullopt;
}

std::string figureSizeText(const FigureSize& z, FigureSpec::Format format, double dpi)
{
    char buf[128];
    if (format == FigureSpec::Format::Png)
        std::snprintf(
            buf, sizeof buf, "%dx%d px, %g dpi, %.2f x %.2f in", z.widthPx, z.heightPx, dpi, z.widthIn, z.heightIn);
    else
        std::snprintf(buf, sizeof buf, "%.2f x %.2f in, %ld x %ld pt", z.widthIn, z.heightIn,
            std::lround(z.widthIn * 72), std::lround(z.heightIn * 72));
    return buf;
}

std::string_view formatName(FigureSpec::Format f) { return enumName(kFigureFormatWords, f); }

std::optional<FigureSpec::Format> formatFromPath(const std::string& path)
{
    auto ends = [&](const char* ext) {
        const std::string e(ext);
        if (path.size() < e.size())
            return false;
        for (size_t i = 0; i < e.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(path[path.size() - e.size() + i])) != e[i])
                return false;
        return true;
    };
    if (ends(".png"))
        return FigureSpec::Format::Png;
    if (ends(".svg"))
        return FigureSpec::Format::Svg;
    if (ends(".pdf"))
        return FigureSpec::Format::Pdf;
    return std::nullopt;
}

int gridColumns(int charts) { return charts <= 1 ? 1 : (charts <= 4 ? 2 : 3); }

double cellHeightIn(double cellWidthIn) { return cellWidthIn * (cellWidthIn >= 5 ? 0.62 : 0.8); }

int figureColumns(int charts, double widthIn)
{
    const int readable = std::max(1, int(std::floor(widthIn / 3.2)));
    return std::min(gridColumns(std::max(charts, 1)), readable);
}

FigureSize resolveSize(const FigureSpec& s, int charts, double belowChartsIn)
{
    FigureSize z {};
    if (s.widthPx > 0) {
        z.widthPx = s.widthPx;
        z.heightPx = s.heightPx;
        z.widthIn = s.widthPx / s.dpi;
        z.heightIn = s.heightPx / s.dpi;
        return z;
    }
    const int columns = figureColumns(charts, s.widthIn);
    const int rows = (std::max(charts, 1) + columns - 1) / columns;
    z.widthIn = s.widthIn;
    const double below = belowChartsIn >= 0 ? belowChartsIn : (s.caption ? 0.25 : 0);
    z.heightIn = s.heightIn > 0 ? s.heightIn : cellHeightIn(s.widthIn / columns) * rows + below;
    z.widthPx = int(std::lround(z.widthIn * s.dpi));
    z.heightPx = int(std::lround(z.heightIn * s.dpi));
    return z;
}

std::string figureToJson(const FigureSpec& s, bool cacheAware)
{
    ojson args = ojson::array();
    for (const std::string& a : configToArgs(s.config))
        args.push_back(a);
    ojson cmd = ojson::array();
    for (const std::string& a : figureToArgs(s))
        cmd.push_back(a);
    ojson doc {
        { "schema", 1 },
        { "kind", "roofline-explorer figure" },
        { "generator", std::string("Roofline Explorer ") + kVersion },
        { "config_args", args },
        { "devices", s.devices },
        { "view",
            ojson { { "overlay", s.overlay }, { "shared_axes", s.sharedAxes },
                { "convolutions_only", s.filter.convolutionsOnly }, { "top_n", s.filter.topN },
                { "measurements", s.measurements }, { "measured_device", s.measuredDevice },
                { "calibration", s.calibration }, { "tick_style", s.powerTicks ? "power" : "plain" } } },
        { "export",
            ojson { { "format", formatName(s.format) }, { "file", s.file }, { "width_in", s.widthIn },
                { "height_in", s.heightIn }, { "dpi", s.dpi }, { "width_px", s.widthPx }, { "height_px", s.heightPx },
                { "transparent", s.transparent }, { "caption", s.caption } } },
        { "conventions", reportConventions(s.config, cacheAware) },
        { "command", cmd },
    };
    if (s.llm) {
        doc.erase("config_args"); // the phase's configuration follows from the settings
        doc["language_model"] = llmWorkToJson(*s.llm);
        if (s.sweep)
            doc["sweep"] = enumName(kLlmSweepAxisWords, *s.sweep);
        if (s.serving)
            doc["serving"]
                = ojson { { "ttft_s", s.serving->ttft }, { "tpot_s", s.serving->tpot }, { "users", s.serving->users } };
    }
    return doc.dump(2) + "\n";
}

std::optional<FigureSpec> figureFromJson(const std::string& text, std::string& error)
{
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        error = "not a JSON object";
        return std::nullopt;
    }
    FigureSpec s;
    error.clear();
    try {
        // Read as a whole number first: value<int>() of 1.4e24 (a float to nlohmann) was undefined
        // behaviour (fuzz_figure found it).
        const auto schema = doc.find("schema");
        if (schema == doc.end() || !schema->is_number_integer() || schema->get<std::int64_t>() != 1) {
            error = "schema: expected 1";
            return std::nullopt;
        }
        auto need = [&](const nlohmann::json& obj, const char* key, nlohmann::json::value_t type,
                        const std::string& where) -> const nlohmann::json* {
            auto it = obj.find(key);
            const bool numberOk = type == nlohmann::json::value_t::number_float && it != obj.end() && it->is_number();
            if (it == obj.end()
                || (!numberOk && it->type() != type
                    && !(type == nlohmann::json::value_t::number_integer && it->is_number_integer()))) {
                if (error.empty()) // report the first problem, in document order
                    error = where + key + ": " + (it == obj.end() ? "missing" : "wrong type");
                return nullptr;
            }
            return &*it;
        };
        using T = nlohmann::json::value_t;
        // A language model's figure has its settings in place of a network's configuration.
        if (auto it = doc.find("language_model"); it != doc.end()) {
            s.llm = llmWorkFromJson(*it, error);
            if (!s.llm)
                return std::nullopt;
        }
        if (auto it = doc.find("sweep"); it != doc.end()) {
            s.sweep = it->is_string() ? parseEnum(kLlmSweepAxisWords, it->get<std::string>()) : std::nullopt;
            if (!s.sweep || !s.llm) {
                error = s.llm ? "sweep: expected \"context\" or \"batch\"" : "sweep: only with language_model";
                return std::nullopt;
            }
        }
        if (auto it = doc.find("serving"); it != doc.end()) {
            if (!s.llm || !it->is_object()) {
                error = s.llm ? "serving: expected an object of ttft_s, tpot_s and users"
                              : "serving: only with language_model";
                return std::nullopt;
            }
            ServingFigure f;
            const auto* ttft = need(*it, "ttft_s", T::number_float, "serving.");
            const auto* tpot = need(*it, "tpot_s", T::number_float, "serving.");
            const auto* users = need(*it, "users", T::number_integer, "serving.");
            if (!ttft || !tpot || !users)
                return std::nullopt;
            f.ttft = ttft->get<double>();
            f.tpot = tpot->get<double>();
            const std::int64_t n = users->get<std::int64_t>();
            if (!(f.ttft >= 0 && f.ttft <= 3600) || !(f.tpot >= 0 && f.tpot <= 60) || n < 0 || n > 100000000) {
                error = "serving: ttft_s from 0 to 3,600 s, tpot_s from 0 to 60 s and users from 0 to 100,000,000";
                return std::nullopt;
            }
            f.users = int(n);
            s.serving = f;
        }
        const auto* args = s.llm ? nullptr : need(doc, "config_args", T::array, "");
        const auto* devices = need(doc, "devices", T::array, "");
        const auto* view = need(doc, "view", T::object, "");
        const auto* ex = need(doc, "export", T::object, "");
        if ((!args && !s.llm) || !devices || !view || !ex)
            return std::nullopt;
        if (args) {
            const auto config = configFromJsonArgs(*args, error);
            if (!config)
                return std::nullopt;
            s.config = *config;
        }
        for (const auto& v : *devices) {
            if (!v.is_string()) {
                error = "devices: every entry must be a device id";
                return std::nullopt;
            }
            s.devices.push_back(v.get<std::string>());
        }
        const auto* overlay = need(*view, "overlay", T::boolean, "view.");
        const auto* conv = need(*view, "convolutions_only", T::boolean, "view.");
        const auto* top = need(*view, "top_n", T::number_integer, "view.");
        const auto* format = need(*ex, "format", T::string, "export.");
        const auto* file = need(*ex, "file", T::string, "export.");
        const auto* w = need(*ex, "width_in", T::number_float, "export.");
        const auto* h = need(*ex, "height_in", T::number_float, "export.");
        const auto* dpi = need(*ex, "dpi", T::number_float, "export.");
        const auto* wpx = need(*ex, "width_px", T::number_integer, "export.");
        const auto* hpx = need(*ex, "height_px", T::number_integer, "export.");
        const auto* transparent = need(*ex, "transparent", T::boolean, "export.");
        const auto* caption = need(*ex, "caption", T::boolean, "export.");
        if (!overlay || !conv || !top || !format || !file || !w || !h || !dpi || !wpx || !hpx || !transparent
            || !caption)
            return std::nullopt;
        s.overlay = overlay->get<bool>();
        // Optional: sidecars written before shared axes existed have no such member.
        if (auto it = view->find("shared_axes"); it != view->end()) {
            if (!it->is_boolean()) {
                error = "view.shared_axes: wrong type";
                return std::nullopt;
            }
            s.sharedAxes = it->get<bool>();
        }
        if (auto it = view->find("tick_style"); it != view->end()) {
            if (!it->is_string() || (*it != "plain" && *it != "power")) {
                error = "view.tick_style: expected \"plain\" or \"power\"";
                return std::nullopt;
            }
            s.powerTicks = *it == "power";
        }
        for (auto [key, field] : { std::pair { "measurements", &s.measurements },
                 std::pair { "measured_device", &s.measuredDevice }, std::pair { "calibration", &s.calibration } }) {
            if (auto it = view->find(key); it != view->end()) {
                if (!it->is_string()) {
                    error = std::string("view.") + key + ": wrong type";
                    return std::nullopt;
                }
                *field = it->get<std::string>();
            }
        }
        s.filter.convolutionsOnly = conv->get<bool>();
        s.filter.topN = top->get<int>();
        const std::string f = format->get<std::string>();
        if (const auto parsed = parseEnum(kFigureFormatWords, f))
            s.format = *parsed;
        else {
            error = "export.format: expected one of " + enumChoices(kFigureFormatWords) + ", got '" + f + "'";
            return std::nullopt;
        }
        s.file = file->get<std::string>();
        s.widthIn = w->get<double>();
        s.heightIn = h->get<double>();
        s.dpi = dpi->get<double>();
        s.widthPx = wpx->get<int>();
        s.heightPx = hpx->get<int>();
        s.transparent = transparent->get<bool>();
        s.caption = caption->get<bool>();
    } catch (const std::exception& e) {
        error = std::string("unreadable: ") + e.what();
        return std::nullopt;
    }
    if (auto err = checkFigureSpec(s)) {
        error = *err;
        return std::nullopt;
    }
    return s;
}

std::vector<std::string> figureToArgs(const FigureSpec& s)
{
    std::vector<std::string> a { "export", "--" + std::string(formatName(s.format)), s.file };
    if (s.widthPx > 0) {
        a.insert(a.end(), { "--width-px", std::to_string(s.widthPx), "--height-px", std::to_string(s.heightPx) });
    } else {
        a.insert(a.end(), { "--width-in", argNumber(s.widthIn) });
        if (s.heightIn > 0)
            a.insert(a.end(), { "--height-in", argNumber(s.heightIn) });
    }
    a.insert(a.end(), { "--dpi", argNumber(s.dpi) });
    if (s.overlay)
        a.push_back("--overlay");
    if (s.sharedAxes)
        a.push_back("--shared-axes");
    if (s.powerTicks)
        a.insert(a.end(), { "--tick-style", "power" });
    if (!s.measurements.empty())
        a.insert(a.end(), { "--measurements", s.measurements });
    if (!s.measuredDevice.empty())
        a.insert(a.end(), { "--measured-device", s.measuredDevice });
    if (!s.calibration.empty())
        a.insert(a.end(), { "--calibration", s.calibration });
    if (s.transparent)
        a.push_back("--transparent");
    if (!s.caption)
        a.push_back("--no-caption");
    if (s.filter.convolutionsOnly)
        a.push_back("--only-convolutions");
    if (s.filter.topN > 0)
        a.insert(a.end(), { "--top", std::to_string(s.filter.topN) });
    if (s.llm) {
        a.insert(a.end(), { "--language-model", s.llm->model, "--phase", std::string(llmPhaseName(s.llm->phase)) });
        if (s.sweep)
            a.insert(a.end(), { "--sweep", std::string(enumName(kLlmSweepAxisWords, *s.sweep)) });
        if (s.serving) {
            a.push_back("--serving");
            auto target = [](double t) { return t > 0 ? argNumber(t) : std::string("none"); };
            a.insert(a.end(), { "--ttft", target(s.serving->ttft), "--tpot", target(s.serving->tpot) });
            if (s.serving->users > 0)
                a.insert(a.end(), { "--users", std::to_string(s.serving->users) });
        }
        for (const std::string& c : llmSettingsToArgs(s.llm->settings))
            a.push_back(c);
    } else
        for (const std::string& c : configToArgs(s.config))
            a.push_back(c);
    for (const std::string& d : s.devices)
        a.insert(a.end(), { "--device", d });
    return a;
}

} // namespace rfx
