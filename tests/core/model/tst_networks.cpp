// The preset networks against published figures, and custom JSON networks.
//
// Parameter counts: torchvision's model documentation ("Table of all available classification
// weights", https://pytorch.org/vision/stable/models.html), which lists num_params per weight:
//   AlexNet 61,100,840; VGG-16 138,357,544; ResNet-18 11,689,512; ResNet-34 21,797,672;
//   ResNet-50 25,557,032; ResNet-101 44,549,160; ResNet-152 60,192,808.
// Forward cost at 224 x 224: the same table's "GFLOPS" column, which counts multiply-accumulates of
// the convolutions and linear layers (fvcore): AlexNet 0.71, VGG-16 15.47, ResNet-18 1.81,
// ResNet-34 3.66, ResNet-50 4.09, ResNet-101 7.80, ResNet-152 11.51.
#include "engine/calibration.h"
#include "engine/cost.h"
#include "engine/roofline.h"
#include "io/options.h"
#include "model/networks.h"
#include "open/analyses.h"
#include "open/build_network.h"
#include "testutils.h"

#include <QTemporaryDir>

#include <map>

using namespace rfx;

using test::macs;
using test::params;

namespace {

Shape imagenet(int batch = 1) { return Shape { batch, 3, 224, 224 }; }

Network build(const std::string& model, bool fusion = false)
{
    Config c;
    c.model = model;
    c.unet.height = c.unet.width = 224;
    c.unet.inChannels = 3;
    c.unet.classes = 1000;
    c.fusion = fusion;
    BuildResult b = buildNetwork(c);
    if (!b.network)
        qFatal("%s: %s", model.c_str(), b.error.c_str());
    return *b.network;
}

} // namespace

class TestNetworks : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& text)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(f.fileName()));
        f.write(text);
        return f.fileName();
    }

private slots:
    // The calibration probes (README "Calibration"), counted by hand. A level of C channels: 1x1 expand
    // 4C^2, depthwise 3x3 9 x 4C, 1x1 project 4C^2, strided 1x1 down 2C^2 (not at the last level),
    // batch norm 2 per channel after each (8C + 8C + 2C + 4C): 10C^2 + 58C, the last 8C^2 + 54C.
    // C = 64, 128, 256, 512: 44,672 + 171,264 + 670,208 + 2,124,800 = 3,010,944.
    // Then the tiny rows (issue 51) at widths W = 16 and 48 on the 7 x 7 x 512 map: 1x1 squeeze 512W,
    // its batch norm 2W, 3x3 conv 9W^2 and its bias W, depthwise 3x3 9W, 2x2 transposed conv to W/2
    // channels 2W^2, a linear layer from 3 x 3 x W to 64 576W: 11W^2 + 1100W = 20,416 and 78,144.
    // Then the depthwise ladder (issue 51) from the input's 64 channels: depthwise 9 x 64 = 576; 1x1
    // expansions 64 x 192, 192 x 384, 384 x 960 = 12,288 + 73,728 + 368,640 and their depthwise steps
    // 9 x (192 + 384 + 960) = 13,824: 469,056. Then the classifiers on its 960 x 7 x 7 map: 960 -> 1000
    // after a global pool (960,000), 47,040 -> 512 flattened (24,084,480) and 512 -> 4096 (2,097,152):
    // 27,141,632. In all 3,010,944 + 98,560 + 469,056 + 27,141,632 = 30,720,192.
    void calibrationClassesNetwork()
    {
        Config c;
        c.model = "calibration-classes";
        const ModelInfo* m = findModel(c.model);
        QVERIFY(m);
        c.unet.height = m->height;
        c.unet.width = m->width;
        c.unet.inChannels = m->channels;
        const BuildResult b = buildNetwork(c);
        QVERIFY2(b.network, b.error.c_str());
        std::int64_t params = 0;
        int pointwise = 0, depthwise = 0, norms = 0, matrices = 0;
        for (const Layer& l : b.network->layers) {
            params += layerParams(l);
            pointwise += calibrationClass(l) == "conv1x1";
            depthwise += calibrationClass(l) == "depthwise";
            norms += calibrationClass(l) == "batch_norm";
            matrices += calibrationClass(l) == "matrix";
        }
        QCOMPARE(params, std::int64_t(30'720'192));
        QCOMPARE(pointwise, 11 + 2 + 3);
        QCOMPARE(depthwise, 4 + 2 + 4);
        QCOMPARE(norms, 15 + 2);
        QCOMPARE(matrices, 2 + 3);
        // Every class has a tiny row at each width, a few microseconds of bound (a kernel's overhead
        // shows in them): under 10 MFLOP and 1 MB each.
        std::map<std::string, int> tiny;
        for (const Layer& l : b.network->layers)
            if (l.name.starts_with("tiny")) {
                ++tiny[std::string(calibrationClass(l))];
                QVERIFY2(forwardFlops(l) < 10e6, l.name.c_str());
            }
        for (const std::string& cls : calibrationClasses()) // but attention: a language model's (measure --llm)
            QVERIFY2(tiny[cls] >= 2 || cls == "attention", cls.c_str());
    }

    void publishedCounts_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<double>("gmac");
        QTest::newRow("alexnet") << "alexnet" << qint64(61'100'840) << 0.71;
        QTest::newRow("vgg16") << "vgg16" << qint64(138'357'544) << 15.47;
        QTest::newRow("resnet18") << "resnet18" << qint64(11'689'512) << 1.81;
        QTest::newRow("resnet34") << "resnet34" << qint64(21'797'672) << 3.66;
        QTest::newRow("resnet50") << "resnet50" << qint64(25'557'032) << 4.09;
        QTest::newRow("resnet101") << "resnet101" << qint64(44'549'160) << 7.80;
        QTest::newRow("resnet152") << "resnet152" << qint64(60'192'808) << 11.51;
    }
    void publishedCounts()
    {
        QFETCH(QString, model);
        QFETCH(qint64, params);
        QFETCH(double, gmac);
        const Network net = build(model.toStdString());
        QCOMPARE(::params(net), std::int64_t(params));
        // The table rounds to two decimals: agree to within its rounding.
        QVERIFY2(
            std::abs(macs(net) / 1e9 - gmac) <= 0.005 + 1e-9, qPrintable(QString::number(macs(net) / 1e9, 'f', 4)));
        QCOMPARE(net.output(), (Shape { 1, 1000, 1, 1 }));
        // Fusion folds rows but changes no count.
        const Network fused = build(model.toStdString(), true);
        QCOMPARE(::params(fused), std::int64_t(params));
        auto total = [](const Network& n) {
            double f = 0;
            for (const Layer& l : n.layers)
                f += forwardFlops(l);
            return f;
        };
        QCOMPARE(total(fused), total(net));
        QVERIFY(fused.layers.size() < net.layers.size());
    }

    // ResNet-50 by hand.
    // conv1: 7x7, stride 2, padding 3, 3 -> 64 channels, no bias: (224 + 6 - 7) / 2 + 1 = 112;
    //   params 64 * 3 * 7 * 7 = 9,408; FLOPs 2 * 1 * 64 * 112 * 112 * 3 * 7 * 7 = 236,027,904.
    // maxpool 3x3 stride 2 padding 1: (112 + 2 - 3) / 2 + 1 = 56.
    // layer1.0: 1x1 64 -> 64, 3x3 64 -> 64, 1x1 64 -> 256, shortcut 1x1 64 -> 256 (channels change);
    //   layer2.0.conv2 carries the stride (v1.5): 56 -> 28.
    // fc: 2048 -> 1000 with bias: 2,049,000 parameters.
    void resnet50ByHand()
    {
        const Network net = build("resnet50");
        const Layer& conv1 = test::layerNamed(net, "conv1");
        QCOMPARE(conv1.out, (Shape { 1, 64, 112, 112 }));
        QCOMPARE(layerParams(conv1), std::int64_t(9'408));
        QCOMPARE(forwardFlops(conv1), 236'027'904.0);
        // fvcore's count for torchvision's ResNet-50, exactly.
        QCOMPARE(macs(net), 4'089'184'256.0);
        QCOMPARE(test::layerNamed(net, "maxpool").out, (Shape { 1, 64, 56, 56 }));
        QCOMPARE(test::layerNamed(net, "layer1.0.downsample").out, (Shape { 1, 256, 56, 56 }));
        QCOMPARE(test::layerNamed(net, "layer2.0.conv1").out, (Shape { 1, 128, 56, 56 }));
        QCOMPARE(test::layerNamed(net, "layer2.0.conv2").out, (Shape { 1, 128, 28, 28 }));
        QCOMPARE(test::layerNamed(net, "layer4.2.add").out, (Shape { 1, 2048, 7, 7 }));
        QCOMPARE(test::layerNamed(net, "avgpool").out, (Shape { 1, 2048, 1, 1 }));
        QCOMPARE(forwardFlops(test::layerNamed(net, "avgpool")), 49.0 * 2048); // 7x7 window per output
        QCOMPARE(layerParams(test::layerNamed(net, "fc")) + layerParams(test::layerNamed(net, "fc.bias")),
            std::int64_t(2'049'000));
        // 53 convolutions (49 + 4 shortcuts) and the fc.
        QCOMPARE(
            std::count_if(net.layers.begin(), net.layers.end(), [](const Layer& l) { return l.op == Op::Conv; }), 53L);
        QCOMPARE(
            std::count_if(net.layers.begin(), net.layers.end(), [](const Layer& l) { return l.op == Op::Add; }), 16L);
    }

    // AlexNet by hand: conv1 11x11 stride 4 padding 2: (224 + 4 - 11) / 4 + 1 = 55; pool 3/2: 27;
    // conv2 5x5 p2: 27; pool: 13; conv3-5: 13; pool: 6, so the adaptive pool to 6x6 is no row;
    // fc1 reads 256 * 6 * 6 = 9,216 features: 9,216 * 4,096 + 4,096 = 37,752,832 parameters.
    void alexnetByHand()
    {
        const Network net = build("alexnet");
        QCOMPARE(test::layerNamed(net, "features.conv1").out, (Shape { 1, 64, 55, 55 }));
        QCOMPARE(test::layerNamed(net, "features.pool1").out, (Shape { 1, 64, 27, 27 }));
        QCOMPARE(test::layerNamed(net, "features.pool5").out, (Shape { 1, 256, 6, 6 }));
        QVERIFY(std::none_of(net.layers.begin(), net.layers.end(), [](const Layer& l) { return l.op == Op::AvgPool; }));
        const Layer& fc1 = test::layerNamed(net, "classifier.fc1");
        QCOMPARE(
            layerParams(fc1) + layerParams(test::layerNamed(net, "classifier.fc1.bias")), std::int64_t(37'752'832));
        QCOMPARE(forwardFlops(fc1), 2.0 * 9'216 * 4'096);
    }

    void otherImageSizes()
    {
        // VGG-16 at 32 x 32 (CIFAR): the 1x1 map is pooled up to 7x7 as PyTorch does; parameters unchanged.
        BuildResult b = buildVgg16(Shape { 1, 3, 32, 32 }, 1000, false);
        QVERIFY2(b.network, b.error.c_str());
        QCOMPARE(params(*b.network), std::int64_t(138'357'544));
        // Too small: the message names the layer and the reason.
        b = buildAlexNet(Shape { 1, 3, 40, 40 }, 1000, false);
        QVERIFY(!b.network);
        QVERIFY2(QString::fromStdString(b.error).startsWith(QStringLiteral("features.")), b.error.c_str());
        QVERIFY2(b.error.find("use a larger image") != std::string::npos, b.error.c_str());
        QVERIFY(!buildResNet(42, imagenet(), 1000, false).network);
        QCOMPARE(buildResNet(42, imagenet(), 1000, false).error,
            std::string("ResNet depth must be 18, 34, 50, 101 or 152, got 42"));
    }

    void modelOptionBringsPublishedInput()
    {
        ConfigOptions o;
        std::string error;
        QVERIFY(parseConfigArgs({ "--model", "resnet50" }, o, error));
        QCOMPARE(o.config.unet.height, 224);
        QCOMPARE(o.config.unet.inChannels, 3);
        QCOMPARE(o.config.unet.classes, 1000);
        ConfigOptions kept;
        QVERIFY(parseConfigArgs({ "--image", "256", "--model", "resnet50" }, kept, error));
        QCOMPARE(kept.config.unet.height, 256);
        // A configuration written out and read back is the same.
        ConfigOptions again;
        QVERIFY(parseConfigArgs(configToArgs(kept.config), again, error));
        QCOMPARE(again.config, kept.config);

        Config bad;
        bad.model = "resnet";
        QVERIFY(validate(bad));
        QVERIFY(validate(bad)->find("available: unet, alexnet, vgg16, resnet18") != std::string::npos);

        // The whole engine runs on a preset.
        Config c = o.config;
        c.batch = 2;
        const AnalysisOutcome out = analyzeConfig(c, { test::roundDevice() });
        QVERIFY2(out.report, out.error.c_str());
        QCOMPARE(out.report->network, std::string("ResNet-50"));
        QCOMPARE(out.report->results[0].totals.params, std::int64_t(25'557'032));
    }

    // A small custom network, counted by hand:
    //   input 3x32x32
    //   conv1 3 -> 16, 3x3, padding 1, bias, ReLU: params 16*3*3*3 + 16 = 448;
    //         FLOPs 2*1*16*32*32*3*3*3 = 884,736 (+ 16,384 bias + 16,384 ReLU rows)
    //   pool1 2x2 max: 16x16x16, (4 - 1) * 4,096 = 12,288 FLOPs
    //   conv2 16 -> 16, 3x3, padding 1, batch norm, no bias: params 2,304 + 32
    //   res   pool1 + conv2.bn: 4,096 FLOPs
    //   fc    4,096 -> 10: params 40,960 + 10; FLOPs 2 * 10 * 4,096 = 81,920
    void customNetworkByHand()
    {
        const QString file = write(QStringLiteral("small.json"), R"({
          "schema": 1, "name": "Small CNN",
          "input": { "channels": 3, "height": 32, "width": 32 },
          "layers": [
            { "name": "conv1", "op": "conv", "out_channels": 16, "kernel": 3, "padding": 1, "relu": true },
            { "name": "pool1", "op": "maxpool", "kernel": 2 },
            { "name": "conv2", "op": "conv", "out_channels": 16, "kernel": 3, "padding": 1, "batch_norm": true, "bias": false },
            { "name": "res", "op": "add", "inputs": ["pool1", "conv2"] },
            { "name": "fc", "op": "linear", "out_features": 10 }
          ] })");
        BuildResult b = loadNetworkFile(file.toStdString(), 1, false);
        QVERIFY2(b.network, b.error.c_str());
        const Network& net = *b.network;
        QCOMPARE(net.name, std::string("Small CNN"));
        QCOMPARE(forwardFlops(test::layerNamed(net, "conv1")), 884'736.0);
        QCOMPARE(layerParams(test::layerNamed(net, "conv1")) + layerParams(test::layerNamed(net, "conv1.bias")),
            std::int64_t(448));
        QCOMPARE(forwardFlops(test::layerNamed(net, "pool1")), 12'288.0);
        QCOMPARE(layerParams(test::layerNamed(net, "conv2.bn")), std::int64_t(32));
        QCOMPARE(forwardFlops(test::layerNamed(net, "res")), 4'096.0);
        QCOMPARE(test::layerNamed(net, "res").inputs.size(), size_t(2));
        QCOMPARE(forwardFlops(test::layerNamed(net, "fc")), 81'920.0);
        QCOMPARE(params(net), std::int64_t(448 + 2'304 + 32 + 40'960 + 10));
        QCOMPARE(net.output(), (Shape { 1, 10, 1, 1 }));

        // Through the configuration: the file's own input is used, the batch is the configuration's.
        Config c;
        c.model = file.toStdString();
        c.batch = 4;
        QVERIFY(!validate(c));
        const AnalysisOutcome out = analyzeConfig(c, { test::roundDevice() });
        QVERIFY2(out.report, out.error.c_str());
        QCOMPARE(out.report->input, (Shape { 4, 3, 32, 32 }));

        // Edited on disk: read again (cached by modification time and size).
        write(QStringLiteral("small.json"),
            QByteArray(R"({ "schema": 1, "name": "Smaller", "input": { "channels": 1, "height": 8, "width": 8 },
          "layers": [ { "name": "c", "op": "conv", "out_channels": 2, "kernel": 3 } ] })"));
        b = loadNetworkFile(file.toStdString(), 1, false);
        QVERIFY2(b.network, b.error.c_str());
        QCOMPARE(b.network->name, std::string("Smaller"));
    }

    void malformedNetworks_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        const QByteArray head
            = R"({ "schema": 1, "name": "n", "input": { "channels": 3, "height": 32, "width": 32 }, "layers": )";
        QTest::newRow("not json") << QByteArray("{ nope") << "bad.json: not valid JSON";
        QTest::newRow("number overflow") << QByteArray(R"({ "schema": 1, "name": 1e999 })")
                                         << "bad.json: not valid JSON";
        QTest::newRow("array") << QByteArray("[]") << "bad.json: expected a JSON object";
        QTest::newRow("no schema") << QByteArray(R"({ "name": "n" })") << "bad.json: schema: missing";
        QTest::newRow("future schema") << QByteArray(R"({ "schema": 2 })")
                                       << "bad.json: schema: this version reads schema 1, got 2";
        QTest::newRow("unknown top field")
            << QByteArray(R"({ "schema": 1, "layer": [] })") << "bad.json: layer: unknown field";
        QTest::newRow("no input") << QByteArray(R"({ "schema": 1, "name": "n", "layers": [] })")
                                  << "bad.json: input: missing";
        QTest::newRow("input height zero") << QByteArray(
            R"({ "schema": 1, "name": "n", "input": { "channels": 3, "height": 0, "width": 32 }, "layers": [] })")
                                           << "bad.json: input.height: must be from 8 to 16384, got 0";
        QTest::newRow("empty layers") << head + "[] }"
                                      << "bad.json: layers: missing, not an array, or empty";
        QTest::newRow("layer without op") << head + R"([ { "name": "a" } ] })"
                                          << "bad.json: layers[0] (a): op: missing";
        QTest::newRow("unknown op") << head + R"([ { "name": "a", "op": "convolution" } ] })"
                                    << "bad.json: layers[0] (a): op: unknown 'convolution'";
        QTest::newRow("typo in a field") << head
                + R"([ { "name": "a", "op": "conv", "out_channels": 8, "kernal": 3 } ] })"
                                         << "bad.json: layers[0] (a): kernal: not a field of conv";
        QTest::newRow("kernel not a number")
            << head + R"([ { "name": "a", "op": "conv", "out_channels": 8, "kernel": "3" } ] })"
            << "bad.json: layers[0] (a): kernel: expected a whole number from 1 to 1024, got \"3\"";
        QTest::newRow("fractional channels")
            << head + R"([ { "name": "a", "op": "conv", "out_channels": 8.5, "kernel": 3 } ] })"
            << "bad.json: layers[0] (a): out_channels: expected a whole number";
        QTest::newRow("missing out_channels") << head + R"([ { "name": "a", "op": "conv", "kernel": 3 } ] })"
                                              << "bad.json: layers[0] (a): out_channels: missing";
        QTest::newRow("duplicate name") << head
                + R"([ { "name": "a", "op": "relu" }, { "name": "a", "op": "relu" } ] })"
                                        << "bad.json: layers[1] (a): name: used before, by layers[0]";
        QTest::newRow("unknown input") << head + R"([ { "name": "a", "op": "relu", "inputs": ["b"] } ] })"
                                       << "bad.json: layers[0] (a): inputs: 'b' is not an earlier layer";
        QTest::newRow("add with one input") << head + R"([ { "name": "a", "op": "add" } ] })"
                                            << "bad.json: layers[0] (a): inputs: add takes exactly two inputs";
        QTest::newRow("shapes do not add")
            << head
                + R"([ { "name": "a", "op": "conv", "out_channels": 8, "kernel": 3 }, { "name": "s", "op": "add", "inputs": ["input", "a"] } ] })"
            << "bad.json: layers[1] (s): adds tensors of different shapes, 1x3x32x32 and 1x8x30x30";
        QTest::newRow("kernel larger than map")
            << head + R"([ { "name": "big", "op": "conv", "out_channels": 8, "kernel": 33 } ] })"
            << "bad.json: layers[0] (big): the map has shrunk to 32 pixels, smaller than the 33x33 window";
        QTest::newRow("groups do not divide")
            << head + R"([ { "name": "g", "op": "conv", "out_channels": 8, "kernel": 3, "groups": 2 } ] })"
            << "bad.json: layers[0] (g): groups 2 must divide the input channels (3)";
    }
    void malformedNetworks()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const BuildResult b = parseNetworkJson(text.toStdString(), "bad.json", 1, false);
        QVERIFY(!b.network);
        QVERIFY2(QString::fromStdString(b.error).startsWith(message), b.error.c_str());
    }

    void missingFile()
    {
        const BuildResult b = loadNetworkFile(m_dir.filePath(QStringLiteral("absent.json")).toStdString(), 1, false);
        QVERIFY(!b.network);
        QVERIFY2(b.error.find("absent.json: cannot read the network file") != std::string::npos, b.error.c_str());
    }

    // The format shown to users parses and builds as documented.
    void documentedExampleWorks()
    {
        const std::string help = networkFormatHelp();
        const size_t from = help.find('{'), to = help.find("\n}\n");
        QVERIFY(from != std::string::npos && to != std::string::npos);
        const BuildResult b = parseNetworkJson(help.substr(from, to + 2 - from), "help", 1, false);
        QVERIFY2(b.network, b.error.c_str());
        QCOMPARE(b.network->output(), (Shape { 1, 10, 1, 1 }));
    }
};

QTEST_GUILESS_MAIN(TestNetworks)
#include "tst_networks.moc"
