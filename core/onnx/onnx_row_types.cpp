// What Translator (onnx_ops.cpp) reads off a row's tensors: the precision of an imported row (README
// "ONNX models", precision: the element widths the file gives its tensors and the type of its
// arithmetic), and why a tensor's shape is not known.
#include "onnx/onnx_internal.h"

#include <algorithm>

namespace rfx::onnximport {

std::uint8_t tensorBits(
    const std::string& tensor, const Shapes& shapes, const std::unordered_map<std::string, std::uint8_t>& folded)
{
    if (auto it = folded.find(tensor); it != folded.end())
        return it->second;
    auto it = shapes.elemTypes.find(tensor);
    return it == shapes.elemTypes.end() ? 0 : std::uint8_t(elementBits(it->second));
}

// The element widths the file gives the row's tensors, and the precision of its arithmetic (README
// "ONNX models", precision): a matrix row whose activations are 8-bit integers (QDQ folded,
// QLinearConv, ConvInteger) runs at int8, one whose activations are float8 (QDQ folded too) at fp8;
// a floating-point row at its widest floating-point tensor (bfloat16: bf16, not fp16);
// weights stored narrower (MatMulNBits' 4 bits) are widened on the fly and do not set it.
void setRowPrecision(Layer& l, const onnx::NodeProto& n, const std::vector<std::string>& live,
    const std::set<std::string>& weights, const std::string& out, const RowTypes& types)
{
    const Shapes& shapes = types.shapes;
    const auto& folded = types.folded;
    const auto& foldedTypes = types.foldedTypes;
    int widestFloat = 0, widestInteger = 0;
    NumberType widestFloatType = NumberType::Unset;
    auto note = [&](const std::string& t) {
        auto it = folded.count(t) ? shapes.elemTypes.end() : shapes.elemTypes.find(t);
        const int bits = tensorBits(t, shapes, folded);
        const bool floating = it != shapes.elemTypes.end() ? isFloatingType(it->second) : false;
        if (floating && bits > widestFloat)
            widestFloatType = arithmeticType(it->second);
        (floating ? widestFloat : widestInteger) = std::max(floating ? widestFloat : widestInteger, bits);
        return std::uint8_t(bits);
    };
    for (const auto& in : live)
        l.inBits.push_back(note(in));
    l.outBits = note(out);
    std::int64_t biggest = -1;
    for (const std::string& w : weights) {
        const Initializer& init = types.skeleton.initializers.find(w)->second;
        if (init.elements > biggest) {
            biggest = init.elements;
            l.weightBits = std::uint8_t(elementBits(init.dataType));
        }
    }
    if (n.op_type() == "MatMulNBits")
        l.weightBits = std::uint8_t(std::clamp<std::int64_t>(intAttr(n, "bits", 4), 1, 8));
    const std::uint8_t activation = l.inBits.empty() ? 0 : l.inBits.front();
    const bool integerActivation = !live.empty() && !folded.count(live.front())
        ? (shapes.elemTypes.count(live.front()) && !isFloatingType(shapes.elemTypes.at(live.front())))
        : folded.count(live.front()) > 0;
    NumberType type = NumberType::Unset; // the arithmetic's type, where its width alone does not say it
    if (runsOnMatrixUnits(l.op) || n.op_type() == "ConvInteger" || n.op_type() == "MatMulInteger"
        || n.op_type().starts_with("QLinear")) {
        l.computeBits = integerActivation ? std::uint8_t(8) : activation;
        if (auto f = live.empty() ? foldedTypes.end() : foldedTypes.find(live.front()); f != foldedTypes.end())
            type = f->second; // a folded float8 DequantizeLinear: an fp8 row
        else if (!integerActivation && !live.empty() && shapes.elemTypes.count(live.front()))
            type = arithmeticType(shapes.elemTypes.at(live.front()));
    } else {
        l.computeBits = std::uint8_t(widestFloat > 0 ? widestFloat : std::min(widestInteger, 32));
        type = widestFloat > 0 ? widestFloatType : NumberType::Unset;
    }
    if (l.computeBits == 0)
        l.computeBits = 32;
    // float8 rows are fp8, not int8; bfloat16 rows bf16, not fp16 (their ceilings differ).
    if (type != NumberType::Unset && numberBits(type) == l.computeBits && type != numberTypeOfBits(l.computeBits))
        l.computeType = type;
}

// Why a tensor's shape is not known, in words: not numbers, an operand whose value only the run gives
// (a Slice's starts, a Resize's scales, a Loop's iteration number), or no shape function.
std::string unknownShapeReason(
    const std::string& tensor, const onnx::NodeProto* node, const Skeleton& skeleton, const Shapes& shapes)
{
    const std::string what = "the shape of '" + tensor + "' ";
    auto kind = shapes.unmodelled.find(tensor);
    if (kind != shapes.unmodelled.end())
        return "'" + tensor + "' is " + kind->second + ", which the tool does not model (it counts tensors of numbers)";
    if (node) {
        for (const auto& in : node->input())
            if (auto k = shapes.unmodelled.find(in); k != shapes.unmodelled.end())
                return "it reads '" + in + "', " + k->second
                    + ", which the tool does not model (it counts tensors of numbers)";
        for (const auto& in : node->input())
            if (!in.empty() && !shapes.dims.count(in))
                return what + "depends on '" + in + "', whose shape depends on values computed at run time";
        // An operand whose value sets the shape (a Slice's starts, a Resize's scales, a Reshape's shape),
        // and the first operand where the output's size is what its values say (NonZero, Unique: how many
        // elements qualify; a window function: its length).
        static const char* valueShaped[] = { "NonZero", "Unique", "HannWindow", "HammingWindow", "BlackmanWindow",
            "ConstantOfShape", "Range", "MelWeightMatrix" };
        const bool fromValues = std::any_of(
            std::begin(valueShaped), std::end(valueShaped), [&](const char* op) { return node->op_type() == op; });
        for (int i = fromValues ? 0 : 1; i < node->input_size(); ++i) {
            const std::string& in = node->input(i);
            if (in.empty() || shapes.values.count(in))
                continue;
            const bool fed
                = std::find(skeleton.realInputs.begin(), skeleton.realInputs.end(), in) != skeleton.realInputs.end();
            auto d = shapes.dims.find(in);
            const bool bindable = fed && d != shapes.dims.end() && product(d->second) == 1;
            return what + "depends on the " + (fromValues ? "values" : "value") + " of '" + in + "', "
                + (fed ? "an input fed at run time" : "computed at run time")
                + "; the tool needs shapes it can compute before the run"
                + (bindable ? " (bind its value with --input-value " + in + "=V)" : std::string());
        }
    }
    return what + "could not be inferred (ONNX's shape inference gave none for this operator)";
}

} // namespace rfx::onnximport
