#include "workspace/presets.h"

#include "model/networks.h"

namespace rfx {

Preset studyPreset(int which)
{
    Preset p;
    p.devices = { QStringLiteral("rtx-2060-super") };
    Config& c = p.config;
    if (which == 1) {
        // Salim et al. 2022: the balanced choice is the RTX 2060 Super with batch 16, 128x128 images,
        // 32-bit numbers; same padding keeps 128x128 valid. Shown against the study's three GPUs.
        c.unet.height = c.unet.width = 128;
        c.unet.padding = Padding::Same;
        c.batch = 16;
        c.bits = 32;
        p.devices = { QStringLiteral("geforce-mx230"), QStringLiteral("geforce-940mx-ddr3"),
            QStringLiteral("rtx-2060-super") };
    } else if (which == 2) {
        // Castro et al., CCPE 2018 (doi 10.1002/cpe.4786): training a ResNet and an AlexNet-class network
        // on two Maxwell and two Pascal Titan X, batch 64, 128 and 256, PCIe 3.0. ResNet-50 at 224 x 224
        // here; the Network selector switches to AlexNet and the recommendations follow.
        const ModelInfo* m = findModel("resnet50");
        c.model = "resnet50";
        c.unet.height = m->height;
        c.unet.width = m->width;
        c.unet.inChannels = m->channels;
        c.unet.classes = m->classes;
        c.mode = Mode::Training;
        c.batch = 64;
        c.interconnect = "pcie3-x16";
        p.devices = { QStringLiteral("titan-x-maxwell"), QStringLiteral("titan-x-pascal") };
        TuneRanges r;
        r.batchMin = 64;
        r.batchMax = 256;
        r.gpusMax = 2;
        r.clockMin = 50;
        p.energyRanges = r;
    }
    return p;
}

} // namespace rfx
