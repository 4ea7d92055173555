// Measuring a network's rows on this CPU: per row, the memory check before anything is allocated,
// warm-up and timed runs within the row's and the whole measurement's time budgets, best, median
// and spread, the reorders the library's formats cost; and the measurement as a plain CSV.
#include "layer_bench.h"

#include "csv.h"
#include "format.h"
#include "microbench.h"
#include "onednn_rows.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>


namespace rfx {

LayerBenchOptions LayerBenchOptions::quickMode()
{
    LayerBenchOptions o;
    o.warmups = 1;
    o.runs = 5;
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
        why = "16-bit numbers are measured as bf16, which oneDNN runs on CPUs with AVX-512 only; this CPU has not: use --bits 32";
        return std::nullopt;
    }
    if (bits == 8) {
        // int8 inference as frameworks quantise it: u8 activations, s8 weights, f32 bias. oneDNN's int8
        // kernels start at AVX2 (AVX-512 VNNI and AMX run them fastest).
        const auto isa = unsigned(dnnl::get_effective_cpu_isa()), avx2 = unsigned(dnnl::cpu_isa::avx2);
        if ((isa & avx2) == avx2)
            return dnnl::memory::data_type::u8;
        why = "8-bit numbers are measured as int8, which oneDNN runs on CPUs with AVX2 or newer; this CPU has not: use --bits 32";
        return std::nullopt;
    }
    why = std::to_string(bits) + "-bit numbers are not measured: oneDNN runs f32, bf16 (AVX-512) and int8 (AVX2) on CPUs "
                                 "(--bits 32, 16 or 8)";
    return std::nullopt;
}

// Runs the row until its runs or its budget are spent; false when cancelled.
bool timeRow(onednn::PreparedRow& r, dnnl::stream& s, const LayerBenchOptions& o, RowMeasurement& row, const std::function<bool()>& goOn)
{
    const auto start = Clock::now();
    for (int i = 0; i < o.warmups && (i == 0 || since(start) < o.rowBudgetSeconds / 2); ++i) {
        r.primitive.execute(s, r.args);
        s.wait();
        if (!goOn())
            return false;
    }
    std::vector<double> t;
    const auto timed = Clock::now();
    while (int(t.size()) < std::max(o.runs, 1) && (t.empty() || since(timed) < o.rowBudgetSeconds)) {
        const auto t0 = Clock::now();
        r.primitive.execute(s, r.args);
        s.wait();
        t.push_back(since(t0));
        if (!goOn())
            return false;
    }
    std::sort(t.begin(), t.end());
    const size_t n = t.size();
    row.best = t.front();
    row.median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    row.spread = row.median > 0 ? (t.back() - t.front()) / row.median : 0;
    row.runs = int(n);
    for (onednn::Reorder& re : r.reorders) { // best of three, after one run that touches the memory
        double best = 1e300;
        for (int i = 0; i < 4; ++i) {
            const auto t0 = Clock::now();
            re.primitive.execute(s, re.from, re.to);
            s.wait();
            if (i > 0)
                best = std::min(best, since(t0));
        }
        row.reorder += best;
    }
    row.measured = true;
    return true;
}

} // namespace

std::optional<std::string> measurementRefusal(const Config& config)
{
    if (config.mode == Mode::Training)
        return "training is not measured: the rows run for inference (the forward pass); use --mode inference";
    std::string why;
    if (!dataType(config.bits, why))
        return why;
    return std::nullopt;
}

NetworkMeasurement measureNetwork(const Network& net, const Config& config, const LayerBenchOptions& o, const LayerBenchProgress& progress)
{
    NetworkMeasurement m;
    const dnnl::version_t* v = dnnl::version();
    m.library = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
    m.cpu = cpuModelName();
    m.threads = int(std::max(1u, std::thread::hardware_concurrency())); // oneDNN's OpenMP runtime uses every core
    const auto start = Clock::now();
    if (auto why = measurementRefusal(config)) {
        m.error = *why;
        return m;
    }
    const auto type = dataType(config.bits, m.error);
    m.dataType = *type == dnnl::memory::data_type::f32 ? "f32" : *type == dnnl::memory::data_type::bf16 ? "bf16" : "int8 (u8 activations, s8 weights)";
    try {
        dnnl::engine engine(dnnl::engine::kind::cpu, 0);
        dnnl::stream stream(engine);
        const double ram = physicalMemoryBytes(); // 8 GB assumed where the system does not say
        const double limit = o.memoryLimitBytes > 0 ? o.memoryLimitBytes : (ram > 0 ? ram : 8e9) / 2;
        const size_t count = net.layers.size();
        for (size_t i = 0; i < count && !m.cancelled; ++i) {
            const Layer& l = net.layers[i];
            RowMeasurement row;
            row.layer = l.name;
            row.op = std::string(opName(l.op));
            auto goOn = [&] { return !progress || progress((double(i) + 0.5) / double(count), l.name); };
            if (!goOn()) {
                m.cancelled = true;
                break;
            }
            const double need = onednn::rowBytes(l, config.bits / 8.0);
            if (since(start) > o.totalBudgetSeconds) {
                row.skipped = "the measurement's time budget (" + formatTime(o.totalBudgetSeconds) + ") was used up";
            } else if (need > limit) {
                row.skipped = "needs " + formatMemory(need) + " of buffers, more than the " + formatMemory(limit) + " a row may use";
            } else {
                const std::string onnxOp = l.origin >= 0 && size_t(l.origin) < net.origins.size() ? net.origins[size_t(l.origin)].onnxOp : "";
                try {
                    onednn::PreparedRow r = onednn::prepareRow(l, engine, *type, onnxOp);
                    row.primitive = r.name;
                    if (!timeRow(r, stream, o, row, goOn))
                        m.cancelled = true;
                } catch (const onednn::Unsupported& u) {
                    row.skipped = u.reason;
                } catch (const dnnl::error& e) {
                    row.skipped = std::string("oneDNN failed to run it: ") + e.what();
                } catch (const std::bad_alloc&) {
                    row.skipped = "out of memory";
                }
            }
            if (!m.cancelled)
                m.rows.push_back(row);
        }
    } catch (const dnnl::error& e) {
        m.error = std::string("oneDNN could not start on this CPU: ") + e.what();
    }
    if (!m.cancelled && progress)
        progress(1.0, "");
    m.seconds = since(start);
    return m;
}

std::string networkMeasurementCsv(const NetworkMeasurement& m, const std::vector<std::string>& configArgs, const std::string& date)
{
    std::ostringstream o;
    o.precision(6);
    o << "# Measured by roofline-cli measure --network with " << m.library << ", " << m.dataType << ", on " << m.cpu << " ("
      << m.threads << " threads), " << date << "\n# configuration:";
    for (const std::string& a : configArgs)
        o << ' ' << a;
    o << "\n# time_s: the median of the timed runs; best_s the fastest; spread (slowest - fastest) / median;\n"
         "# reorder_s: reordering input and weights into, and the output out of, the formats oneDNN chose\n"
         "layer,time_s,best_s,median_s,spread,runs,reorder_s,primitive\n";
    for (const RowMeasurement& r : m.rows) {
        if (!r.measured) {
            o << "# not run: " << r.layer << " (" << r.op << "): " << r.skipped << "\n";
            continue;
        }
        o << csv::field(r.layer) << ',' << r.median << ',' << r.best << ',' << r.median << ',' << r.spread << ',' << r.runs << ','
          << r.reorder << ',' << csv::field(r.primitive) << "\n";
    }
    return o.str();
}

} // namespace rfx
