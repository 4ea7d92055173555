#include "devices/device.h"

#include "base/format.h"

#include <algorithm>
#include <cctype>

namespace rfx {

namespace {
std::vector<std::string_view> wantedKeys(NumberType type, bool tensor)
{
    std::vector<std::string_view> keys;
    switch (type) {
    case NumberType::Int8:
        if (tensor)
            keys.push_back("tensor_int8");
        keys.push_back("int8");
        break;
    case NumberType::Fp8:
        // FP8 exists on tensor cores only (Hopper, Ada, MI300); without them, or on the vector units (an
        // fp8 file's elementwise rows, which runtimes compute at 16 bits), the next wider float, FP16.
        if (tensor)
            keys.push_back("tensor_fp8");
        [[fallthrough]];
    case NumberType::Fp16:
        if (tensor) {
            keys.push_back("tensor_fp16");
            keys.push_back("tensor_bf16");
        }
        keys.push_back("fp16");
        keys.push_back("bf16");
        break;
    case NumberType::Bf16:
        // Not FP16's ceilings: a Turing GPU (T4, RTX 2060) has FP16 tensor cores and no BF16 at all.
        if (tensor)
            keys.push_back("tensor_bf16");
        keys.push_back("bf16");
        break;
    case NumberType::Fp64:
        if (tensor)
            keys.push_back("tensor_fp64");
        keys.push_back("fp64");
        break;
    default:
        if (tensor)
            keys.push_back("tensor_tf32");
        keys.push_back("fp32");
        break;
    }
    return keys;
}
} // namespace

CeilingChoice chooseCeiling(const Device& d, int bits, bool tensor)
{
    return chooseCeiling(d, numberTypeOfBits(bits), tensor);
}

CeilingChoice chooseCeiling(const Device& d, NumberType type, bool tensor)
{
    const auto keys = wantedKeys(type, tensor);
    // What a fallback is said against: the first key asked for; on a CPU its first vector key, as a
    // language model asks every device for matrix units and a CPU without them (AMX, which a file
    // may give as tensor_bf16) is no finding ("has no tensor TF32 ceiling" under every CPU's chart).
    // FP8 stays said as asked: it exists on matrix units only, and its fallback is one on any device.
    std::string_view asked = keys.front();
    if (d.kind == "cpu" && asked != "tensor_fp8")
        for (std::string_view k : keys)
            if (!k.starts_with("tensor_")) {
                asked = k;
                break;
            }
    for (std::string_view k : keys) {
        if (auto it = d.peak.find(k); it != d.peak.end()) {
            CeilingChoice c { std::string(k), it->second, {} };
            if (k != keys.front() && k != asked) {
                c.note = d.name + " has no " + precisionLabel(asked) + " ceiling; using its " + precisionLabel(k)
                    + " ceiling";
                // A slow fallback is a finding in itself: the MX230's FP16 runs at 1/64 of its FP32.
                if (auto fp32 = d.peak.find("fp32");
                    fp32 != d.peak.end() && it->second > 0 && fp32->second >= 2 * it->second)
                    c.note += ", " + formatNumber3(fp32->second / it->second) + "x slower than its FP32 ceiling ("
                        + formatSI(it->second, "FLOP/s") + " against " + formatSI(fp32->second, "FLOP/s") + ")";
            }
            return c;
        }
    }
    CeilingChoice c { "fp32", 0, {} };
    if (auto it = d.peak.find("fp32"); it != d.peak.end())
        c.flops = it->second;
    c.note = d.name + " has no " + precisionLabel(asked) + " ceiling; using its FP32 ceiling";
    return c;
}

const char* rateUnit(std::string_view key) { return key.find("int") != std::string_view::npos ? "OP/s" : "FLOP/s"; }

std::string precisionLabel(std::string_view key)
{
    std::string s;
    std::string_view rest = key;
    if (rest.starts_with("tensor_")) {
        s = "tensor ";
        rest.remove_prefix(7);
    }
    for (char ch : rest)
        s += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

} // namespace rfx
