// What ONNX 1.12's shape functions take on trust, checked before them: the attributes and input ranks
// each operator's shape function reads without checking (checkNode).
#include "onnx/onnx_walker.h"

#include <optional>
#include <string_view>

namespace rfx::onnximport {

namespace {

// The axis an operator takes when its node names none (ONNX's operator docs, opsets 13-17), for the
// operators whose shape functions index the input's dimensions by it.
std::optional<std::int64_t> defaultAxis(const std::string& op)
{
    static const std::pair<const char*, std::int64_t> defaults[] = {
        { "LayerNormalization", -1 },
        { "Softmax", -1 },
        { "LogSoftmax", -1 },
        { "Hardmax", -1 },
        { "TopK", -1 },
        { "Gather", 0 },
        { "GatherElements", 0 },
        { "Split", 0 },
        { "ArgMax", 0 },
        { "ArgMin", 0 },
        { "Flatten", 1 },
    };
    for (const auto& [name, axis] : defaults)
        if (op == name)
            return axis;
    return std::nullopt;
}

} // namespace

// What ONNX 1.12's shape functions take on trust: they divide by steps and read attributes by the
// input's rank without checking (a zero Slice step, a 2-D input to Conv: crashes inside libonnx found by
// fuzz_onnx). Refused here, with the node named.
void checkNode(const onnx::NodeProto& n, int index, const Shapes& s, const std::string& file)
{
    struct Rule {
        const char* op;
        int input;
        double min; // every value must be >= min (nonzero: must not be 0)
        bool nonzero;
        const char* what;
    };
    static const Rule rules[] = {
        { "Slice", 4, 0, true, "steps: must not be 0" },
        { "Resize", 2, 1e-6, false, "scales: must be positive" },
        { "Resize", 3, 1, false, "sizes: must be positive" },
        { "Upsample", 1, 1e-6, false, "scales: must be positive" },
        { "Tile", 1, 0, false, "repeats: must be 0 or more" },
        { "Reshape", 1, -1, false, "shape: extents must be -1, 0 or positive" },
        { "Expand", 1, 0, false, "shape: extents must be 0 or more" },
        { "ConstantOfShape", 0, 0, false, "input: extents must be 0 or more" },
        { "Range", 2, 0, true, "delta: must not be 0" },
        { "TopK", 1, 0, false, "k: must be 0 or more" },
    };
    auto fail = [&](const std::string& why) { throw ImportError(file + ": " + nodeLabel(n, index) + ": " + why); };
    const std::string& op = n.op_type();
    for (const Rule& r : rules) {
        if (op != r.op || r.input >= n.input_size())
            continue;
        auto it = s.values.find(n.input(r.input));
        if (it == s.values.end())
            continue;
        for (double v : it->second.data)
            if (r.nonzero ? v == 0 : (v < r.min || v > 1e12))
                fail(r.what);
    }
    // Axes and permutations within the input's rank (LayerNormalization's shape function indexes by its
    // axis unchecked: a SEGV found by fuzz_onnx).
    auto inputRank = [&]() -> int {
        if (n.input_size() == 0)
            return -1;
        auto it = s.dims.find(n.input(0));
        return it == s.dims.end() ? -1 : int(it->second.size());
    };
    if (const int r = inputRank(); r >= 0) {
        const bool growing = op == "Unsqueeze";
        // An absent axis takes the operator's default, which the shape functions index by just as
        // unchecked: LayerNormalization's -1 on a rank-0 input is a SEGV inside libonnx (fuzz_onnx, CI).
        if (const auto d = defaultAxis(op); d
            && std::none_of(
                n.attribute().begin(), n.attribute().end(), [](const auto& a) { return a.name() == "axis"; })) {
            const std::int64_t hi = op == "Flatten" ? r + 1 : r;
            if (*d < -hi || *d >= hi)
                fail("axis: the default " + std::to_string(*d) + " is outside the input's " + std::to_string(r)
                    + " dimensions");
        }
        for (const auto& a : n.attribute()) {
            const std::int64_t hi = op == "Flatten" ? r + 1 : op == "OneHot" ? r + 1 : growing ? r + a.ints_size() : r;
            auto inRange = [&](std::int64_t v) { return v >= -hi && v < hi; };
            if (a.name() == "axis" && a.type() == onnx::AttributeProto::INT && !inRange(a.i()))
                fail("axis: " + std::to_string(a.i()) + " is outside the input's " + std::to_string(r) + " dimensions");
            if (a.name() == "axes")
                for (auto v : a.ints())
                    if (!inRange(v))
                        fail("axes: " + std::to_string(v) + " is outside the input's " + std::to_string(r)
                            + " dimensions");
            if (a.name() == "perm") {
                std::vector<bool> seen(size_t(r), false);
                bool ok = a.ints_size() == r;
                for (auto v : a.ints()) {
                    ok = ok && v >= 0 && v < r && !seen[size_t(v)];
                    if (ok)
                        seen[size_t(v)] = true;
                }
                if (!ok)
                    fail("perm: not a permutation of the input's " + std::to_string(r) + " dimensions");
            }
        }
        // Operands whose length must match the rank.
        auto length = [&](int input) -> long {
            if (input >= n.input_size())
                return -1;
            auto it = s.values.find(n.input(input));
            return it == s.values.end() ? -1 : long(it->second.data.size());
        };
        const bool adapted = n.domain() == kAdaptedDomain; // opset-18 Pad and Resize take axes: checked by their shapes
        if ((op == "Tile" && length(1) >= 0 && length(1) != r)
            || (op == "Pad" && !adapted && length(1) >= 0 && length(1) != 2 * r)
            || (op == "Resize" && !adapted && ((length(2) > 0 && length(2) != r) || (length(3) > 0 && length(3) != r)))
            || (op == "Upsample" && length(1) >= 0 && length(1) != r))
            fail("an operand's length does not match the input's " + std::to_string(r) + " dimensions");
    }
    static const char* convPool[] = { "Conv", "ConvTranspose", "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool",
        "GlobalMaxPool", "GlobalLpPool", "ConvInteger", "QLinearConv", "MaxRoiPool", "MaxUnpool" };
    if (std::find_if(std::begin(convPool), std::end(convPool), [&](const char* c) { return op == c; })
        == std::end(convPool))
        return;
    auto rankOf = [&](int input) -> int {
        if (input >= n.input_size())
            return -1;
        auto it = s.dims.find(n.input(input));
        return it == s.dims.end() ? -1 : int(it->second.size());
    };
    const int rank = rankOf(0);
    if (rank >= 0 && rank < 3)
        fail("the input has rank " + std::to_string(rank) + "; convolutions and pools need [N, C, spatial...]");
    const bool weighted = op == "Conv" || op == "ConvTranspose" || op == "ConvInteger";
    if (weighted && rank >= 0 && rankOf(1) >= 0 && rankOf(1) != rank)
        fail("the weight has rank " + std::to_string(rankOf(1)) + ", the input rank " + std::to_string(rank));
    if (rank < 0)
        return;
    for (const auto& a : n.attribute()) {
        const int expected = a.name() == "pads" ? 2 * (rank - 2)
            : (a.name() == "kernel_shape" || a.name() == "strides" || a.name() == "dilations"
                  || a.name() == "output_padding" || a.name() == "output_shape")
            ? rank - 2
            : -1;
        if (expected >= 0 && a.ints_size() != expected)
            fail(a.name() + ": " + std::to_string(a.ints_size()) + " values for " + std::to_string(rank - 2)
                + " spatial dimensions");
    }
}

} // namespace rfx::onnximport
