#pragma once

#include "model/config.h"

#include <QWidget>

#include <map>
#include <memory>
#include <string>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace rfx {

class CheckedSpinBox;
class LlmControls;
class Workspace;
struct WorkspaceState;
struct LlmSettingsFix;
class ModelInputsBox;
class OnnxModel;
class ProblemNote;

/// The configuration controls: sliders with spin boxes for image size, bits, stride, filters and
/// batch; selectors for the rest. Every change emits configChanged with the whole Config.
class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(QWidget* parent = nullptr);
    /// Shows `workspace`'s configuration and its problem whenever they change, and sends it the
    /// edits (with the control edited, for undo); a network file it refuses leaves the selector.
    void follow(Workspace* workspace);

    /// Shows `config` without emitting configChanged.
    /// Shows `config`; nothing to do when the panel shows it already (the workspace hands every
    /// value back, the panel's own edits included).
    void setConfig(const Config& config);
    Config config() const { return m_config; }

    /// Explains an invalid configuration right under the control the user changed last (the image
    /// size when the change came from elsewhere); `suggestions` are image sizes offered as one-click fixes.
    void showProblem(const QString& message, const QList<int>& suggestions = {}, bool chartsStale = true);
    /// A language model's settings that do not work (llmSettingsFix), under the field they concern,
    /// with its values that work as one-click fixes.
    void showLanguageModelProblem(const LlmSettingsFix& fix, bool chartsStale = true);
    /// The control the user changed last (null before any change).
    const QWidget* lastEdited() const { return m_lastEdited; }
    /// While a slider is held: the number of its drag (each press of any slider starts another), the
    /// same for every edit of one drag, which the workspace's undo makes one step; 0 otherwise.
    int drag() const;
    /// The note showing the problem (for tests: where it is and what it says).
    ProblemNote* problemNote() const { return m_problem; }
    /// The note under a field whose typed value was out of range and was corrected (null before any).
    ProblemNote* correctionNote() const { return m_correction; }
    void clearProblem();
    QString problemText() const;

    // For tests and the benchmark: the controls a user drags.
    QSlider* imageSlider() const { return m_imageSlider; }
    QSlider* batchSlider() const { return m_batchSlider; }
    QSpinBox* batchSpin() const { return m_batchSpin; }
    QCheckBox* tensorCoresCheck() const { return m_tensorCores; }
    QSlider* bitsSlider() const { return m_bitsSlider; }
    QSlider* filtersSlider() const { return m_filtersSlider; }
    QSlider* strideSlider() const { return m_strideSlider; }
    QSpinBox* imageSpin() const { return m_imageSpin; }
    QCheckBox* squareCheck() const { return m_square; }
    QSpinBox* widthSpin() const { return m_widthSpin; }
    QComboBox* networkCombo() const { return m_network; }
    QComboBox* algorithmCombo() const { return m_algorithm; }
    QComboBox* trafficCombo() const { return m_traffic; }
    QSpinBox* onchipSpin() const { return m_onchip; }
    QSlider* clockSlider() const { return m_clockSlider; }
    QSpinBox* gpusSpin() const { return m_gpus; }
    QComboBox* interconnectCombo() const { return m_interconnect; }
    ModelInputsBox* modelInputs() const { return m_modelInputs; }
    QCheckBox* bitsAsInFileCheck() const { return m_bitsAsInFile; }
    /// The language-model mode's controls (shown in place of the network's while one is shown).
    LlmControls* llmControls() const { return m_llm; }
    /// Removes a custom file from the Network selector (one that could not be used).
    void forgetNetworkFile(const QString& path);

signals:
    void configChanged(const rfx::Config& config);
    /// "Open model file..." chosen in the Network selector (the window asks for the file and reads it).
    void openFileRequested();
    /// Another network chosen in the Network selector: a built-in id, or a model file shown before.
    void modelChosen(const std::string& model);

private:
    void readWidgets();
    void networkChosen();
    void updateEnabled();
    void emitChanged();
    /// The workspace's value (follow()): the configuration, and the problem said under the control.
    void showWork(const WorkspaceState& state);
    /// A language model shown (`spec`) or a network (empty): the mode's controls, the others hidden.
    void showLanguageModel(const std::string& spec);
    /// A slider with its spin box (widgets/sliderbox.h); `powersOfTwo`: the slider's positions are
    /// 2^0 .. sliderMax (batch).
    QWidget* buildInputGroup();
    /// The input group's rows below the Network selector (hidden in the language-model mode).
    QList<QWidget*> m_networkRows;
    QList<QWidget*> m_networkGroups; ///< the groups of the network's controls
    LlmControls* m_llm = nullptr;
    std::string m_llmShown; ///< the language model shown; empty: a network
    QWidget* buildRunGroup();
    QWidget* buildAlgorithmGroup();
    QWidget* buildScalingGroup();
    /// `what` names the value in the spin box's corrections ("image size"); `tip` is the row's tooltip.
    QWidget* sliderRow(QSlider*& slider, QSpinBox*& spin, int min, int max, int sliderMax, const QString& what,
        const QString& tip, bool powersOfTwo = false);
    /// A spin box for `what` whose corrected values are said under it (m_correction) until the next edit.
    CheckedSpinBox* typedBox(const QString& what);

    Config m_config;
    bool m_updating = false;
    bool m_shown = false; ///< the widgets show m_config
    /// Writes m_config into the widgets (and normalises them: square width, bits label, ...).
    void showConfig();
    ModelInputsBox* m_modelInputs = nullptr; ///< an imported model's one-element inputs
    QComboBox* m_network = nullptr;
    QComboBox* m_algorithm = nullptr;
    QComboBox* m_traffic = nullptr;
    QComboBox* m_cacheAware = nullptr;
    QSpinBox* m_onchip = nullptr;
    QSlider* m_clockSlider = nullptr;
    QSpinBox* m_clockSpin = nullptr;
    QSpinBox* m_gpus = nullptr;
    QComboBox* m_interconnect = nullptr;
    QCheckBox* m_overlap = nullptr;
    QList<QWidget*> m_unetOnly; ///< controls that shape the U-Net only
    QList<QWidget*> m_inputControls; ///< image size, channels, classes: a network file fixes its own
    QSlider* m_imageSlider = nullptr;
    QSpinBox* m_imageSpin = nullptr;
    QCheckBox* m_square = nullptr;
    QSpinBox* m_widthSpin = nullptr;
    QSlider* m_bitsSlider = nullptr;
    QLabel* m_bitsLabel = nullptr;
    QCheckBox* m_bitsAsInFile = nullptr; ///< an imported model's own precision (shown for ONNX models only)
    QSlider* m_strideSlider = nullptr;
    QSpinBox* m_strideSpin = nullptr;
    QSlider* m_filtersSlider = nullptr;
    QSpinBox* m_filtersSpin = nullptr;
    QSlider* m_batchSlider = nullptr;
    QSpinBox* m_batchSpin = nullptr;
    QSpinBox* m_depth = nullptr;
    QSpinBox* m_inChannels = nullptr;
    QSpinBox* m_classes = nullptr;
    QComboBox* m_padding = nullptr;
    QComboBox* m_downsample = nullptr;
    QComboBox* m_conv = nullptr;
    QCheckBox* m_batchNorm = nullptr;
    QCheckBox* m_fusion = nullptr;
    QCheckBox* m_tensorCores = nullptr;
    QComboBox* m_mode = nullptr;
    QComboBox* m_optimizer = nullptr;
    ProblemNote* m_problem = nullptr;
    ProblemNote* m_correction = nullptr;
    QWidget* m_lastEdited = nullptr; ///< the control the user changed last: where a problem is shown
    int m_drags = 0; ///< slider presses so far (drag())
    /// The imported model shown (the workspace's): what its file fixes turns controls off.
    std::shared_ptr<const OnnxModel> m_model;
};

} // namespace rfx
