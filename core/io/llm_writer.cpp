// Language-model analyses as JSON, a table, CSV and Markdown (core/llm/llm_analysis.h).
#include "io/llm_writer.h"

#include "io/csv.h"

#include "devices/interconnects.h"

#include "base/format.h"
#include "base/version.h"
#include "io/report_json.h"
#include "io/report_writer.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace rfx {

namespace {

using ojson = nlohmann::ordered_json;

std::string bitsWord(double bits)
{
    if (bits == 0)
        return "as in the file";
    if (bits == 4)
        return "int4 (fp16 scale per 128)";
    if (bits == kMxfp4Bits)
        return "MXFP4 (4.25 bits)";
    return bits == 8 ? "8-bit" : bits == 32 ? "fp32" : "fp16";
}

std::string kvWord(int bits) { return bits == 4 ? "int4" : bits == 8 ? "8-bit" : bits == 32 ? "fp32" : "fp16"; }

/// The activations' arithmetic: "fp8" or "bf16" where the settings say so, else what the width means.
std::string actWord(const LlmSettings& s)
{
    return std::string(numberWord(s.actType != NumberType::Unset ? s.actType : numberTypeOfBits(s.actBits)));
}

std::string batchText(std::int64_t b) { return b > 0 ? formatCount(b) : "none"; }

std::string settingsText(
    const LlmSettings& s, int context, bool graph, const std::string& linkName, bool published = false)
{
    return "prompt " + formatCount(s.prompt) + ", generate " + formatCount(s.generate) + " (decode at context "
        + formatCount(context) + "), batch " + formatCount(s.batch) + "; weights "
        + (published ? "as published (MXFP4 experts, the rest 16-bit)" : bitsWord(s.weightBits)) + ", KV cache "
        + kvWord(s.kvBits) + ", activations " + actWord(s) + "; "
        + (graph                                     ? "attention as the graph computes it"
                : s.attention == LlmAttention::Flash ? "FlashAttention"
                                                     : "naive attention (scores through memory)")
        + (s.allLogits ? "; logits of every prompt token" : "")
        + (s.tensorParallel > 1 ? "; tensor parallel over " + std::to_string(s.tensorParallel) + " GPUs, " + linkName
                    + "; memory per GPU"
                                : std::string());
}

/// "30,532,122,624 parameters, 3,353,032,704 active a token (8 of 128 experts)"; the count alone for a dense model.
std::string parametersText(const LlmAnalysis& a)
{
    std::string s = formatCount(a.parameters) + " parameters";
    if (a.experts > 0 && a.activeParameters != a.parameters)
        s += ", " + formatCount(a.activeParameters) + " active a token (" + std::to_string(a.expertsPerToken) + " of "
            + std::to_string(a.experts) + " experts)";
    return s;
}

} // namespace

std::string llmPrecisionText(const LlmSettings& s)
{
    return "weights " + bitsWord(s.weightBits) + ", KV cache " + kvWord(s.kvBits) + ", activations " + actWord(s);
}

std::string llmSettingsLine(const LlmAnalysis& a)
{
    return settingsText(a.settings, a.context, a.graph, a.linkName, a.published);
}

std::string llmSettingsText(const LlmSettings& s, bool graph)
{
    const Interconnect* link = findInterconnect(s.interconnect);
    return settingsText(s, decodeContext(s), graph, link ? linkDescription(*link) : s.interconnect);
}

std::string llmToJson(const LlmAnalysis& a, int indent)
{
    const LlmSettings& s = a.settings;
    ojson settings { { "prompt", s.prompt }, { "generate", s.generate }, { "context", a.context }, { "batch", s.batch },
        { "weights_bits",
            s.weightBits == 0                ? ojson("file")
                : s.weightBits == kMxfp4Bits ? ojson(kMxfp4Bits)
                                             : ojson(int(s.weightBits)) },
        { "kv_bits", s.kvBits }, { "act_bits", s.actBits }, { "act_type", actWord(s) },
        { "attention", a.graph ? "graph" : llmAttentionName(s.attention) }, { "all_logits", s.allLogits },
        { "tp", s.tensorParallel } };
    if (s.tensorParallel > 1)
        settings["interconnect"] = s.interconnect;
    ojson devices = ojson::array();
    for (size_t d = 0; d < a.figures.size(); ++d) {
        const LlmDeviceFigures& f = a.figures[d];
        ojson dev { { "id", f.device }, { "name", a.decode.results[d].device.name }, { "ttft_s", f.ttft },
            { "tpot_s", f.tpot }, { "tokens_per_s", f.tokensPerSecond },
            { "batch_tokens_per_s", f.batchTokensPerSecond }, { "generation_s", f.generationTime },
            { "memory_bytes", f.memoryBytes }, { "weights_bytes", f.weightsBytes }, { "kv_bytes", f.kvBytes },
            { "kv_bytes_per_token", f.kvBytesPerToken }, { "activation_bytes", f.activationBytes },
            { "capacity_bytes", f.capacity }, { "fits", f.fits }, { "largest_batch", f.largestBatch },
            { "longest_context", f.largestContext }, { "params", a.parameters },
            { "energy_per_token_j", f.energyPerToken }, { "gpus", s.tensorParallel },
            { "memory_per", s.tensorParallel > 1 ? "gpu" : "device" }, { "bound", true } };
        ojson phases;
        for (const Report* r : { &a.prefill, &a.decode }) {
            ojson layers = ojson::array();
            for (const LayerResult& l : r->results[d].layers)
                layers.push_back(layerJson(l, r->results[d], *r));
            const Totals& t = r->results[d].totals;
            const bool pre = r == &a.prefill;
            phases[pre ? "prefill" : "decode"]
                = ojson { { "time_s", t.time + (pre ? f.prefillLinkTime : f.decodeLinkTime) },
                      { "rows_time_s", t.time }, { "allreduce_s", pre ? f.prefillLinkTime : f.decodeLinkTime },
                      { "flops", t.flops }, { "bytes", t.bytes }, { "layers", std::move(layers) } };
        }
        dev["phases"] = std::move(phases);
        devices.push_back(std::move(dev));
    }
    ojson notes = ojson::array();
    for (const Diagnostic& n : a.notes)
        notes.push_back(toString(n));
    ojson root { { "tool", "roofline-explorer" }, { "version", kVersion }, { "model", a.model },
        { "params", a.parameters }, { "active_params", a.activeParameters }, { "settings", settings },
        { "conventions",
            "times are roofline bounds (the best case): max(FLOP / peak, bytes / bandwidth) per row plus "
            "launch overhead; DESIGN.md \"Language models\"" },
        { "devices", std::move(devices) }, { "notes", std::move(notes) } };
    return root.dump(indent);
}

std::string llmToTable(const LlmAnalysis& a)
{
    std::ostringstream o;
    o << a.model << ": " << parametersText(a) << "\n" << llmSettingsLine(a) << "\n";
    o << "Times are roofline bounds (the best case a kernel can reach), not measurements.\n\n";
    o << std::left << std::setw(22) << "device" << std::right << std::setw(10) << "TTFT" << std::setw(10) << "TPOT"
      << std::setw(10) << "tok/s" << std::setw(12) << "batch tok/s" << std::setw(10) << "P+G" << std::setw(11)
      << "memory" << std::setw(11) << "capacity" << std::setw(6) << "fits" << std::setw(10) << "max batch"
      << std::setw(11) << "J/token"
      << "\n";
    for (const LlmDeviceFigures& f : a.figures)
        o << std::left << std::setw(22) << f.device << std::right << std::setw(10) << formatTime(f.ttft)
          << std::setw(10) << formatTime(f.tpot) << std::setw(10) << formatNumber3(f.tokensPerSecond) << std::setw(12)
          << formatNumber3(f.batchTokensPerSecond) << std::setw(10) << formatTime(f.generationTime) << std::setw(11)
          << formatMemory(f.memoryBytes) << std::setw(11) << formatMemory(f.capacity) << std::setw(6)
          << (f.fits ? "yes" : "no") << std::setw(10) << batchText(f.largestBatch) << std::setw(11)
          << formatNumber3(f.energyPerToken) << "\n";
    if (!a.figures.empty()) {
        const LlmDeviceFigures& f = a.figures.front();
        o << "\nmemory: weights " << formatMemory(f.weightsBytes) << " + KV cache " << formatMemory(f.kvBytes) << " ("
          << formatMemory(f.kvBytesPerToken) << " per token per sequence) + activations "
          << formatMemory(f.activationBytes) << "\n";
    }
    for (size_t d = 0; d < a.figures.size(); ++d) {
        const LlmDeviceFigures& f = a.figures[d];
        o << "\nlargest context at batch " << a.settings.batch << " on " << f.device << ": "
          << (f.largestContext > 0 ? formatCount(f.largestContext) + " tokens" : std::string("none"))
          << (f.contextLimitedByModel                       ? " (the model's own limit)"
                     : f.largestContext == kPromptRange.max ? " (the longest the tool takes)"
                                                            : "")
          << "\n";
        for (const Report* r : { &a.prefill, &a.decode }) {
            const DeviceResult& res = r->results[d];
            const double link = r == &a.prefill ? f.prefillLinkTime : f.decodeLinkTime;
            o << "\n"
              << (r == &a.prefill ? "prefill" : "decode") << " on " << res.device.name << " (" << ceilingsLine(res)
              << "): " << formatTime(res.totals.time);
            if (a.settings.tensorParallel > 1)
                o << " on each of " << a.settings.tensorParallel << " GPUs + " << formatTime(link) << " of all-reduces";
            o << ", " << res.verdict << "\n";
            o << std::left << std::setw(34) << "row" << std::setw(8) << "op" << std::right << std::setw(11) << "FLOP"
              << std::setw(11) << "bytes" << std::setw(9) << "FLOP/B" << std::setw(9) << "bound" << std::setw(10)
              << "time" << std::setw(7) << "share"
              << "\n";
            for (const LayerResult& l : res.layers)
                o << std::left << std::setw(34) << fitName(l.name, 33) << std::setw(8) << opName(l.op) << std::right
                  << std::setw(11) << formatSI(l.flops, "") << std::setw(11) << formatBytes(l.bytes) << std::setw(9)
                  << formatNumber3(l.intensity) << std::setw(9) << boundLabel(l) << std::setw(10) << formatTime(l.time)
                  << std::setw(7) << formatPercent(l.share) << "\n";
        }
    }
    for (const Diagnostic& n : a.notes)
        o << "\n" << toString(n) << "\n";
    return o.str();
}

std::string llmToCsv(const LlmAnalysis& a)
{
    std::string s = "device,phase,layer,op,params,flops,bytes,intensity,bits,peak_flops,bound,time_s,share\n";
    for (size_t d = 0; d < a.figures.size(); ++d)
        for (const Report* r : { &a.prefill, &a.decode })
            for (const LayerResult& l : r->results[d].layers)
                s += csv::field(a.figures[d].device) + "," + (r == &a.prefill ? "prefill" : "decode") + ","
                    + csv::field(l.name) + "," + std::string(opName(l.op)) + "," + std::to_string(l.params) + ","
                    + csv::numberField(l.flops) + "," + csv::numberField(l.bytes) + "," + csv::numberField(l.intensity)
                    + "," + std::to_string(l.bits) + "," + csv::numberField(l.peak) + ","
                    + std::string(boundName(l.bound)) + "," + csv::numberField(l.time) + "," + csv::numberField(l.share)
                    + "\n";
    return s;
}

std::string llmToMarkdown(const LlmAnalysis& a)
{
    std::ostringstream o;
    o << "## " << a.model << "\n\n"
      << parametersText(a) << "; " << llmSettingsLine(a) << ". Times are roofline bounds, not measurements.\n\n";
    o << "| device | TTFT | TPOT | tokens/s | batch tokens/s | memory | fits | largest batch | J/token |\n";
    o << "|---|---:|---:|---:|---:|---:|:-:|---:|---:|\n";
    for (const LlmDeviceFigures& f : a.figures)
        o << "| " << f.device << " | " << formatTime(f.ttft) << " | " << formatTime(f.tpot) << " | "
          << formatNumber3(f.tokensPerSecond) << " | " << formatNumber3(f.batchTokensPerSecond) << " | "
          << formatMemory(f.memoryBytes) << " of " << formatMemory(f.capacity) << " | " << (f.fits ? "yes" : "no")
          << " | " << batchText(f.largestBatch) << " | " << formatNumber3(f.energyPerToken) << " |\n";
    for (size_t d = 0; d < a.figures.size(); ++d)
        for (const Report* r : { &a.prefill, &a.decode }) {
            const DeviceResult& res = r->results[d];
            o << "\n### " << (r == &a.prefill ? "Prefill" : "Decode") << " on " << res.device.name << "\n\n";
            o << "| row | op | FLOP | bytes | FLOP/B | bound | time | share "
                 "|\n|---|---|---:|---:|---:|---|---:|---:|\n";
            for (const LayerResult& l : res.layers)
                o << "| " << l.name << " | " << opName(l.op) << " | " << formatSI(l.flops, "") << " | "
                  << formatBytes(l.bytes) << " | " << formatNumber3(l.intensity) << " | " << boundLabel(l) << " | "
                  << formatTime(l.time) << " | " << formatPercent(l.share) << " |\n";
        }
    return o.str();
}

std::string llmToLatex(const LlmAnalysis& a)
{
    std::ostringstream o;
    o << "% " << a.model << "\n% Generated by Roofline Explorer " << kVersion << "; needs \\usepackage{booktabs}\n";
    const std::string conditions = latexUnits(latexEscape(llmSettingsLine(a)));
    o << "\\begin{table}[t]\n\\centering\n\\small\n\\caption{" << latexEscape(a.model) << " (" << parametersText(a)
      << "): " << conditions << ". Times are roofline bounds (the best case), not measurements.}\n\\label{tab:llm}\n"
      << "\\begin{tabular}{lrrrrrlr}\n\\toprule\n"
      << "Device & TTFT & TPOT & Tokens/s & Batch tokens/s & Memory & Fits & J/token \\\\\n\\midrule\n";
    for (const LlmDeviceFigures& f : a.figures)
        o << latexEscape(f.device) << " & " << latexUnits(formatTime(f.ttft)) << " & " << latexUnits(formatTime(f.tpot))
          << " & " << formatNumber3(f.tokensPerSecond) << " & " << formatNumber3(f.batchTokensPerSecond) << " & "
          << latexUnits(formatMemory(f.memoryBytes)) << " of " << latexUnits(formatMemory(f.capacity)) << " & "
          << (f.fits ? "yes" : "no") << " & " << formatNumber3(f.energyPerToken) << " \\\\\n";
    o << "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
    for (size_t d = 0; d < a.figures.size(); ++d)
        for (const Report* r : { &a.prefill, &a.decode }) {
            const DeviceResult& res = r->results[d];
            const std::string phase = r == &a.prefill ? "prefill" : "decode";
            o << "\n\\begin{table}[t]\n\\centering\n\\small\n\\caption{" << latexEscape(a.model) << ", " << phase
              << " on " << latexEscape(res.device.name) << ": " << latexUnits(formatTime(res.totals.time))
              << " per step (" << latexEscape(res.verdict) << "). FLOP: a multiply-add counts 2.}\n\\label{tab:llm-"
              << phase << "-" << res.device.id << "}\n\\begin{tabular}{llrrrlrr}\n\\toprule\n"
              << "Row & Op & FLOPs & Bytes & FLOP/B & Bound & Time & Share \\\\\n\\midrule\n";
            for (const LayerResult& l : res.layers)
                o << latexEscape(l.name) << " & " << latexEscape(std::string(opName(l.op))) << " & "
                  << latexUnits(formatSI(l.flops, "FLOP")) << " & " << latexUnits(formatBytes(l.bytes)) << " & "
                  << formatNumber3(l.intensity) << " & " << boundLabel(l) << " & " << latexUnits(formatTime(l.time))
                  << " & " << latexUnits(formatPercent(l.share)) << " \\\\\n";
            o << "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
        }
    return o.str();
}

} // namespace rfx
