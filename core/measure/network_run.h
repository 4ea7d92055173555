#pragma once

#include "measure/layer_bench.h"
#include "model/config.h"
#include "model/network.h"

#include <optional>
#include <string>

namespace rfx {

struct Device;

/// Measuring a network on this machine: the one workflow of `roofline-cli measure --network` and the
/// window's Tools > Measure this network, in the order both take it:
///  1. NetworkRun::prepare(config): the network, or why nothing will be measured (a configuration that
///     does not build, one this CPU cannot run), said before anything is measured;
///  2. ceilingsFirst(mine): why this machine's ceilings must be measured before the rows are held
///     against them (none yet, or measured at another clock than the clock under load now), or
///     nothing; the caller measures them its own way (the CLI's `measure`, the window's dialog);
///  3. run(options, progress): every row alone with oneDNN (measureNetwork), with progress per row;
///  4. csv(m): the measurement file's text; measuredLine(m): what both say of it.
struct NetworkRun {
    Config config;
    std::optional<Network> network;
    std::string buildError; ///< why the configuration does not build, or empty
    std::string refusal; ///< why this CPU does not measure it (measurementRefusal), or empty
    /// The configuration's network and whether it can be measured (build first, then the refusal).
    static NetworkRun prepare(const Config& config);
    bool ready() const { return network && refusal.empty(); }
    /// buildError, else refusal: why nothing will be measured, or empty.
    const std::string& whyNot() const { return buildError.empty() ? refusal : buildError; }

    NetworkMeasurement run(const LayerBenchOptions& options, const LayerBenchProgress& progress = {}) const;
    /// The plain measurement CSV (networkMeasurementCsv) with the configuration's arguments, dated now (UTC).
    std::string csv(const NetworkMeasurement& m) const;
};

/// Why this machine's ceilings (device `id`, `mine` where the library has it) must be measured before a
/// network's rows are held against them: the clock under load is measured now when they have one
/// (measureClockUnderLoad) and held to theirs by ceilingsOutOfDate's rule. Nothing: they are current.
std::optional<std::string> ceilingsFirst(const Device* mine, const std::string& id = "this-machine");

/// Now, as a measurement CSV's header dates it: "2026-12-06T08:00Z" (UTC).
std::string measurementDate();

/// "12 of 12 rows measured with oneDNN 2.6.3 (f32, 2 threads) in 3.41 s".
std::string measuredLine(const NetworkMeasurement& m);

} // namespace rfx
