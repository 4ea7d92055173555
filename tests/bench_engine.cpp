// Engine speed (Google Benchmark). Run: cmake --build <dir> --target bench
#include "device_loader.h"
#include "roofline.h"
#include "testpaths.h"
#include "unet.h"

#include <benchmark/benchmark.h>

namespace {

const rfx::Device& device()
{
    static const rfx::DeviceLibrary lib = rfx::loadDeviceLibrary({ ROOFLINE_TEST_DEVICES_DIR });
    return *lib.find("rtx-2060-super");
}

// DESIGN.md budget: analyse the default U-Net for one device in under 5 microseconds.
void analyzeDefaultUNet(benchmark::State& state)
{
    const rfx::Network net = *rfx::buildUNet(rfx::UNetParams {}, 1, false).network;
    const std::vector<rfx::Device> devices { device() };
    const rfx::Config config;
    for (auto _ : state)
        benchmark::DoNotOptimize(rfx::analyze(net, config, devices));
}
BENCHMARK(analyzeDefaultUNet);

void buildDefaultUNet(benchmark::State& state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(rfx::buildUNet(rfx::UNetParams {}, 1, false));
}
BENCHMARK(buildDefaultUNet);

// A sweep as the window does it per step: validate, build and analyse one configuration.
// DESIGN.md budget: over a million configurations per second per core.
void sweepConfigurations(benchmark::State& state)
{
    const std::vector<rfx::Device> devices { device() };
    rfx::Config config;
    int batch = 1;
    for (auto _ : state) {
        config.batch = batch;
        batch = batch % 64 + 1;
        benchmark::DoNotOptimize(rfx::analyzeConfig(config, devices));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(sweepConfigurations);

} // namespace

BENCHMARK_MAIN();
