#pragma once
// Internal to the ONNX importer (onnx_model.cpp, onnx_shapes.cpp, onnx_ops.cpp): the one header that
// includes ONNX's own. Nothing outside core/onnx/ includes it but tst_onnx_values, which tests the evaluator.

#include "model/network.h"
#include "onnx/onnx_model.h"

#include <onnx/onnx_pb.h>

#include <google/protobuf/io/zero_copy_stream.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace rfx::onnximport {

/// A problem with the file: the message names the node and field where there is one.
struct ImportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A small integer or float tensor whose values are known without running the network: constants and
/// shape computations (Shape, Gather, Slice, Concat, arithmetic), as exporters emit for crops and reshapes;
/// or a sequence of such tensors (SequenceEmpty, SequenceInsert), as scripted exporters build index lists.
struct Value {
    Value() = default;
    Value(std::vector<std::int64_t> d, std::vector<double> x, bool isInteger)
        : dims(std::move(d))
        , data(std::move(x))
        , integer(isInteger)
    {
    }
    std::vector<std::int64_t> dims;
    std::vector<double> data;
    bool integer = true;
    bool sequence = false; ///< a sequence: its tensors are `items`, dims and data are empty
    std::vector<Value> items;
};

struct Initializer {
    std::vector<std::int64_t> dims;
    std::int64_t elements = 1;
    bool floating = false;
    int dataType = 0; ///< TensorProto::DataType
    /// The weights a packed initializer holds, when not its elements (MatMulNBits' N x K in 4-bit pairs); -1: elements
    std::int64_t packedWeights = -1;
};

/// The parsed model without its weights: what every configuration starts from.
struct Skeleton {
    onnx::ModelProto model; ///< weights moved to typed graph inputs; small integer tensors keep their values
    std::map<std::string, Initializer, std::less<>> initializers; ///< every initializer of the file
    /// Initializers that steer an operator and are never parameters: BatchNormalization's running mean and
    /// variance, Resize's scales, Clip's bounds, Pad's value, quantization's scales and zero points
    std::set<std::string, std::less<>> statistics;
    /// Initializers that are parameters (onnx_params.cpp: learned operands whatever their size or type, and
    /// other floating-point initializers of more than one element)
    std::set<std::string, std::less<>> parameters;
    std::vector<std::string> realInputs; ///< graph inputs that are not initializers
    bool zeroSized = false; ///< an input has a fixed extent of 0 (an empty tensor by design): zero extents are allowed
};

/// Whether an initializer is a parameter (Skeleton::parameters).
inline bool isParameter(const Skeleton& s, const std::string& name) { return s.parameters.count(name) > 0; }

/// onnx_normalize.cpp: graphs as converters write them, in the one form the importer reads: model-local
/// functions inlined, Constant nodes and subgraph initializers made initializers of the main graph, the
/// nodes sorted topologically (a note says so when they were not).
void normalizeGraph(onnx::ModelProto& model, const std::string& file, std::vector<Diagnostic>& warnings);

/// onnx_params.cpp: fills Skeleton::statistics and Skeleton::parameters from how the nodes use the
/// initializers.
void classifyInitializers(Skeleton& skeleton);
/// onnx_params.cpp: an Info note when the exporter folded batch norm into the convolutions (no
/// BatchNormalization node, convolution weights renamed as folded constants).
void noteFoldedBatchNorm(
    const onnx::GraphProto& g, const Skeleton& s, const std::string& file, std::vector<Diagnostic>& warnings);

/// One node to translate, in order: the main graph's nodes, with the nodes of the control flow's chosen
/// branches and bodies spliced in after the node that runs them (onnx_control.cpp).
struct Step {
    const onnx::NodeProto* node = nullptr; ///< null for a link
    int index = 0; ///< the main graph's node (labels and default row names)
    double repeats = 1; ///< times the node runs: a Loop's trip count, a Scan's steps (nested: multiplied)
    std::string scope; ///< prefix of the row names: "" in the main graph, "loop/body/" in a body
    /// A link (node null): tensor `to` is tensor `from` (a subgraph's output becoming the node's, an
    /// actual input becoming a body's formal one); `from` empty: a constant (a Loop's iteration number)
    std::string from, to;
};

/// Inferred extents of every tensor, and the values of those that are known.
struct Shapes {
    std::unordered_map<std::string, std::vector<std::int64_t>> dims;
    std::unordered_map<std::string, Value> values;
    std::set<std::string, std::less<>> assumed; ///< outputs of unknown operators, assumed shaped as their first input
    std::vector<Step> steps; ///< what to translate, in order
    std::vector<Diagnostic> notes; ///< what the walk decided: the branch an If took, a Loop's trip count
    std::unordered_map<std::string, int> elemTypes; ///< each typed tensor's element type (TensorProto::DataType)
    /// Tensors that are not numbers: "a sequence", "a map", "an optional value", "strings" (why no row can read them)
    std::unordered_map<std::string, std::string> unmodelled;
    /// The Ifs whose condition is not known before the run (--branch names them), in the order met
    std::vector<std::string> openIfs;
};

/// Binds the inputs' symbolic extents (OnnxInput) and infers every tensor's shape with ONNX's own
/// shape inference, evaluating shape computations in between until every shape is known.
Shapes inferShapes(
    const Skeleton& skeleton, const std::vector<OnnxInput>& inputs, const Config& config, const std::string& file);

/// Turns the nodes into rows (onnx_ops.cpp): counted operators by the conventions of onnx_ops.h,
/// metadata and constant computations as nothing, unknown operators as uncounted rows.
Network translate(const Skeleton& skeleton, const Shapes& shapes, const Config& config, const std::string& file,
    const std::string& name);

/// onnx_batch.cpp: a model's network as a line in the batch, learnt from three builds at different
/// batches (every row, shape and note the same but for numbers linear in the batch); at() evaluates it
/// at another batch, or gives nothing where an extent would not be whole (then the model is built).
struct BatchLine {
    bool valid = false;
    Network low, high;
    int lowBatch = 0, highBatch = 0;
    bool learn(const Network& a, int batchA, const Network& b, int batchB, const Network& c, int batchC);
    std::optional<Network> at(int batch) const;
};

/// onnx_skim.cpp: parses a model from `stream` without the values of its large tensors (their bytes are
/// skipped while reading, never held); false when the bytes are not a valid ONNX protobuf message.
bool skimModel(google::protobuf::io::ZeroCopyInputStream& stream, onnx::ModelProto& model);

/// Checks a parsed model, drops its weights and probes its image size (onnx_model.cpp); throws ImportError.
std::shared_ptr<const OnnxModel> finishModel(onnx::ModelProto&& model, const std::string& file);

// onnx_row_types.cpp: an imported row's element widths and arithmetic, and why a shape is unknown.
/// Why `tensor`'s shape is not known (read by `node`, or null), in words: not numbers, an operand whose
/// value only the run gives (a Slice's starts, a Resize's scales, a Loop's iteration number), or no
/// shape function.
std::string unknownShapeReason(
    const std::string& tensor, const onnx::NodeProto* node, const Skeleton& skeleton, const Shapes& shapes);
/// A tensor's element width in bits: a folded DequantizeLinear output's (`folded`: its input's), else
/// the type the walk found; 0 where unknown.
std::uint8_t tensorBits(
    const std::string& tensor, const Shapes& shapes, const std::unordered_map<std::string, std::uint8_t>& folded);
/// What a row's precision is read from: the model, its shapes and the folded DequantizeLinear outputs
/// (their widths, and their arithmetic: int8, or fp8 for float8 inputs).
struct RowTypes {
    const Skeleton& skeleton;
    const Shapes& shapes;
    const std::unordered_map<std::string, std::uint8_t>& folded;
    const std::unordered_map<std::string, NumberType>& foldedTypes;
};
/// The element widths the file gives the row's tensors (`live` inputs, `weights`, `out`), and the
/// precision of its arithmetic: a matrix row whose activations are 8-bit integers (QDQ folded,
/// QLinearConv, ConvInteger) runs at int8, one whose activations are float8 at fp8; a floating-point
/// row at its widest floating-point tensor (bfloat16: bf16, not fp16); weights stored narrower
/// (MatMulNBits' 4 bits) are widened on the fly and do not set it.
void setRowPrecision(Layer& l, const onnx::NodeProto& n, const std::vector<std::string>& live,
    const std::set<std::string>& weights, const std::string& out, const RowTypes& types);

// onnx_skeleton.cpp: the steps of finishModel before the inputs are described.
/// IR versions 3 to 11 (and newer, with a warning): read as IR 8 by ONNX 1.12's checker.
void readIrVersion(onnx::ModelProto& model, const std::string& file, std::vector<Diagnostic>& warnings);
/// Moves every initializer out of the graph: floating-point weights become typed graph inputs (shape
/// inference needs only their shapes), small integer tensors stay with their values.
Skeleton makeSkeleton(onnx::ModelProto&& model, const std::string& file, std::vector<Diagnostic>& warnings);
/// Refuses the zero strides, dilations, kernel shapes, block sizes, groups and sizes ONNX 1.12's shape
/// functions divide by, naming the node and attribute.
void checkAttributes(const onnx::GraphProto& graph, const std::string& file);

/// The width in bits of an element of ONNX type `dataType` (FLOAT 32, FLOAT16 16, INT8 8, INT4 4, ...),
/// 0 for strings and unknown types.
int elementBits(int dataType);
/// Whether ONNX type `dataType` is a floating-point type.
bool isFloatingType(int dataType);
/// The arithmetic an element of ONNX type `dataType` computes in: FLOAT8* and FLOAT4E2M1 fp8, BFLOAT16 bf16,
/// FLOAT16 fp16, FLOAT fp32, DOUBLE fp64, (U)INT8 and (U)INT4 int8; Unset for other types.
NumberType arithmeticType(int dataType);

/// onnx_optable.cpp: the counting conventions (onnxConventions()); FLOPs per output element of an
/// elementwise operator (nothing if it is not one); the free metadata operators; the data-movement
/// operators; the engine shape of ONNX extents; a row name from a node name (PyTorch's scopes shortened).
std::string conventionsOfImport();
std::optional<double> elementwiseOps(const std::string& op);
bool isFree(const std::string& op);
bool isDataMovement(const std::string& op);
Shape toShape(const std::vector<std::int64_t>& extents);
std::string shortName(const std::string& nodeName);

/// The newest ONNX opset whose operators the importer knows (onnx_adapt.cpp; ONNX 1.18's set).
inline constexpr int kNewestOpset = 23;
/// The private domain of the standard operators that ONNX 1.12's checker and shape functions cannot take
/// (opset-18-23 signatures, operators new since 17, unknown ones): onnx_adapt.cpp moves them there.
inline constexpr const char* kAdaptedDomain = "org.roofline-explorer.adapted";

/// Whether a node is a standard ONNX operator (the default domain, "ai.onnx", or adapted).
inline bool isStandard(const onnx::NodeProto& n)
{
    return n.domain().empty() || n.domain() == "ai.onnx" || n.domain() == kAdaptedDomain;
}

/// onnx_adapt.cpp: brings opsets 18-23 in front of ONNX 1.12 (the standard opset set to 17, the changed
/// and new operators moved to kAdaptedDomain) and newer versions of other domains down to 1.12's.
void adaptOpsets(onnx::ModelProto& model, const std::string& file, std::vector<Diagnostic>& warnings);

using TypeMap = std::unordered_map<std::string, onnx::TypeProto*>;
using DataMap = std::unordered_map<std::string, const onnx::TensorProto*>;
using Outputs = std::vector<std::optional<onnx::TypeProto>>;
/// onnx_adapted_shapes.cpp: the output types of an adapted node from its inputs' types and known values
/// (empty or unset: unknown); throws ImportError (without file and node, which the caller adds).
Outputs adaptedShapes(const onnx::NodeProto& node, const TypeMap& types, const DataMap& data, const Shapes& shapes);
/// The same for ONNX Runtime's contrib operators (com.microsoft: MatMulNBits, QGemm, FusedConv, ...).
Outputs contribShapes(const onnx::NodeProto& node, const TypeMap& types, const DataMap& data, const Shapes& shapes);
/// Shapes ONNX 1.12's own functions leave unknown though the inputs fix them: LayerNormalization's Mean
/// and InvStdDev, Einsum's output, Gradient's outputs.
Outputs missingShapes(const onnx::NodeProto& node, const TypeMap& types, const DataMap& data, const Shapes& shapes);
/// LSTM, GRU and RNN by the tool's own rule (layout, directions, hidden size from the attribute or R) when
/// X's extents are known; empty otherwise. Used before ONNX 1.12's, which gives none, or refuses, when X
/// comes through a chain its inference does not see through.
Outputs recurrentShapes(const onnx::NodeProto& node, const TypeMap& types, const DataMap& data, const Shapes& shapes);
/// Einsum's FLOPs: 2 per combination of its letters' indices with two or more operands (a multiply and an
/// add), 1 with one (a sum); -1 when the equation cannot be read.
double einsumFlops(
    const onnx::NodeProto& node, const std::function<const std::vector<std::int64_t>&(const std::string&)>& dims);
/// Operators new since 17 whose output has their first input's shape (Gelu, GroupNormalization, ...).
bool sameShapeAsInput(const std::string& op);

/// onnx_count.cpp: a counted node's row. `dims` gives a tensor's extents (throwing ImportError when they
/// are unknown); `file` and `where` ("node 'x' (Conv)") name the node in messages.
struct CountContext {
    std::function<const std::vector<std::int64_t>&(const std::string&)> dims;
    const std::string& file;
    const std::string& where;
};
/// Sets the row's operator and counts (Layer::op, opsPerElement, kernel, groups); false when the tool
/// does not count the operator.
bool countRow(const onnx::NodeProto& node, Layer& row, const CountContext& context);
/// The inputs that hold a matrix row's weight and bias (-1: none): Conv 1 and 2, QLinearConv 3 and 8, ...
struct MatrixOperands {
    int weight = -1, bias = -1;
};
MatrixOperands matrixOperands(const onnx::NodeProto& node);

/// A node's attribute by name, or null; an integer attribute, or `fallback` when absent.
inline const onnx::AttributeProto* attribute(const onnx::NodeProto& n, const char* name)
{
    for (const auto& a : n.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

inline std::int64_t intAttr(const onnx::NodeProto& n, const char* name, std::int64_t fallback)
{
    const auto* a = attribute(n, name);
    return a ? a->i() : fallback;
}

/// "node 'conv1' (Conv)" or "node 12 (Conv)" when the node has no name.
std::string nodeLabel(const onnx::NodeProto& node, int index);

/// Values are read from the file for tensors of at most this many elements (larger ones are weights,
/// whose bytes are skipped while reading).
inline constexpr size_t kMaxValueElements = 4096;
/// Values are computed for outputs of at most this many elements (an index tensor built by a Loop, a mask
/// from Range and Less), and at most kEvaluationBudget elements are computed in one build, all nodes and
/// Loop trips together: what a model computes before the run stays a few milliseconds of work.
inline constexpr size_t kMaxComputedElements = 65536;
inline constexpr std::int64_t kEvaluationBudget = std::int64_t(1) << 24;
/// A Loop is run trip by trip for its values for at most this many trips.
inline constexpr std::int64_t kMaxEvaluatedTrips = 4096;

/// Reads a tensor's values when it is small and stored in the file (integers and floats, up to 4,096).
bool readValue(const onnx::TensorProto& tensor, Value& value);

/// Where the evaluator finds what a node reads: a tensor's known value, a tensor's extents (Shape and Size
/// need no values), its element type (CastLike), the opset, and the elements it may still compute.
struct ValueScope {
    std::function<const Value*(const std::string&)> value;
    std::function<const std::vector<std::int64_t>*(const std::string&)> dims;
    std::function<int(const std::string&)> elemType;
    int opset = 17;
    std::int64_t* budget = nullptr;
};

/// onnx_evaluate.cpp: the values of each of a node's outputs when all that it reads is known (an output
/// nothing: not computable), by ONNX's reference semantics: the tensor-manipulation and arithmetic
/// operators models compute shapes, pads, indices and conditions with, the sequence operators, and If and
/// Loop (a computable trip count, the body run trip by trip). Never throws.
std::vector<std::optional<Value>> evaluateNode(const onnx::NodeProto& node, const ValueScope& scope);
/// The names of the operators evaluateNode computes (README, closing notes, tests).
const std::vector<std::string>& evaluatedOperators();

/// onnx_values.cpp: the extents' product (-1 on overflow); a value as an INT64 or FLOAT tensor named `name`.
std::int64_t product(const std::vector<std::int64_t>& dims);
onnx::TensorProto valueTensor(const std::string& name, const Value& value);

} // namespace rfx::onnximport
