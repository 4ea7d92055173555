// ControlPanel, second file: its four groups of controls (input and network, run, algorithm and
// data movement, clock and GPUs), each control with its range and the tooltip that explains what
// it does to the roofline. controlpanel.cpp has the behaviour: configuration in and out, what is
// enabled when, network files, problems.
#include "panels/controlpanel.h"

#include "widgets/checkedspinbox.h"
#include "widgets/sliderbox.h"
#include "widgets/wholetext.h"

#include "base/format.h"
#include "devices/interconnects.h"
#include "llm/llm_arch.h"
#include "model/networks.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>

#include <algorithm>
#include <cmath>

namespace rfx {

QWidget* ControlPanel::sliderRow(QSlider*& slider, QSpinBox*& spin, int min, int max, int sliderMax,
    const QString& what, const QString& tip, bool powersOfTwo)
{
    slider = new QSlider(Qt::Horizontal);
    spin = typedBox(what);
    return sliderBoxRow(
        slider, spin, min, max, sliderMax, powersOfTwo, tip, &m_updating, this, [this] { emitChanged(); });
}

QWidget* ControlPanel::buildInputGroup()
{
    auto* shape = new QGroupBox(tr("Input and network"));
    auto* f1 = new QFormLayout(shape);
    // A row too wide for the panel (presentation type in a 1024 x 640 window) puts its control under
    // its label rather than cut it behind a horizontal scroll bar.
    f1->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_network = new QComboBox;
    for (const ModelInfo& m : builtinModels())
        m_network->addItem(QString::fromUtf8(m.title.data(), qsizetype(m.title.size())),
            QString::fromUtf8(m.id.data(), qsizetype(m.id.size())));
    m_network->insertSeparator(m_network->count());
    // A heading over them (issue 73 item 9: the list ran from ResNet-152 into Llama with a line between):
    // bold, neither selectable nor enabled, no model id.
    // Under it each family's models under its name (issue 75 item 4), in italics: a heading too.
    auto heading = [this](const QString& text, bool bold) {
        m_network->addItem(text);
        if (auto* items = qobject_cast<QStandardItemModel*>(m_network->model()))
            if (QStandardItem* item = items->item(m_network->count() - 1)) {
                item->setFlags(Qt::NoItemFlags);
                QFont font = item->font();
                font.setBold(bold);
                font.setItalic(!bold);
                item->setFont(font);
            }
    };
    heading(tr("Language models"), true);
    // language models: their own mode (issue 36), under their families' headings in the order the
    // families first come, each family's models together
    std::vector<std::string> families;
    for (const LlmArch& m : builtinLanguageModels())
        if (std::find(families.begin(), families.end(), llmFamilyName(m.family)) == families.end())
            families.push_back(llmFamilyName(m.family));
    std::vector<const LlmArch*> ordered;
    for (const std::string& f : families)
        for (const LlmArch& m : builtinLanguageModels())
            if (llmFamilyName(m.family) == f)
                ordered.push_back(&m);
    QString family;
    for (const LlmArch* model : ordered) {
        const LlmArch& m = *model;
        if (const QString name = QString::fromStdString(llmFamilyName(m.family)); name != family)
            heading(family = name, false);
        // "Llama-2 70B", the rest of the title ("(Meta, 2023; grouped-query attention)") in the tooltip
        // with the parameters, a mixture's active ones beside (issue 75): the selector no wider than the
        // networks' titles make it.
        const QString title = QString::fromStdString(m.title);
        m_network->addItem(title.left(title.indexOf(QStringLiteral(" ("))), QString::fromStdString(m.id));
        const std::int64_t all = llmParameterCount(m), active = llmActiveParameterCount(m);
        QString tip = tr("%1: %2 parameters").arg(title, QString::fromStdString(formatCount(all)));
        if (active != all)
            tip += tr(", %1 active a token").arg(QString::fromStdString(formatCount(active)));
        m_network->setItemData(m_network->count() - 1, tip, Qt::ToolTipRole);
    }
    m_network->insertSeparator(m_network->count());
    m_network->addItem(tr("Open model file…"), QStringLiteral("@open"));
    m_network->setToolTip(
        tr("The network to analyse: the U-Net (all its controls below), the published AlexNet, "
           "VGG-16 and ResNets at their ImageNet input, your own ONNX model (.onnx, any "
           "framework's export) or a JSON layer list (roofline-cli networks --format-help); "
           "or a language model (Llama, Mistral, Qwen, ...): prefill and decode, with its own controls"));
    connect(m_network, &QComboBox::activated, this, [this](int) { networkChosen(); });
    WholeText::keep(m_network);
    f1->addRow(tr("Network"), m_network);
    f1->addRow(tr("Image size"),
        sliderRow(m_imageSlider, m_imageSpin, kImageRange.min, kImageRange.max, 1024, tr("image size"),
            tr("Input height (and width when square), pixels. FLOPs, bytes and activations grow with the "
               "image area. With valid padding only some sizes work; the slider snaps to them.")));
    m_square = new QCheckBox(tr("Square"));
    m_square->setToolTip(tr("Use the image size for both height and width"));
    m_widthSpin = typedBox(tr("width"));
    m_widthSpin->setRange(kImageRange.min, kImageRange.max);
    m_widthSpin->setKeyboardTracking(false);
    m_widthSpin->setToolTip(tr("Input width, pixels, when the image is not square"));
    auto* wrow = new QWidget;
    auto* wl = new QHBoxLayout(wrow);
    wl->setContentsMargins(0, 0, 0, 0);
    wl->addWidget(m_square);
    wl->addWidget(new QLabel(tr("width")));
    wl->addWidget(m_widthSpin);
    wl->addStretch();
    f1->addRow(QString(), wrow);

    f1->addRow(tr("Base filters"),
        sliderRow(m_filtersSlider, m_filtersSpin, kFilterRange.min, kFilterRange.max, 256, tr("number of base filters"),
            tr("Channels of the first level; level d has filters \u00d7 2^d. Parameters grow with its "
               "square, FLOPs too; intensity grows with it.")));
    f1->addRow(tr("Stride"),
        sliderRow(m_strideSlider, m_strideSpin, kStrideRange.min, kStrideRange.max, kStrideRange.max, tr("stride"),
            tr("Downsampling factor per level: the pool window and the up-convolution's kernel and stride. "
               "Larger strides shrink the lower levels' maps and their cost.")));
    m_depth = typedBox(tr("depth"));
    m_depth->setRange(kDepthRange.min, kDepthRange.max);
    m_depth->setToolTip(tr("Number of downsamplings (levels below the first). Each level doubles the channels."));
    f1->addRow(tr("Depth"), m_depth);
    m_inChannels = typedBox(tr("number of input channels"));
    m_inChannels->setRange(kChannelRange.min, kChannelRange.max);
    m_inChannels->setToolTip(tr("Input channels (1 grey, 3 RGB): changes only the first convolution"));
    f1->addRow(tr("Input channels"), m_inChannels);
    m_classes = typedBox(tr("number of classes"));
    m_classes->setRange(kClassRange.min, kClassRange.max);
    m_classes->setToolTip(tr("Output classes: changes only the 1\u00d71 head"));
    f1->addRow(tr("Classes"), m_classes);
    m_padding = new QComboBox;
    m_padding->addItems({ tr("valid (unpadded)"), tr("same (padded)") });
    m_padding->setToolTip(tr("Valid: every 3\u00d73 convolution trims 2 pixels (572 in, 388 out). "
                             "Same: sizes are kept; the size must divide by stride^depth."));
    f1->addRow(tr("Padding"), m_padding);
    m_downsample = new QComboBox;
    m_downsample->addItems({ tr("max-pool"), tr("strided convolution") });
    m_downsample->setToolTip(tr("Max-pool rows, or the first convolution of each lower level carries the stride "
                                "(no pool rows; that convolution computes on the smaller map)"));
    f1->addRow(tr("Downsampling"), m_downsample);
    m_conv = new QComboBox;
    m_conv->addItems({ tr("standard 3\u00d73"), tr("depthwise-separable") });
    m_conv->setToolTip(tr("Depthwise-separable: depthwise 3\u00d73 + pointwise 1\u00d71, about 9\u00d7 fewer FLOPs "
                          "and parameters but a much lower intensity"));
    f1->addRow(tr("Convolution"), m_conv);
    m_batchNorm = new QCheckBox(tr("Batch norm after each 3\u00d73 convolution"));
    m_batchNorm->setToolTip(tr("Adds a BN row (2 FLOP per element, 2 parameters per channel); those convolutions "
                               "lose their bias"));
    f1->addRow(QString(), m_batchNorm);
    for (QWidget* w : { static_cast<QWidget*>(m_filtersSlider), static_cast<QWidget*>(m_filtersSpin),
             static_cast<QWidget*>(m_strideSlider), static_cast<QWidget*>(m_strideSpin), static_cast<QWidget*>(m_depth),
             static_cast<QWidget*>(m_padding), static_cast<QWidget*>(m_downsample), static_cast<QWidget*>(m_conv),
             static_cast<QWidget*>(m_batchNorm) })
        m_unetOnly.append(w);
    for (QWidget* w :
        { static_cast<QWidget*>(m_imageSlider), static_cast<QWidget*>(m_imageSpin), static_cast<QWidget*>(m_square),
            static_cast<QWidget*>(m_widthSpin), static_cast<QWidget*>(m_inChannels), static_cast<QWidget*>(m_classes) })
        m_inputControls.append(w);
    // Every row but the selector's: hidden while a language model is shown (its own controls then).
    for (int row = 1; row < f1->rowCount(); ++row)
        for (auto role : { QFormLayout::LabelRole, QFormLayout::FieldRole, QFormLayout::SpanningRole })
            if (QLayoutItem* item = f1->itemAt(row, role); item && item->widget())
                m_networkRows.append(item->widget());
    return shape;
}

QWidget* ControlPanel::buildRunGroup()
{
    auto* run = new QGroupBox(tr("Run"));
    auto* f2 = new QFormLayout(run);
    f2->setRowWrapPolicy(QFormLayout::WrapLongRows);
    f2->addRow(tr("Batch"),
        sliderRow(m_batchSlider, m_batchSpin, kBatchRange.min, kBatchRange.max, 256, tr("batch"),
            tr("Images per batch: activations, FLOPs and activation traffic grow with it; weight traffic does "
               "not, so weight-heavy layers move right. The slider steps in powers of two (1 to 256); "
               "type any batch in the box."),
            true));
    auto* brow = new QWidget;
    auto* bl = new QHBoxLayout(brow);
    bl->setContentsMargins(0, 0, 0, 0);
    m_bitsSlider = new QSlider(Qt::Horizontal);
    m_bitsSlider->setRange(0, 3);
    m_bitsSlider->setPageStep(1);
    m_bitsSlider->setTickPosition(QSlider::TicksBelow);
    m_bitsSlider->setToolTip(tr("Bits per number: the element size (bytes = bits / 8) and the compute ceiling "
                                "(int8, fp16, fp32, fp64). Fewer bits move every point right."));
    m_bitsLabel = new QLabel;
    m_bitsLabel->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("64 bit")) + 4);
    bl->addWidget(m_bitsSlider, 1);
    bl->addWidget(m_bitsLabel);
    f2->addRow(tr("Bits"), brow);
    connect(m_bitsSlider, &QSlider::valueChanged, this, [this](int) {
        if (!m_updating)
            emitChanged();
    });
    // An imported model: its own precision (each tensor at its stored width, each row on the ceiling of
    // its arithmetic) is the default; unchecked, the slider sets every tensor and row.
    m_bitsAsInFile = new QCheckBox(tr("As in the model file"));
    m_bitsAsInFile->setToolTip(
        tr("Each tensor moves bytes at the width the file stores (fp16, int8, 4-bit weights) and "
           "each row runs on the ceiling of its own arithmetic (a quantized convolution at int8). "
           "Off: the Bits slider sets every tensor and row."));
    f2->addRow(QString(), m_bitsAsInFile);
    connect(m_bitsAsInFile, &QCheckBox::toggled, this, [this] {
        if (!m_updating)
            emitChanged();
    });
    m_tensorCores = new QCheckBox(tr("Tensor cores for convolutions"));
    m_tensorCores->setToolTip(tr("Use the device's tensor-core ceiling for convolutions (32 bits: TF32). "
                                 "Elementwise rows stay on the vector units (dashed roof)."));
    f2->addRow(QString(), m_tensorCores);
    m_fusion = new QCheckBox(tr("Fuse bias, batch norm and ReLU"));
    m_fusion->setToolTip(tr("Fold the elementwise rows into the producing convolution: their DRAM traffic disappears"));
    f2->addRow(QString(), m_fusion);
    m_mode = new QComboBox;
    m_mode->addItems({ tr("inference"), tr("training") });
    m_mode->setToolTip(tr("Training = forward + backward (convolutions 3\u00d7 the forward FLOPs) + optimizer "
                          "step; memory holds every activation"));
    f2->addRow(tr("Mode"), m_mode);
    m_optimizer = new QComboBox;
    m_optimizer->addItems({ tr("SGD"), tr("SGD with momentum"), tr("Adam") });
    m_optimizer->setToolTip(tr("Optimizer step in training: a memory-bound pass over the parameters "
                               "(state: none, 1 or 2 copies)"));
    f2->addRow(tr("Optimizer"), m_optimizer);
    return run;
}

QWidget* ControlPanel::buildAlgorithmGroup()
{
    auto* model = new QGroupBox(tr("Algorithm and data movement"));
    auto* f3 = new QFormLayout(model);
    f3->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_algorithm = new QComboBox;
    for (ConvAlgorithm a : { ConvAlgorithm::Direct, ConvAlgorithm::Im2col, ConvAlgorithm::Fft, ConvAlgorithm::Winograd2,
             ConvAlgorithm::Winograd4, ConvAlgorithm::Auto }) {
        static const char* const labels[] = { QT_TR_NOOP("direct"), QT_TR_NOOP("im2col + GEMM"), QT_TR_NOOP("FFT"),
            QT_TR_NOOP("Winograd F(2\u00d72, 3\u00d73)"), QT_TR_NOOP("Winograd F(4\u00d74, 3\u00d73)"),
            QT_TR_NOOP("auto (fastest per layer)") };
        m_algorithm->addItem(tr(labels[int(a)]), int(a));
    }
    m_algorithm->setToolTip(
        tr("How every convolution is computed (a layer's own choice, set from the table's context "
           "menu, wins). im2col: same FLOPs, a lowered matrix written and read. FFT: transforms and "
           "complex products, stride 1. Winograd: 2.25\u00d7 or 4\u00d7 fewer products for 3\u00d73 "
           "stride-1 layers, transformed tensors in memory. Where one does not apply, the layer is "
           "computed direct and the table says why."));
    f3->addRow(tr("Convolution"), m_algorithm);
    m_traffic = new QComboBox;
    m_traffic->addItem(tr("compulsory (each tensor once)"), int(TrafficModel::Compulsory));
    m_traffic->addItem(tr("fused elementwise"), int(TrafficModel::Fused));
    m_traffic->addItem(tr("naive (no on-chip reuse)"), int(TrafficModel::Naive));
    m_traffic->addItem(tr("tiled (reuse on chip)"), int(TrafficModel::Tiled));
    m_traffic->setToolTip(
        tr("DRAM bytes charged to each row. Compulsory: inputs and weights read once, outputs written "
           "once. Fused: bias, batch norm and ReLU fused into the convolution. Naive: both operands of "
           "every multiply-add from DRAM. Tiled: reuse within the on-chip capacity below "
           "(2 MACs / b, b = \u221a(capacity / 3))."));
    f3->addRow(tr("DRAM traffic"), m_traffic);
    m_onchip = typedBox(tr("on-chip capacity (KiB)"));
    m_onchip->setRange(kOnchipRange.min, kOnchipRange.max);
    m_onchip->setSuffix(tr(" KiB"));
    m_onchip->setSpecialValueText(tr("device L1 / shared"));
    m_onchip->setKeyboardTracking(false);
    m_onchip->setToolTip(
        tr("On-chip memory a tile of the tiled model must fit in (shared memory or cache per SM or "
           "core). 0: each device's own L1/shared-memory size. Try 48 KiB for a classic shared memory."));
    f3->addRow(tr("On-chip"), m_onchip);
    m_cacheAware = new QComboBox;
    m_cacheAware->addItem(tr("auto (CPUs)"), int(CacheAware::Auto));
    m_cacheAware->addItem(tr("on (every device)"), int(CacheAware::On));
    m_cacheAware->addItem(tr("off (DRAM only)"), int(CacheAware::Off));
    m_cacheAware->setToolTip(tr("Cache-aware roofline: a row whose inputs, weights and outputs fit a cache level (all "
                                "cores together) runs against that level's bandwidth, drawn as its own slope. Auto: "
                                "CPUs whose device file gives cache bandwidths (a measured machine does). On: GPUs "
                                "with them too (A100, H100, H200: L2). Off: every row on DRAM. Not with tiled traffic, "
                                "which models its own levels."));
    f3->addRow(tr("Cache-aware"), m_cacheAware);
    return model;
}

QWidget* ControlPanel::buildScalingGroup()
{
    auto* scaling = new QGroupBox(tr("Clock and GPUs"));
    auto* f4 = new QFormLayout(scaling);
    f4->setRowWrapPolicy(QFormLayout::WrapLongRows);
    f4->addRow(tr("Core clock"),
        sliderRow(m_clockSlider, m_clockSpin, kClockRange.min, kClockRange.max, kClockRange.max, tr("clock (%)"),
            tr("Core clock, percent of the boost clock: the compute roofs (and on-chip bandwidths) scale with it, DRAM "
               "bandwidth does not. Dynamic power falls as f·V² down to the voltage floor at the base clock "
               "(View ▸ Energy and tuning shows the energy-optimal clock).")));
    m_clockSpin->setSuffix(tr(" %"));
    m_gpus = typedBox(tr("number of GPUs"));
    m_gpus->setRange(kGpuRange.min, 1024);
    m_gpus->setKeyboardTracking(false);
    m_gpus->setToolTip(tr("Data-parallel GPUs, each with the batch above; gradients are all-reduced in a ring every "
                          "step (training). Affects the energy view's step time, speed-up and energy."));
    f4->addRow(tr("GPUs"), m_gpus);
    m_interconnect = new QComboBox;
    for (const Interconnect& l : interconnects()) {
        m_interconnect->addItem(
            tr("%1 (%2)").arg(QString::fromStdString(l.name), QString::fromStdString(formatSI(l.bandwidth, "B/s"))),
            QString::fromStdString(l.id));
        m_interconnect->setItemData(m_interconnect->count() - 1, QString::fromStdString(l.source), Qt::ToolTipRole);
    }
    m_interconnect->setToolTip(tr("Link between GPUs for the gradient all-reduce: 2 (G − 1) / G × gradient bytes "
                                  "/ bandwidth per step"));
    f4->addRow(tr("Link"), m_interconnect);
    m_overlap = new QCheckBox(tr("Overlap all-reduce with the backward pass"));
    m_overlap->setToolTip(tr("On: gradients travel while later layers still compute theirs; only the excess shows. "
                             "Off: the all-reduce follows the backward pass."));
    f4->addRow(QString(), m_overlap);
    return scaling;
}

} // namespace rfx
