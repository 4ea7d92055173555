// Measuring a network's rows on this CPU: per row, the memory check before anything is allocated,
// warm-up and timed runs within the row's and the whole measurement's time budgets, best, median
// and spread, the reorders the library's formats cost; and the measurement as a plain CSV.
#include "measure/layer_bench.h"

#include "base/format.h"
#include "io/csv.h"
#include "io/measurements.h"
#include "measure/cpu_expectations.h"
#include "measure/microbench.h"
#include "measure/onednn_rows.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <thread>

namespace rfx {

LayerBenchOptions LayerBenchOptions::quickMode()
{
    LayerBenchOptions o;
    o.warmups = 1;
    o.runs = 9;
    o.rounds = 3;
    o.rowBudgetSeconds = 0.25;
    o.totalBudgetSeconds = 60;
    return o;
}

LayerBenchOptions LayerBenchOptions::fullMode() { return {}; }

int NetworkMeasurement::measuredCount() const
{
    return int(std::count_if(rows.begin(), rows.end(), [](const RowMeasurement& r) { return r.measured; }));
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The oneDNN data type of a configuration's bits, or why there is none here.
std::optional<dnnl::memory::data_type> dataType(int bits, std::string& why)
{
    if (bits == 32)
        return dnnl::memory::data_type::f32;
    if (bits == 16) {
        const auto isa = unsigned(dnnl::get_effective_cpu_isa()), avx512 = unsigned(dnnl::cpu_isa::avx512_core);
        if ((isa & avx512) == avx512)
            return dnnl::memory::data_type::bf16;
        why = "16-bit numbers are measured as bf16, which oneDNN runs on CPUs with AVX-512 only; this CPU has not: use "
              "--bits 32";
        return std::nullopt;
    }
    if (bits == 8) {
        // int8 inference as frameworks quantise it: u8 activations, s8 weights, f32 bias. oneDNN's int8
        // kernels start at AVX2 (AVX-512 VNNI and AMX run them fastest).
        const auto isa = unsigned(dnnl::get_effective_cpu_isa()), avx2 = unsigned(dnnl::cpu_isa::avx2);
        if ((isa & avx2) == avx2)
            return dnnl::memory::data_type::u8;
        why = "8-bit numbers are measured as int8, which oneDNN runs on CPUs with AVX2 or newer; this CPU has not: use "
              "--bits 32";
        return std::nullopt;
    }
    why = std::to_string(bits)
        + "-bit numbers are not measured: oneDNN runs f32, bf16 (AVX-512) and int8 (AVX2) on CPUs "
          "(--bits 32, 16 or 8)";
    return std::nullopt;
}

// One timed run: `count` executions back to back, their mean, second.
double timedRun(onednn::PreparedRow& r, dnnl::stream& s, int count)
{
    const auto t0 = Clock::now();
    for (int i = 0; i < count; ++i)
        r.primitive.execute(s, r.nextArgs());
    s.wait();
    return since(t0) / count;
}

// How many back-to-back executions make a timed run of at least `minSeconds`, from one that took
// `once` (at most 10,000).
int executionsFor(double once, double minSeconds)
{
    return once >= minSeconds ? 1 : int(std::min(10000.0, std::ceil(minSeconds / std::max(once, 1e-8))));
}

// One round of a row: warm-up runs, then timed runs until `runs` or `budget` seconds, appended to
// `samples`; false when cancelled. `count` (executions a timed run averages) is found in the first
// round and kept.
bool sampleRow(onednn::PreparedRow& r, dnnl::stream& s, int warmups, int runs, double budget, double minRunSeconds,
    int& count, std::vector<double>& samples, const std::function<bool()>& goOn)
{
    const auto start = Clock::now();
    double once = 1e300;
    for (int i = 0; i < std::max(warmups, 1) && (i == 0 || since(start) < budget / 2); ++i) {
        once = std::min(once, timedRun(r, s, 1));
        if (!goOn())
            return false;
    }
    if (count < 1)
        count = executionsFor(once, minRunSeconds);
    if (count > 1) // the repeated run's own warm-up: the threads spin up, the working set settles in cache
        timedRun(r, s, count);
    const auto timed = Clock::now();
    for (int k = 0; k < std::max(runs, 1) && (k == 0 || since(timed) < budget); ++k) {
        samples.push_back(timedRun(r, s, count));
        if (!goOn())
            return false;
    }
    return true;
}

// Best, median and spread of a row's timed runs.
void summarize(RowMeasurement& row, std::vector<double> t)
{
    std::sort(t.begin(), t.end());
    const size_t n = t.size();
    row.best = t.front();
    row.median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    row.spread = row.median > 0 ? (t.back() - t.front()) / row.median : 0;
    row.runs = int(n);
    row.measured = true;
}

// The reorders a row's chosen formats cost, second: each the best of three after one run that
// touches the memory.
double reorderSeconds(onednn::PreparedRow& r, dnnl::stream& s)
{
    double total = 0;
    for (onednn::Reorder& re : r.reorders) {
        double best = 1e300;
        for (int i = 0; i < 4; ++i) {
            const auto t0 = Clock::now();
            re.primitive.execute(s, re.from, re.to);
            s.wait();
            if (i > 0)
                best = std::min(best, since(t0));
        }
        total += best;
    }
    return total;
}

// The row prepared in the layout it runs fastest in (onednn::layoutsToTry): each layout runs once
// to warm up and three times timed (each run at least `minRunSeconds`), and the best run decides.
// A layout oneDNN refuses is passed over; when every one is refused the last reason is thrown.
// Nothing is returned when cancelled.
std::optional<onednn::PreparedRow> fastestLayout(const Layer& l, const dnnl::engine& engine, dnnl::stream& s,
    dnnl::memory::data_type type, const std::string& onnxOp, double minRunSeconds, const std::function<bool()>& goOn)
{
    const std::vector<onednn::Layout> layouts = onednn::layoutsToTry(l);
    if (layouts.size() == 1)
        return onednn::prepareRow(l, engine, type, onnxOp, layouts.front());
    std::optional<onednn::PreparedRow> best;
    double bestTime = 0;
    std::optional<onednn::Unsupported> refused;
    for (const onednn::Layout layout : layouts) {
        std::optional<onednn::PreparedRow> candidate;
        try {
            candidate = onednn::prepareRow(l, engine, type, onnxOp, layout);
        } catch (const onednn::Unsupported& u) {
            refused = u;
            continue;
        }
        const int count = executionsFor(timedRun(*candidate, s, 1), minRunSeconds);
        double fastest = 1e300;
        for (int i = 0; i < 4; ++i) {
            const double t = timedRun(*candidate, s, count);
            if (i > 0)
                fastest = std::min(fastest, t);
            if (!goOn())
                return std::nullopt;
        }
        // A layout on one of oneDNN's reference kernels is taken only where no layout has an optimized
        // one: a framework would not run it so. Timing alone once chose binary (ref:any) on nChw16c over
        // the AVX2 kernels of another layout on a Zen 3 without AVX-512, in an ASan build (CI).
        const bool reference = isReferenceKernel(candidate->name);
        const bool bestReference = best && isReferenceKernel(best->name);
        if (!best || (bestReference && !reference) || (reference == bestReference && fastest < bestTime)) {
            best = std::move(candidate);
            bestTime = fastest;
        }
    }
    if (!best)
        throw *refused;
    return best;
}

} // namespace

std::string noiseVerdict(const NetworkMeasurement& m)
{
    std::string why;
    if (m.clockBefore > 0 && m.clockAfter > 0 && std::abs(m.clockAfter / m.clockBefore - 1) > 0.03)
        why = "the clock moved from " + formatSI(m.clockBefore, "Hz") + " to " + formatSI(m.clockAfter, "Hz")
            + " during the measurement";
    // The memory bus another tenant loads: the clock does not see it, the memory-bound rows do.
    if (m.dramBefore > 0 && m.dramAfter > 0 && std::abs(m.dramAfter / m.dramBefore - 1) > 0.10)
        why += std::string(why.empty() ? "" : "; ") + "the memory's read bandwidth moved from "
            + formatSI(m.dramBefore, "B/s") + " to " + formatSI(m.dramAfter, "B/s") + " during the measurement";
    // How far the medians sit above the best runs, weighted by time: the rows that take the time
    // decide whether the total can be trusted (the slowest run alone says little: one interrupt).
    double total = 0, above = 0;
    for (const RowMeasurement& r : m.rows)
        if (r.measured) {
            total += r.median;
            above += r.median - r.best;
        }
    if (total > 0 && above / total > 0.10)
        why += std::string(why.empty() ? "" : "; ") + "the rows' median runs were " + formatPercent(above / total)
            + " slower than their best, weighted by time";
    if (!why.empty())
        why += ": the machine was busy or changed its clock, measure again";
    return why;
}

std::optional<std::string> measurementRefusal(const Config& config)
{
    if (config.mode == Mode::Training)
        return "training is not measured: the rows run for inference (the forward pass); use --mode inference";
    std::string why;
    if (!dataType(config.bits, why))
        return why;
    return std::nullopt;
}

NetworkMeasurement measureNetwork(
    const Network& net, const Config& config, const LayerBenchOptions& o, const LayerBenchProgress& progress)
{
    NetworkMeasurement m;
    const dnnl::version_t* v = dnnl::version();
    m.library = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
    m.cpu = cpuModelName();
    // A VM's model name can be as bare as "AMD EPYC": the core says which machine it was.
    const CpuIdentity id = detectCpuIdentity();
    if (!id.vendor.empty()) {
        char family[64];
        std::snprintf(family, sizeof family, "family %Xh model %02Xh", unsigned(id.family), unsigned(id.model));
        const auto figures = cycleFiguresFor(id);
        m.cpu += " (" + (figures ? figures->microarchitecture + ", " : std::string()) + family + ")";
    }
    m.threads = int(std::max(1u, std::thread::hardware_concurrency())); // oneDNN's OpenMP runtime uses every core
    const auto start = Clock::now();
    if (auto why = measurementRefusal(config)) {
        m.error = *why;
        return m;
    }
    const auto type = dataType(config.bits, m.error);
    m.dataType = *type == dnnl::memory::data_type::f32 ? "f32"
        : *type == dnnl::memory::data_type::bf16       ? "bf16"
                                                       : "int8 (u8 activations, s8 weights)";
    try {
        dnnl::engine engine(dnnl::engine::kind::cpu, 0);
        dnnl::stream stream(engine);
        const double ram = physicalMemoryBytes(); // 8 GB assumed where the system does not say
        const double limit = o.memoryLimitBytes > 0 ? o.memoryLimitBytes : (ram > 0 ? ram : 8e9) / 2;
        m.clockBefore = measureClockUnderLoad();
        m.dramBefore = o.memoryProbe ? measureDramReadUnderLoad() : 0;
        const size_t count = net.layers.size();
        const int rounds = std::max(1, o.rounds);
        const int runsPerRound = std::max(1, (o.runs + rounds - 1) / rounds);
        const double budgetPerRound = o.rowBudgetSeconds / rounds;
        std::vector<RowMeasurement> rows(count);
        std::vector<std::vector<double>> samples(count);
        std::vector<int> executions(count, 0);
        std::vector<onednn::Layout> layouts(count, onednn::Layout::Plain);
        for (int round = 0; round < rounds && !m.cancelled; ++round) {
            for (size_t i = 0; i < count && !m.cancelled; ++i) {
                const Layer& l = net.layers[i];
                RowMeasurement& row = rows[i];
                auto goOn = [&] {
                    return !progress
                        || progress(
                            (double(round) * double(count) + double(i) + 0.5) / (double(rounds) * double(count)),
                            l.name);
                };
                if (!goOn()) {
                    m.cancelled = true;
                    break;
                }
                if (round > 0 && samples[i].empty())
                    continue; // skipped, or not run
                if (round > 0 && since(start) > o.totalBudgetSeconds)
                    break; // the rounds so far stand
                const std::string onnxOp = l.origin >= 0 && size_t(l.origin) < net.origins.size()
                    ? net.origins[size_t(l.origin)].onnxOp
                    : "";
                if (round == 0) {
                    row.layer = l.name;
                    row.op = std::string(opName(l.op));
                    const double need = onednn::rowBytes(l, config.bits / 8.0);
                    if (since(start) > o.totalBudgetSeconds) {
                        row.skipped
                            = "the measurement's time budget (" + formatTime(o.totalBudgetSeconds) + ") was used up";
                        continue;
                    }
                    if (need > limit) {
                        row.skipped = "needs " + formatMemory(need) + " of buffers, more than the "
                            + formatMemory(limit) + " a row may use";
                        continue;
                    }
                }
                try {
                    std::optional<onednn::PreparedRow> r = round == 0
                        ? fastestLayout(l, engine, stream, *type, onnxOp, o.minRunSeconds, goOn)
                        : onednn::prepareRow(l, engine, *type, onnxOp, layouts[i]);
                    if (!r) {
                        m.cancelled = true;
                        break;
                    }
                    if (round == 0) {
                        row.primitive = r->name;
                        layouts[i] = r->layout;
                    }
                    if (!sampleRow(*r, stream, o.warmups, runsPerRound, budgetPerRound, o.minRunSeconds, executions[i],
                            samples[i], goOn))
                        m.cancelled = true;
                    else if (round == 0)
                        row.reorder = reorderSeconds(*r, stream);
                } catch (const onednn::Unsupported& u) {
                    row.skipped = u.reason;
                } catch (const dnnl::error& e) {
                    row.skipped = std::string("oneDNN failed to run it: ") + e.what();
                } catch (const std::bad_alloc&) {
                    row.skipped = "out of memory";
                }
                if (!row.skipped.empty())
                    samples[i].clear(); // a later round's failure (memory) leaves the row unmeasured, said why
            }
        }
        if (!m.cancelled)
            for (size_t i = 0; i < count; ++i) {
                if (!samples[i].empty()) {
                    summarize(rows[i], samples[i]);
                    rows[i].executionsPerRun = executions[i];
                }
                m.rows.push_back(rows[i]);
            }
        if (!m.cancelled) {
            m.clockAfter = measureClockUnderLoad();
            m.dramAfter = o.memoryProbe ? measureDramReadUnderLoad() : 0;
        }
    } catch (const dnnl::error& e) {
        m.error = std::string("oneDNN could not start on this CPU: ") + e.what();
    }
    m.noise = noiseVerdict(m);
    if (!m.cancelled && progress)
        progress(1.0, "");
    m.seconds = since(start);
    return m;
}

std::string networkMeasurementCsv(
    const NetworkMeasurement& m, const std::vector<std::string>& configArgs, const std::string& date)
{
    std::ostringstream o;
    o.precision(6);
    o << "# Measured by roofline-cli " << m.command << " with " << m.library << ", " << m.dataType << ", on " << m.cpu
      << " (" << m.threads << " threads), " << date << "\n";
    if (m.clockBefore > 0 && m.clockAfter > 0)
        o << "# clock under load: " << formatSI(m.clockBefore, "Hz") << " before the rows, "
          << formatSI(m.clockAfter, "Hz") << " after\n";
    if (m.dramBefore > 0 && m.dramAfter > 0)
        o << "# memory read under load: " << formatSI(m.dramBefore, "B/s") << " before the rows, "
          << formatSI(m.dramAfter, "B/s") << " after\n";
    if (!m.noise.empty())
        o << "# noisy: " << m.noise << "\n";
    o << "# configuration:";
    for (const std::string& a : configArgs)
        o << ' ' << a;
    for (const std::string& n : m.notes)
        o << "\n# " << n;
    o << (m.timeIsBest ? "\n# time_s: the fastest timed run (another tenant's work only slows a run)"
                       : "\n# time_s: the median of the timed runs")
      << " (a run of a row under 1 ms repeats it back to back for 1 ms: the mean);\n"
         "# best_s the fastest; spread (slowest - fastest) / median;\n"
         "# reorder_s: reordering input and weights into, and the output out of, the formats oneDNN chose\n"
         "layer,time_s,best_s,median_s,spread,runs,reorder_s,primitive\n";
    for (const RowMeasurement& r : m.rows) {
        if (!r.measured) {
            o << "# not run: " << r.layer << " (" << r.op << "): " << r.skipped << "\n";
            continue;
        }
        o << csv::field(r.layer) << ',' << (m.timeIsBest ? r.best : r.median) << ',' << r.best << ',' << r.median << ','
          << r.spread << ',' << r.runs << ',' << r.reorder << ',' << csv::field(r.primitive) << "\n";
    }
    return o.str();
}

} // namespace rfx
