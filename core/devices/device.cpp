#include "device.h"

#include "format.h"

#include <algorithm>
#include <cctype>

namespace rfx {

namespace {
std::vector<std::string_view> wantedKeys(int bits, bool tensor)
{
    std::vector<std::string_view> keys;
    switch (bits) {
    case 8:
        if (tensor)
            keys.push_back("tensor_int8");
        keys.push_back("int8");
        break;
    case 16:
        if (tensor) {
            keys.push_back("tensor_fp16");
            keys.push_back("tensor_bf16");
        }
        keys.push_back("fp16");
        keys.push_back("bf16");
        break;
    case 64:
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
    const auto keys = wantedKeys(bits, tensor);
    for (std::string_view k : keys) {
        if (auto it = d.peak.find(k); it != d.peak.end()) {
            CeilingChoice c { std::string(k), it->second, {} };
            if (k != keys.front()) {
                c.note = d.name + " has no " + precisionLabel(keys.front()) + " ceiling; using its "
                    + precisionLabel(k) + " ceiling";
                // A slow fallback is a finding in itself: the MX230's FP16 runs at 1/64 of its FP32.
                if (auto fp32 = d.peak.find("fp32"); fp32 != d.peak.end() && it->second > 0 && fp32->second >= 2 * it->second)
                    c.note += ", " + formatNumber3(fp32->second / it->second) + "x slower than its FP32 ceiling ("
                        + formatSI(it->second, "FLOP/s") + " against " + formatSI(fp32->second, "FLOP/s") + ")";
            }
            return c;
        }
    }
    CeilingChoice c { "fp32", 0, {} };
    if (auto it = d.peak.find("fp32"); it != d.peak.end())
        c.flops = it->second;
    c.note = d.name + " has no " + precisionLabel(keys.front()) + " ceiling; using its FP32 ceiling";
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
