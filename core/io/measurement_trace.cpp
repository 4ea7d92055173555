// PyTorch profiler traces (prof.export_chrome_trace): kernel time per launching operator.
#include "io/measurement_trace.h"

#include "base/json_error.h"
#include "io/csv.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace rfx {

using csv::lower;

namespace {

// A string member of a trace event, or `otherwise` when it is missing or not a string (json::value
// would throw on a number where a string belongs).
std::string textMember(const nlohmann::json& e, const char* key, const char* otherwise = "")
{
    const auto it = e.find(key);
    return it != e.end() && it->is_string() ? it->get<std::string>() : std::string(otherwise);
}

} // namespace

MeasurementSet parsePyTorchTrace(std::string_view text, const std::string& file)
{
    MeasurementSet set;
    set.format = MeasurementFormat::PyTorchTrace;
    set.file = file;
    auto error = [&](const std::string& field, const std::string& why) {
        set.diagnostics.push_back({ Severity::Error, file, field, why });
    };
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        error("", "not valid JSON: " + describeJsonError(e));
        return set;
    }
    const nlohmann::json* events
        = doc.is_array() ? &doc : (doc.is_object() && doc.contains("traceEvents") ? &doc["traceEvents"] : nullptr);
    if (!events || !events->is_array()) {
        error("traceEvents", "a PyTorch profiler trace has a \"traceEvents\" list (prof.export_chrome_trace)");
        return set;
    }
    struct Ev {
        double ts;
        Measurement m;
    };
    // Operators (cpu_op events) by their "External id": a kernel that carries the same id was launched
    // by that operator, and its device time is counted as the operator's (per-operator device time).
    std::map<double, size_t> opIndex;
    std::vector<Ev> ops;
    for (size_t i = 0; i < events->size(); ++i) {
        const nlohmann::json& e = (*events)[i];
        if (!e.is_object() || textMember(e, "ph") != "X" || lower(textMember(e, "cat")) != "cpu_op")
            continue;
        const auto args = e.find("args");
        if (args == e.end() || !args->is_object() || !args->contains("External id")
            || !(*args)["External id"].is_number())
            continue;
        const auto ts = e.find("ts");
        Measurement m;
        m.name = textMember(e, "name", "operator");
        m.line = int(i);
        opIndex.emplace((*args)["External id"].get<double>(), ops.size());
        ops.push_back({ ts != e.end() && ts->is_number() ? ts->get<double>() : double(i), std::move(m) });
    }
    std::vector<bool> opUsed(ops.size(), false);
    std::vector<Ev> kernels;
    for (size_t i = 0; i < events->size(); ++i) {
        const nlohmann::json& e = (*events)[i];
        if (!e.is_object() || textMember(e, "ph") != "X" || lower(textMember(e, "cat")) != "kernel")
            continue;
        const std::string field = "traceEvents[" + std::to_string(i) + "]";
        const auto dur = e.find("dur");
        const auto ts = e.find("ts");
        if (dur == e.end() || !dur->is_number() || dur->get<double>() < 0 || !std::isfinite(dur->get<double>())) {
            error(field + ".dur", "a kernel event needs a non-negative duration in microseconds");
            continue;
        }
        if (dur->get<double>() * 1e-6 > kMaxSeconds) {
            error(field + ".dur", dur->dump() + " us " + kTooLongKernelWhy);
            continue;
        }
        const auto args = e.find("args");
        if (args != e.end() && args->is_object() && args->contains("External id")
            && (*args)["External id"].is_number()) {
            if (auto op = opIndex.find((*args)["External id"].get<double>()); op != opIndex.end()) {
                ops[op->second].m.time += dur->get<double>() * 1e-6;
                opUsed[op->second] = true;
                continue;
            }
        }
        Measurement m;
        m.name = textMember(e, "name", "kernel");
        m.time = dur->get<double>() * 1e-6;
        m.line = int(i);
        kernels.push_back({ ts != e.end() && ts->is_number() ? ts->get<double>() : double(i), std::move(m) });
    }
    for (size_t k = 0; k < ops.size(); ++k)
        if (opUsed[k])
            kernels.push_back(std::move(ops[k]));
    std::stable_sort(kernels.begin(), kernels.end(), [](const Ev& a, const Ev& b) { return a.ts < b.ts; });
    for (Ev& k : kernels)
        set.rows.push_back(std::move(k.m));
    if (set.ok() && set.rows.empty())
        error("traceEvents",
            "no GPU kernel events (\"ph\": \"X\", \"cat\": \"kernel\"); was the profiler run with "
            "ProfilerActivity.CUDA?");
    return set;
}

} // namespace rfx
