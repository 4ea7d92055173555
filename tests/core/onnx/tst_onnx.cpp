// Real models exported by PyTorch (tests/data/onnx/make_fixtures.py) against published counts and the
// built-in networks: the importer counts what PyTorch's own model is.
#include "engine/cost.h"
#include "engine/roofline.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "open/analyses.h"
#include "open/build_network.h"
#include "testpaths.h"
#include "testutils.h"

#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>

using namespace rfx;

using test::macs;
using test::params;

namespace {

std::string fixture(const char* name) { return std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/" + name; }

Config onnxConfig(const char* name, int batch = 1, int image = 224)
{
    Config c;
    c.model = fixture(name);
    c.batch = batch;
    c.unet.height = c.unet.width = image;
    return c;
}

Network built(const Config& c)
{
    BuildResult b = buildNetwork(c);
    if (!b.network)
        qFatal("%s", b.error.c_str());
    return std::move(*b.network);
}

} // namespace

class TestOnnx : public QObject {
    Q_OBJECT

private slots:
    // torchvision's AlexNet: 61,100,840 parameters (torchvision's model card, and the built-in
    // network's test), 714,188,480 multiply-adds at 224 x 224 (torchvision's "0.71 GFLOPS").
    void alexNetMatchesTorchvision()
    {
        const Network net = built(onnxConfig("alexnet.onnx"));
        QCOMPARE(params(net), std::int64_t { 61'100'840 });
        QCOMPARE(macs(net), 714'188'480.0);
        const OnnxLoad load = cachedOnnxModel(fixture("alexnet.onnx"));
        QVERIFY(load.model);
        QCOMPARE(load.model->parameters(), std::int64_t { 61'100'840 });
        QCOMPARE(load.model->name(), std::string("alexnet")); // "torch_jit" is generic: the file's name
        QCOMPARE(net.layers.front().name, std::string("features.0/Conv"));
        QCOMPARE(net.origins[size_t(net.layers.front().origin)].onnxOp, std::string("Conv"));
    }

    // torchvision's ResNet-50: 4,089,184,256 multiply-adds at 224 x 224 (torchvision's "4.09 GFLOPS").
    // The exporter folds each batch norm into its convolution's bias, so the file stores 25,530,472
    // floats, counted by onnx's Python API in make_fixtures.py, not torchvision's 25,557,032.
    void resNet50MatchesTorchvision()
    {
        const Network net = built(onnxConfig("resnet50.onnx"));
        QCOMPARE(macs(net), 4'089'184'256.0);
        QCOMPARE(params(net), std::int64_t { 25'530'472 });
        // Every batch: the multiply-adds scale with it, the parameters do not.
        const Network four = built(onnxConfig("resnet50.onnx", 4));
        QCOMPARE(macs(four), 4 * 4'089'184'256.0);
        QCOMPARE(params(four), std::int64_t { 25'530'472 });
        QCOMPARE(four.input, (Shape { 4, 3, 224, 224 }));
        // The built-in ResNet-50's convolutions and linear layer: the same multiply-adds.
        Config builtin;
        builtin.model = "resnet50";
        builtin.unet.height = builtin.unet.width = 224;
        builtin.unet.inChannels = 3;
        builtin.unet.classes = 1000;
        QCOMPARE(macs(built(builtin)), 4'089'184'256.0);
        // The exporter folded batch norm (weights renamed "onnx::Conv_497"...): the network says so,
        // which explains the 26,560 parameters (scale and shift of 13,280 channels) it lacks. AlexNet
        // never had batch norm and keeps its layers' names: no such note.
        auto folded = [](const Network& n) {
            return std::any_of(n.diagnostics.begin(), n.diagnostics.end(), [](const Diagnostic& d) {
                return d.message.find("folded batch norm into 53 of the 53 convolutions") != std::string::npos;
            });
        };
        QVERIFY(folded(net));
        QCOMPARE(25'557'032 - 25'530'472, 2 * 13'280);
        QVERIFY(!folded(built(onnxConfig("alexnet.onnx"))));
    }

    // The image size binds the symbolic height and width: at 160 x 160 every spatial extent scales by
    // (160/224)^2 except where rounding differs, so compare with the built-in network at 160.
    void dynamicImageSizeFollowsTheConfiguration()
    {
        for (int image : { 160, 256, 320 }) {
            Config builtin;
            builtin.model = "resnet50";
            builtin.unet.height = builtin.unet.width = image;
            builtin.unet.inChannels = 3;
            builtin.unet.classes = 1000;
            QCOMPARE(macs(built(onnxConfig("resnet50.onnx", 1, image))), macs(built(builtin)));
        }
        const OnnxLoad load = cachedOnnxModel(fixture("resnet50.onnx"));
        QVERIFY(load.model->batchBound());
        QVERIFY(load.model->imageBound());
        QCOMPARE(load.model->defaultImageSize(), 224);
    }

    // AlexNet was exported with a fixed 224 x 224 input: the image size cannot change it, and the
    // model says why (the window's tooltip, the CLI's warning).
    void fixedExtentsStayFixed()
    {
        const OnnxLoad load = cachedOnnxModel(fixture("alexnet.onnx"));
        QVERIFY(load.model->batchBound());
        QVERIFY(!load.model->imageBound());
        QCOMPARE(load.model->imageFixedReason(),
            std::string("the model file fixes the image size (input 'input' is batchx3x224x224)"));
        QCOMPARE(load.model->batchFixedReason(), std::string());
        QCOMPARE(macs(built(onnxConfig("alexnet.onnx", 1, 320))), 714'188'480.0); // 320 does not apply
    }

    // The classic U-Net written in PyTorch (valid convolutions, centre crops traced as Shape, Gather,
    // Sub, Div, Cast, Unsqueeze and Slice) gives the built-in U-Net's convolution rows exactly, at the
    // default 572 x 572 and at another size and batch, once the exporter's crops are evaluated.
    void unetEqualsTheBuiltInUNet()
    {
        for (auto [batch, image] : { std::pair { 1, 572 }, std::pair { 2, 668 } }) {
            Config c = onnxConfig("unet.onnx", batch, image);
            Config builtin;
            builtin.batch = batch;
            builtin.unet.height = builtin.unet.width = image;
            std::vector<double> mine, theirs;
            for (const Layer& l : built(c).layers)
                if (l.op == Op::Conv || l.op == Op::ConvTranspose)
                    mine.push_back(forwardFlops(l));
            for (const Layer& l : built(builtin).layers)
                if (l.op == Op::Conv || l.op == Op::ConvTranspose)
                    theirs.push_back(forwardFlops(l));
            QCOMPARE(mine.size(), size_t(23));
            QCOMPARE(mine, theirs);
        }
        const Network net = built(onnxConfig("unet.onnx", 1, 572));
        QCOMPARE(net.output(), (Shape { 1, 2, 388, 388 }));
        // The same parameters as the built-in network (31,030,658: convolutions and biases).
        Config builtin;
        QCOMPARE(params(net), params(built(builtin)));
        const OnnxLoad load = cachedOnnxModel(fixture("unet.onnx"));
        QCOMPARE(load.model->defaultImageSize(), 224); // PyTorch's crop works at any size the pools allow
    }

    // Rank 5: a 3-D CNN on clips [N, 3, 8, H, W] exported by PyTorch (batch norm folded into the
    // convolution). At batch 1, 32 x 32, worked by hand:
    //   conv 1: W [8,3,3,3,3], pads 1: out [1,8,8,32,32] = 65,536; 2 x 65,536 x 3 x 27 = 10,616,832;
    //           648 weights, bias row 65,536 FLOPs and 8 parameters
    //   relu 65,536; max-pool 2x2x2: out [1,8,4,16,16] = 8,192 x 7 comparisons = 57,344
    //   conv 2: W [16,8,1,3,3]: out [1,16,4,14,14] = 12,544; 2 x 12,544 x 8 x 9 = 1,806,336; 1,152 + 16
    //   global average pool: 4 x 14 x 14 = 784 per output x 16 = 12,544; linear 2 x 10 x 16 = 320, 160 + 10
    void videoConvolutionsOfRankFive()
    {
        const Network net = built(onnxConfig("video3d.onnx", 1, 32));
        const std::vector<std::pair<const char*, double>> rows {
            { "conv", 10'616'832 },
            { "bias", 65'536 },
            { "relu", 65'536 },
            { "maxpool", 57'344 },
            { "conv", 1'806'336 },
            { "bias", 12'544 },
            { "avgpool", 12'544 },
            { "linear", 320 },
            { "bias", 10 },
        };
        QCOMPARE(net.layers.size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(std::string(opName(net.layers[i].op)), std::string(rows[i].first));
            QCOMPARE(forwardFlops(net.layers[i]), rows[i].second);
        }
        QCOMPARE(params(net), std::int64_t { 648 + 8 + 1'152 + 16 + 160 + 10 });
        QCOMPARE(shapeString(net.layers[0].out), std::string("1x8x8x32x32"));
        QCOMPARE(net.input, (Shape { 1, 3, 32, 32, 5, 8 }));
        // The image size binds the height and width (extents 3 and 4); the 8 frames stay.
        const Network big = built(onnxConfig("video3d.onnx", 2, 64));
        QCOMPARE(shapeString(big.layers[0].out), std::string("2x8x8x64x64"));
        QCOMPARE(forwardFlops(big.layers[0]), 2 * 4 * 10'616'832.0);
    }

    // Fusion folds the bias and ReLU rows into the convolution, as for the built-in networks.
    void fusionFoldsTheEpilogues()
    {
        Config c = onnxConfig("alexnet.onnx");
        const Network plain = built(c);
        c.fusion = true;
        const Network fused = built(c);
        QCOMPARE(fused.layers.size(), size_t(12)); // 5 conv, 3 pool, avgpool, 3 linear
        QCOMPARE(fused.layers.front().name, std::string("features.0/Conv+bias+relu"));
        double a = 0, b = 0;
        for (const Layer& l : plain.layers)
            a += forwardFlops(l);
        for (const Layer& l : fused.layers)
            b += forwardFlops(l);
        QCOMPARE(a, b);
        QCOMPARE(params(fused), std::int64_t { 61'100'840 });
    }

    // Every analysis works on an imported model: training adds the backward pass and the optimizer.
    void analysesRunOnImportedModels()
    {
        Config c = onnxConfig("resnet50.onnx", 8);
        c.mode = Mode::Training;
        c.tensorCores = true;
        c.bits = 16;
        const AnalysisOutcome out = analyzeConfig(c, { test::shippedDevice("a100-sxm-80gb") });
        QVERIFY2(out.report, out.error.c_str());
        const auto& rows = out.report->results[0].layers;
        QCOMPARE(rows.back().op, Op::Optimizer);
        QVERIFY(out.report->results[0].totals.time > 0);
        QCOMPARE(out.report->uncountedRows, 0);
        // The missing weight file is a warning, not an error.
        QVERIFY(std::any_of(out.report->diagnostics.begin(), out.report->diagnostics.end(), [](const Diagnostic& d) {
            return d.severity == Severity::Warning && d.message.find("resnet50.weights") != std::string::npos;
        }));
    }

    // Every refusal the fuzz corpus reaches (each seed, and each cut short at sixteenths of its length or
    // with a byte changed at sixteenths), and each build error at a small and a large configuration, starts
    // with the file and a sentence of the tool's own: ONNX's words ("[ShapeInferenceError] ...", the
    // checker's "Nodes in a graph must be ...") may follow, never stand first or alone.
    void refusalsSpeakTheToolsWordsFirst()
    {
        namespace fs = std::filesystem;
        const fs::path corpus = fs::path(ROOFLINE_TEST_SOURCE_DIR) / "tests/fuzz/corpus/onnx";
        std::vector<std::string> errors;
        const std::string file = "model.onnx";
        auto consider = [&](const std::string& bytes) {
            const OnnxLoad load = parseOnnxModel(bytes, file);
            if (!load.model) {
                errors.push_back(load.error);
                return;
            }
            for (int size : { 8, 1024 }) {
                Config c;
                c.model = file;
                c.batch = size == 8 ? 1 : 64;
                c.unet.height = c.unet.width = size;
                const BuildResult b = load.model->build(c);
                if (!b.network)
                    errors.push_back(b.error);
            }
        };
        for (const auto& entry : fs::directory_iterator(corpus)) {
            std::ifstream in(entry.path(), std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            consider(bytes);
            for (size_t k = 1; k < 16 && bytes.size() > 16; ++k) {
                consider(bytes.substr(0, bytes.size() * k / 16));
                std::string changed = bytes;
                changed[changed.size() * k / 16] ^= 0x5a;
                consider(changed);
            }
        }
        QVERIFY(errors.size() > 50);
        std::set<std::string> kinds; // what the refusals say, the file's and the node's names taken out
        for (const std::string& e : errors)
            kinds.insert(e.substr(0, 60));
        qInfo("%zu refusals, %zu distinct openings", errors.size(), kinds.size());
        for (const std::string& e : errors) {
            QVERIFY2(e.starts_with(file + ": "), e.c_str());
            const std::string rest = e.substr(file.size() + 2);
            const std::string first = rest.substr(0, rest.find(". "));
            for (const char* onnxWords :
                { "Error]", "Your model", "must be topologically", "Unrecognized", "is not a registered" })
                QVERIFY2(first.find(onnxWords) == std::string::npos, e.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestOnnx)
#include "tst_onnx.moc"
