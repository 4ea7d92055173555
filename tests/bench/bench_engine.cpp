// Engine speed (Google Benchmark). Run: cmake --build <dir> --target bench
#include "devices/device_loader.h"
#include "engine/energy.h"
#include "engine/roofline.h"
#include "engine/sweep.h"
#include "engine/tuning.h"
#include "llm/llm_analysis.h"
#include "model/unet.h"
#include "onnx/onnx_model.h"
#include "open/analyses.h"
#include "testpaths.h"

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

// From scratch, as the window does per slider step: validate, build and analyse one configuration.
void analyzeConfigFromScratch(benchmark::State& state)
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
BENCHMARK(analyzeConfigFromScratch);

// DESIGN.md budget: a sweep evaluates over a million configurations per second per core.
// A sweep of the default U-Net over batch 1..256 x bits {8, 16, 32, 64} x 4 devices through the
// closed-form SweepModel (its construction, once per structure, is included in the timing).
void sweepConfigurations(benchmark::State& state)
{
    static const rfx::DeviceLibrary lib = rfx::loadDeviceLibrary({ ROOFLINE_TEST_DEVICES_DIR });
    std::vector<rfx::Device> devices;
    for (const char* id : { "rtx-2060-super", "geforce-mx230", "h100-sxm", "ryzen-9-5950x" })
        devices.push_back(*lib.find(id));
    std::int64_t configs = 0;
    for (auto _ : state) {
        const auto model = rfx::sweepModel(rfx::Config {});
        double best = 0;
        for (const rfx::Device& d : devices) {
            for (int bits : { 8, 16, 32, 64 }) {
                const auto ceilings = rfx::SweepModel::ceilings(d, bits, false);
                for (int batch = 1; batch <= 256; ++batch) {
                    const auto p = model->evaluate(ceilings, batch);
                    best = std::max(best, p.fits ? p.throughput : 0.0);
                    ++configs;
                }
            }
        }
        benchmark::DoNotOptimize(best);
    }
    state.SetItemsProcessed(configs);
}
BENCHMARK(sweepConfigurations);

// The energy view's sweep, run on every change while the view is shown: the default U-Net in training
// over batch 1..256 (9 batches) x clock 50..100 % (11) x 1..8 GPUs on one device.
void tuneDefaultUNet(benchmark::State& state)
{
    rfx::Config config;
    config.mode = rfx::Mode::Training;
    const rfx::TuneRanges ranges { 1, 256, 1, 8, 50, 100, 5 };
    const std::vector<rfx::Device> devices { device() };
    for (auto _ : state)
        benchmark::DoNotOptimize(rfx::tune(config, devices, ranges));
    state.SetItemsProcessed(state.iterations() * 9 * 11 * 8);
}
BENCHMARK(tuneDefaultUNet)->Unit(benchmark::kMillisecond);

// ONNX (issue 16): torchvision's ResNet-50 exported by PyTorch, opened (parse, check, shape inference at
// the default configuration) and analysed for 4 devices, as when the user opens the file.
std::vector<rfx::Device> fourDevices()
{
    static const rfx::DeviceLibrary lib = rfx::loadDeviceLibrary({ ROOFLINE_TEST_DEVICES_DIR });
    std::vector<rfx::Device> devices;
    for (const char* id : { "rtx-2060-super", "geforce-mx230", "h100-sxm", "ryzen-9-5950x" })
        devices.push_back(*lib.find(id));
    return devices;
}

const std::string kResNet50 = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/resnet50.onnx";

void onnxOpenAndAnalyseResNet50(benchmark::State& state)
{
    const std::vector<rfx::Device> devices = fourDevices();
    for (auto _ : state) {
        const rfx::OnnxLoad load = rfx::loadOnnxModel(kResNet50);
        rfx::Config c;
        c.model = kResNet50;
        c.unet.height = c.unet.width = 224;
        benchmark::DoNotOptimize(rfx::analyze(*load.model->build(c).network, c, devices));
    }
}
BENCHMARK(onnxOpenAndAnalyseResNet50)->Unit(benchmark::kMillisecond);

// A batch-slider step with 4 devices: a batch not seen before (the model caches the last 8), so shape
// inference runs again; against the built-in ResNet-50's step.
void batchStep(benchmark::State& state, const std::string& model)
{
    const std::vector<rfx::Device> devices = fourDevices();
    rfx::Config c;
    c.model = model;
    c.unet.height = c.unet.width = 224;
    c.unet.inChannels = 3;
    c.unet.classes = 1000;
    int batch = 1;
    for (auto _ : state) {
        c.batch = batch;
        batch = batch % 64 + 1;
        benchmark::DoNotOptimize(rfx::analyzeConfig(c, devices));
    }
}
BENCHMARK_CAPTURE(batchStep, onnxResNet50, kResNet50)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(batchStep, builtinResNet50, std::string("resnet50"))->Unit(benchmark::kMicrosecond);

} // namespace

// Language models (issue 47): one phase of Llama-3.1-70B (80 blocks, 18 rows) built and analysed for
// one device, under 200 us; and the whole of 'roofline-cli llm' for it on 4 devices (both phases, the
// 17 decode contexts of the generation, memory and fit), which the CLI's 50 ms budget holds with
// process start-up and device loading.
void llmDecodePhaseLlama70B(benchmark::State& state)
{
    rfx::LlmModel m;
    m.arch = *rfx::findLanguageModel("llama-3.1-70b");
    const rfx::LlmSettings s;
    const rfx::Config c = rfx::llmConfig(s);
    const std::vector<rfx::Device> devices { fourDevices()[2] };
    for (auto _ : state) {
        const rfx::LlmPhaseBuild b = rfx::buildLlmPhase(m, s, rfx::LlmPhase::Decode, 576);
        benchmark::DoNotOptimize(rfx::analyze(*b.network, c, devices));
    }
}
BENCHMARK(llmDecodePhaseLlama70B)->Unit(benchmark::kMicrosecond);

void llmAnalyzeLlama70B4Devices(benchmark::State& state)
{
    rfx::LlmModel m;
    m.arch = *rfx::findLanguageModel("llama-3.1-70b");
    const std::vector<rfx::Device> devices = fourDevices();
    for (auto _ : state)
        benchmark::DoNotOptimize(rfx::analyzeLlm(m, rfx::LlmSettings {}, devices));
}
BENCHMARK(llmAnalyzeLlama70B4Devices)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
