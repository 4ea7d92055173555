// The workspace with a language model shown (issue 36): the model read once, both phases analysed on
// every device (core/llm/llm_analysis.h), the chosen phase's rows as the report the views show.
#include "workspace/workspace.h"

#include "style/text.h"

#include "base/diagnostic.h"
#include "engine/calibration.h"
#include "llm/llm_both.h"
#include "llm/llm_files.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"

#include <QElapsedTimer>
#include <QFileInfo>

namespace rfx {

bool isLanguageModelChoice(const std::string& spec)
{
    if (!isLanguageModelSpec(spec) || isOnnxFile(spec))
        return false;
    return !isNetworkFile(spec)
        || QFileInfo(qs(spec)).fileName().compare(QLatin1String("config.json"), Qt::CaseInsensitive) == 0;
}

bool isOnnxDecoder(const OnnxModel* model) { return model && model->decoder() && !model->decoder()->past.empty(); }

void Workspace::setLlm(const LlmWork& work, int drag)
{
    if (work == m_state.llm)
        return;
    if (work.model != m_state.llm.model) {
        LlmWork w = work;
        const std::string model = w.model;
        w.model = m_state.llm.model;
        m_state.llm = w;
        showLanguageModel(model);
        return;
    }
    m_drag = drag;
    m_state.llm = work;
    recompute({});
}

void Workspace::showLanguageModel(const std::string& spec)
{
    if (spec == m_state.llm.model && m_llmRead == spec && m_state.llmModel)
        return;
    LlmLoad load = loadLanguageModel(spec);
    if (!load.model) {
        refuseModel(qs(spec), qs(withoutSubject(load.error, spec)));
        return;
    }
    m_drag = 0;
    m_state.llmModel = std::make_shared<const LlmModel>(std::move(*load.model));
    m_llmRead = spec;
    m_state.llm.model = spec;
    // Weights at the file's own widths where the file says them; the settings' width otherwise.
    if (llmStoresTypes(*m_state.llmModel))
        m_state.llm.settings.weightBits = 0;
    else if (m_state.llm.settings.weightBits == 0)
        m_state.llm.settings.weightBits = 16;
    recompute({});
}

void Workspace::recomputeLanguageModel(Parts parts, qint64 started)
{
    QElapsedTimer timer;
    timer.start();
    if (!m_state.llmModel || m_llmRead != m_state.llm.model) {
        // Undo, redo or a session brought back a model not read yet: read it now.
        LlmLoad load = loadLanguageModel(m_state.llm.model);
        if (!load.model) {
            m_state.problem = qs(load.error);
            emit changed(m_state, parts | Analysis);
            return;
        }
        m_state.llmModel = std::make_shared<const LlmModel>(std::move(*load.model));
        m_llmRead = m_state.llm.model;
    }
    // Without the generation's 17 decode steps: the window shows TTFT, TPOT and tokens per second
    // (issue 36 item 8: a step on Llama-3.1 70B within the U-Net's).
    LlmOutcome outcome = analyzeLlm(*m_state.llmModel, m_state.llm.settings, checkedDevices(), false);
    if (!outcome.analysis) {
        // The last report stays, marked stale by the views; a setting the model cannot take is said in
        // the window's words (the control panel puts it under its field with the values that work).
        const auto fix = llmSettingsFix(m_state.llmModel->arch, m_state.llm.settings);
        m_state.problem = fix ? qs(fix->message) : qs(outcome.error);
        emit changed(m_state, parts | Analysis);
        return;
    }
    m_state.problem.clear();
    // A calibration (this machine's, fitted on a measure --llm file) predicts each phase's rows: the
    // summary's calibrated TTFT and TPOT, the table's and the chart's times where they are shown.
    bool calibrated = false;
    if (m_state.calibration) {
        const std::string label = QFileInfo(qs(m_state.calibration->file)).fileName().toStdString();
        LlmAnalysis& a = *outcome.analysis;
        calibrated = applyCalibration(a.prefill, *m_state.calibration, label) > 0;
        applyCalibration(a.decode, *m_state.calibration, label);
        calibrated = calibrated && m_state.calibrated;
    }
    auto analysis = std::make_shared<const LlmAnalysis>(std::move(*outcome.analysis));
    // The phase's report shares the analysis that holds it (no copy of its rows on a slider step)
    // unless calibrated times are shown in it; both phases' rows are a report of their own.
    if (m_state.llm.phase == LlmPhase::Both || calibrated) {
        Report shown = m_state.llm.phase == LlmPhase::Both
            ? bothPhases(*analysis)
            : (m_state.llm.phase == LlmPhase::Prefill ? analysis->prefill : analysis->decode);
        if (calibrated)
            showCalibratedTimes(shown);
        m_state.report = std::make_shared<const Report>(std::move(shown));
    } else
        m_state.report = std::shared_ptr<const Report>(
            analysis, m_state.llm.phase == LlmPhase::Prefill ? &analysis->prefill : &analysis->decode);
    m_state.llmAnalysis = std::move(analysis);
    m_state.analysisNs = started + timer.nsecsElapsed();
    m_state.notes = workNotes(*m_state.report, m_library);
    for (const Diagnostic& d : m_state.llmAnalysis->notes) // both phases' notes: each said once
        if (!m_state.notes.analysis.contains(qs(d.message)))
            m_state.notes.analysis.append(qs(d.message));
    m_state.notes.analysis.removeDuplicates();
    resolveTableDevice();
    if (m_state.selectedLayer >= 0 && !m_state.report->results.empty()
        && m_state.selectedLayer >= int(m_state.report->results[0].layers.size()))
        m_state.selectedLayer = -1;
    compare(); // a measure --llm file's rows, by name (a network's map onto none)
    emit changed(m_state, parts | Analysis | (m_state.measurements ? Measurements : Parts {}));
}

} // namespace rfx
