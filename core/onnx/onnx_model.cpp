// An ONNX model once parsed (onnx_reader.cpp): checked with onnx::checker, its weights dropped, its
// inputs described; then built for each configuration (onnx_shapes.cpp, onnx_ops.cpp), cached.
#include "onnx/onnx_model.h"

#include "onnx/onnx_internal.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <list>
#include <mutex>

namespace rfx {

using namespace onnximport;

std::string onnxConventions() { return conventionsOfImport(); }

struct OnnxModel::Impl {
    std::string file;
    std::string name;
    Skeleton skeleton;
    std::vector<OnnxInput> inputs;
    std::optional<OnnxDecoderDims> decoder;
    std::int64_t parameters = 0;
    double weightBytes = 0;
    std::vector<Diagnostic> warnings;
    int defaultImage = 224;
    std::vector<std::string> openIfs; ///< from the first build (the probe): the Ifs --branch can choose
    bool openIfsKnown = false;

    // The last few configurations' networks: dragging a slider back and forth costs nothing.
    struct Key {
        int batch, height, width, bits;
        bool fusion;
        std::map<std::string, double> values;
        std::map<std::string, std::int64_t> dims;
        std::map<std::string, bool> branches;
        friend bool operator==(const Key&, const Key&) = default;
    };
    mutable std::mutex mutex;
    mutable std::list<std::pair<Key, BuildResult>> recent;
    // Per configuration but the batch: the builds seen at different batches, and once three show the
    // network linear in the batch, the line that gives any other batch without inference (onnx_batch.cpp).
    struct Line {
        Key key; ///< batch 0
        std::vector<std::pair<int, Network>> samples;
        BatchLine line;
        bool tried = false; ///< three samples were compared (linear or not)
    };
    mutable std::list<Line> lines;
};

namespace {

bool isFloating(int type) { return isFloatingType(type); }

// The graph's name where it names the model; the file's name where it is an exporter's boilerplate:
// PyTorch's "torch_jit" and "main_graph", tf2onnx's, paddle2onnx's "Model from PaddlePaddle.",
// MXNet's "mxnet_converted_model", CNTK's "CNTKGraph", Optimum's merged decoder's "merged", and the
// bare "graph" or "model".
std::string genericNameOr(const std::string& graphName, const std::string& file)
{
    std::string lower;
    for (char ch : graphName)
        lower += char(std::tolower(static_cast<unsigned char>(ch)));
    static const char* generic[] = { "", "torch_jit", "torch-jit-export", "main_graph", "tf2onnx", "graph", "model",
        "mxnet_converted_model", "cntkgraph", "onnx_graph", "main", "merged" };
    const bool boilerplate = std::find(std::begin(generic), std::end(generic), lower) != std::end(generic)
        || lower.rfind("model from ", 0) == 0;
    return boilerplate ? std::filesystem::path(file).stem().string() : graphName;
}

enum class DimRole { Unknown, Batch, Sequence, Height, Width };

// What a symbolic extent's name says it is: "batch", "batch_size", "N", "B" are the batch; "sequence",
// "seq_len", "tokens", "time", "L", "T" a sequence; "height", "H"; "width", "W".
DimRole roleOfName(const std::string& name)
{
    std::string n;
    for (char ch : name)
        n += char(std::tolower(static_cast<unsigned char>(ch)));
    auto has = [&](const char* w) { return n.find(w) != std::string::npos; };
    if (has("batch") || n == "n" || n == "b" || n == "bs")
        return DimRole::Batch;
    if (has("height") || n == "h")
        return DimRole::Height;
    if (has("width") || n == "w")
        return DimRole::Width;
    if (has("seq") || has("len") || has("token") || has("time") || n == "l" || n == "t" || n == "s")
        return DimRole::Sequence;
    return DimRole::Unknown;
}

// The inputs the configuration binds, and checks of the extents the file fixes.
std::vector<OnnxInput> describeInputs(const Skeleton& s, const std::string& file)
{
    std::vector<OnnxInput> inputs;
    for (const auto& in : s.model.graph().input()) {
        if (std::find(s.realInputs.begin(), s.realInputs.end(), in.name()) == s.realInputs.end())
            continue;
        OnnxInput d;
        d.name = in.name();
        if (!in.type().has_tensor_type())
            throw ImportError(file + ": input '" + in.name() + "': not a tensor (sequences and maps are not modelled)");
        const auto& t = in.type().tensor_type();
        d.floating = isFloating(t.elem_type());
        d.bits = elementBits(t.elem_type());
        if (!t.has_shape())
            throw ImportError(file + ": input '" + in.name() + "': the file gives no shape (not even its rank)");
        const int rank = t.shape().dim_size();
        for (int i = 0; i < rank; ++i) {
            const auto& dim = t.shape().dim(i);
            const bool symbolic = !dim.has_dim_value() || dim.dim_value() == -1;
            // An empty index or axes input (ReduceSum's "no axes") is fine; an empty tensor of numbers leaves
            // nothing to count.
            if (!symbolic && (dim.dim_value() < 0 || (dim.dim_value() == 0 && d.floating)))
                throw ImportError(file + ": input '" + in.name() + "': extent " + std::to_string(i) + " is "
                    + std::to_string(dim.dim_value()) + "; extents must be positive (or symbolic)"
                    + (dim.dim_value() == 0 ? ": an empty input leaves nothing to count" : ""));
            d.dims.push_back(symbolic ? (dim.dim_param().empty() ? std::string("?") : dim.dim_param())
                                      : std::to_string(dim.dim_value()));
            if (!symbolic)
                continue;
            // A name the exporter gave says what it is ("batch", "N", "sequence", "height"); otherwise the
            // place: the batch is extent 0; the image's height and width extents 2 and 3 of [N, C, H, W],
            // 3 and 4 of [N, C, D, H, W]; a sequence of rank 2 or 3 ([N, L] ids, [N, L, F] tokens,
            // [N, C, L] signals): its length.
            const int heightAt = rank == 5 ? 3 : 2, widthAt = rank == 5 ? 4 : rank == 4 ? 3 : -1;
            const DimRole role = roleOfName(dim.dim_param());
            if (role == DimRole::Batch || (role == DimRole::Unknown && i == 0)) {
                d.batchBound = true;
                d.batchAt.push_back(i);
            } else if (role == DimRole::Sequence || role == DimRole::Height) {
                d.heightBound = true;
                d.heightAt.push_back(i);
            } else if (role == DimRole::Width) {
                d.widthBound = true;
                d.widthAt.push_back(i);
            } else if ((i == heightAt && rank >= 3) || (rank <= 3 && i >= 1)) {
                d.heightBound = true;
                d.heightAt.push_back(i);
            } else if (i == widthAt) {
                d.widthBound = true;
                d.widthAt.push_back(i);
            } else
                throw ImportError(file + ": input '" + in.name() + "': extent " + std::to_string(i) + " ('"
                    + d.dims.back()
                    + "') is symbolic, and no control sets it (the batch sets extent 0, the image size the height and "
                      "width: extents 2 and 3 of an image, 3 and 4 of a video)");
        }
        inputs.push_back(std::move(d));
    }
    if (inputs.empty())
        throw ImportError(file + ": the graph has no input that is not an initializer");
    return inputs;
}

std::int64_t countParameters(const Skeleton& s)
{
    std::int64_t total = 0;
    for (const auto& [name, init] : s.initializers)
        if (isParameter(s, name))
            total += init.packedWeights >= 0 ? init.packedWeights : init.elements;
    return total;
}

// The bytes the weights take in memory as the file stores them: every parameter at its element width
// (MatMulNBits' packed bytes as they are), and the scales and zero points that come with them.
double countWeightBytes(const Skeleton& s)
{
    double total = 0;
    for (const auto& [name, init] : s.initializers)
        if (isParameter(s, name) || s.statistics.count(name))
            total += double(init.elements) * elementBits(init.dataType) / 8.0;
    return total;
}

} // namespace

std::shared_ptr<const OnnxModel> onnximport::finishModel(onnx::ModelProto&& model, const std::string& file)
{
    if (!model.has_graph() || model.graph().node_size() == 0)
        throw ImportError(file + ": not an ONNX model (no graph, or a graph without nodes)");
    auto impl = std::make_unique<OnnxModel::Impl>();
    impl->file = file;
    impl->name = genericNameOr(model.graph().name(), file);
    readIrVersion(model, file, impl->warnings);
    impl->skeleton = makeSkeleton(std::move(model), file, impl->warnings);
    try {
        onnx::checker::check_model(impl->skeleton.model);
    } catch (const std::exception& e) {
        // The checker's messages span lines ("node: \nname: relu OpType: Relu\n is not ..."): one line here,
        // after the tool's own words.
        std::string why = e.what();
        std::replace(why.begin(), why.end(), '\n', ' ');
        why.erase(std::unique(why.begin(), why.end(), [](char a, char b) { return a == ' ' && b == ' '; }), why.end());
        std::string words
            = "the model breaks ONNX's rules, so it cannot be analysed (a damaged file, or one its exporter wrote "
              "wrongly; re-export it, or run onnx.checker.check_model on it to see where)";
        if (why.find("topologically sorted") != std::string::npos)
            words = "a node reads a tensor that no node before it produces (a cycle, a node out of order, or a tensor "
                    "that no "
                    "node produces), so the graph cannot be followed";
        throw ImportError(file + ": " + words + ". ONNX's checker says: " + why);
    }
    checkAttributes(impl->skeleton.model.graph(), file);
    impl->inputs = describeInputs(impl->skeleton, file);
    impl->decoder = recognizeDecoder(impl->inputs);
    for (const OnnxInput& in : impl->inputs)
        impl->skeleton.zeroSized
            = impl->skeleton.zeroSized || std::find(in.dims.begin(), in.dims.end(), "0") != in.dims.end();
    impl->parameters = countParameters(impl->skeleton);
    impl->weightBytes = countWeightBytes(impl->skeleton);
    return std::make_shared<OnnxModel>(std::move(impl)); // probes the image size (throws ImportError)
}

OnnxModel::OnnxModel(std::unique_ptr<Impl> impl)
    : m(std::move(impl))
{
    // Refuse here what cannot be analysed at all, so that the window keeps its work. A model whose image
    // size is free opens at the first of the usual sizes that works (a valid-padded U-Net needs 572).
    Config c;
    c.model = m->file;
    std::string firstError;
    for (int size : { 224, 572, 256, 512, 384, 128, 64, 32, 1024 }) {
        c.unet.height = c.unet.width = size;
        const BuildResult probe = build(c);
        if (probe.network) {
            m->defaultImage = size;
            const auto& dims = m->inputs.front().dims;
            if (!imageBound() && dims.size() == 4 && std::isdigit(static_cast<unsigned char>(dims[2][0]))
                && dims[2].size() < 6 && std::stoi(dims[2]) >= kImageRange.min && std::stoi(dims[2]) <= kImageRange.max)
                m->defaultImage = std::stoi(dims[2]); // what the file fixes, for the controls to show
            return;
        }
        if (firstError.empty())
            firstError = probe.error;
        if (!imageBound())
            break;
    }
    throw ImportError(firstError);
}

int OnnxModel::defaultImageSize() const { return m->defaultImage; }

int OnnxModel::fixedBatch() const
{
    if (batchBound())
        return 0;
    const auto& dims = m->inputs.front().dims;
    if (dims.size() < 2 || dims[0].empty() || dims[0].size() > 6
        || !std::all_of(dims[0].begin(), dims[0].end(), ::isdigit))
        return 1;
    return std::max(1, std::stoi(dims[0]));
}
OnnxModel::~OnnxModel() = default;

const std::string& OnnxModel::file() const { return m->file; }
const std::string& OnnxModel::name() const { return m->name; }
const std::vector<OnnxInput>& OnnxModel::inputs() const { return m->inputs; }
const std::optional<OnnxDecoderDims>& OnnxModel::decoder() const { return m->decoder; }
double OnnxModel::weightBytes() const { return m->weightBytes; }
std::int64_t OnnxModel::parameters() const { return m->parameters; }
const std::vector<std::string>& OnnxModel::dataBranches() const { return m->openIfs; }
const std::vector<Diagnostic>& OnnxModel::loadWarnings() const { return m->warnings; }

bool OnnxModel::batchBound() const
{
    return std::any_of(m->inputs.begin(), m->inputs.end(), [](const OnnxInput& i) { return i.batchBound; });
}

bool OnnxModel::imageBound() const
{
    return std::any_of(
        m->inputs.begin(), m->inputs.end(), [](const OnnxInput& i) { return i.heightBound || i.widthBound; });
}

namespace {
std::string fixedReason(const OnnxModel& model, const char* what)
{
    const OnnxInput& in = model.inputs().front();
    std::string dims;
    for (const std::string& d : in.dims)
        dims += (dims.empty() ? "" : "x") + d;
    return std::string("the model file fixes ") + what + " (input '" + in.name + "' is " + dims + ")";
}
} // namespace

std::string OnnxModel::batchFixedReason() const
{
    return batchBound() ? std::string() : fixedReason(*this, "the batch");
}
std::string OnnxModel::imageFixedReason() const
{
    return imageBound() ? std::string() : fixedReason(*this, "the image size");
}

std::vector<std::pair<std::string, std::optional<std::vector<std::int64_t>>>> OnnxModel::outputExtents(
    const Config& config) const
{
    const Shapes shapes = inferShapes(m->skeleton, m->inputs, config, m->file);
    std::vector<std::pair<std::string, std::optional<std::vector<std::int64_t>>>> out;
    for (const auto& o : m->skeleton.model.graph().output()) {
        auto it = shapes.dims.find(o.name());
        out.emplace_back(o.name(), it == shapes.dims.end() ? std::nullopt : std::optional(it->second));
    }
    return out;
}

BuildResult OnnxModel::build(const Config& given) const
{
    const Config config = m->decoder ? withDecoderDefaults(*m->decoder, given) : given;
    const Impl::Key key { config.batch, config.unet.height, config.unet.width, config.bits,
        config.fusion || config.traffic == TrafficModel::Fused, config.inputValues, config.dims, config.branches };
    std::lock_guard lock(m->mutex);
    for (auto it = m->recent.begin(); it != m->recent.end(); ++it)
        if (it->first == key) {
            m->recent.splice(m->recent.begin(), m->recent, it);
            return it->second;
        }
    BuildResult r;
    Impl::Key lineKey = key;
    lineKey.batch = 0;
    auto line = std::find_if(m->lines.begin(), m->lines.end(), [&](const Impl::Line& l) { return l.key == lineKey; });
    if (line == m->lines.end()) {
        m->lines.push_front(Impl::Line { lineKey, {}, {}, false });
        line = m->lines.begin();
        if (m->lines.size() > 4)
            m->lines.pop_back();
    }
    if (auto onLine = line->line.at(config.batch)) {
        r.network = std::move(*onLine);
        return r; // as cheap to evaluate again as to find: not kept in `recent`
    }
    try {
        Config c = config;
        c.fusion = key.fusion;
        const Shapes shapes = inferShapes(m->skeleton, m->inputs, c, m->file);
        Network net = translate(m->skeleton, shapes, c, m->file, m->name);
        if (!m->openIfsKnown) {
            m->openIfs = shapes.openIfs;
            m->openIfsKnown = true;
        }
        net.diagnostics.insert(net.diagnostics.begin(), m->warnings.begin(), m->warnings.end());
        if (m->decoder && !m->decoder->past.empty() && !given.dims.count(m->decoder->past))
            net.diagnostics.push_back({ Severity::Info, m->file, "input '" + m->decoder->pastInputs.front() + "'",
                "a decoder with past keys and values: analysed as a prefill of "
                    + std::to_string(
                        c.dims.count(m->decoder->sequence) ? c.dims.at(m->decoder->sequence) : config.unet.height)
                    + " tokens from an empty cache (--dim " + m->decoder->past
                    + "=N binds the cached tokens); 'roofline-cli "
                      "llm --model FILE' gives its prefill and decode, the KV cache and the memory" });
        net.storedParameters = m->parameters;
        net.fixedBatch = fixedBatch();
        if (!line->tried && batchBound()) {
            line->samples.emplace_back(config.batch, net);
            if (line->samples.size() == 3) {
                const auto& s = line->samples;
                line->line.learn(s[0].second, s[0].first, s[1].second, s[1].first, s[2].second, s[2].first);
                line->tried = true;
                line->samples.clear();
            }
        }
        r.network = std::move(net);
    } catch (const ImportError& e) {
        r.error = e.what();
    } catch (const std::exception& e) { // onnx::InferenceError, ValidationError: ONNX's words after the tool's
        r.error = m->file + ": the model cannot be analysed at this configuration (batch "
            + std::to_string(config.batch) + ", image " + std::to_string(config.unet.height) + " x "
            + std::to_string(config.unet.width) + "); try other sizes. ONNX says: " + e.what();
    }
    m->recent.emplace_front(key, r);
    if (m->recent.size() > 8)
        m->recent.pop_back();
    return r;
}

} // namespace rfx
