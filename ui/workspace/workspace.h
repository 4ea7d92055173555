#pragma once

#include "devices/device_loader.h"
#include "engine/calibration.h"
#include "engine/layerfilter.h"
#include "engine/roofline.h"
#include "io/figure.h"
#include "io/measurements.h"
#include "io/session.h"
#include "io/view_settings.h"
#include "llm/llm_analysis.h"
#include "model/config.h"

#include <QFlags>
#include <QObject>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <string>

class QUndoStack;

namespace rfx {

class WorkCommand;

class OnnxModel;

/// The notes on the work, said beside the devices and counted on the status bar: device files that
/// could not be used, or only in part (`deviceFiles`), and what the analysis had to assume (`analysis`,
/// an imported node's note naming the node). Made once per analysis that works.
struct WorkNotes {
    QStringList deviceFiles;
    QStringList analysis;
    int count() const { return int(deviceFiles.size() + analysis.size()); }
};

/// What the window shows, as one value. Views take it whole; nothing in it is a widget's state.
struct WorkspaceState {
    Config config; ///< as asked for; it may not analyse (then `problem` says why)
    /// The imported model `config.model` names (an ONNX file), read once; null for built-in networks,
    /// JSON layer lists and files that cannot be read. The views read what the file fixes from it.
    std::shared_ptr<const OnnxModel> model;
    QStringList deviceIds; ///< the checked devices, in order
    /// The last analysis that worked (calibrated when a calibration is shown); null before the first.
    /// Shared, never copied on a step: every view holds the same one.
    std::shared_ptr<const Report> report;
    QString problem; ///< why `config` does not analyse; empty when `report` is of `config`
    qint64 analysisNs = 0; ///< what the last analysis took
    WorkNotes notes; ///< the notes on `report` and on the device files

    std::shared_ptr<const MeasurementSet> measurements; ///< imported timings, or null
    QString tableDevice; ///< the device whose rows the table (and the measurements) show
    int tableDeviceIndex = -1; ///< its index in report->results, or -1
    /// The measurements against report->results[tableDeviceIndex]; absent without measurements.
    std::optional<Comparison> comparison;
    std::shared_ptr<const Calibration> calibration; ///< loaded calibration, or null
    bool calibrated = false; ///< calibrated times shown in place of the bounds

    int selectedLayer = -1; ///< index into the report's layers, or -1
    ViewSettings view; ///< how it is shown
    /// The values and branches bound for the other model files shown, by path: they stay with their
    /// model and come back with it (the shown model's are in `config`).
    std::map<std::string, BoundInputs> boundInputs;

    LlmWork llm; ///< the language model shown, if one is (then `report` is its phase's rows)
    std::shared_ptr<const LlmModel> llmModel; ///< `llm.model` read; null when a network is shown
    /// Both phases and each device's figures (TTFT, TPOT, memory) of the last analysis of `llm` that worked.
    std::shared_ptr<const LlmAnalysis> llmAnalysis;
    bool languageModel() const { return !llm.model.empty(); }
};

/// Whether the window shows `spec` as a language model: a built-in language model's id, a GGUF or
/// safetensors file, a Hugging Face config.json or a directory holding one (a .json file of another
/// name is a network layer list; an ONNX file a network).
bool isLanguageModelChoice(const std::string& spec);
/// Whether an ONNX model is a decoder with past keys and values whose past extent is free (Optimum's and
/// ONNX Runtime GenAI's exports): the window shows it as a language model, both phases from its graph.
bool isOnnxDecoder(const OnnxModel* model);

/// The notes on a report and on the device files, as the views say them.
WorkNotes workNotes(const Report& report, const DeviceLibrary& library);

/// The document at the centre of the window: configuration, devices, the analysis, measurements
/// and their comparison, the calibration and the selection. Panels send it edits; it recomputes
/// once per change and hands the whole value to whoever listens, with the parts that changed
/// (one signal). Nothing here knows a widget.
class Workspace : public QObject {
    Q_OBJECT
public:
    enum Part {
        Analysis = 0x1, ///< config, devices, report or problem (the views redraw)
        Measurements = 0x2, ///< measurements or their comparison
        TableDevice = 0x4,
        Selection = 0x8,
        Library = 0x10, ///< the device files were (re)read
        View = 0x20, ///< the view settings (nothing is analysed again)
    };
    Q_DECLARE_FLAGS(Parts, Part)

    explicit Workspace(QObject* parent = nullptr);

    const WorkspaceState& state() const { return m_state; }
    const Config& config() const { return m_state.config; }
    const QStringList& deviceIds() const { return m_state.deviceIds; }
    const Report* report() const { return m_state.report.get(); }
    const DeviceLibrary& library() const { return m_library; }
    /// The checked devices that the library has, in order.
    std::vector<Device> checkedDevices() const;

    /// An edit of the configuration. `drag`: nonzero while a slider is held, the same number all along
    /// one drag (its edits are one step of undo however slow); 0 for any other edit.
    void setConfig(const Config& config, int drag = 0);
    void setDevices(const QStringList& ids);
    /// Configuration and devices at once (a preset, a start): one analysis.
    void setWork(const Config& config, const QStringList& ids);
    /// An edit of the language model's settings or phase (workspace_llm.cpp); `drag` as setConfig's.
    void setLlm(const LlmWork& work, int drag = 0);
    /// Shows another network, a built-in id ("resnet50") or a model file's absolute path (a language
    /// model, built in or a file, is shown in its own mode with the settings it had: showLanguageModel()): what was
    /// bound for the model shown until now (model inputs, branches) stays with it, and what was bound
    /// for `model` before comes back (a flag typed for one file followed to every later one, "the model
    /// has no input 'sr'"); per-layer algorithm choices, which name the last network's rows, go. A
    /// built-in network starts at the input it was published for; a model file at its own precision.
    void showModel(const std::string& model);
    /// A model file the opener read: shown as showModel() does, `parsed` (null for a JSON layer list)
    /// kept as the state's model, at `imageSize` (> 0: the size the file opens at). A file that then
    /// cannot be built is refused as refuseModel() says.
    void openModel(const QString& path, std::shared_ptr<const OnnxModel> parsed = nullptr, int imageSize = 0);
    /// A model file that cannot be used (unreadable, not a model, does not build): said once, through
    /// networkFileRefused, the one channel for it; nothing else changes. `reason` is without the path.
    void refuseModel(const QString& path, const QString& reason);
    /// A language model (a built-in id, a config.json or its directory, a GGUF or safetensors file, an
    /// ONNX decoder): read, then shown with the language-model settings as they are; one that cannot
    /// be read is refused as refuseModel() says.
    void showLanguageModel(const std::string& spec);
    /// The device files: the library replaced (File > Reload device files); the checked ids stay.
    void setLibrary(DeviceLibrary library);
    void setTableDevice(const QString& id);
    /// How the work is shown (overlay, shared axes, tick style, layer labels, the filter): no analysis.
    void setView(const ViewSettings& view);
    const ViewSettings& view() const { return m_state.view; }
    void selectLayer(int layer);
    /// Imported timings (null clears them); the comparison follows the table's device.
    void setMeasurements(std::shared_ptr<const MeasurementSet> set);
    /// A calibration (null: none) and whether its times are shown in place of the bounds.
    void setCalibration(std::shared_ptr<const Calibration> calibration, bool shown);
    /// Shows a session's work: its configuration, devices, view settings, table device and selection
    /// (by the row's name), one analysis. Its measurement and calibration files are the caller's to
    /// read (they come with dialogs and their own views).
    void showSession(const Session& session);

    // ---- The document's history (workspace_history.cpp) ----
    /// Undo and redo: one command per edit of the configuration, the devices, a view setting or the
    /// table's device (opening a model and binding an input are edits of the configuration). An edit of
    /// the configuration merges with the one before when both changed the same fields within 0.7 s (a
    /// spin box held, arrow keys), or all along one drag of a slider however slow; nothing else merges,
    /// and no widget takes part in the decision.
    QUndoStack* undoStack() const { return m_undo; }
    /// The history starts from what is shown now: nothing to undo, nothing unsaved (a new window, a
    /// session opened).
    void startHistory();
    /// The session file the work is kept in (empty: none yet).
    const QString& documentPath() const { return m_path; }
    /// Whether the work changed since it was saved or opened.
    bool isDirty() const { return m_dirty; }
    /// Saved to, or opened from, `path`: the work is clean.
    void setDocumentPath(const QString& path);

signals:
    /// The one signal: the whole value, and what in it changed.
    void changed(const rfx::WorkspaceState& state, rfx::Workspace::Parts parts);
    /// A network file just chosen cannot be used (the opener could not read it, or it does not build):
    /// the workspace went back to what it showed (`config` is that again) and nothing else changed.
    /// `reason` is without the path.
    void networkFileRefused(const QString& path, const QString& reason);
    /// The document's path or its unsaved mark changed (the window's title follows).
    void documentChanged();

private:
    friend class WorkCommand;
    /// What undo steps through: the work apart from what is derived from it and apart from the files.
    struct Snapshot {
        Config config;
        QStringList devices;
        ViewSettings view;
        QString tableDevice;
        LlmWork llm;
        bool operator==(const Snapshot&) const = default;
    };
    Snapshot snapshot() const;
    /// Shows `snapshot` (undo, redo) without recording it: one analysis.
    void apply(const Snapshot& snapshot);
    /// After each change: a step of undo when the work differs from the last recorded.
    void record();
    void markDirty();
    /// Analyses the configuration (once) and emits; `parts` adds to Analysis.
    void recompute(Parts parts);
    /// recompute() for a language model: both phases on every device, the chosen phase's rows shown.
    void recomputeLanguageModel(Parts parts, qint64 started);
    /// The comparison of the measurements with the table device's result.
    void compare();
    void resolveTableDevice();
    /// The state's model made the one `config.model` names (read once: the opener's, or the cache's).
    void takeModel();
    /// `c` made to show `model`, with the bindings kept per model (showModel()).
    void switchModel(Config& c, const std::string& model);

    DeviceLibrary m_library;
    WorkspaceState m_state;
    std::string m_llmRead; ///< the language model spec m_state.llmModel was read from
    int m_drag = 0; ///< the drag the last edit of the configuration belongs to (0: none)
    QUndoStack* m_undo;
    Snapshot m_recorded; ///< what the history last recorded
    bool m_applying = false;
    QString m_path;
    bool m_dirty = false;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(Workspace::Parts)

/// The work as a session (its projection: what a .rfx.json keeps).
Session sessionOf(const WorkspaceState& state);
/// What the window shows, in a sentence's words: a language model by its name and phase ("Llama-3.1
/// 8B, decode"), a network by its report's title; empty before any analysis. The one wording of the
/// charts' stale banner and the file dialogs' "The window still shows ...".
QString shownWorkTitle(const WorkspaceState& state);
/// The figure the window shows now (its projection: what export and `roofline-cli reproduce` take):
/// the devices analysed, the view settings, the measurements' diamonds and calibrated times shown.
FigureSpec figureOf(const WorkspaceState& state);

/// "Measured: FILE (format): N layers mapped by name onto DEVICE; P of the bound reached" (and the
/// calibration's held-out error when calibrated), or empty without a comparison.
QString measurementsLine(const WorkspaceState& state);

} // namespace rfx

Q_DECLARE_METATYPE(rfx::WorkspaceState)
