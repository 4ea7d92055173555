#include "panels/controlpanel.h"

#include "onnx/onnx_model.h"

#include "base/format.h"
#include "engine/energy.h"
#include "model/networks.h"
#include "model/unet.h"
#include "panels/llmcontrols.h"
#include "panels/modelinputs.h"
#include "widgets/checkedspinbox.h"
#include "widgets/problemnote.h"
#include "widgets/sliderbox.h"

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

#include <algorithm>
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

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);

    layout->addWidget(buildInputGroup());
    m_llm = new LlmControls(this);
    m_llm->setVisible(false);
    layout->addWidget(m_llm);
    m_modelInputs = new ModelInputsBox(this);
    connect(m_modelInputs, &ModelInputsBox::valuesChanged, this, &ControlPanel::emitChanged);
    layout->addWidget(m_modelInputs);
    for (QWidget* group : { buildRunGroup(), buildAlgorithmGroup(), buildScalingGroup() }) {
        layout->addWidget(group);
        m_networkGroups.append(group);
    }

    m_problem = new ProblemNote(this);
    connect(m_problem, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("llm:"))) { // a language model's fix: "llm:prompt:130944"
            m_llm->applyFix(
                link.section(QLatin1Char(':'), 1, 1).toStdString(), link.section(QLatin1Char(':'), 2, 2).toInt());
            return;
        }
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
    for (QComboBox* c : { m_algorithm, m_traffic, m_cacheAware, m_interconnect })
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_updating)
                emitChanged();
        });
    for (QSpinBox* s : { m_depth, m_inChannels, m_classes, m_widthSpin, m_onchip, m_gpus })
        connect(s, &QSpinBox::valueChanged, this, [this] {
            if (!m_updating)
                emitChanged();
        });
    for (QSlider* s : findChildren<QSlider*>()) // each press starts a drag of its own (drag())
        connect(s, &QSlider::sliderPressed, this, [this] { ++m_drags; });

    setConfig(Config {});
}

void ControlPanel::setConfig(const Config& config)
{
    if (m_shown && config == m_config)
        return;
    m_config = config;
    showConfig();
}

namespace {
// QSpinBox::setValue repaints the box (and its frame and line edit) even when the value is the one
// shown; showConfig() sets every box on every slider step (ten boxes repainted a step, callgrind).
void setValueIf(QSpinBox* box, int value)
{
    if (box->value() != value)
        box->setValue(value);
}
} // namespace

void ControlPanel::showConfig()
{
    m_updating = true;
    m_shown = true;
    const Config& c = m_config;
    const UNetParams& u = c.unet;
    m_imageSlider->setValue(std::min(u.height, m_imageSlider->maximum()));
    setValueIf(m_imageSpin, u.height);
    m_square->setChecked(u.height == u.width);
    setValueIf(m_widthSpin, u.width);
    m_filtersSlider->setValue(std::min(u.baseFilters, m_filtersSlider->maximum()));
    setValueIf(m_filtersSpin, u.baseFilters);
    m_strideSlider->setValue(u.stride);
    setValueIf(m_strideSpin, u.stride);
    setValueIf(m_depth, u.depth);
    setValueIf(m_inChannels, u.inChannels);
    setValueIf(m_classes, u.classes);
    m_padding->setCurrentIndex(u.padding == Padding::Valid ? 0 : 1);
    m_downsample->setCurrentIndex(u.downsample == Downsample::MaxPool ? 0 : 1);
    m_conv->setCurrentIndex(u.conv == ConvType::Standard ? 0 : 1);
    m_batchNorm->setChecked(u.batchNorm);
    m_batchSlider->setValue(std::min(powerPosition(c.batch), m_batchSlider->maximum()));
    setValueIf(m_batchSpin, c.batch);
    m_bitsSlider->setValue(bitsIndex(c.bits));
    m_bitsLabel->setText(c.bitsAsInFile ? tr("file") : tr("%1 bit").arg(c.bits));
    m_bitsAsInFile->setChecked(c.bitsAsInFile);
    m_bitsAsInFile->setVisible(isOnnxFile(c.model));
    m_bitsSlider->setEnabled(!c.bitsAsInFile);
    m_tensorCores->setChecked(c.tensorCores);
    m_fusion->setChecked(c.fusion);
    m_mode->setCurrentIndex(c.mode == Mode::Inference ? 0 : 1);
    m_optimizer->setCurrentIndex(int(c.optimizer));
    m_optimizer->setEnabled(c.mode == Mode::Training);
    m_algorithm->setCurrentIndex(m_algorithm->findData(int(c.algorithm)));
    m_traffic->setCurrentIndex(m_traffic->findData(int(c.traffic)));
    setValueIf(m_onchip, c.onchipKiB);
    m_onchip->setEnabled(c.traffic == TrafficModel::Tiled);
    m_cacheAware->setCurrentIndex(m_cacheAware->findData(int(c.cacheAware)));
    m_cacheAware->setEnabled(c.traffic != TrafficModel::Tiled);
    m_clockSlider->setValue(c.clockPercent);
    setValueIf(m_clockSpin, c.clockPercent);
    setValueIf(m_gpus, c.gpus);
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

namespace {
// A tooltip set only when it changes: setting a spin box's tooltip repaints it and its frame, and
// every slider step sets them all (ten controls repainted on each step of a drag, callgrind).
void setToolTipIf(QWidget* w, const QString& tip)
{
    if (w->toolTip() != tip)
        w->setToolTip(tip);
}
} // namespace

void ControlPanel::updateEnabled()
{
    const bool unet = m_config.model == "unet";
    const bool file = isNetworkFile(m_config.model);
    for (QWidget* w : m_unetOnly) {
        w->setEnabled(unet);
        setToolTipIf(w,
            unet ? w->toolTip().section(QStringLiteral("\n\n"), 0, 0)
                 : w->toolTip().section(QStringLiteral("\n\n"), 0, 0) + tr("\n\nShapes the U-Net only."));
    }
    // An ONNX model: the image size and the batch apply where the file leaves them symbolic; where it
    // fixes them, the control is off and its tooltip says why.
    const std::shared_ptr<const OnnxModel> onnx = isOnnxFile(m_config.model) ? m_model : nullptr;
    const bool image = onnx ? onnx->imageBound() : !file;
    const QString imageWhy = onnx && !image ? QString::fromStdString(onnx->imageFixedReason())
        : file && !onnx                     ? tr("the network file fixes its input")
                                            : QString();
    for (QWidget* w : m_inputControls) {
        const bool channelsOrClasses = w == m_inChannels || w == m_classes;
        const bool on = channelsOrClasses ? !file : image;
        // The width box is also off while the image is square: set once, as it ends (set on, then off
        // again, it was repainted on every slider step).
        w->setEnabled(on && (w != m_widthSpin || m_config.unet.height != m_config.unet.width));
        QString tip = w->toolTip().section(QStringLiteral("\n\n"), 0, 0);
        if (!on && file)
            tip += QStringLiteral("\n\n")
                + (channelsOrClasses ? tr("The model file fixes it.") : tr("Off: %1.").arg(imageWhy));
        else if (on && onnx && !channelsOrClasses && onnx->inputs().front().dims.size() <= 3)
            tip += QStringLiteral("\n\n") + tr("For this model (a sequence input) the height is the sequence length.");
        setToolTipIf(w, tip);
    }
    m_modelInputs->setModel(onnx, m_config.inputValues, m_config.branches);
    const bool batch = !onnx || onnx->batchBound();
    for (QWidget* w : { static_cast<QWidget*>(m_batchSlider), static_cast<QWidget*>(m_batchSpin) }) {
        w->setEnabled(batch);
        QString tip = w->toolTip().section(QStringLiteral("\n\n"), 0, 0);
        if (!batch)
            tip += QStringLiteral("\n\n") + tr("Off: %1.").arg(QString::fromStdString(onnx->batchFixedReason()));
        setToolTipIf(w, tip);
    }
    if (!batch) { // the batch the rows are built with, which every figure uses: shown, not the last one typed
        const QSignalBlocker quietSlider(m_batchSlider), quietSpin(m_batchSpin);
        m_batchSlider->setValue(std::min(powerPosition(onnx->fixedBatch()), m_batchSlider->maximum()));
        m_batchSpin->setValue(onnx->fixedBatch());
    }
    // Likewise the image size a file fixes (an OCR recogniser's 48 x 224 showed "224, Square"): the
    // last two extents of its first input, where they are numbers.
    if (onnx && !image && !onnx->inputs().empty() && onnx->inputs().front().dims.size() >= 4) {
        const std::vector<std::string>& dims = onnx->inputs().front().dims;
        auto extent = [](const std::string& d) {
            return !d.empty() && std::all_of(d.begin(), d.end(), [](char ch) { return ch >= '0' && ch <= '9'; })
                    && d.size() < 9
                ? std::stoi(d)
                : 0;
        };
        const int h = extent(dims[dims.size() - 2]), w = extent(dims.back());
        if (h > 0 && w > 0) {
            const QSignalBlocker a(m_imageSlider), b(m_imageSpin), c(m_square), d(m_widthSpin);
            m_imageSlider->setValue(std::min(h, m_imageSlider->maximum()));
            m_imageSpin->setValue(h);
            m_square->setChecked(h == w);
            m_widthSpin->setValue(w);
        }
    }
}

void ControlPanel::networkChosen()
{
    const QString id = m_network->currentData().toString();
    const std::string shown = m_llmShown.empty() ? m_config.model : m_llmShown;
    if (id == QLatin1String("@open")) {
        // The selector names the network shown until a file is read and works (setCurrentIndex does not
        // say `activated`: nothing is chosen again).
        m_network->setCurrentIndex(m_network->findData(QString::fromStdString(shown)));
        emit openFileRequested();
        return;
    }
    if (id.toStdString() != shown)
        emit modelChosen(id.toStdString());
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
    c.bitsAsInFile = isOnnxFile(c.model) && m_bitsAsInFile->isChecked();
    c.tensorCores = m_tensorCores->isChecked();
    c.fusion = m_fusion->isChecked();
    c.mode = m_mode->currentIndex() == 0 ? Mode::Inference : Mode::Training;
    c.optimizer = Optimizer(std::clamp(m_optimizer->currentIndex(), 0, 2));
    c.algorithm = ConvAlgorithm(m_algorithm->currentData().toInt());
    c.traffic = TrafficModel(m_traffic->currentData().toInt());
    c.onchipKiB = m_onchip->value();
    c.cacheAware = CacheAware(m_cacheAware->currentData().toInt());
    c.clockPercent = m_clockSpin->value();
    c.gpus = m_gpus->value();
    c.interconnect = m_interconnect->currentData().toString().toStdString();
    c.overlap = m_overlap->isChecked();
    c.inputValues = isOnnxFile(c.model) ? m_modelInputs->values() : std::map<std::string, double> {};
    c.branches = isOnnxFile(c.model) ? m_modelInputs->branches() : std::map<std::string, bool> {};
    m_config = c;
}

void ControlPanel::emitChanged()
{
    if (m_correction)
        m_correction->dismiss(); // a correction is said until the next edit (it arrives after its own)
    if (auto* control = qobject_cast<QWidget*>(sender()))
        m_lastEdited = control;
    const int oldHeight = m_config.unet.height;
    readWidgets();
    // A dragged image-size slider snaps to the nearest size that works; typed sizes are explained instead.
    if (sender() == m_imageSlider && m_config.model == "unet" && m_config.unet.height != oldHeight
        && !unetOutputExtent(m_config.unet.height, m_config.unet)) {
        if (const int snapped = snappedExtent(m_config.unet.height, oldHeight, m_config.unet)) {
            m_config.unet.height = snapped;
            if (m_square->isChecked())
                m_config.unet.width = snapped;
        }
    }
    showConfig(); // normalise the widgets (square width, bits label, optimizer enabled)
    emit configChanged(m_config);
}

void ControlPanel::showProblem(const QString& message, const QList<int>& suggestions, bool chartsStale)
{
    QString html
        = QStringLiteral("<b>%1</b><br>%2").arg(tr("This configuration does not work:"), message.toHtmlEscaped());
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

void ControlPanel::showLanguageModelProblem(const LlmSettingsFix& fix, bool chartsStale)
{
    QString html = QStringLiteral("<b>%1</b><br>%2")
                       .arg(tr("These settings do not work:"), QString::fromStdString(fix.message).toHtmlEscaped());
    if (!fix.values.empty()) {
        html += QStringLiteral("<br>");
        for (int v : fix.values)
            html += QStringLiteral(" <a href=\"llm:%1:%2\">%3</a>")
                        .arg(QString::fromStdString(fix.field))
                        .arg(v)
                        .arg(tr("Use %1").arg(QString::fromStdString(formatCount(v))));
    }
    if (chartsStale)
        html += QStringLiteral("<br><i>%1</i>").arg(tr("The charts show the last settings that worked."));
    m_problem->showUnder(m_llm->fieldFor(fix.field), html);
}

void ControlPanel::clearProblem() { m_problem->dismiss(); }

QString ControlPanel::problemText() const { return m_problem->isVisible() ? m_problem->text() : QString(); }

CheckedSpinBox* ControlPanel::typedBox(const QString& what)
{
    auto* spin = new CheckedSpinBox(what);
    connect(spin, &CheckedSpinBox::corrected, this, [this, spin](const QString& message) {
        if (!m_correction) {
            m_correction = new ProblemNote(this);
            m_correction->setAccessibleName(tr("Value corrected"));
            // Any later change of the configuration (another field, another network, a preset, a
            // fix's link) ends it; the correction's own change is sent before it is said.
            connect(this, &ControlPanel::configChanged, m_correction, &ProblemNote::dismiss);
            connect(this, &ControlPanel::modelChosen, m_correction, &ProblemNote::dismiss);
        }
        m_correction->showUnder(spin, message.toHtmlEscaped());
    });
    return spin;
}

} // namespace rfx
