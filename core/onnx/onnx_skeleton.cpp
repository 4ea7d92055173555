// A parsed ONNX model made ready to walk: its IR version read (IR 9-11 as IR 8 for ONNX 1.12's checker),
// its initializers moved out of the graph (makeSkeleton) and the attributes ONNX 1.12's shape functions
// divide by refused when zero (checkAttributes). Used by onnx_model.cpp's finishModel.
#include "onnx/onnx_internal.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace rfx::onnximport {

// Moves every initializer out of the graph: floating-point weights become typed graph inputs (shape
// inference needs only their shapes), small integer tensors stay with their values.
Skeleton makeSkeleton(onnx::ModelProto&& model, const std::string& file, std::vector<Diagnostic>& warnings)
{
    Skeleton s;
    s.model = std::move(model);
    normalizeGraph(s.model, file, warnings);
    adaptOpsets(s.model, file, warnings);
    onnx::GraphProto& g = *s.model.mutable_graph();
    std::set<std::string, std::less<>> inputNames;
    for (const auto& in : g.input())
        inputNames.insert(in.name());
    std::string externalData; // the first weight file named by an initializer
    google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
    for (auto& t : *g.mutable_initializer()) {
        Initializer info;
        for (auto d : t.dims()) {
            if (d < 0)
                throw ImportError(
                    file + ": initializer '" + t.name() + "': extent " + std::to_string(d) + " is negative");
            info.dims.push_back(d);
            info.elements = d != 0 && info.elements > (std::int64_t(1) << 50) / d ? -1 : info.elements * d;
            if (info.elements < 0)
                throw ImportError(file + ": initializer '" + t.name() + "': its extents' product overflows");
        }
        info.floating = isFloatingType(t.data_type());
        info.dataType = t.data_type();
        if (!s.initializers.emplace(t.name(), info).second)
            throw ImportError(file + ": initializer '" + t.name() + "' is given twice");
        Value v;
        if (readValue(t, v)) { // small tensors keep their values: shapes, indices, scales, Clip's bounds
            kept.Add()->CopyFrom(t);
        } else {
            if (t.data_location() == onnx::TensorProto::EXTERNAL && externalData.empty())
                for (const auto& kv : t.external_data())
                    if (kv.key() == "location")
                        externalData = kv.value();
            if (!inputNames.count(t.name())) {
                onnx::ValueInfoProto* in = g.add_input();
                in->set_name(t.name());
                auto* tt = in->mutable_type()->mutable_tensor_type();
                tt->set_elem_type(t.data_type());
                auto* shape = tt->mutable_shape();
                for (auto d : t.dims())
                    shape->add_dim()->set_dim_value(d);
            }
        }
    }
    g.mutable_initializer()->Swap(&kept);
    // The checker wants every graph output's shape; inference gives them anyway, so an output the
    // exporter left without one gets an empty shape here (it is cleared before inference).
    for (auto& out : *g.mutable_output())
        if (out.type().has_tensor_type() && !out.type().tensor_type().has_shape())
            out.mutable_type()->mutable_tensor_type()->mutable_shape();
    for (const auto& in : g.input())
        if (!s.initializers.count(in.name()))
            s.realInputs.push_back(in.name());
    classifyInitializers(s);
    noteFoldedBatchNorm(g, s, file, warnings);
    // The weights' values are never needed, so a missing external data file costs nothing but a word.
    if (!externalData.empty()) {
        const auto where = std::filesystem::path(file).parent_path() / externalData;
        std::error_code ec;
        const bool present = std::filesystem::exists(where, ec);
        warnings.push_back({ present ? Severity::Info : Severity::Warning, file, "initializer",
            "the weights are external data in '" + externalData + "'"
                + (present ? std::string("; only their shapes are needed, so it is not read")
                           : std::string(
                               ", which is missing: only their shapes are needed, so the model opens without it")) });
    }
    return s;
}

// ONNX 1.12's shape functions divide by these without checking (a zero stride is a SIGFPE inside
// libonnx, found by fuzz_onnx): refuse them first, naming the node and attribute.
void checkAttributes(const onnx::GraphProto& g, const std::string& file)
{
    static const char* positive[] = { "strides", "dilations", "kernel_shape", "blocksize", "group", "size" };
    for (int i = 0; i < g.node_size(); ++i) {
        const onnx::NodeProto& n = g.node(i);
        for (const auto& a : n.attribute()) {
            if (std::find_if(std::begin(positive), std::end(positive), [&](const char* p) { return a.name() == p; })
                == std::end(positive))
                continue;
            bool ok = a.type() != onnx::AttributeProto::INT || a.i() > 0;
            for (auto v : a.ints())
                ok = ok && v > 0 && v < (std::int64_t(1) << 31);
            if (!ok || (a.type() == onnx::AttributeProto::INT && a.i() >= (std::int64_t(1) << 31)))
                throw ImportError(
                    file + ": " + nodeLabel(n, i) + ": " + a.name() + ": every value must be a positive whole number");
        }
        for (const auto& a : n.attribute())
            if (a.name() == "pads")
                for (auto v : a.ints())
                    if (v < 0 || v >= (std::int64_t(1) << 31))
                        throw ImportError(file + ": " + nodeLabel(n, i) + ": pads: every value must be 0 or more");
    }
}

// IR versions 3 to 11 (and newer ones, whose operators the tool may know): ONNX 1.12's checker stops at IR 8,
// and what IR 9 to 11 added (float8, int4, uint4 and float4 elements, node and function metadata, function
// overloads) changes no rule it applies to a graph, so the model is checked as IR 8. Element types the
// newer IRs brought keep their own sizes (elementBits).
void readIrVersion(onnx::ModelProto& model, const std::string& file, std::vector<Diagnostic>& warnings)
{
    constexpr std::int64_t newestKnown = 11, checkersNewest = onnx::IR_VERSION;
    const std::int64_t ir = model.ir_version();
    if (ir <= 0)
        throw ImportError(file + ": ir_version: the model names no IR version (" + std::to_string(ir)
            + "); every ONNX file has one, so this one is damaged or not an ONNX model. Re-export it");
    if (ir < 3)
        throw ImportError(file + ": ir_version " + std::to_string(ir)
            + ": files of IR versions 1 and 2 (2017) name no operator "
              "sets and are not read; convert it with onnx.version_converter or re-export it");
    if (ir > newestKnown)
        warnings.push_back({ Severity::Info, file, "ir_version",
            "IR version " + std::to_string(ir) + " is newer than the tool knows (up to " + std::to_string(newestKnown)
                + "); the graph is read as IR " + std::to_string(newestKnown) + " reads it" });
    if (ir > checkersNewest)
        model.set_ir_version(checkersNewest);
}

} // namespace rfx::onnximport
