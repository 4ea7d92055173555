#include "controlpanel.h"

#include "onnx_model.h"

#include "energy.h"
#include "format.h"
#include "networks.h"
#include "problemnote.h"
#include "unet.h"

#include <QFileDialog>
#include <QFileInfo>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <array>
#include <cmath>
#include <cstdlib>

namespace rfx {

namespace {
constexpr std::array<int, 4> kBits { 8, 16, 32, 64 };

int bitsIndex(int bits)
{
    for (size_t i = 0; i < kBits.size(); ++i)
        if (kBits[i] == bits)
            return int(i);
    return 2;
}
} // namespace

namespace {
/// Slider position of a batch on its powers-of-two slider: the nearest power, log2 rounded.
int powerPosition(int value) { return int(std::lround(std::log2(std::max(value, 1)))); }
} // namespace

QWidget* ControlPanel::sliderRow(QSlider*& slider, QSpinBox*& spin, int min, int max, int sliderMax, const QString& tip,
    bool powersOfTwo)
{
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    slider = new QSlider(Qt::Horizontal);
    if (powersOfTwo) {
        // Batch 1 to 16 were crammed into a few pixels of a linear 1..256 slider: one step per power
        // of two, ticks at each; the spin box beside it stays exact (48 shows the slider at 64).
        slider->setRange(powerPosition(min), powerPosition(sliderMax));
        slider->setPageStep(1);
        slider->setTickPosition(QSlider::TicksBelow);
        slider->setTickInterval(1);
    } else {
        slider->setRange(min, sliderMax);
    }
    slider->setTracking(true); // live: every step while dragging
    spin = new QSpinBox;
    spin->setRange(min, max);
    spin->setKeyboardTracking(false);
    slider->setToolTip(tip);
    spin->setToolTip(tip);
    h->addWidget(slider, 1);
    h->addWidget(spin);
    QSlider* s = slider;
    QSpinBox* p = spin;
    connect(s, &QSlider::valueChanged, this, [this, p, powersOfTwo](int v) {
        if (m_updating)
            return;
        m_updating = true;
        p->setValue(powersOfTwo ? 1 << v : v);
        m_updating = false;
        emitChanged();
    });
    connect(p, &QSpinBox::valueChanged, this, [this, s, powersOfTwo](int v) {
        if (m_updating)
            return;
        m_updating = true;
        s->setValue(std::min(powersOfTwo ? powerPosition(v) : v, s->maximum()));
        m_updating = false;
        emitChanged();
    });
    return row;
}

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);

    auto* shape = new QGroupBox(tr("Input and network"));
    auto* f1 = new QFormLayout(shape);
    m_network = new QComboBox;
    for (const ModelInfo& m : builtinModels())
        m_network->addItem(QString::fromUtf8(m.title.data(), qsizetype(m.title.size())), QString::fromUtf8(m.id.data(), qsizetype(m.id.size())));
    m_network->insertSeparator(m_network->count());
    m_network->addItem(tr("Open model file…"), QStringLiteral("@open"));
    m_network->setToolTip(tr("The network to analyse: the U-Net (all its controls below), the published AlexNet, "
                             "VGG-16 and ResNets at their ImageNet input, your own ONNX model (.onnx, any "
                             "framework's export) or a JSON layer list (roofline-cli networks --format-help)"));
    connect(m_network, &QComboBox::activated, this, [this](int) { networkChosen(); });
    f1->addRow(tr("Network"), m_network);
    f1->addRow(tr("Image size"),
        sliderRow(m_imageSlider, m_imageSpin, kImageRange.min, kImageRange.max, 1024,
            tr("Input height (and width when square), pixels. FLOPs, bytes and activations grow with the "
               "image area. With valid padding only some sizes work; the slider snaps to them.")));
    m_square = new QCheckBox(tr("Square"));
    m_square->setToolTip(tr("Use the image size for both height and width"));
    m_widthSpin = new QSpinBox;
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
        sliderRow(m_filtersSlider, m_filtersSpin, kFilterRange.min, kFilterRange.max, 256,
            tr("Channels of the first level; level d has filters \u00d7 2^d. Parameters grow with its "
               "square, FLOPs too; intensity grows with it.")));
    f1->addRow(tr("Stride"),
        sliderRow(m_strideSlider, m_strideSpin, kStrideRange.min, kStrideRange.max, kStrideRange.max,
            tr("Downsampling factor per level: the pool window and the up-convolution's kernel and stride. "
               "Larger strides shrink the lower levels' maps and their cost.")));
    m_depth = new QSpinBox;
    m_depth->setRange(kDepthRange.min, kDepthRange.max);
    m_depth->setToolTip(tr("Number of downsamplings (levels below the first). Each level doubles the channels."));
    f1->addRow(tr("Depth"), m_depth);
    m_inChannels = new QSpinBox;
    m_inChannels->setRange(kChannelRange.min, kChannelRange.max);
    m_inChannels->setToolTip(tr("Input channels (1 grey, 3 RGB): changes only the first convolution"));
    f1->addRow(tr("Input channels"), m_inChannels);
    m_classes = new QSpinBox;
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
    layout->addWidget(shape);
    for (QWidget* w : { static_cast<QWidget*>(m_filtersSlider), static_cast<QWidget*>(m_filtersSpin),
             static_cast<QWidget*>(m_strideSlider), static_cast<QWidget*>(m_strideSpin), static_cast<QWidget*>(m_depth),
             static_cast<QWidget*>(m_padding), static_cast<QWidget*>(m_downsample), static_cast<QWidget*>(m_conv),
             static_cast<QWidget*>(m_batchNorm) })
        m_unetOnly.append(w);
    for (QWidget* w : { static_cast<QWidget*>(m_imageSlider), static_cast<QWidget*>(m_imageSpin),
             static_cast<QWidget*>(m_square), static_cast<QWidget*>(m_widthSpin), static_cast<QWidget*>(m_inChannels),
             static_cast<QWidget*>(m_classes) })
        m_inputControls.append(w);

    auto* run = new QGroupBox(tr("Run"));
    auto* f2 = new QFormLayout(run);
    f2->addRow(tr("Batch"),
        sliderRow(m_batchSlider, m_batchSpin, kBatchRange.min, kBatchRange.max, 256,
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
    layout->addWidget(run);

    auto* model = new QGroupBox(tr("Algorithm and data movement"));
    auto* f3 = new QFormLayout(model);
    m_algorithm = new QComboBox;
    for (ConvAlgorithm a : { ConvAlgorithm::Direct, ConvAlgorithm::Im2col, ConvAlgorithm::Fft, ConvAlgorithm::Winograd2,
             ConvAlgorithm::Winograd4, ConvAlgorithm::Auto }) {
        static const char* const labels[] = { QT_TR_NOOP("direct"), QT_TR_NOOP("im2col + GEMM"), QT_TR_NOOP("FFT"),
            QT_TR_NOOP("Winograd F(2\u00d72, 3\u00d73)"), QT_TR_NOOP("Winograd F(4\u00d74, 3\u00d73)"),
            QT_TR_NOOP("auto (fastest per layer)") };
        m_algorithm->addItem(tr(labels[int(a)]), int(a));
    }
    m_algorithm->setToolTip(tr("How every convolution is computed (a layer's own choice, set from the table's context "
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
    m_traffic->setToolTip(tr("DRAM bytes charged to each row. Compulsory: inputs and weights read once, outputs written "
                             "once. Fused: bias, batch norm and ReLU fused into the convolution. Naive: both operands of "
                             "every multiply-add from DRAM. Tiled: reuse within the on-chip capacity below "
                             "(2 MACs / b, b = \u221a(capacity / 3))."));
    f3->addRow(tr("DRAM traffic"), m_traffic);
    m_onchip = new QSpinBox;
    m_onchip->setRange(kOnchipRange.min, kOnchipRange.max);
    m_onchip->setSuffix(tr(" KiB"));
    m_onchip->setSpecialValueText(tr("device L1 / shared"));
    m_onchip->setKeyboardTracking(false);
    m_onchip->setToolTip(tr("On-chip memory a tile of the tiled model must fit in (shared memory or cache per SM or "
                            "core). 0: each device's own L1/shared-memory size. Try 48 KiB for a classic shared memory."));
    f3->addRow(tr("On-chip"), m_onchip);
    layout->addWidget(model);

    auto* scaling = new QGroupBox(tr("Clock and GPUs"));
    auto* f4 = new QFormLayout(scaling);
    f4->addRow(tr("Core clock"),
        sliderRow(m_clockSlider, m_clockSpin, kClockRange.min, kClockRange.max, kClockRange.max,
            tr("Core clock, percent of the boost clock: the compute roofs (and on-chip bandwidths) scale with it, DRAM "
               "bandwidth does not. Dynamic power falls as f·V² down to the voltage floor at the base clock "
               "(View ▸ Energy and tuning shows the energy-optimal clock).")));
    m_clockSpin->setSuffix(tr(" %"));
    m_gpus = new QSpinBox;
    m_gpus->setRange(kGpuRange.min, 1024);
    m_gpus->setKeyboardTracking(false);
    m_gpus->setToolTip(tr("Data-parallel GPUs, each with the batch above; gradients are all-reduced in a ring every "
                          "step (training). Affects the energy view's step time, speed-up and energy."));
    f4->addRow(tr("GPUs"), m_gpus);
    m_interconnect = new QComboBox;
    for (const Interconnect& l : interconnects()) {
        m_interconnect->addItem(tr("%1 (%2)").arg(QString::fromStdString(l.name), QString::fromStdString(formatSI(l.bandwidth, "B/s"))),
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
    layout->addWidget(scaling);

    m_problem = new ProblemNote(this);
    connect(m_problem, &QLabel::linkActivated, this, [this](const QString& link) {
        const int size = link.toInt();
        Config c = m_config;
        c.unet.height = size;
        if (m_square->isChecked())
            c.unet.width = size;
        else if (!unetOutputExtent(c.unet.width, c.unet))
            c.unet.width = size;
        setConfig(c);
        emit configChanged(m_config);
    });
    layout->addStretch();

    for (QComboBox* c : { m_padding, m_downsample, m_conv, m_mode, m_optimizer })
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_updating)
                emitChanged();
        });
    for (QCheckBox* c : { m_batchNorm, m_fusion, m_tensorCores, m_square, m_overlap })
        connect(c, &QCheckBox::toggled, this, [this] {
            if (!m_updating)
                emitChanged();
        });
    for (QComboBox* c : { m_algorithm, m_traffic, m_interconnect })
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_updating)
                emitChanged();
        });
    for (QSpinBox* s : { m_depth, m_inChannels, m_classes, m_widthSpin, m_onchip, m_gpus })
        connect(s, &QSpinBox::valueChanged, this, [this] {
            if (!m_updating)
                emitChanged();
        });

    setConfig(Config {});
}

void ControlPanel::setConfig(const Config& c)
{
    m_updating = true;
    m_config = c;
    const UNetParams& u = c.unet;
    m_imageSlider->setValue(std::min(u.height, m_imageSlider->maximum()));
    m_imageSpin->setValue(u.height);
    m_square->setChecked(u.height == u.width);
    m_widthSpin->setValue(u.width);
    m_widthSpin->setEnabled(u.height != u.width);
    m_filtersSlider->setValue(std::min(u.baseFilters, m_filtersSlider->maximum()));
    m_filtersSpin->setValue(u.baseFilters);
    m_strideSlider->setValue(u.stride);
    m_strideSpin->setValue(u.stride);
    m_depth->setValue(u.depth);
    m_inChannels->setValue(u.inChannels);
    m_classes->setValue(u.classes);
    m_padding->setCurrentIndex(u.padding == Padding::Valid ? 0 : 1);
    m_downsample->setCurrentIndex(u.downsample == Downsample::MaxPool ? 0 : 1);
    m_conv->setCurrentIndex(u.conv == ConvType::Standard ? 0 : 1);
    m_batchNorm->setChecked(u.batchNorm);
    m_batchSlider->setValue(std::min(powerPosition(c.batch), m_batchSlider->maximum()));
    m_batchSpin->setValue(c.batch);
    m_bitsSlider->setValue(bitsIndex(c.bits));
    m_bitsLabel->setText(tr("%1 bit").arg(c.bits));
    m_tensorCores->setChecked(c.tensorCores);
    m_fusion->setChecked(c.fusion);
    m_mode->setCurrentIndex(c.mode == Mode::Inference ? 0 : 1);
    m_optimizer->setCurrentIndex(int(c.optimizer));
    m_optimizer->setEnabled(c.mode == Mode::Training);
    m_algorithm->setCurrentIndex(m_algorithm->findData(int(c.algorithm)));
    m_traffic->setCurrentIndex(m_traffic->findData(int(c.traffic)));
    m_onchip->setValue(c.onchipKiB);
    m_onchip->setEnabled(c.traffic == TrafficModel::Tiled);
    m_clockSlider->setValue(c.clockPercent);
    m_clockSpin->setValue(c.clockPercent);
    m_gpus->setValue(c.gpus);
    m_interconnect->setCurrentIndex(std::max(0, m_interconnect->findData(QString::fromStdString(c.interconnect))));
    m_overlap->setChecked(c.overlap);
    int index = m_network->findData(QString::fromStdString(c.model));
    if (index < 0 && isNetworkFile(c.model)) {
        // A custom file: listed under its name, above the "Custom network file..." entry.
        const QString path = QString::fromStdString(c.model);
        index = m_network->count() - 1;
        m_network->insertItem(index, QFileInfo(path).fileName(), path);
        m_network->setItemData(index, path, Qt::ToolTipRole);
    }
    if (index >= 0)
        m_network->setCurrentIndex(index);
    updateEnabled();
    m_updating = false;
}

void ControlPanel::updateEnabled()
{
    const bool unet = m_config.model == "unet";
    const bool file = isNetworkFile(m_config.model);
    for (QWidget* w : m_unetOnly) {
        w->setEnabled(unet);
        w->setToolTip(unet ? w->toolTip().section(QStringLiteral("\n\n"), 0, 0)
                           : w->toolTip().section(QStringLiteral("\n\n"), 0, 0) + tr("\n\nShapes the U-Net only."));
    }
    // An ONNX model: the image size and the batch apply where the file leaves them symbolic; where it
    // fixes them, the control is off and its tooltip says why.
    std::shared_ptr<const OnnxModel> onnx;
    if (isOnnxFile(m_config.model))
        onnx = cachedOnnxModel(m_config.model).model;
    const bool image = onnx ? onnx->imageBound() : !file;
    const QString imageWhy = onnx && !image ? QString::fromStdString(onnx->imageFixedReason())
        : file && !onnx                    ? tr("the network file fixes its input")
                                           : QString();
    for (QWidget* w : m_inputControls) {
        const bool channelsOrClasses = w == m_inChannels || w == m_classes;
        const bool on = channelsOrClasses ? !file : image;
        w->setEnabled(on);
        QString tip = w->toolTip().section(QStringLiteral("\n\n"), 0, 0);
        if (!on && file)
            tip += QStringLiteral("\n\n") + (channelsOrClasses ? tr("The model file fixes it.") : tr("Off: %1.").arg(imageWhy));
        else if (on && onnx && !channelsOrClasses && onnx->inputs().front().dims.size() <= 3)
            tip += QStringLiteral("\n\n") + tr("For this model (a sequence input) the height is the sequence length.");
        w->setToolTip(tip);
    }
    m_widthSpin->setEnabled(image && m_config.unet.height != m_config.unet.width);
    const bool batch = !onnx || onnx->batchBound();
    for (QWidget* w : { static_cast<QWidget*>(m_batchSlider), static_cast<QWidget*>(m_batchSpin) }) {
        w->setEnabled(batch);
        QString tip = w->toolTip().section(QStringLiteral("\n\n"), 0, 0);
        if (!batch)
            tip += QStringLiteral("\n\n") + tr("Off: %1.").arg(QString::fromStdString(onnx->batchFixedReason()));
        w->setToolTip(tip);
    }
}

void ControlPanel::networkChosen()
{
    const QString id = m_network->currentData().toString();
    if (id == QLatin1String("@open")) {
        setConfig(m_config); // the network shown, until a file is read and works
        emit openFileRequested();
        return;
    }
    Config c = m_config;
    if (id.toStdString() == c.model)
        return;
    c.model = id.toStdString();
    c.layerAlgorithms.clear(); // per-layer choices name the previous network's layers
    if (const ModelInfo* m = findModel(c.model)) {
        // Each built-in network starts at the input it was published for.
        c.unet.height = m->height;
        c.unet.width = m->width;
        c.unet.inChannels = m->channels;
        c.unet.classes = m->classes;
    }
    setConfig(c);
    emit configChanged(m_config);
}

void ControlPanel::useNetworkFile(const QString& path, int imageSize)
{
    Config c = m_config;
    c.model = QFileInfo(path).absoluteFilePath().toStdString();
    c.layerAlgorithms.clear(); // per-layer choices name the previous network's layers
    if (!isNetworkFile(c.model)) {
        showProblem(tr("%1: a model file must end in .onnx or .json").arg(path));
        setConfig(m_config);
        return;
    }
    if (imageSize > 0)
        c.unet.height = c.unet.width = imageSize;
    setConfig(c);
    emit configChanged(m_config);
}

void ControlPanel::forgetNetworkFile(const QString& path)
{
    const int index = m_network->findData(path);
    if (index >= 0 && isNetworkFile(path.toStdString()))
        m_network->removeItem(index);
}

void ControlPanel::readWidgets()
{
    Config c = m_config;
    UNetParams& u = c.unet;
    u.height = m_imageSpin->value();
    u.width = m_square->isChecked() ? u.height : m_widthSpin->value();
    u.baseFilters = m_filtersSpin->value();
    u.stride = m_strideSpin->value();
    u.depth = m_depth->value();
    u.inChannels = m_inChannels->value();
    u.classes = m_classes->value();
    u.padding = m_padding->currentIndex() == 0 ? Padding::Valid : Padding::Same;
    u.downsample = m_downsample->currentIndex() == 0 ? Downsample::MaxPool : Downsample::Strided;
    u.conv = m_conv->currentIndex() == 0 ? ConvType::Standard : ConvType::Separable;
    u.batchNorm = m_batchNorm->isChecked();
    c.batch = m_batchSpin->value();
    c.bits = kBits[size_t(std::clamp(m_bitsSlider->value(), 0, 3))];
    c.tensorCores = m_tensorCores->isChecked();
    c.fusion = m_fusion->isChecked();
    c.mode = m_mode->currentIndex() == 0 ? Mode::Inference : Mode::Training;
    c.optimizer = Optimizer(std::clamp(m_optimizer->currentIndex(), 0, 2));
    c.algorithm = ConvAlgorithm(m_algorithm->currentData().toInt());
    c.traffic = TrafficModel(m_traffic->currentData().toInt());
    c.onchipKiB = m_onchip->value();
    c.clockPercent = m_clockSpin->value();
    c.gpus = m_gpus->value();
    c.interconnect = m_interconnect->currentData().toString().toStdString();
    c.overlap = m_overlap->isChecked();
    m_config = c;
}

void ControlPanel::emitChanged()
{
    if (auto* control = qobject_cast<QWidget*>(sender()))
        m_lastEdited = control;
    const int oldHeight = m_config.unet.height;
    readWidgets();
    // A dragged image-size slider snaps to the nearest size that works; typed sizes are explained instead.
    if (sender() == m_imageSlider && m_config.model == "unet" && m_config.unet.height != oldHeight && !unetOutputExtent(m_config.unet.height, m_config.unet)) {
        const NearestExtents n = nearestWorkingExtents(m_config.unet.height, m_config.unet);
        const int h = m_config.unet.height;
        int snapped = 0;
        if (n.below && n.above)
            snapped = (h - n.below <= n.above - h) ? n.below : n.above;
        else
            snapped = n.below ? n.below : n.above;
        // Move in the drag's direction so that a slow drag is not held back at the same size.
        if (n.below && n.above && snapped == oldHeight)
            snapped = h > oldHeight ? n.above : n.below;
        if (snapped) {
            m_config.unet.height = snapped;
            if (m_square->isChecked())
                m_config.unet.width = snapped;
        }
    }
    setConfig(m_config); // normalise the widgets (square width, bits label, optimizer enabled)
    emit configChanged(m_config);
}

void ControlPanel::showProblem(const QString& message, const QList<int>& suggestions, bool chartsStale)
{
    QString html = QStringLiteral("<b>%1</b><br>%2").arg(tr("This configuration does not work:"), message.toHtmlEscaped());
    if (!suggestions.isEmpty()) {
        html += QStringLiteral("<br>");
        for (int s : suggestions)
            html += QStringLiteral(" <a href=\"%1\">%2</a>").arg(s).arg(tr("Use %1").arg(s));
    }
    if (chartsStale)
        html += QStringLiteral("<br><i>%1</i>").arg(tr("The charts show the last configuration that worked."));
    QWidget* field = m_lastEdited && isAncestorOf(m_lastEdited) ? m_lastEdited : m_imageSpin;
    m_problem->showUnder(field, html);
}

void ControlPanel::clearProblem() { m_problem->dismiss(); }

QString ControlPanel::problemText() const { return m_problem->isVisible() ? m_problem->text() : QString(); }

} // namespace rfx
