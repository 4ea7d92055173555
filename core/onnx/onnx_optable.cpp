// The operator table of the ONNX importer: FLOPs per element of the elementwise operators, which
// operators are free or data movement, ONNX Runtime's Gelu contrib operators, the conventions text,
// and how names and shapes are taken from the file. The node-to-row pass is onnx_ops.cpp.
#include "onnx/onnx_internal.h"

#include <map>
#include <optional>

namespace rfx::onnximport {

// FLOPs per output element of the elementwise operators (each arithmetic operation and each
// transcendental function counts 1; comparisons count 1).
std::optional<double> elementwiseOps(const std::string& op)
{
    // A table, by kind (activations, arithmetic, comparisons, normalizations, ...):
    // clang-format off
    static const std::map<std::string, double, std::less<>> table {
        { "Relu", 1 }, { "LeakyRelu", 2 }, { "PRelu", 2 }, { "Elu", 3 }, { "Selu", 4 }, { "Sigmoid", 4 },
        { "Tanh", 1 }, { "HardSigmoid", 4 }, { "HardSwish", 5 }, { "Clip", 2 }, { "Erf", 1 }, { "Gelu", 5 },
        { "Softplus", 3 }, { "Mish", 6 }, { "Add", 1 }, { "Sub", 1 }, { "Mul", 1 }, { "Div", 1 }, { "Pow", 1 },
        { "Sqrt", 1 }, { "Exp", 1 }, { "Log", 1 }, { "Neg", 1 }, { "Abs", 1 }, { "Reciprocal", 1 }, { "Floor", 1 },
        { "Ceil", 1 }, { "Round", 1 }, { "Sign", 1 }, { "Sin", 1 }, { "Cos", 1 }, { "Min", 1 }, { "Max", 1 },
        { "Mean", 1 }, { "Sum", 1 }, { "Where", 1 }, { "Equal", 1 }, { "Less", 1 }, { "Greater", 1 },
        { "LessOrEqual", 1 }, { "GreaterOrEqual", 1 }, { "Not", 1 }, { "And", 1 }, { "Or", 1 }, { "Xor", 1 },
        { "Softmax", 5 }, { "LogSoftmax", 5 }, { "InstanceNormalization", 7 }, { "LayerNormalization", 7 },
        { "GroupNormalization", 7 }, { "LpNormalization", 3 }, { "RMSNormalization", 4 },
        // ONNX Runtime's RMS normalization, registered in the default domain (its GenAI models write it so)
        { "SimplifiedLayerNormalization", 4 }, { "RotaryEmbedding", 3 },
        { "BitwiseAnd", 1 }, { "BitwiseOr", 1 }, { "BitwiseXor", 1 }, { "BitwiseNot", 1 }, { "Swish", 5 },
        { "IsNaN", 1 }, { "IsInf", 1 }, { "Shrink", 2 }, { "ThresholdedRelu", 1 }, { "Softsign", 3 }, { "Mod", 1 },
        { "Atan", 1 }, { "Asin", 1 }, { "Acos", 1 }, { "Tan", 1 }, { "Sinh", 1 }, { "Cosh", 1 }, { "Asinh", 1 },
        { "Acosh", 1 }, { "Atanh", 1 }, { "BitShift", 1 }, { "Celu", 3 }, { "Hardmax", 2 }, { "CumSum", 1 },
    };
    // clang-format on
    auto it = table.find(op);
    return it == table.end() ? std::nullopt : std::optional<double>(it->second);
}

bool isFree(const std::string& op)
{
    return op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze" || op == "Identity"
        || op == "Dropout" || op == "Shape" || op == "Size" || op == "Constant" || op == "ConstantOfShape";
}

bool isDataMovement(const std::string& op)
{
    return op == "Split" || op == "Slice" || op == "Pad" || op == "Transpose" || op == "Gather"
        || op == "GatherElements" || op == "Expand" || op == "Tile" || op == "Cast" || op == "DepthToSpace"
        || op == "SpaceToDepth" || op == "ScatterND" || op == "GatherND" || op == "CastLike" || op == "ScatterElements"
        || op == "Scatter" || op == "Col2Im" || op == "CenterCropPad" || op == "ReverseSequence" || op == "Compress"
        || op == "OneHot" || op == "Trilu" || op == "EyeLike";
}

int elementBits(int t)
{
    using T = onnx::TensorProto;
    switch (t) {
    case T::DOUBLE:
    case T::INT64:
    case T::UINT64:
    case T::COMPLEX64:
        return 64;
    case T::FLOAT:
    case T::INT32:
    case T::UINT32:
        return 32;
    case T::FLOAT16:
    case T::BFLOAT16:
    case T::INT16:
    case T::UINT16:
        return 16;
    case T::INT8:
    case T::UINT8:
    case T::BOOL:
        return 8;
    case 17:
    case 18:
    case 19:
    case 20: // FLOAT8E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ (IR 9)
        return 8;
    case 21:
    case 22: // UINT4, INT4 (IR 10)
    case 23: // FLOAT4E2M1 (IR 11)
        return 4;
    case T::COMPLEX128:
        return 128;
    default:
        return 0;
    }
}

bool isFloatingType(int t)
{
    using T = onnx::TensorProto;
    return t == T::FLOAT || t == T::DOUBLE || t == T::FLOAT16 || t == T::BFLOAT16 || (t >= 17 && t <= 20) || t == 23;
}

NumberType arithmeticType(int t)
{
    using T = onnx::TensorProto;
    switch (t) {
    case T::DOUBLE:
        return NumberType::Fp64;
    case T::FLOAT:
        return NumberType::Fp32;
    case T::FLOAT16:
        return NumberType::Fp16;
    case T::BFLOAT16:
        return NumberType::Bf16;
    case 17:
    case 18:
    case 19:
    case 20: // FLOAT8E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ (IR 9)
    case 23: // FLOAT4E2M1 (IR 11): no FP4 ceiling in any device file; the next one up
        return NumberType::Fp8;
    case T::INT8:
    case T::UINT8:
    case 21:
    case 22: // INT4, UINT4 (IR 10): the next one up
        return NumberType::Int8;
    default:
        return NumberType::Unset;
    }
}

Shape toShape(const std::vector<std::int64_t>& d)
{
    Shape s { 1, 1, 1, 1, int(d.size()) };
    std::int64_t* four[] = { &s.n, &s.c, &s.h, &s.w };
    std::int64_t* five[] = { &s.n, &s.c, &s.d, &s.h, &s.w };
    if (d.size() > 5) { // [N, C, folded middle, H, W]
        s.n = d[0], s.c = d[1], s.h = d[d.size() - 2], s.w = d.back();
        for (size_t i = 2; i + 2 < d.size(); ++i)
            s.d *= d[i];
        return s;
    }
    for (size_t i = 0; i < d.size() && i < 5; ++i)
        *(d.size() == 5 ? five[i] : four[i]) = d[i];
    if (d.empty())
        s.rank = 1; // a scalar: one element
    return s;
}

// PyTorch's scope names repeat each parent: "/layer1/layer1.0/conv1/Conv" -> "layer1.0/conv1/Conv",
// "/features/features.0/Conv" -> "features.0/Conv". Other names stay as they are.
std::string shortName(const std::string& name)
{
    if (name.size() < 2 || name.front() != '/')
        return name;
    std::vector<std::string> parts;
    for (size_t at = 1; at <= name.size();) {
        const size_t slash = std::min(name.find('/', at), name.size());
        parts.push_back(name.substr(at, slash - at));
        at = slash + 1;
    }
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        const bool parentOfNext = i + 1 < parts.size() && parts[i + 1].starts_with(parts[i] + ".");
        if (!parentOfNext && !parts[i].empty())
            out += (out.empty() ? "" : "/") + parts[i];
    }
    return out.empty() ? name : out;
}

std::string conventionsOfImport()
{
    return "ONNX operators: Conv, ConvTranspose, Gemm and MatMul count 2 FLOP a multiply-add (ConvTranspose at its "
           "input positions) and run on the matrix ceiling; a bias is its own row (1 FLOP an element); elementwise "
           "operators count each arithmetic operation and each transcendental as 1 FLOP an output element "
           "(Sigmoid 4, HardSwish 5, Gelu 5, Softmax 5, Instance/LayerNormalization 7, BatchNormalization 2); "
           "reductions and pools count their window; data movement (Slice, Pad, Transpose, Gather, Concat, Resize "
           "nearest) 0 FLOP; Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout and shape computations are "
           "free and not rows; LSTM/GRU/RNN count 2 G H (I + H) a step and Attention 2 Dk + 2 Dv + 6 a score, on the "
           "matrix ceiling; QuantizeLinear 3, DequantizeLinear 2 an element, folded into a matrix row they wrap (QDQ); "
           "an If counts the branch its condition computes to (else the heavier, noted), a Loop its body per trip, a "
           "Scan per step; operators the tool does not know are rows with 0 FLOP, marked uncounted; parameters are "
           "the learned operands (weights, biases, normalization scales and shifts, integer weights of quantized "
           "operators) whatever their size, and other floating-point initializers of more than one element, each "
           "once, without BatchNormalization's running statistics, steering operands and quantization scales";
}

} // namespace rfx::onnximport
