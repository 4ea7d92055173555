#pragma once

#include "base/number_type.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// One device's ceilings, in SI base units (FLOP/s, byte/s, byte, watt, hertz, second).
/// Loaded from devices/<id>.json, whose keys carry their units (fp32_tflops, dram_gbs, memory_gib, ...).
struct Device {
    std::string id; ///< lower-case, digits and '-', e.g. "rtx-2060-super"
    std::string name; ///< "NVIDIA GeForce RTX 2060 Super"
    std::string kind; ///< "gpu" or "cpu"
    std::string vendor;
    std::string architecture;
    /// Peak compute per precision key (see kPrecisionKeys), FLOP/s (int8: operations/s).
    std::map<std::string, double, std::less<>> peak;
    double dramBandwidth = 0; ///< byte/s
    double memoryBytes = 0; ///< device memory (system RAM for CPUs), byte
    double l1Bytes = 0; ///< per SM/core L1 or shared memory, byte (0 = unknown)
    double l2Bytes = 0; ///< byte
    double l3Bytes = 0; ///< byte (0 = none)
    /// Aggregate L2 bandwidth to the SMs/cores, byte/s (0 = unknown: the L2 level is not modelled).
    double l2Bandwidth = 0;
    /// Aggregate L1/shared-memory bandwidth over all SMs/cores, byte/s (0 = unknown).
    double l1Bandwidth = 0;
    /// Aggregate L3 (last-level cache) bandwidth to the cores, byte/s (0 = unknown or no L3).
    double l3Bandwidth = 0;
    int cores = 0; ///< CPU cores (a GPU file's figure is its CUDA cores or shaders); 0 = not given
    double tdpWatts = 0;
    double idleWatts = 0;
    double baseClockHz = 0; ///< 0 = unknown
    double boostClockHz = 0;
    double launchOverhead = 0; ///< seconds added per kernel launch (0 = ignored)
    /// The link that joins GPUs for tensor parallelism (resources/interconnects.json: NVLink through
    /// NVSwitch, a bridge, Infinity Fabric, PCIe), and how many GPUs it joins at most (8 on an HGX board,
    /// 2 over a bridge); empty and 0 where the file does not say (a CPU, a laptop GPU).
    std::string scaleUpLink;
    int scaleUpGpus = 0;
    /// What one GPU (or socket) costs an hour, US dollars (0: not given), and where and when that
    /// price was quoted (a cloud's on-demand list, a month): the serving plan's cost per token.
    double pricePerHour = 0;
    std::string priceSource;
    std::vector<std::string> sources; ///< spec pages the figures come from
    std::string notes;
    std::string file; ///< where it was loaded from
    bool userDevice = false; ///< loaded from the user's device folder
};

/// The precision keys a device file may give a ceiling for, as "<key>_tflops" (int8: "<key>_tops").
inline constexpr std::string_view kPrecisionKeys[] = { "fp64", "fp32", "fp16", "bf16", "int8", "tensor_fp64",
    "tensor_tf32", "tensor_fp16", "tensor_bf16", "tensor_fp8", "tensor_fp4", "tensor_int8" };

/// The compute ceiling an analysis uses, and why.
struct CeilingChoice {
    std::string key; ///< precision key actually used, e.g. "fp32" or "tensor_fp16"
    double flops = 0; ///< FLOP/s
    std::string note; ///< non-empty when the wanted ceiling was missing and another was used
};

/// The ceiling for `bits` (8: int8, 16: fp16 then bf16, 32: fp32, 64: fp64). With `tensorCores`, the
/// tensor-core ceiling of that precision (32 bits: TF32) where the device has one, else the same
/// precision on the vector units. Only a device without any ceiling of that precision falls back
/// to fp32. Every fallback is said in `note`, with how much slower than FP32 it is when it is at
/// least 2x (the MX230's FP16, 1/64 of its FP32 rate).
CeilingChoice chooseCeiling(const Device& device, int bits, bool tensorCores);
/// The ceiling for an arithmetic type: as above for int8, fp16, fp32 and fp64 (numberTypeOfBits); fp8 on
/// tensor cores takes tensor FP8 where the device has it, else the FP16 ceilings (the next wider float;
/// fp8 elementwise rows, computed at 16 bits by every runtime, take FP16's vector ceiling without a
/// note); bf16 takes the BF16 ceilings only, never FP16's (Turing has FP16 tensor cores, no BF16), and
/// falls back to FP32 with a note.
CeilingChoice chooseCeiling(const Device& device, NumberType type, bool tensorCores);

/// Human name of a precision key: "FP32", "tensor FP16", "INT8".
std::string precisionLabel(std::string_view key);

/// The unit of a ceiling's rate: "OP/s" for the integer precisions ("int8", "tensor_int4"), which count
/// operations, not floating-point ones; "FLOP/s" otherwise. One unit per precision kind, everywhere.
const char* rateUnit(std::string_view key);

} // namespace rfx
