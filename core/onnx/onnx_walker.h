#pragma once
// Internal to onnx_shapes.cpp and onnx_control.cpp: the walk that infers every tensor's shape at one
// configuration, node by node, splicing in the nodes of the control flow's branches and bodies.

#include "onnx/onnx_internal.h"

#include <set>

namespace rfx::onnximport {

class ShapeWalker {
public:
    ShapeWalker(const Skeleton& skeleton, const std::string& file, Shapes& shapes);

    /// The graph inputs with the configuration's batch, image size and bound values, and the initializers.
    void bindInputs(const std::vector<OnnxInput>& inputs, const Config& config);
    /// A note for each --branch that names no If whose condition depends on the data (after the walk).
    void noteUnusedBranches();
    /// Walks `graph`'s nodes in order, appending what to translate to `out`; `mainIndex` is the main
    /// graph's node that runs a subgraph (-1: the main graph itself).
    void walk(
        const onnx::GraphProto& graph, int mainIndex, double repeats, const std::string& scope, std::vector<Step>& out);

    void setType(const std::string& name, const onnx::TypeProto& type);
    const onnx::TypeProto* typeOf(const std::string& name) const;
    Shapes& shapes() { return m_s; }
    const std::string& file() const { return m_file; }

private:
    void node(const onnx::NodeProto& n, int index, int label, double repeats, const std::string& scope,
        std::vector<Step>& out);
    /// A one-element input where ONNX's shape function insists on a scalar (kScalarInputs in
    /// onnx_shapes.cpp), seen by that function as a scalar; restoreScalars puts the original back.
    struct ScalarStandIn {
        std::string name;
        onnx::TypeProto type;
        onnx::TensorProto data;
        onnx::TypeProto* oldType = nullptr;
        const onnx::TensorProto* oldData = nullptr;
    };
    using ScalarStandIns = std::vector<std::unique_ptr<ScalarStandIn>>;
    /// Sets the stand-ins up for node `n` and notes what was relaxed (an Info note naming the node).
    ScalarStandIns scalarStandIns(const onnx::NodeProto& n, int index);
    void restoreScalars(const ScalarStandIns& standIns);
    /// A shape function's refusal in the tool's words, ONNX's after them.
    std::string refusedShapes(const onnx::NodeProto& n, const std::string& why) const;
    /// What the evaluator reads: the values and extents known so far (onnx_evaluate.cpp).
    ValueScope scope();
    /// Keeps a node's computed values (and the extents they give where shape inference gave none).
    void storeValues(const onnx::NodeProto& n, std::vector<std::optional<Value>>&& values);
    /// A Loop's iteration number as 0 while its body is walked for rows.
    void storeIteration(const std::string& name);
    /// onnx_control.cpp: If, Loop and Scan.
    void controlFlow(
        const onnx::NodeProto& n, int label, double repeats, const std::string& scope, std::vector<Step>& out);
    void ifNode(const onnx::NodeProto& n, int label, double repeats, const std::string& scope, std::vector<Step>& out);
    void loopNode(
        const onnx::NodeProto& n, int label, double repeats, const std::string& scope, std::vector<Step>& out);
    void scanNode(
        const onnx::NodeProto& n, int label, double repeats, const std::string& scope, std::vector<Step>& out);
    /// The graph inputs that a tensor's value depends on, in words ("input 'flag'").
    std::string decidingInput(const std::string& tensor) const;
    /// A subgraph's output becomes the node's: its type (or `type`, when given) and a link.
    void linkOutput(
        const std::string& from, const std::string& to, const onnx::TypeProto* type, std::vector<Step>& out);

    const Skeleton& m_skeleton;
    const std::string& m_file;
    Shapes& m_s;
    std::map<std::string, int> m_opsets;
    int m_opset = 1;
    std::unordered_map<std::string, onnx::TypeProto> m_types;
    TypeMap m_typeOf;
    DataMap m_dataOf;
    std::deque<onnx::TensorProto> m_computed; ///< the values of shape computations, as tensors
    std::map<std::string, bool> m_branches; ///< --branch: the side an If on the data takes, by node
    std::set<std::string> m_boundDims; ///< the --dim names some input's dimension carries
    std::set<std::string> m_branchesUsed;
    std::int64_t m_budget = kEvaluationBudget; ///< elements the evaluator may still compute in this build
};

/// A rough count of a node's arithmetic at the shapes known (2 K per output of a matrix product or
/// convolution, one per output otherwise): only to choose the heavier of an If's branches.
double roughWork(const onnx::NodeProto& node, const Shapes& shapes);

/// What ONNX 1.12's shape functions take on trust: they divide by steps and read attributes by the
/// input's rank without checking (a zero Slice step, a 2-D input to Conv: crashes inside libonnx found by
/// fuzz_onnx). Throws ImportError naming the node (`index` in the main graph, `file`) where one is wrong.
void checkNode(const onnx::NodeProto& node, int index, const Shapes& shapes, const std::string& file);

} // namespace rfx::onnximport
