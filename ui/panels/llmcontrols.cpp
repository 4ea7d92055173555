#include "panels/llmcontrols.h"

#include "widgets/checkedspinbox.h"
#include "widgets/problemnote.h"
#include "widgets/sliderbox.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSlider>

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <utility>

namespace rfx {

namespace {
/// The activations' arithmetic: its width and, where the width does not say it, its type.
struct Arithmetic {
    const char* label;
    int bits;
    NumberType type;
};
constexpr std::array<Arithmetic, 5> kArithmetic { {
    { "fp32", 32, NumberType::Unset },
    { "fp16", 16, NumberType::Unset },
    { "bf16", 16, NumberType::Bf16 },
    { "fp8", 8, NumberType::Fp8 },
    { "int8", 8, NumberType::Unset },
} };

void selectData(QComboBox* box, const QVariant& data)
{
    const int i = box->findData(data);
    if (i >= 0 && i != box->currentIndex())
        box->setCurrentIndex(i);
}
} // namespace

LlmControls::LlmControls(QWidget* parent)
    : QGroupBox(tr("Language model"), parent)
{
    auto* form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    m_phase = new QComboBox;
    m_phase->addItem(tr("decode (one token per step)"), int(LlmPhase::Decode));
    m_phase->addItem(tr("prefill (the prompt)"), int(LlmPhase::Prefill));
    m_phase->addItem(tr("both (open marks: prefill)"), int(LlmPhase::Both));
    m_phase->setToolTip(tr("The phase whose rows the charts and the table show. Prefill reads the weights once for "
                           "the whole prompt (compute-bound); a decode step reads every weight and the KV cache "
                           "for one token per sequence (memory-bound). Both: the two on one chart, the prefill's "
                           "rows as open marks, the decode step's filled; in the table, each row's share is of its "
                           "own phase's time. The summaries give both: TTFT and TPOT."));
    form->addRow(tr("Phase"), m_phase);
    form->addRow(tr("Prompt tokens"),
        sliderRow(m_promptSlider, m_promptSpin, kPromptRange.max, 1 << 17, tr("prompt"),
            tr("Prompt length P. Prefill's FLOPs and bytes of activations grow with it (attention with its "
               "square, naive attention more); the KV cache holds P + generated tokens per sequence.")));
    form->addRow(tr("Generated tokens"),
        sliderRow(m_generateSlider, m_generateSpin, kGenerateRange.max, 1 << 15, tr("number of generated tokens"),
            tr("Tokens generated G. TPOT is quoted at context P + G / 2; the KV cache and the time of the "
               "whole generation grow with G.")));
    form->addRow(tr("Batch"),
        sliderRow(m_batchSlider, m_batchSpin, kLlmBatchRange.max, 1 << 10, tr("batch"),
            tr("Sequences decoded together, B. A decode step reads the weights once for all of them: "
               "throughput grows with B until compute binds, while each sequence's KV cache adds memory.")));

    m_weights = new QComboBox;
    m_weights->setToolTip(
        tr("The weights' width. Decode reads every weight each step, so its time falls with it; "
           "int4 carries an fp16 scale per 128 weights; MXFP4 shares an 8-bit scale among 32 4-bit "
           "numbers, 4.25 bits a weight. \"As in the file\" takes each tensor's own type (GGUF, "
           "safetensors); \"as published\" the publisher's (gpt-oss: MXFP4 experts, the rest 16-bit)."));
    for (const auto& [label, bits] :
        { std::pair { "fp32", 32.0 }, { "fp16", 16.0 }, { "8-bit", 8.0 }, { "4-bit", 4.0 }, { "MXFP4", kMxfp4Bits } })
        m_weights->addItem(QString::fromLatin1(label), bits);
    form->addRow(tr("Weights"), m_weights);
    m_kv = new QComboBox;
    for (const auto& [label, bits] : { std::pair { "fp32", 32 }, { "fp16", 16 }, { "8-bit", 8 }, { "4-bit", 4 } })
        m_kv->addItem(QString::fromLatin1(label), bits);
    m_kv->setToolTip(tr("The KV cache's element width: the memory each token of context holds and the bytes "
                        "attention reads every decode step."));
    form->addRow(tr("KV cache"), m_kv);
    m_activations = new QComboBox;
    for (size_t i = 0; i < kArithmetic.size(); ++i)
        m_activations->addItem(QString::fromLatin1(kArithmetic[i].label), int(i));
    m_activations->setToolTip(tr("The activations' width and the matrix rows' arithmetic: the compute ceiling "
                                 "the rows run against (tensor FP16, BF16, FP8 or INT8) and their activation bytes."));
    form->addRow(tr("Activations"), m_activations);
    m_attention = new QComboBox;
    m_attention->addItem(tr("FlashAttention"), int(LlmAttention::Flash));
    m_attention->addItem(tr("naive (scores in memory)"), int(LlmAttention::Naive));
    m_attention->setToolTip(tr("FlashAttention keeps the scores on chip: one row reads Q, K and V. Naive attention "
                               "writes the scores, reads them for the softmax and again for the product with V, "
                               "and in prefill computes the whole P x P square."));
    form->addRow(tr("Attention"), m_attention);
    m_tensorParallel = new CheckedSpinBox(tr("number of GPUs"));
    m_tensorParallel->setRange(kTensorParallelRange.min, kTensorParallelRange.max);
    m_tensorParallel->setKeyboardTracking(false);
    m_tensorParallel->setToolTip(tr("Tensor parallelism over N GPUs of the kind shown: heads, MLP features and the "
                                    "vocabulary split among them, two all-reduces of the hidden states per block over "
                                    "NVLink 4; memory per GPU falls, the link's time is added."));
    form->addRow(tr("Tensor-parallel GPUs"), m_tensorParallel);

    for (QComboBox* box : { m_phase, m_weights, m_kv, m_activations, m_attention })
        connect(box, &QComboBox::currentIndexChanged, this, [this] { emitEdit(); });
    connect(m_tensorParallel, &QSpinBox::valueChanged, this, [this] { emitEdit(); });
    for (QSpinBox* box : { m_promptSpin, m_generateSpin, m_batchSpin, m_tensorParallel })
        connect(static_cast<CheckedSpinBox*>(box), &CheckedSpinBox::corrected, this,
            [this, box](const QString& message) { sayCorrection(box, message); });
}

void LlmControls::sayCorrection(QWidget* box, const QString& message)
{
    // Under the box, in its form, until the next edit: a tooltip at the field vanished before it was
    // read (issue 73 item 6). The correction's own edit is sent before it is said.
    if (!m_correction) {
        m_correction = new ProblemNote(this);
        m_correction->setAccessibleName(tr("Value corrected"));
    }
    m_correction->showUnder(box, message.toHtmlEscaped());
}

QString LlmControls::correctionText() const
{
    return m_correction && m_correction->isVisible() ? m_correction->text() : QString();
}

QWidget* LlmControls::fieldFor(const std::string& field) const
{
    return field == "prompt" ? static_cast<QWidget*>(m_promptSpin)
        : field == "tp"      ? static_cast<QWidget*>(m_tensorParallel)
                             : nullptr;
}

void LlmControls::applyFix(const std::string& field, int value)
{
    if (auto* box = qobject_cast<QSpinBox*>(fieldFor(field)))
        box->setValue(value); // its edit goes to the workspace as a typed one does
}

QWidget* LlmControls::sliderRow(
    QSlider*& slider, QSpinBox*& spin, int max, int sliderMax, const QString& what, const QString& tip)
{
    // One slider step per power of two (a prompt of 100 and one of 100,000 both in reach); the box
    // beside it takes any value.
    slider = new QSlider(Qt::Horizontal);
    spin = new CheckedSpinBox(what);
    connect(slider, &QSlider::sliderPressed, this, [this] { ++m_drags; });
    return sliderBoxRow(slider, spin, 1, max, sliderMax, true, tip, &m_updating, this, [this] { emitEdit(); });
}

void LlmControls::follow(Workspace* workspace)
{
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState& s, Workspace::Parts parts) {
        if ((parts & Workspace::Analysis) && s.languageModel())
            show(s);
    });
    connect(this, &LlmControls::edited, workspace, &Workspace::setLlm);
}

void LlmControls::show(const WorkspaceState& s)
{
    const bool fileTypes = s.llmModel && llmStoresTypes(*s.llmModel);
    if (s.llm == m_work && (m_weights->findData(0.0) >= 0) == fileTypes)
        return; // what the panel shows already (its own edit, handed back)
    m_work = s.llm;
    m_updating = true;
    const LlmSettings& t = m_work.settings;
    selectData(m_phase, int(m_work.phase));
    // An ONNX decoder is analysed as its graph stores it: the widths, the attention kernel and the split
    // over GPUs are the file's, so those controls are off and say why.
    const bool graph = s.llmModel && s.llmModel->onnx;
    for (QWidget* w : { static_cast<QWidget*>(m_weights), static_cast<QWidget*>(m_kv),
             static_cast<QWidget*>(m_attention), static_cast<QWidget*>(m_tensorParallel) }) {
        if (!w->property("rfxTip").isValid())
            w->setProperty("rfxTip", w->toolTip());
        w->setEnabled(!graph);
        w->setToolTip(graph ? tr("Not for an ONNX decoder: it is analysed as its graph stores it (its weights' and KV "
                                 "cache's widths, its attention's operators, one GPU)")
                            : w->property("rfxTip").toString());
    }
    // The prompt and generation sliders end at the model's longest context (max_position_embeddings), a
    // power of two at or under it: past it the model was never trained (the boxes still take any value,
    // and the problem note says why one does not work).
    const std::int64_t longest
        = s.llmModel && s.llmModel->arch.maxContext > 0 ? s.llmModel->arch.maxContext : std::int64_t(1) << 17;
    const int top = int(std::floor(std::log2(double(std::min<std::int64_t>(longest, std::int64_t(1) << 17)))));
    m_promptSlider->setMaximum(std::max(top, 1));
    m_generateSlider->setMaximum(std::max(std::min(top, 15), 1));
    for (auto [slider, spin, value] : { std::tuple { m_promptSlider, m_promptSpin, t.prompt },
             { m_generateSlider, m_generateSpin, t.generate }, { m_batchSlider, m_batchSpin, t.batch } }) {
        if (spin->value() != value)
            spin->setValue(value);
        slider->setValue(std::min(powerPosition(value), slider->maximum()));
    }
    // "As in the file" where the file says each tensor's type (GGUF, safetensors).
    // "As published" for a built-in model whose publisher's checkpoint the tool knows (gpt-oss's MXFP4 experts).
    const QString fileLabel
        = s.llmModel && !s.llmModel->storage && !s.llmModel->onnx ? tr("as published") : tr("as in the file");
    if (const int file = m_weights->findData(0.0); fileTypes && file < 0)
        m_weights->insertItem(0, fileLabel, 0.0);
    else if (!fileTypes && file >= 0)
        m_weights->removeItem(file);
    else if (file >= 0)
        m_weights->setItemText(file, fileLabel);
    selectData(m_weights, t.weightBits);
    // an ONNX decoder's cache is as its past inputs store it (fp32 in a PyTorch export), not the setting
    selectData(m_kv, graph && s.llmAnalysis ? s.llmAnalysis->settings.kvBits : t.kvBits);
    for (size_t i = 0; i < kArithmetic.size(); ++i)
        if (kArithmetic[i].bits == t.actBits && kArithmetic[i].type == t.actType
            && m_activations->currentIndex() != int(i))
            m_activations->setCurrentIndex(int(i));
    selectData(m_attention, int(t.attention));
    if (m_tensorParallel->value() != t.tensorParallel)
        m_tensorParallel->setValue(t.tensorParallel);
    m_updating = false;
}

void LlmControls::emitEdit()
{
    if (m_updating)
        return;
    if (m_correction)
        m_correction->dismiss(); // said until the next edit (a correction's own edit comes before it)
    LlmWork w = m_work;
    LlmSettings& t = w.settings;
    w.phase = LlmPhase(m_phase->currentData().toInt());
    t.prompt = m_promptSpin->value();
    t.generate = m_generateSpin->value();
    t.batch = m_batchSpin->value();
    if (m_weights->currentIndex() >= 0)
        t.weightBits = m_weights->currentData().toDouble();
    t.kvBits = m_kv->currentData().toInt();
    const Arithmetic& a
        = kArithmetic[size_t(std::clamp(m_activations->currentIndex(), 0, int(kArithmetic.size()) - 1))];
    t.actBits = a.bits;
    t.actType = a.type;
    t.attention = LlmAttention(m_attention->currentData().toInt());
    t.tensorParallel = m_tensorParallel->value();
    if (w == m_work)
        return;
    m_work = w;
    const bool held
        = m_promptSlider->isSliderDown() || m_generateSlider->isSliderDown() || m_batchSlider->isSliderDown();
    emit edited(w, held ? m_drags : 0);
}

} // namespace rfx
