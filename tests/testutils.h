#pragma once

#include "devices/device.h"
#include "devices/device_loader.h"
#include "engine/calibration.h"
#include "engine/cost.h"
#include "engine/roofline.h"
#include "llm/llm_arch.h"
#include "measure/microbench.h"
#include "model/network.h"
#include "testpaths.h"

#include <QtTest>

#include <algorithm>
#include <string>

// Whether this build runs under AddressSanitizer: GCC says it with __SANITIZE_ADDRESS__, clang (the asan
// preset) with __has_feature. Tests that time the machine check their figures only without it (under it
// the kernels ran at 5-9 % of their rates); tests/CMakeLists.txt runs them alone only without it.
#if defined(__SANITIZE_ADDRESS__)
#define RFX_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RFX_TEST_SANITIZED 1
#endif
#endif
#ifndef RFX_TEST_SANITIZED
#define RFX_TEST_SANITIZED 0
#endif

namespace rfx::test {

/// Micro-benchmark options that finish in well under a second: figures to check, not to trust.
inline MicrobenchOptions quickMicrobench()
{
    MicrobenchOptions o;
    o.threads = 2;
    o.secondsPerTest = 0.005;
    o.repeats = 2;
    o.dramBytes = 8.0 * 1024 * 1024;
    o.kernelProbes = false; // oneDNN's probes stream a gigabyte: tst_microbench runs them once
    return o;
}

/// Writes `bytes` to `path` (a test's own fixture file); false if it cannot.
inline bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// The network's learnable parameters, and the multiply-adds of its matrix rows (convolutions, linear
/// layers, matrix products): what torchvision's model table and the papers quote.
inline std::int64_t params(const Network& net)
{
    std::int64_t p = 0;
    for (const Layer& l : net.layers)
        p += layerParams(l);
    return p;
}

inline double macs(const Network& net)
{
    double m = 0;
    for (const Layer& l : net.layers)
        if (runsOnMatrixUnits(l.op))
            m += forwardFlops(l) / 2;
    return m;
}

inline const Layer& layerNamed(const Network& net, const std::string& name)
{
    auto it = std::find_if(net.layers.begin(), net.layers.end(), [&](const Layer& l) { return l.name == name; });
    if (it == net.layers.end())
        qFatal("no layer named %s", name.c_str());
    return *it;
}

/// A built-in language model by id ("llama-3.1-8b"), as `llm --model ID` opens it.
inline LlmModel builtinModel(const char* id)
{
    LlmModel m;
    m.arch = *findLanguageModel(id);
    return m;
}

inline const Device& shippedDevice(const char* id)
{
    static const DeviceLibrary lib = loadDeviceLibrary({ ROOFLINE_TEST_DEVICES_DIR });
    const Device* d = lib.find(id);
    if (!d)
        qFatal("shipped device %s missing", id);
    return *d;
}

/// A made-up device with round numbers for hand-worked examples.
/// A calibration putting every row of `device` at half its roof (engine/calibration.h: time = overhead
/// + bound / efficiency), the memory-bound rows paying `memoryOverhead` a kernel run.
inline Calibration halfTheRoof(const char* device, double memoryOverhead = 0)
{
    Calibration c;
    c.deviceId = device;
    CalibrationGroup memory;
    memory.opClass = "all";
    memory.bound = Bound::Memory;
    memory.efficiency = 0.5;
    memory.overhead = memoryOverhead;
    CalibrationGroup compute = memory;
    compute.bound = Bound::Compute;
    compute.overhead = 0;
    c.groups = { memory, compute };
    return c;
}

inline Device roundDevice(double fp32Flops = 10e12, double bandwidth = 100e9)
{
    Device d;
    d.id = "round";
    d.name = "Round numbers";
    d.kind = "gpu";
    d.peak["fp32"] = fp32Flops;
    d.dramBandwidth = bandwidth;
    d.memoryBytes = 8.0 * (1 << 30);
    d.tdpWatts = 100;
    d.boostClockHz = 1e9;
    return d;
}

} // namespace rfx::test

// Relative comparison for doubles computed along different paths.
#define RFX_COMPARE_REL(actual, expected, rel)                                                                         \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected);                                                                   \
        if (!(std::abs(a_ - e_) <= (rel)*std::abs(e_)))                                                                \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 (rel. tol. %4)")                                     \
                                 .arg(QString::fromLatin1(#actual))                                                    \
                                 .arg(a_, 0, 'g', 12)                                                                  \
                                 .arg(e_, 0, 'g', 12)                                                                  \
                                 .arg(rel)));                                                                          \
    } while (0)

namespace rfx {
// Lets QCOMPARE print shapes (found by argument-dependent lookup).
inline char* toString(const Shape& s) { return qstrdup(shapeString(s).c_str()); }
}
