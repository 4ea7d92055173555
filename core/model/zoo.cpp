// The built-in networks of the literature, layer by layer as torchvision builds them: AlexNet,
// VGG-16 and the ResNets (the U-Net has its own builder, unet.cpp).
#include "model/graph_builder.h"
#include "model/networks.h"

#include <algorithm>
#include <array>
#include <string>

namespace rfx {

using detail::GraphBuilder;
using detail::guarded;

namespace {
// AlexNet's and VGG's classifier: fc 4096 + ReLU, fc 4096 + ReLU, fc to the classes (with biases).
void classifier(GraphBuilder& b, int x, int classes)
{
    for (int i = 1; i <= 3; ++i) {
        const std::string name = "classifier.fc" + std::to_string(i);
        x = b.linear(name, x, i < 3 ? 4096 : classes);
        x = b.post(x, name, true, false, i < 3);
    }
}
} // namespace

BuildResult buildAlexNet(const Shape& input, int classes, bool fusion)
{
    return guarded([&] {
        GraphBuilder b("AlexNet", input, fusion);
        int x = -1;
        auto convRelu = [&](const std::string& name, std::int64_t cout, int k, int stride, int pad) {
            x = b.conv(name, x, cout, k, stride, pad);
            x = b.post(x, name, true, false, true);
        };
        convRelu("features.conv1", 64, 11, 4, 2);
        x = b.pool("features.pool1", Op::MaxPool, x, 3, 2, 0);
        convRelu("features.conv2", 192, 5, 1, 2);
        x = b.pool("features.pool2", Op::MaxPool, x, 3, 2, 0);
        convRelu("features.conv3", 384, 3, 1, 1);
        convRelu("features.conv4", 256, 3, 1, 1);
        convRelu("features.conv5", 256, 3, 1, 1);
        x = b.pool("features.pool5", Op::MaxPool, x, 3, 2, 0);
        x = b.adaptiveAvgPool("avgpool", x, 6, 6);
        // Dropout is the identity at inference and costs no FLOPs: not a row.
        classifier(b, x, classes);
        return b.take();
    });
}

BuildResult buildVgg16(const Shape& input, int classes, bool fusion)
{
    return guarded([&] {
        GraphBuilder b("VGG-16", input, fusion);
        int x = -1;
        const int blocks[5][2] = { { 2, 64 }, { 2, 128 }, { 3, 256 }, { 3, 512 }, { 3, 512 } };
        for (int s = 0; s < 5; ++s) {
            for (int i = 0; i < blocks[s][0]; ++i) {
                const std::string name = "block" + std::to_string(s + 1) + ".conv" + std::to_string(i + 1);
                x = b.conv(name, x, blocks[s][1], 3, 1, 1);
                x = b.post(x, name, true, false, true);
            }
            x = b.pool("block" + std::to_string(s + 1) + ".pool", Op::MaxPool, x, 2, 2, 0);
        }
        x = b.adaptiveAvgPool("avgpool", x, 7, 7);
        classifier(b, x, classes);
        return b.take();
    });
}

BuildResult buildCalibrationClasses(const Shape& input, bool fusion)
{
    return guarded([&] {
        GraphBuilder b("Calibration classes", input, fusion);
        int x = -1;
        std::int64_t c = input.c;
        for (int level = 1; level <= 4; ++level) {
            const std::string l = "l" + std::to_string(level);
            x = b.conv(l + ".expand", x, 4 * c, 1, 1, 0);
            x = b.post(x, l + ".expand", false, true, true);
            x = b.conv(l + ".dw", x, 4 * c, 3, 1, 1, int(4 * c));
            x = b.post(x, l + ".dw", false, true, true);
            x = b.conv(l + ".project", x, c, 1, 1, 0);
            x = b.post(x, l + ".project", false, true, false);
            if (level < 4) {
                x = b.conv(l + ".down", x, 2 * c, 1, 2, 0);
                x = b.post(x, l + ".down", false, true, true);
                c *= 2;
            }
        }
        // Tiny rows of every class, at two widths (issue 51): a few microseconds of bound each (7 x 7
        // maps of 16 and 48 channels), so that a kernel's fixed cost is a visible part of their time
        // and the fit measures it, where the rows above (tens to hundreds of microseconds) let it only
        // extrapolate one: 24.7 us for 1x1 convolutions on the Zen 2, which made MobileNetV2's 1x1
        // rows, measured at 95 % of their bound, come out 27 % slow.
        const int top = x;
        for (const std::int64_t width : { 16, 48 }) {
            const std::string t = "tiny" + std::to_string(width);
            const int squeeze = b.post(b.conv(t + ".squeeze", top, width, 1, 1, 0), t + ".squeeze", false, true, true);
            const int conv = b.post(b.conv(t + ".conv", squeeze, width, 3, 1, 1), t + ".conv", true, false, false);
            const int dw = b.conv(t + ".dw", conv, width, 3, 1, 1, int(width));
            const int sum = b.add(t + ".add", dw, squeeze);
            b.concat(t + ".concat", { sum, conv });
            b.convTranspose(t + ".up", sum, width / 2, 2, 2, 0);
            const int pooled = b.pool(t + ".pool", Op::MaxPool, sum, 2, 2, 0);
            b.linear(t + ".fc", pooled, 64);
        }
        // Depthwise rows shaped as networks have them (issue 51): the rows above hold 256 to 2048
        // channels on maps of 56 to 7, where oneDNN's depthwise kernel reached 17-24 % of its bound, and
        // a separable U-Net's (64 to 1024 channels on maps of 128 to 8) 22-33 %: fitted on the first,
        // the second came out 11 % slow. A ladder of MobileNet's shapes, from the input's 64 channels on
        // 56 x 56 to 960 on 7 x 7, each depthwise step at stride 2 after a 1x1 expansion.
        int y = b.conv("dwnet.c64.dw", -1, input.c, 3, 1, 1, int(input.c));
        for (const std::int64_t width : { 192, 384, 960 }) {
            const std::string n = "dwnet.c" + std::to_string(width);
            y = b.conv(n + ".expand", y, width, 1, 1, 0);
            y = b.conv(n + ".dw", y, width, 3, 2, 1, int(width));
        }
        // Matrix rows as classifiers have them: the tiny rows' fully connected layers alone left the
        // class no fit, and VGG-16's 103 MB fc1, streamed at 97 % of its DRAM bound, took the pooled
        // memory fit of small kernels (55 %) and came out 76 % slow. A global-pool classifier (3.8 MB of
        // weights, as ResNet's and MobileNet's), a flattened one (96 MB, past any L3, as VGG's 67 and 411
        // MB) and a wide one (8 MB). The flattened one streams DRAM for about 2 ms, a third of the probes'
        // time: on a shared VM whose DRAM bandwidth varies from run to run, the probes' run is then often
        // called noisy (medians 11-12 % over the best on this project's VM on 2026-12-05). (At 256 outputs,
        // 48 MB, oneDNN's kernel ran at 39 % of its DRAM bound where 512 outputs ran at 70 %: not a
        // classifier's shape.)
        const int gap = b.pool("fcnet.gap", Op::AvgPool, y, 7, 7, 0);
        b.linear("fcnet.classifier", gap, 1000);
        const int flat = b.linear("fcnet.flat", y, 512);
        b.linear("fcnet.wide", flat, 4096);
        return b.take();
    });
}

BuildResult buildCeilingProbes(std::int64_t streamOutputs)
{
    return guarded([&] {
        GraphBuilder b("Ceiling probes", Shape { 1, 512, 30, 30 }, false);
        b.conv("probe.conv", -1, 512, 3, 1, 0);
        b.linear("probe.stream", -1, std::max<std::int64_t>(1, streamOutputs));
        return b.take();
    });
}

BuildResult buildResNet(int depth, const Shape& input, int classes, bool fusion)
{
    std::array<int, 4> blocks {};
    bool bottleneck = true;
    switch (depth) {
    case 18:
        blocks = { 2, 2, 2, 2 }, bottleneck = false;
        break;
    case 34:
        blocks = { 3, 4, 6, 3 }, bottleneck = false;
        break;
    case 50:
        blocks = { 3, 4, 6, 3 };
        break;
    case 101:
        blocks = { 3, 4, 23, 3 };
        break;
    case 152:
        blocks = { 3, 8, 36, 3 };
        break;
    default:
        return { std::nullopt, "ResNet depth must be 18, 34, 50, 101 or 152, got " + std::to_string(depth) };
    }
    return guarded([&] {
        GraphBuilder b("ResNet-" + std::to_string(depth), input, fusion);
        auto convBn = [&](const std::string& name, int in, std::int64_t cout, int k, int stride, int pad, bool relu) {
            const int x = b.conv(name, in, cout, k, stride, pad);
            return b.post(x, name, false, true, relu);
        };
        int x = convBn("conv1", -1, 64, 7, 2, 3, true);
        x = b.pool("maxpool", Op::MaxPool, x, 3, 2, 1);
        const int expansion = bottleneck ? 4 : 1;
        std::int64_t channels = 64;
        for (int s = 0; s < 4; ++s) {
            const std::int64_t width = 64LL << s;
            for (int i = 0; i < blocks[static_cast<size_t>(s)]; ++i) {
                const std::string name = "layer" + std::to_string(s + 1) + "." + std::to_string(i);
                const int stride = (i == 0 && s > 0) ? 2 : 1;
                const int identity = x;
                if (bottleneck) {
                    x = convBn(name + ".conv1", x, width, 1, 1, 0, true);
                    x = convBn(name + ".conv2", x, width, 3, stride, 1, true);
                    x = convBn(name + ".conv3", x, width * expansion, 1, 1, 0, false);
                } else {
                    x = convBn(name + ".conv1", x, width, 3, stride, 1, true);
                    x = convBn(name + ".conv2", x, width, 3, 1, 1, false);
                }
                int shortcut = identity;
                if (stride != 1 || channels != width * expansion)
                    shortcut = convBn(name + ".downsample", identity, width * expansion, 1, stride, 0, false);
                x = b.add(name + ".add", x, shortcut);
                x = b.elementwise(name + ".relu", Op::ReLU, x);
                channels = width * expansion;
            }
        }
        x = b.adaptiveAvgPool("avgpool", x, 1, 1);
        x = b.linear("fc", x, classes);
        b.post(x, "fc", true, false, false);
        return b.take();
    });
}

} // namespace rfx
