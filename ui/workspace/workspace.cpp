#include "workspace/workspace.h"

#include "open/analyses.h"
#include "style/text.h"

#include "base/diagnostic.h"
#include "base/format.h"
#include "io/llm_measure_header.h"
#include "io/llm_probes.h"
#include "llm/llm_files.h"
#include "measure/llm_measure.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QUndoStack>

namespace rfx {

WorkNotes workNotes(const Report& report, const DeviceLibrary& library)
{
    WorkNotes notes;
    for (const Diagnostic& d : report.diagnostics)
        notes.analysis.append(d.field.starts_with("node ") ? qs(d.field + ": " + d.message) : qs(d.message));
    for (const Diagnostic& d : library.diagnostics)
        if (d.severity != Severity::Info)
            notes.deviceFiles.append(qs(toString(d)));
    return notes;
}

Workspace::Workspace(QObject* parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
{
    qRegisterMetaType<WorkspaceState>();
    // First of its listeners: every change is a step of the history when the work differs.
    connect(this, &Workspace::changed, this, &Workspace::record);
}

std::vector<Device> Workspace::checkedDevices() const
{
    std::vector<Device> devices;
    for (const QString& id : m_state.deviceIds)
        if (const Device* d = m_library.find(id.toStdString()))
            devices.push_back(*d);
    return devices;
}

void Workspace::setConfig(const Config& config, int drag)
{
    m_drag = drag;
    m_state.config = config;
    recompute({});
}

void Workspace::setDevices(const QStringList& ids)
{
    m_drag = 0;
    m_state.deviceIds = ids;
    recompute({});
}

void Workspace::setWork(const Config& config, const QStringList& ids)
{
    m_drag = 0;
    m_state.config = config;
    m_state.deviceIds = ids;
    recompute({});
}

void Workspace::switchModel(Config& c, const std::string& model)
{
    if (model == c.model)
        return;
    std::map<std::string, BoundInputs>& bound = m_state.boundInputs;
    if (!c.inputValues.empty() || !c.branches.empty())
        bound[c.model] = { c.inputValues, c.branches };
    else
        bound.erase(c.model);
    c.model = model;
    const auto it = bound.find(model);
    c.inputValues = it == bound.end() ? std::map<std::string, double> {} : it->second.values;
    c.branches = it == bound.end() ? std::map<std::string, bool> {} : it->second.branches;
    bound.erase(model); // shown: its bindings are the configuration's now
    c.layerAlgorithms.clear();
    if (const ModelInfo* m = findModel(model)) { // each built-in network starts at its published input
        c.unet.height = m->height;
        c.unet.width = m->width;
        c.unet.inChannels = m->channels;
        c.unet.classes = m->classes;
    }
    c.bitsAsInFile = isOnnxFile(model); // an imported model at its own precision; built-in networks: the slider
}

void Workspace::showModel(const std::string& model)
{
    if (isLanguageModelChoice(model) || (isOnnxFile(model) && isOnnxDecoder(cachedOnnxModel(model).model.get()))) {
        showLanguageModel(model);
        return;
    }
    if (m_state.languageModel()) { // back to the networks
        m_drag = 0;
        m_state.llm.model.clear();
        if (model == m_state.config.model) {
            recompute({});
            return;
        }
    }
    if (model == m_state.config.model)
        return;
    Config c = m_state.config;
    switchModel(c, model);
    setConfig(c);
}

void Workspace::openModel(const QString& path, std::shared_ptr<const OnnxModel> parsed, int imageSize)
{
    const std::string file = path.toStdString();
    if (!isNetworkFile(file)) {
        refuseModel(path, tr("a model file must end in .onnx or .json"));
        return;
    }
    if (isOnnxFile(file) && isOnnxDecoder(parsed.get())) {
        showLanguageModel(file); // a decoder with past keys and values: both phases from its own graph
        return;
    }
    Config c = m_state.config;
    switchModel(c, file);
    c.bitsAsInFile = isOnnxFile(file); // opened again: at its own precision again
    if (imageSize > 0)
        c.unet.height = c.unet.width = imageSize;
    if (parsed && isOnnxFile(file))
        m_state.model = std::move(parsed); // takeModel() keeps it: it is the one config.model names
    m_state.llm.model.clear(); // a network file opened over a language model: the networks again
    setConfig(c);
}

void Workspace::refuseModel(const QString& path, const QString& reason) { emit networkFileRefused(path, reason); }

void Workspace::takeModel()
{
    const std::string& file = m_state.config.model;
    if (!isOnnxFile(file)) {
        m_state.model.reset();
        return;
    }
    if (!m_state.model || m_state.model->file() != file)
        m_state.model = cachedOnnxModel(file).model; // read once: the analysis then finds it in the cache
}

void Workspace::setLibrary(DeviceLibrary library)
{
    m_library = std::move(library);
    // Ids the new library lacks stay checked: their files may come back with the next reload.
    if (m_state.report)
        recompute(Library);
    else
        emit changed(m_state, Library);
}

void Workspace::recompute(Parts parts)
{
    QElapsedTimer timer;
    timer.start();
    if (m_state.languageModel()) {
        recomputeLanguageModel(parts, timer.nsecsElapsed());
        return;
    }
    m_state.llmModel.reset();
    m_state.llmAnalysis.reset();
    takeModel();
    AnalysisOutcome outcome = analyzeConfig(m_state.config, checkedDevices());
    const Report* shown = m_state.report.get();
    if (!outcome.report && isNetworkFile(m_state.config.model)
        && (!shown || shown->config.model != m_state.config.model)) {
        // A file just chosen that cannot be used: back to what was shown (nothing shown yet, as on a
        // start on this file: the U-Net with the rest as given).
        const QString path = qs(m_state.config.model);
        const QString reason = qs(withoutSubject(outcome.error, m_state.config.model));
        Config back = m_state.config;
        back.model = "unet";
        back.layerAlgorithms.clear();
        if (shown)
            back = shown->config;
        m_state.config = back;
        takeModel();
        if (shown)
            emit changed(m_state, parts | Analysis);
        else
            recompute(parts);
        emit networkFileRefused(path, reason);
        return;
    }
    if (!outcome.report) {
        m_state.problem = qs(outcome.error); // the last report stays, marked stale by the views
        emit changed(m_state, parts | Analysis);
        return;
    }
    m_state.problem.clear();
    Report& report = *outcome.report;
    if (m_state.calibration) {
        const std::string label = QFileInfo(qs(m_state.calibration->file)).fileName().toStdString();
        if (applyCalibration(report, *m_state.calibration, label) > 0 && m_state.calibrated)
            showCalibratedTimes(report); // in place: this runs on every slider step
    }
    m_state.report = std::make_shared<const Report>(std::move(report));
    m_state.analysisNs = timer.nsecsElapsed();
    m_state.notes = workNotes(*m_state.report, m_library); // once, for every view that says them
    resolveTableDevice();
    if (m_state.selectedLayer >= 0 && !m_state.report->results.empty()
        && m_state.selectedLayer >= int(m_state.report->results[0].layers.size()))
        m_state.selectedLayer = -1;
    compare();
    emit changed(m_state, parts | Analysis | (m_state.measurements ? Measurements : Parts {}));
}

void Workspace::resolveTableDevice()
{
    m_state.tableDeviceIndex = -1;
    if (!m_state.report || m_state.report->results.empty())
        return;
    const auto& results = m_state.report->results;
    for (size_t i = 0; i < results.size(); ++i)
        if (qs(results[i].device.id) == m_state.tableDevice)
            m_state.tableDeviceIndex = int(i);
    if (m_state.tableDeviceIndex < 0) { // the device left: the first one's rows
        m_state.tableDeviceIndex = 0;
        m_state.tableDevice = qs(results[0].device.id);
    }
}

void Workspace::compare()
{
    const Report* r = m_state.report.get();
    m_state.comparison.reset();
    if (!m_state.measurements || !r || m_state.tableDeviceIndex < 0)
        return;
    const DeviceResult& rows = r->results[size_t(m_state.tableDeviceIndex)];
    const bool llmFile = m_state.measurements->ofLanguageModel();
    if (!m_state.languageModel()) {
        // A language model's measurement is not a network's: mapped by order onto U-Net's rows, its 72
        // rows stood "above the roof" and "-53 %" (seen in the window, the network switched with a
        // measure --llm file open). measurementsLine says why nothing is shown.
        if (!llmFile)
            m_state.comparison = compareMeasurements(*m_state.measurements, rows);
        return;
    }
    // A language model's rows: a measure --llm file names them by phase ("decode.blk0-15.q_proj"), as
    // "both" does; one phase shown takes its own, without the prefix. By name only: a network's
    // measurement mapped by order onto a language model's rows would be noise. Only at the settings
    // the file says it measured: its batch-2 rows held against batch 16's bounds stood "above the
    // roof" and "+679 %" (seen in the window at 1280 x 720).
    const MeasurementSet& set = *m_state.measurements;
    if (llmFile) {
        std::string error;
        const std::optional<LlmMeasureHeader> h = llmMeasureHeader(set.configuration, error);
        const LlmSettings& w = m_state.llm.settings;
        const auto same = [&w](const LlmSettings& f) { // what the rows' shapes and widths depend on
            return f.prompt == w.prompt && decodeContext(f) == decodeContext(w) && f.batch == w.batch
                && f.actBits == w.actBits && f.kvBits == w.kvBits && (w.weightBits == 0 || f.weightBits == w.weightBits)
                && f.attention == w.attention && f.tensorParallel == w.tensorParallel;
        };
        if (!h || h->model != m_state.llm.model || !same(h->settings))
            return;
    }
    Comparison c = m_state.llm.phase == LlmPhase::Both
        ? compareMeasurements(withoutLlmProbes(*m_state.measurements), rows) // the batch probes are the calibration's
        : compareMeasurements(measurementsOfPhase(*m_state.measurements, m_state.llm.phase), rows);
    if (c.mapping == "by name" && !c.layers.empty())
        m_state.comparison = std::move(c);
}

void Workspace::setTableDevice(const QString& id)
{
    if (id == m_state.tableDevice)
        return;
    m_state.tableDevice = id;
    resolveTableDevice();
    compare();
    emit changed(m_state, TableDevice | (m_state.measurements ? Measurements : Parts {}));
}

void Workspace::setView(const ViewSettings& view)
{
    if (view == m_state.view)
        return;
    m_state.view = view;
    emit changed(m_state, View);
}

void Workspace::selectLayer(int layer)
{
    if (layer == m_state.selectedLayer)
        return;
    m_state.selectedLayer = layer;
    emit changed(m_state, Selection);
}

void Workspace::setMeasurements(std::shared_ptr<const MeasurementSet> set)
{
    m_state.measurements = std::move(set);
    // A language model's measurement (measure --llm) says what it measured: that model, at those
    // settings, both phases, so that its rows are held against their own bounds (the window's own
    // settings, fp16 at prompt 512, put fp32 rows of prompt 128 "above the roof").
    if (const MeasurementSet* m = m_state.measurements.get(); m && m->ofLanguageModel()) {
        std::string error;
        if (const std::optional<LlmMeasureHeader> h = llmMeasureHeader(m->configuration, error))
            setLlm(LlmWork { h->model, h->settings, LlmPhase::Both });
    }
    compare();
    emit changed(m_state, Measurements);
}

void Workspace::setCalibration(std::shared_ptr<const Calibration> calibration, bool shown)
{
    m_state.calibration = std::move(calibration);
    m_state.calibrated = shown && m_state.calibration;
    recompute({});
}

QString measurementsLine(const WorkspaceState& s)
{
    if (!s.comparison && s.measurements && s.measurements->ofLanguageModel()) {
        // A language model's measurement at other settings than shown, or with a network shown (compare
        // maps it only at its own): said, so that its marks do not vanish without a word.
        std::string error;
        if (const std::optional<LlmMeasureHeader> h = llmMeasureHeader(s.measurements->configuration, error))
            return Workspace::tr("Measured: %1 holds %2 at prompt %3, decode context %4, batch %5: not shown %6")
                .arg(QFileInfo(qs(s.measurements->file)).fileName(), qs(h->model), qs(formatCount(h->settings.prompt)),
                    qs(formatCount(decodeContext(h->settings))), qs(formatCount(h->settings.batch)),
                    s.languageModel() ? Workspace::tr("at these settings; set them back to see its rows")
                                      : Workspace::tr("on a network's rows; open the language model to see them"));
    }
    if (!s.comparison || !s.measurements || !s.report || s.tableDeviceIndex < 0)
        return {};
    const Comparison& c = *s.comparison;
    const DeviceResult& r = s.report->results[size_t(s.tableDeviceIndex)];
    // The calibration's prediction against what was measured comes first, where the status bar shows
    // it: on a configuration the calibration was not fitted on, this is its held-out error.
    QString calibrated;
    if (c.calibratedTotal >= 0 && c.measuredTotal > 0)
        calibrated = Workspace::tr(" calibrated %1 against %2 measured (%3, %4);")
                         .arg(qs(formatTime(c.calibratedTotal)), qs(formatTime(c.measuredTotal)),
                             qs(formatSignedPercent(c.calibratedTotal / c.measuredTotal - 1, true)), qs(r.calibration));
    // The file's own verdict on its run (measure's "# noisy:" line) beside its name, where a line cut
    // short at the window's edge still shows it; the reason is in the tooltip.
    const QString noisy
        = s.measurements->noise.empty() ? QString() : Workspace::tr(", \u26a0 measured while the machine was noisy");
    return Workspace::tr("Measured: %1 (%2):%3 %4 layers mapped %5 onto %6; %7 of the bound reached%8")
               .arg(QFileInfo(qs(s.measurements->file)).fileName(),
                   qs(std::string(measurementFormatName(s.measurements->format))) + noisy, calibrated)
               .arg(c.layers.size())
               .arg(qs(c.mapping), qs(r.device.name),
                   qs(formatPercent(c.measuredTotal > 0 ? c.boundTotal / c.measuredTotal : 0)),
                   c.unmatched.empty() ? QString()
                                       : Workspace::tr("; %n row(s) did not map", "", int(c.unmatched.size())))
        + (c.withinTensorRoof > 0
                ? Workspace::tr("; %n row(s) faster than the vector roof: try tensor cores", "", c.withinTensorRoof)
                : QString());
}

} // namespace rfx
