#pragma once

#include "workspace/workspace.h"

#include <QGroupBox>

class QComboBox;
class QSlider;
class QSpinBox;

namespace rfx {

class ProblemNote;

/// The controls of the language-model mode (issue 36): the phase shown, prompt and generated tokens,
/// the batch of sequences, the weights', KV cache's and activations' precisions, the attention kernel
/// and the GPUs of a tensor-parallel split. Sliders with boxes as the network's controls; each
/// tooltip says what the control changes in the cost. Shown in the Configuration panel in place of
/// the network's controls while a language model is shown.
class LlmControls : public QGroupBox {
    Q_OBJECT
public:
    explicit LlmControls(QWidget* parent = nullptr);
    /// Shows the workspace's language-model work and sends it the edits (a slider held: one step of undo).
    void follow(Workspace* workspace);

    // For tests and the benchmark: the controls a user drags.
    QComboBox* phaseCombo() const { return m_phase; }
    QSpinBox* promptSpin() const { return m_promptSpin; }
    QSlider* promptSlider() const { return m_promptSlider; }
    QSpinBox* generateSpin() const { return m_generateSpin; }
    QSpinBox* batchSpin() const { return m_batchSpin; }
    QSlider* batchSlider() const { return m_batchSlider; }
    QComboBox* weightsCombo() const { return m_weights; }
    QComboBox* kvCombo() const { return m_kv; }
    QComboBox* activationsCombo() const { return m_activations; }
    QComboBox* attentionCombo() const { return m_attention; }
    QSpinBox* tensorParallelSpin() const { return m_tensorParallel; }
    /// The control of a field llmSettingsFix names ("prompt", "tp"); null for another.
    QWidget* fieldFor(const std::string& field) const;
    /// Sets that field to `value`, as if typed there (one edit, sent to the workspace).
    void applyFix(const std::string& field, int value);
    /// The note under a box whose typed value was out of range and set to the nearest it takes (empty
    /// while none is shown).
    QString correctionText() const;

signals:
    /// Every edit: the whole work; `drag` nonzero while a slider is held (the same along one drag).
    void edited(const rfx::LlmWork& work, int drag);

private:
    void show(const WorkspaceState& state);
    void emitEdit();
    QWidget* sliderRow(
        QSlider*& slider, QSpinBox*& spin, int max, int sliderMax, const QString& what, const QString& tip);
    /// Says a typed value's correction under its box, until the next edit (the network's controls do).
    void sayCorrection(QWidget* box, const QString& message);

    LlmWork m_work;
    bool m_updating = false;
    int m_drags = 0;
    QComboBox* m_phase = nullptr;
    QSlider* m_promptSlider = nullptr;
    QSpinBox* m_promptSpin = nullptr;
    QSlider* m_generateSlider = nullptr;
    QSpinBox* m_generateSpin = nullptr;
    QSlider* m_batchSlider = nullptr;
    QSpinBox* m_batchSpin = nullptr;
    QComboBox* m_weights = nullptr;
    QComboBox* m_kv = nullptr;
    QComboBox* m_activations = nullptr;
    QComboBox* m_attention = nullptr;
    QSpinBox* m_tensorParallel = nullptr;
    ProblemNote* m_correction = nullptr;
};

} // namespace rfx
