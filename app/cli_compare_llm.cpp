// roofline-cli compare on several measure --llm files (issue 50 item 3): a calibration fitted at one
// prompt, context and batch held against measurements at others, a line each: the measured prefill
// and decode step beside their calibrated prediction, the error, and the bound.
#include "cli_commands.h"

#include "base/format.h"
#include "io/csv.h"
#include "measure/llm_measure.h"

#include <cmath>
#include <sstream>

namespace rfx {

namespace {

struct LlmCheckLine {
    std::string file, model;
    LlmSettings settings;
    LlmMeasuredGroup phase[2]; ///< prefill, decode step
    std::string noise; ///< the file's own "# noisy:" verdict on its run, or empty
};

double errorOf(const LlmMeasuredGroup& g)
{
    return g.calibrated >= 0 && g.measured > 0 ? g.calibrated / g.measured - 1 : NAN;
}

std::string checkCsv(const std::vector<LlmCheckLine>& lines)
{
    std::ostringstream o;
    o << "file,model,prompt,context,batch,ttft_measured_s,ttft_calibrated_s,ttft_error,ttft_bound_s,tpot_measured_s,"
         "tpot_calibrated_s,tpot_error,tpot_bound_s,tokens_per_s_measured,measured_noisy\n";
    for (const LlmCheckLine& l : lines) {
        o << csv::field(l.file) << ',' << csv::field(l.model) << ',' << l.settings.prompt << ',' << l.settings.context
          << ',' << l.settings.batch;
        for (const LlmMeasuredGroup& g : l.phase) {
            o << ',' << csv::numberField(g.measured) << ',';
            if (g.calibrated >= 0)
                o << csv::numberField(g.calibrated) << ',' << csv::numberField(errorOf(g));
            else
                o << ',';
            o << ',' << csv::numberField(g.bound);
        }
        o << ',' << csv::numberField(l.phase[1].measured > 0 ? l.settings.batch / l.phase[1].measured : 0) << ','
          << (l.noise.empty() ? 0 : 1) << '\n';
    }
    return o.str();
}

std::string checkTable(const std::vector<LlmCheckLine>& lines, const std::string& calibration)
{
    std::ostringstream o;
    const bool calibrated = !calibration.empty();
    o << (calibrated ? "calibrated with " + calibration + ": " : "")
      << "the prefill (TTFT) and one decode step (TPOT) measured"
      << (calibrated ? ", predicted and the error; the bound" : " against the bound") << "\n";
    char row[256];
    std::snprintf(row, sizeof row, "%-14s %6s %7s %5s  %9s %10s %8s %9s  %9s %10s %8s %9s\n", "model", "prompt",
        "context", "batch", "TTFT", calibrated ? "predicted" : "", calibrated ? "error" : "reached", "bound", "TPOT",
        calibrated ? "predicted" : "", calibrated ? "error" : "reached", "bound");
    o << row;
    double worst[2] = { 0, 0 }, worstQuiet[2] = { 0, 0 };
    int noisy = 0;
    for (const LlmCheckLine& l : lines) {
        std::string cells[2][3];
        for (int p = 0; p < 2; ++p) {
            const LlmMeasuredGroup& g = l.phase[p];
            cells[p][0] = formatTime(g.measured);
            cells[p][1] = g.calibrated >= 0 ? formatTime(g.calibrated) : "";
            cells[p][2] = g.calibrated >= 0 ? formatSignedPercent(errorOf(g))
                                            : formatPercent(g.bound / std::max(g.measured, 1e-30));
            if (g.calibrated >= 0 && std::abs(errorOf(g)) > std::abs(worst[p]))
                worst[p] = errorOf(g);
            if (l.noise.empty() && g.calibrated >= 0 && std::abs(errorOf(g)) > std::abs(worstQuiet[p]))
                worstQuiet[p] = errorOf(g);
        }
        noisy += !l.noise.empty();
        std::snprintf(row, sizeof row, "%-14s %6d %7d %5d  %9s %10s %8s %9s  %9s %10s %8s %9s%s\n", l.model.c_str(),
            l.settings.prompt, l.settings.context, l.settings.batch, cells[0][0].c_str(), cells[0][1].c_str(),
            cells[0][2].c_str(), formatTime(l.phase[0].bound).c_str(), cells[1][0].c_str(), cells[1][1].c_str(),
            cells[1][2].c_str(), formatTime(l.phase[1].bound).c_str(), l.noise.empty() ? "" : "  *");
        o << row;
    }
    if (calibrated) {
        o << "largest error over " << lines.size() << " measurements: TTFT " << formatSignedPercent(worst[0])
          << ", TPOT " << formatSignedPercent(worst[1]);
        if (noisy > 0 && noisy < int(lines.size()))
            o << "; over the " << lines.size() - size_t(noisy) << " measured quietly: TTFT "
              << formatSignedPercent(worstQuiet[0]) << ", TPOT " << formatSignedPercent(worstQuiet[1]);
        o << "\n";
    }
    // Each file's own verdict on its run (measure's "# noisy:" line): an error there is partly the
    // machine's, which a calibration cannot predict.
    if (noisy > 0) {
        o << "* measured while the machine was noisy, by the file's own header (an error there is partly the "
             "machine's; "
             "measure --llm --keep-fastest adds a pass):\n";
        for (const LlmCheckLine& l : lines)
            if (!l.noise.empty())
                o << "  " << l.file << ": " << l.noise << "\n";
    }
    return o.str();
}

} // namespace

int compareLlmFiles(const std::vector<std::string>& files, const ConfigOptions& options, const CommonOptions& common,
    const std::string& calibration, const std::filesystem::path& exeDir, std::ostream& out, std::ostream& err)
{
    std::vector<LlmCheckLine> lines;
    for (const std::string& file : files) {
        std::string error;
        const std::optional<LlmMeasureHeader> header = llmMeasurementOf(file, error);
        if (!header) {
            err << "roofline-cli: compare: "
                << (error.empty() ? file
                               + ": not a language model's measurement (its header names no --llm configuration): "
                                 "several files are compared only when each is a measure --llm file"
                                  : error)
                << "\n";
            return ExitUsage;
        }
        MeasuredRun run;
        if (auto code = compareLlmMeasurementFile(file, *header, options, common, calibration, exeDir, err, run))
            return *code;
        const Report& both = run.report;
        const size_t prefillRows = size_t(both.parts.size() > 1 ? both.parts[1].first : 0);
        LlmCheckLine line { file, header->model, header->settings, {}, run.set.noise };
        for (const LlmMeasuredGroup& p : measuredByPhase(run.comparison, both.results.front().layers, prefillRows))
            line.phase[p.phase == LlmPhase::Prefill ? 0 : 1] = p;
        lines.push_back(std::move(line));
    }
    out << (common.format == "csv" ? checkCsv(lines) : checkTable(lines, calibration));
    return out ? ExitOk : ExitFailure;
}

} // namespace rfx
