// Shapes ONNX 1.12's shape functions leave unknown: Einsum's output from its equation (and its FLOPs),
// the recurrent operators' outputs (LSTM, GRU, RNN), and the other gaps filled from the inputs
// (missingShapes).
#include "onnx/onnx_shape_context.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace rfx::onnximport {

using namespace shapes;

struct Einsum {
    std::vector<std::string> terms;
    std::string output;
    std::map<char, std::int64_t> extents;
    Dims ellipsis; ///< the broadcast extents "..." stands for
};

std::optional<Einsum> parseEinsum(const onnx::NodeProto& n, const std::function<const Dims*(int)>& dimsOf)
{
    const auto* eq = attribute(n, "equation");
    if (!eq)
        return std::nullopt;
    std::string e;
    for (char ch : eq->s())
        if (ch != ' ')
            e += ch;
    Einsum r;
    const size_t arrow = e.find("->");
    const std::string lhs = e.substr(0, arrow);
    for (size_t at = 0;;) {
        const size_t comma = lhs.find(',', at);
        r.terms.push_back(lhs.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos)
            break;
        at = comma + 1;
    }
    if (int(r.terms.size()) != n.input_size())
        return std::nullopt;
    std::map<char, int> uses;
    for (size_t t = 0; t < r.terms.size(); ++t) {
        const Dims* d = dimsOf(int(t));
        if (!d)
            return std::nullopt;
        std::string term = r.terms[t];
        const size_t dots = term.find("...");
        const size_t letters = term.size() - (dots == std::string::npos ? 0 : 3);
        if (letters > d->size())
            return std::nullopt;
        const size_t broadcast = dots == std::string::npos ? 0 : d->size() - letters;
        if (dots != std::string::npos) {
            Dims mine(d->begin() + std::ptrdiff_t(dots), d->begin() + std::ptrdiff_t(dots + broadcast));
            if (mine.size() > r.ellipsis.size())
                r.ellipsis.insert(r.ellipsis.begin(), mine.size() - r.ellipsis.size(), 1);
            for (size_t i = 0; i < mine.size(); ++i) {
                auto& slot = r.ellipsis[r.ellipsis.size() - mine.size() + i];
                slot = std::max(slot, mine[i]);
            }
            term.erase(dots, 3);
        }
        for (size_t i = 0, dim = 0; i < term.size(); ++i, ++dim) {
            if (dots != std::string::npos && i == dots)
                dim += broadcast;
            if (!std::isalpha(static_cast<unsigned char>(term[i])))
                return std::nullopt;
            r.extents[term[i]] = std::max(r.extents[term[i]], (*d)[dim]);
            ++uses[term[i]];
        }
    }
    if (arrow != std::string::npos) {
        r.output = e.substr(arrow + 2);
    } else { // implicit: "..." first, then the letters used once, in alphabetical order
        r.output = lhs.find("...") != std::string::npos ? "..." : "";
        for (const auto& [letter, count] : uses)
            if (count == 1)
                r.output += letter;
    }
    return r;
}

Dims einsumOutput(const Einsum& e)
{
    Dims out;
    for (size_t i = 0; i < e.output.size(); ++i) {
        if (e.output.compare(i, 3, "...") == 0) {
            out.insert(out.end(), e.ellipsis.begin(), e.ellipsis.end());
            i += 2;
        } else if (auto it = e.extents.find(e.output[i]); it != e.extents.end())
            out.push_back(it->second);
    }
    return out;
}

Outputs recurrentShapes(const onnx::NodeProto& n, const TypeMap& types, const DataMap& data, const Shapes& s)
{
    // ONNX's RNN shape rule (onnx/defs/rnn/defs.cc, RNNShapeInference), from the extents alone: X is
    // [seq, batch, input] ([batch, seq, input] with layout 1); Y [seq, directions, batch, hidden] ([batch,
    // seq, directions, hidden]); Y_h and Y_c [directions, batch, hidden] ([batch, directions, hidden]).
    const Context c { n, types, data, s };
    const Dims* x = c.dims(0);
    if (!x || x->size() != 3)
        return {};
    const bool batchFirst = intAttr(n, "layout", 0) == 1;
    const auto* direction = attribute(n, "direction");
    const std::int64_t directions = direction && direction->s() == "bidirectional" ? 2 : 1;
    std::int64_t hidden = intAttr(n, "hidden_size", -1);
    if (const Dims* r = c.dims(2); hidden <= 0 && r && r->size() == 3)
        hidden = (*r)[2];
    if (hidden <= 0)
        return {};
    const std::int64_t seq = (*x)[batchFirst ? 1 : 0], batch = (*x)[batchFirst ? 0 : 1];
    const int type = c.elemType(0);
    Outputs out(size_t(n.output_size()));
    if (!out.empty())
        out[0] = tensorType(
            type, batchFirst ? Dims { batch, seq, directions, hidden } : Dims { seq, directions, batch, hidden });
    for (size_t i = 1; i < out.size() && i < 3; ++i)
        out[i] = tensorType(type, batchFirst ? Dims { batch, directions, hidden } : Dims { directions, batch, hidden });
    return out;
}

Outputs missingShapes(const onnx::NodeProto& n, const TypeMap& types, const DataMap& data, const Shapes& s)
{
    const Context c { n, types, data, s };
    const std::string& op = n.op_type();
    // LayerNormalization's Mean and InvStdDev: the input's extents, 1 from `axis` on.
    if (op == "LayerNormalization" && c.dims(0) && n.output_size() > 1) {
        Dims stats = *c.dims(0);
        const std::int64_t axis = normalized(intAttr(n, "axis", -1), stats.size());
        for (size_t i = size_t(std::max<std::int64_t>(0, axis)); i < stats.size(); ++i)
            stats[i] = 1;
        Outputs out(size_t(n.output_size()));
        out[1] = tensorType(onnx::TensorProto::FLOAT, stats);
        if (out.size() > 2)
            out[2] = tensorType(onnx::TensorProto::FLOAT, stats);
        return out;
    }
    if (op == "Einsum")
        if (auto e = parseEinsum(n, [&](int i) { return c.dims(i); }))
            return { tensorType(c.elemType(0), einsumOutput(*e)) };
    // ai.onnx.preview.training's Gradient: each output shaped as the tensor (attribute xs) it differentiates by.
    if (op == "Gradient")
        if (const auto* xs = attribute(n, "xs")) {
            Outputs out(size_t(n.output_size()));
            for (int i = 0; i < xs->strings_size() && i < n.output_size(); ++i)
                if (auto it = types.find(xs->strings(i)); it != types.end())
                    out[size_t(i)] = *it->second;
            return out;
        }
    return {};
}

double einsumFlops(
    const onnx::NodeProto& n, const std::function<const std::vector<std::int64_t>&(const std::string&)>& dims)
{
    const auto e = parseEinsum(n, [&](int i) { return &dims(n.input(i)); });
    if (!e)
        return -1;
    double all = 1; // every combination of the letters' indices, once
    for (const auto& [letter, extent] : e->extents)
        all *= double(extent);
    for (auto d : e->ellipsis)
        all *= double(d);
    return e->terms.size() > 1 ? 2 * all : all;
}

} // namespace rfx::onnximport
