#include "llm/llm_both.h"

#include <algorithm>

namespace rfx {

namespace {

void appendRows(DeviceResult& to, const DeviceResult& from, const std::string& phase)
{
    for (const LayerResult& l : from.layers) {
        LayerResult r = l;
        r.name = phase + "." + l.name;
        if (!l.block.empty())
            r.block = phase + "." + l.block;
        to.layers.push_back(std::move(r));
    }
    for (const CeilingChoice& c : from.rowCeilings)
        if (std::none_of(
                to.rowCeilings.begin(), to.rowCeilings.end(), [&](const CeilingChoice& k) { return k.key == c.key; }))
            to.rowCeilings.push_back(c);
}

} // namespace

Report bothPhases(const LlmAnalysis& a)
{
    Report r = a.decode;
    r.network = a.model + " prefill and decode";
    r.parts = { { "prefill", 0 }, { "decode", 0 } };
    for (const Diagnostic& d : a.prefill.diagnostics)
        if (std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                [&](const Diagnostic& k) { return k.message == d.message; }))
            r.diagnostics.push_back(d);
    for (size_t i = 0; i < r.results.size() && i < a.prefill.results.size(); ++i) {
        const DeviceResult& p = a.prefill.results[i];
        const DeviceResult& d = a.decode.results[i];
        DeviceResult& out = r.results[i];
        out.layers.clear();
        out.layers.reserve(p.layers.size() + d.layers.size());
        out.rowCeilings.clear();
        appendRows(out, p, "prefill");
        appendRows(out, d, "decode");
        std::stable_sort(out.rowCeilings.begin(), out.rowCeilings.end(),
            [](const CeilingChoice& x, const CeilingChoice& y) { return x.flops > y.flops; });
        Totals& t = out.totals;
        t.flops = p.totals.flops + d.totals.flops;
        t.bytes = p.totals.bytes + d.totals.bytes;
        t.intensity = t.bytes > 0 ? t.flops / t.bytes : 0;
        t.time = p.totals.time + d.totals.time;
        t.attained = t.time > 0 ? t.flops / t.time : 0;
        t.memoryBoundTimeShare = t.time > 0
            ? (p.totals.memoryBoundTimeShare * p.totals.time + d.totals.memoryBoundTimeShare * d.totals.time) / t.time
            : 0;
        t.memory = p.totals.memory; // the prefill's activations are the larger
        // Calibrated phases (the window's and the CLI's calibration, applied to each): their sum.
        t.calibratedTime = p.totals.calibratedTime >= 0 && d.totals.calibratedTime >= 0
            ? p.totals.calibratedTime + d.totals.calibratedTime
            : -1;
        out.calibration = d.calibration;
        out.verdict = verdictText(t.memoryBoundTimeShare);
        r.parts[1].first = int(p.layers.size()); // the same rows on every device
    }
    return r;
}

const Report& shownPhase(const LlmAnalysis& a, LlmPhase phase, const Report& both)
{
    return phase == LlmPhase::Prefill ? a.prefill : phase == LlmPhase::Decode ? a.decode : both;
}

PhaseRow phaseRow(const LlmAnalysis& a, LlmPhase shown, int row)
{
    if (shown != LlmPhase::Both || row < 0)
        return { shown == LlmPhase::Both ? LlmPhase::Decode : shown, row };
    const int prefillRows = a.prefill.results.empty() ? 0 : int(a.prefill.results[0].layers.size());
    return row < prefillRows ? PhaseRow { LlmPhase::Prefill, row } : PhaseRow { LlmPhase::Decode, row - prefillRows };
}

} // namespace rfx
