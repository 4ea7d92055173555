// ONNX's own conformance data (Debian's libonnx-testdata: about a thousand one-node models, PyTorch-
// converted models and real networks, each with its expected outputs in test_data_set_0/output_N.pb):
// every model is opened, and each graph output's inferred extents are held against the expected
// tensor's. Only sequences, maps, strings and shapes that depend on values fed at run time may be
// refused; the counts (README "ONNX models", conformance) are printed.
#include "model/networks.h"
#include "onnx/onnx_model.h"

#include <onnx/onnx_pb.h>

#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>

using namespace rfx;
namespace fs = std::filesystem;

namespace {

const char* kData = "/usr/share/libonnx-testdata/data";

// Why a refusal is allowed, from its words; empty when it is not one of the allowed kinds.
std::string allowedReason(const std::string& error)
{
    static const std::pair<const char*, const char*> kinds[] = {
        { "sequences and maps", "a sequence or map input" },
        { "not a tensor", "a sequence or map input" },
        { "sequence", "a sequence or map" },
        { "string", "strings" },
        { "fed at run time", "shapes from values fed at run time" },
        { "computed at run time", "shapes from values fed at run time" },
        { "not known before the run", "shapes from values fed at run time" },
        { "no node reads the network's input", "no computation on the inputs" },
        { "no input that is not an initializer", "no computation on the inputs" },
        { "an empty input leaves nothing to count", "an empty input (an extent of 0)" },
    };
    for (const auto& [words, kind] : kinds)
        if (error.find(words) != std::string::npos)
            return kind;
    return {};
}

std::optional<std::vector<std::int64_t>> expectedDims(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    onnx::TensorProto t;
    if (!in || !t.ParseFromIstream(&in))
        return std::nullopt; // a sequence or an optional: not a tensor
    return std::vector<std::int64_t>(t.dims().begin(), t.dims().end());
}

// Whether `file` re-stamped IR 10 opens as `original` did: refused for the same reason, or with the same
// outputs' extents and the same rows' counts at its default configuration.
bool sameAtIr10(const fs::path& file, const OnnxLoad& original)
{
    std::ifstream in(file, std::ios::binary);
    onnx::ModelProto m;
    if (!in || !m.ParseFromIstream(&in))
        return !original.model;
    m.set_ir_version(10);
    const OnnxLoad restamped = parseOnnxModel(m.SerializeAsString(), file.string());
    if (!original.model || !restamped.model)
        return !original.model && !restamped.model && restamped.error == original.error;
    Config c;
    c.model = file.string();
    c.unet.height = c.unet.width = original.model->defaultImageSize();
    if (restamped.model->defaultImageSize() != c.unet.height
        || restamped.model->parameters() != original.model->parameters())
        return false;
    const BuildResult a = original.model->build(c), b = restamped.model->build(c);
    if (bool(a.network) != bool(b.network))
        return false;
    if (a.network) {
        if (a.network->layers.size() != b.network->layers.size())
            return false;
        for (size_t i = 0; i < a.network->layers.size(); ++i)
            if (!(a.network->layers[i].out == b.network->layers[i].out)
                || a.network->layers[i].opsPerElement != b.network->layers[i].opsPerElement)
                return false;
    }
    try {
        return original.model->outputExtents(c) == restamped.model->outputExtents(c);
    } catch (const std::exception&) {
        return true; // both the same model: both refuse the same way
    }
}

} // namespace

class TestOnnxConformance : public QObject {
    Q_OBJECT

private slots:
    void everyModelOpensOrSaysWhy()
    {
        if (!fs::exists(kData))
            QSKIP("libonnx-testdata is not installed (packaging/install-deps.sh installs it)");
        int models = 0, equal = 0, sameRestamped = 0;
        std::map<std::string, int> refused;
        std::vector<std::string> problems;
        for (const char* suite : { "node", "pytorch-converted", "pytorch-operator", "simple", "real" }) {
            if (!fs::exists(fs::path(kData) / suite))
                continue;
            std::vector<fs::path> dirs;
            for (const auto& e : fs::directory_iterator(fs::path(kData) / suite))
                if (fs::exists(e.path() / "model.onnx"))
                    dirs.push_back(e.path());
            std::sort(dirs.begin(), dirs.end());
            for (const fs::path& dir : dirs) {
                ++models;
                const std::string name = std::string(suite) + "/" + dir.filename().string();
                const OnnxLoad load = loadOnnxModel((dir / "model.onnx").string());
                // The same model re-stamped IR 10, as PyTorch 2.x's exporter and ONNX 1.16 on write it: the same
                // answer, refusal or shapes and counts.
                if (!sameAtIr10(dir / "model.onnx", load))
                    problems.push_back(name + ": re-stamped IR 10, it does not open the same");
                else
                    ++sameRestamped;
                if (!load.model) {
                    const std::string kind = allowedReason(load.error);
                    ++refused[kind.empty() ? "other" : kind];
                    if (kind.empty())
                        problems.push_back(name + ": refused: " + load.error);
                    continue;
                }
                Config c;
                c.model = (dir / "model.onnx").string();
                c.unet.height = c.unet.width = load.model->defaultImageSize();
                const auto outputs = load.model->outputExtents(c);
                // An output left unknown because a Loop's trip count is only known at run time is allowed.
                const BuildResult built = load.model->build(c);
                std::string runTime;
                if (built.network)
                    for (const Diagnostic& d : built.network->diagnostics)
                        if (d.message.find("not known before the run") != std::string::npos)
                            runTime = d.message;
                bool same = true;
                for (size_t i = 0; i < outputs.size(); ++i) {
                    const auto expected
                        = expectedDims(dir / "test_data_set_0" / ("output_" + std::to_string(i) + ".pb"));
                    if (!expected)
                        continue;
                    if (!outputs[i].second && !runTime.empty()) {
                        same = false;
                        ++refused["shapes from values fed at run time"];
                        break;
                    }
                    if (!outputs[i].second || *outputs[i].second != *expected) {
                        same = false;
                        std::string got = outputs[i].second ? "" : "unknown", want;
                        for (auto d : outputs[i].second.value_or(std::vector<std::int64_t> {}))
                            got += std::to_string(d) + " ";
                        for (auto d : *expected)
                            want += std::to_string(d) + " ";
                        problems.push_back(
                            name + ": output '" + outputs[i].first + "' is [" + got + "], expected [" + want + "]");
                    }
                }
                equal += same;
            }
        }
        qInfo(
            "ONNX conformance data: %d models; %d opened with every output's shape equal; %d the same re-stamped IR 10",
            models, equal, sameRestamped);
        for (const auto& [kind, count] : refused)
            qInfo("  refused, %s: %d", kind.c_str(), count);
        for (const auto& p : problems)
            qWarning("  %s", p.c_str());
        QVERIFY(models > 900);
        QVERIFY2(problems.empty(),
            (std::to_string(problems.size()) + " models refused for another reason or shaped wrongly").c_str());
    }
};

QTEST_GUILESS_MAIN(TestOnnxConformance)
#include "tst_onnx_conformance.moc"
