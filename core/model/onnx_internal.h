#pragma once
// Internal to the ONNX importer (onnx_model.cpp, onnx_shapes.cpp, onnx_ops.cpp): the one header that
// includes ONNX's own. Nothing outside core/model/onnx_* includes it.

#include "network.h"
#include "onnx_model.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
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
/// shape computations (Shape, Gather, Slice, Concat, arithmetic), as exporters emit for crops and reshapes.
struct Value {
    std::vector<std::int64_t> dims;
    std::vector<double> data;
    bool integer = true;
};

struct Initializer {
    std::vector<std::int64_t> dims;
    std::int64_t elements = 1;
    bool floating = false;
};

/// The parsed model without its weights: what every configuration starts from.
struct Skeleton {
    onnx::ModelProto model; ///< weights moved to typed graph inputs; small integer tensors keep their values
    std::map<std::string, Initializer, std::less<>> initializers; ///< every initializer of the file
    /// Floating-point initializers that are not parameters: BatchNormalization's running mean and variance,
    /// Resize's scales, Clip's bounds, Pad's value
    std::set<std::string, std::less<>> statistics;
    std::vector<std::string> realInputs; ///< graph inputs that are not initializers
};

/// Whether an initializer is a parameter: floating point, not in Skeleton::statistics, and not a scalar
/// constant (a divisor, an exponent).
inline bool isParameter(const Skeleton& s, const std::string& name, const Initializer& init)
{
    return init.floating && !s.statistics.count(name) && init.elements > 1;
}

/// Inferred extents of every tensor, and the values of those that are known.
struct Shapes {
    std::unordered_map<std::string, std::vector<std::int64_t>> dims;
    std::unordered_map<std::string, Value> values;
    std::set<std::string, std::less<>> assumed; ///< outputs of unknown operators, assumed shaped as their first input
};

/// Binds the inputs' symbolic extents (OnnxInput) and infers every tensor's shape with ONNX's own
/// shape inference, evaluating shape computations in between until every shape is known.
Shapes inferShapes(const Skeleton& skeleton, const std::vector<OnnxInput>& inputs, const Config& config, const std::string& file);

/// Turns the nodes into rows (onnx_ops.cpp): counted operators by the conventions of onnx_ops.h,
/// metadata and constant computations as nothing, unknown operators as uncounted rows.
Network translate(const Skeleton& skeleton, const Shapes& shapes, const Config& config, const std::string& file,
    const std::string& name);

/// Checks a parsed model, drops its weights and probes its image size (onnx_model.cpp); throws ImportError.
std::shared_ptr<const OnnxModel> finishModel(onnx::ModelProto&& model, const std::string& file);

/// onnx_optable.cpp: the counting conventions (onnxConventions()); FLOPs per output element of an
/// elementwise operator (nothing if it is not one); the free metadata operators; the data-movement
/// operators; ONNX Runtime's Gelu contrib operators (sets the row, false if not one); the engine shape
/// of ONNX extents; a row name from a node name (PyTorch's scopes shortened).
std::string conventionsOfImport();
std::optional<double> elementwiseOps(const std::string& op);
bool isFree(const std::string& op);
bool isDataMovement(const std::string& op);
bool countedContrib(const onnx::NodeProto& node, Layer& row);
Shape toShape(const std::vector<std::int64_t>& extents);
std::string shortName(const std::string& nodeName);

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

/// Values are kept for tensors of at most this many elements.
inline constexpr size_t kMaxValueElements = 4096;

/// Reads a tensor's values when it is small and stored in the file (integers and floats, up to 4,096).
bool readValue(const onnx::TensorProto& tensor, Value& value);

/// onnx_values.cpp: the values of a node's first output when all that it reads is known (small tensors
/// only); the extents' product (-1 on overflow); a value as an INT64 or FLOAT tensor named `name`.
std::optional<Value> evaluateNode(const onnx::NodeProto& node, const Shapes& shapes, int opset);
std::int64_t product(const std::vector<std::int64_t>& dims);
onnx::TensorProto valueTensor(const std::string& name, const Value& value);

} // namespace rfx::onnximport
