// Measuring a network on this machine: the workflow the CLI and the window share (network_run.h).
#include "measure/network_run.h"

#include "base/format.h"
#include "devices/device.h"
#include "io/options.h"
#include "measure/ceilings_age.h"
#include "measure/microbench.h"
#include "open/build_network.h"

#include <ctime>

namespace rfx {

NetworkRun NetworkRun::prepare(const Config& config)
{
    NetworkRun run;
    run.config = config;
    BuildResult built = buildCheckedNetwork(config);
    if (!built.network) {
        run.buildError = built.error;
        return run;
    }
    run.network = std::move(built.network);
    if (const auto why = measurementRefusal(config))
        run.refusal = *why;
    return run;
}

NetworkMeasurement NetworkRun::run(const LayerBenchOptions& options, const LayerBenchProgress& progress) const
{
    if (!ready()) {
        NetworkMeasurement refused;
        refused.error = whyNot();
        return refused;
    }
    return measureNetwork(*network, config, options, progress);
}

std::string measurementDate()
{
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%MZ", std::gmtime(&now));
    return date;
}

std::string NetworkRun::csv(const NetworkMeasurement& m) const
{
    return networkMeasurementCsv(m, configToArgs(config), measurementDate());
}

std::optional<std::string> ceilingsFirst(const Device* mine, const std::string& id)
{
    return ceilingsOutOfDate(mine, mine && mine->boostClockHz > 0 ? measureClockUnderLoad() : 0, id);
}

std::string measuredLine(const NetworkMeasurement& m)
{
    return std::to_string(m.measuredCount()) + " of " + std::to_string(m.rows.size()) + " rows measured with "
        + m.library + " (" + m.dataType + ", " + std::to_string(m.threads) + " threads) in " + formatTime(m.seconds);
}

} // namespace rfx
