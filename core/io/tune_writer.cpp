#include "io/tune_writer.h"

#include "base/format.h"
#include "io/csv.h"
#include "io/report_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace rfx {

namespace {

std::string joules(double j) { return formatSI(j, "J"); }

std::string relative(double a, double b, const char* less, const char* more)
{
    if (b <= 0 || std::abs(a - b) <= 1e-9 * b)
        return std::string("same ") + (std::string(less).find("energy") != std::string::npos ? "energy" : "time");
    const double r = a / b - 1;
    return formatPercent(std::abs(r)) + " " + (r < 0 ? less : more);
}

bool onFront(const TuneResult& t, std::size_t k)
{
    return std::find(t.front.begin(), t.front.end(), k) != t.front.end();
}

} // namespace

std::string tunePointLabel(const TunePoint& p)
{
    return "batch " + std::to_string(p.batch) + " x " + std::to_string(p.gpus) + (p.gpus == 1 ? " GPU" : " GPUs")
        + " at " + std::to_string(p.clockPercent) + " % clock";
}

std::string recommendationText(const TuneResult& t, Objective objective)
{
    if (!t.bestTime)
        return "no configuration fits in " + formatMemory(t.device.memoryBytes) + " of device memory";
    const TunePoint& fastest = t.points[*t.bestTime];
    const TunePoint& frugal = t.points[*t.bestEnergy];
    const TunePoint& balanced = t.points[*t.bestEdp];
    auto line = [&](const char* what, const TunePoint& p, bool chosen) {
        std::string s = std::string(chosen ? "* " : "  ") + what + ": " + tunePointLabel(p) + ": "
            + formatTime(p.e.timePerImage) + " and " + joules(p.e.energyPerImage) + " per image, "
            + formatNumber3(p.e.averagePower) + " W per GPU, " + formatNumber3(p.e.flopsPerJoule / 1e9)
            + " GFLOP/s per W";
        if (p.gpus > 1)
            s += ", speed-up " + formatNumber3(p.e.speedup) + " (" + formatPercent(p.e.efficiency) + " efficiency)";
        return s + "\n";
    };
    std::string s = line("least time", fastest, objective == Objective::Time);
    s += line("least energy", frugal, objective == Objective::Energy);
    s += "    vs least time: "
        + relative(frugal.e.energyPerImage, fastest.e.energyPerImage, "less energy", "more energy") + ", "
        + relative(frugal.e.timePerImage, fastest.e.timePerImage, "faster", "slower") + "\n";
    s += line("least energy x delay", balanced, objective == Objective::Edp);
    // Why: the recommended point against its neighbours in the sweep.
    const std::optional<std::size_t> chosen = t.best(objective);
    for (const std::string& why : recommendationReasons(t, *chosen))
        s += "    " + why + "\n";
    return s;
}

std::string tuneToTable(const TuneOutcome& o, const Config& c, Objective objective)
{
    std::ostringstream out;
    const std::size_t configs = o.results.empty() ? 0 : o.results.front().points.size();
    out << "Tuning " << (c.mode == Mode::Training ? "training" : "inference") << " of " << c.model << ", " << c.bits
        << "-bit; objective: " << objectiveName(objective) << " per image; " << configs
        << " configurations per device (batch per GPU x GPUs x clock); * marks the recommendation.\n";
    if (const Interconnect* link = findInterconnect(c.interconnect))
        out << "Gradients all-reduced in a ring over " << link->name << " (" << formatSI(link->bandwidth, "B/s")
            << " per direction), " << (c.overlap ? "overlapped with the backward pass" : "after the backward pass")
            << ". Energy: GPU boards only.\n";
    for (const TuneResult& t : o.results) {
        const auto fitting = std::count_if(t.points.begin(), t.points.end(), [](const TunePoint& p) { return p.fits; });
        out << "\n"
            << t.device.name << " (" << t.device.id << "): " << fitting << " of " << t.points.size()
            << " configurations fit in " << formatMemory(t.device.memoryBytes) << "\n";
        out << recommendationText(t, objective);
        if (t.front.empty())
            continue;
        out << "Pareto front (time against energy per image), fastest first:\n";
        out << "  batch  GPUs  clock   time/image  energy/image  images/J  W per GPU  speed-up  efficiency\n";
        for (std::size_t k : t.front) {
            const TunePoint& p = t.points[k];
            char line[160];
            std::snprintf(line, sizeof line, "  %5d  %4d  %4d %%  %11s  %12s  %8s  %9s  %8s  %10s\n", p.batch, p.gpus,
                p.clockPercent, formatTime(p.e.timePerImage).c_str(), joules(p.e.energyPerImage).c_str(),
                formatNumber3(p.e.imagesPerJoule).c_str(), formatNumber3(p.e.averagePower).c_str(),
                formatNumber3(p.e.speedup).c_str(), formatPercent(p.e.efficiency).c_str());
            out << line;
        }
    }
    return out.str();
}

std::string tuneToJson(const TuneOutcome& o, const Config& c, const TuneRanges& r, Objective objective)
{
    using nlohmann::json;
    json devices = json::array();
    for (const TuneResult& t : o.results) {
        json points = json::array();
        for (std::size_t k = 0; k < t.points.size(); ++k) {
            const TunePoint& p = t.points[k];
            points.push_back(
                { { "batch", p.batch }, { "gpus", p.gpus }, { "clock", p.clockPercent / 100.0 }, { "fits", p.fits },
                    { "memory_bytes", p.memory }, { "step_time_s", p.e.stepTime }, { "step_energy_j", p.e.stepEnergy },
                    { "time_per_image_s", p.e.timePerImage }, { "energy_per_image_j", p.e.energyPerImage },
                    { "images_per_joule", p.e.imagesPerJoule }, { "average_power_w", p.e.averagePower },
                    { "flops_per_joule", p.e.flopsPerJoule }, { "all_reduce_s", p.e.allReduceTime },
                    { "exposed_all_reduce_s", p.e.exposedTime }, { "speedup", p.e.speedup },
                    { "efficiency", p.e.efficiency }, { "edp_js", p.e.edp }, { "on_front", onFront(t, k) } });
        }
        auto index = [](const std::optional<std::size_t>& i) { return i ? json(*i) : json(nullptr); };
        devices.push_back({ { "device", t.device.id }, { "name", t.device.name }, { "points", points },
            { "front", t.front }, { "recommended", index(t.best(objective)) }, { "least_time", index(t.bestTime) },
            { "least_energy", index(t.bestEnergy) }, { "least_edp", index(t.bestEdp) } });
    }
    json doc { { "objective", objectiveName(objective) },
        { "ranges",
            { { "batch", { r.batchMin, r.batchMax } }, { "gpus", { r.gpusMin, r.gpusMax } },
                { "clock", { r.clockMin / 100.0, r.clockMax / 100.0 } }, { "clock_step", r.clockStep / 100.0 } } },
        { "config", json::parse(configToJson(c)) },
        { "power_model",
            "P = idle + (TDP - idle) x [0.7 u_compute f max(f, knee)^2 + 0.3 u_dram]; knee = base / boost clock" },
        { "results", devices } };
    return doc.dump(2) + "\n";
}

std::string tuneToCsv(const TuneOutcome& o)
{
    std::string s = "device,batch,gpus,clock,fits,memory_bytes,step_time_s,step_energy_j,time_per_image_s,"
                    "energy_per_image_j,images_per_joule,average_power_w,speedup,efficiency,edp,on_front\n";
    for (const TuneResult& t : o.results)
        for (std::size_t k = 0; k < t.points.size(); ++k) {
            const TunePoint& p = t.points[k];
            s += t.device.id + ',' + std::to_string(p.batch) + ',' + std::to_string(p.gpus) + ','
                + csv::exactField(p.clockPercent / 100.0) + ',' + (p.fits ? "true" : "false") + ','
                + csv::exactField(p.memory) + ',' + csv::exactField(p.e.stepTime) + ','
                + csv::exactField(p.e.stepEnergy) + ',' + csv::exactField(p.e.timePerImage) + ','
                + csv::exactField(p.e.energyPerImage) + ',' + csv::exactField(p.e.imagesPerJoule) + ','
                + csv::exactField(p.e.averagePower) + ',' + csv::exactField(p.e.speedup) + ','
                + csv::exactField(p.e.efficiency) + ',' + csv::exactField(p.e.edp) + ','
                + (onFront(t, k) ? "true" : "false") + '\n';
        }
    return s;
}

} // namespace rfx
