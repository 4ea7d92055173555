// Operator sets 18 to 23 in front of Debian's ONNX 1.12, whose schemas stop at opset 17.
//
// Why an adapter and not a newer ONNX: Debian 12 ships libonnx-dev 1.12, and its version converter
// cannot go down from 18. Most operators did not change after 17, or changed only in the types they
// accept (19-22): those keep ONNX 1.12's opset-17 schema, checker and shape function, with the few
// attributes 1.12 does not know dropped when they leave the shape unchanged (Cast's saturate, Resize's
// antialias, DequantizeLinear's block_size). The operators whose signature changed in a way that
// changes shapes (the Reduce family's axes as an input, Split's num_outputs, Pad's axes, Resize's axes
// and keep_aspect_ratio_policy, pools with dilations) and the operators new since 17 (Gelu,
// GroupNormalization, RMSNormalization, RotaryEmbedding, Attention, Col2Im, Mish, the Bitwise family,
// CenterCropPad) move to a private domain that the checker leaves alone, and get their shapes from
// onnx_adapted_shapes.cpp, written from onnx/onnx's own opset-18-23 definitions (onnx/defs/*/defs.cc).
// An operator newer than both stays unknown: an uncounted row, never a refusal.
#include "onnx/onnx_internal.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <functional>

namespace rfx::onnximport {

namespace {

bool isReduce(const std::string& op)
{
    return op.starts_with("Reduce") && op != "ReduceSum"; // ReduceSum took axes as an input from 13
}

// Whether a node of the standard domain, at ONNX opset `version` > 17, must leave the checker's view:
// its signature changed after 17 in a way that changes shapes, or ONNX 1.12 does not know it.
bool needsAdapting(const onnx::NodeProto& n, int version, const onnx::OpSchema* schema17)
{
    const std::string& op = n.op_type();
    if (!schema17)
        return true;
    auto has = [&](const char* name) { return attribute(n, name) != nullptr; };
    if (version >= 18 && isReduce(op))
        return true;
    if (version >= 18 && op == "Split")
        return true;
    if (version >= 18 && op == "Pad" && n.input_size() > 3 && !n.input(3).empty())
        return true;
    if (version >= 18 && op == "Resize" && (has("axes") || has("keep_aspect_ratio_policy")))
        return true;
    if ((op == "AveragePool" || op == "LpPool") && has("dilations"))
        return true;
    return n.input_size() > schema17->max_input();
}

void adaptNode(onnx::NodeProto& n, int version)
{
    if (!(n.domain().empty() || n.domain() == "ai.onnx"))
        return;
    const onnx::OpSchema* schema17 = onnx::OpSchemaRegistry::Schema(n.op_type(), std::min(version, 17), "");
    if (version <= 17) {
        if (!schema17) // an operator ONNX does not know at this opset: an uncounted row, not the checker's refusal
            n.set_domain(kAdaptedDomain);
        return;
    }
    if (needsAdapting(n, version, schema17)) {
        n.set_domain(kAdaptedDomain);
        return;
    }
    // Attributes added after 17 that leave the output's shape as it was: dropped for 1.12's checker.
    google::protobuf::RepeatedPtrField<onnx::AttributeProto> kept;
    const auto& known = schema17->attributes();
    for (auto& a : *n.mutable_attribute())
        if (known.count(a.name()))
            *kept.Add() = std::move(a);
    n.mutable_attribute()->Swap(&kept);
}

void adaptGraph(onnx::GraphProto& g, int version)
{
    for (auto& n : *g.mutable_node()) {
        adaptNode(n, version);
        for (auto& a : *n.mutable_attribute()) {
            if (a.has_g())
                adaptGraph(*a.mutable_g(), version);
            for (auto& sub : *a.mutable_graphs())
                adaptGraph(sub, version);
        }
    }
}

} // namespace

void adaptOpsets(onnx::ModelProto& m, const std::string& file, std::vector<Diagnostic>& warnings)
{
    if (m.opset_import_size() == 0)
        throw ImportError(
            file + ": opset_import: the model names no operator set (not an ONNX model, or a damaged one)");
    const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    int onnxVersion = 0;
    for (auto& op : *m.mutable_opset_import()) {
        if (op.domain().empty() || op.domain() == "ai.onnx")
            onnxVersion = int(std::clamp<std::int64_t>(op.version(), 1, 1000));
        if (op.domain() == "ai.onnx")
            op.set_domain("");
        if (op.version() < 1)
            throw ImportError(file + ": opset_import: version " + std::to_string(op.version()) + " of "
                + (op.domain().empty() ? std::string("the ONNX opset") : "'" + op.domain() + "'")
                + " is not a version");
        auto it = known.find(op.domain());
        if (it == known.end() || op.version() <= it->second.second)
            continue;
        if (op.domain().empty()) {
            if (op.version() > kNewestOpset)
                warnings.push_back({ Severity::Info, file, "opset_import",
                    "ONNX opset " + std::to_string(op.version()) + " is newer than the tool knows (up to "
                        + std::to_string(kNewestOpset) + "); operators it knows are counted as in opset "
                        + std::to_string(kNewestOpset) + ", others are rows marked uncounted" });
        }
        op.set_version(it->second.second); // ai.onnx.ml and others: 1.12's newest, their shapes are unchanged
    }
    if (onnxVersion == 0)
        return; // no standard operators
    adaptGraph(*m.mutable_graph(), onnxVersion);
    auto* adapted = m.add_opset_import();
    adapted->set_domain(kAdaptedDomain);
    adapted->set_version(onnxVersion);
}

} // namespace rfx::onnximport
