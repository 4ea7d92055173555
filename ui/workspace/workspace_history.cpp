// The document's history: undo and redo over the workspace's work, the session file it is kept
// in, and whether it changed since. The workspace records its own changes (record(), the first
// listener of its one signal); nothing here knows a widget.
#include "workspace/workspace.h"

#include <QElapsedTimer>
#include <QUndoCommand>
#include <QUndoStack>

namespace rfx {

namespace {

/// The fields of the configuration that differ, by name: what an edit changed. Two edits of the
/// configuration merge when they changed the same fields (the image size typed twice, a drag of the
/// batch slider). A field missing from this list makes the edit "other", which never merges.
QString changedFields(const Config& a, const Config& b)
{
    QStringList f;
    auto note = [&f](bool differs, const char* name) {
        if (differs)
            f << QLatin1String(name);
    };
    const UNetParams &u = a.unet, &v = b.unet;
    note(a.model != b.model, "model");
    note(u.height != v.height, "height");
    note(u.width != v.width, "width");
    note(u.baseFilters != v.baseFilters, "filters");
    note(u.stride != v.stride, "stride");
    note(u.depth != v.depth, "depth");
    note(u.inChannels != v.inChannels, "channels");
    note(u.classes != v.classes, "classes");
    note(u.padding != v.padding, "padding");
    note(u.downsample != v.downsample, "downsample");
    note(u.conv != v.conv, "conv");
    note(u.batchNorm != v.batchNorm, "batch norm");
    note(a.batch != b.batch, "batch");
    note(a.bits != b.bits || a.bitsAsInFile != b.bitsAsInFile, "bits");
    note(a.mode != b.mode || a.optimizer != b.optimizer, "mode");
    note(a.fusion != b.fusion, "fusion");
    note(a.tensorCores != b.tensorCores, "tensor cores");
    note(a.algorithm != b.algorithm || a.layerAlgorithms != b.layerAlgorithms, "algorithm");
    note(a.traffic != b.traffic || a.onchipKiB != b.onchipKiB || a.cacheAware != b.cacheAware, "traffic");
    note(a.clockPercent != b.clockPercent, "clock");
    note(a.gpus != b.gpus || a.interconnect != b.interconnect || a.overlap != b.overlap, "gpus");
    note(a.inputValues != b.inputValues || a.dims != b.dims || a.branches != b.branches, "inputs");
    // Whatever else differs (a field added later and not listed): an edit of its own, never merged.
    return f.isEmpty() ? QStringLiteral("other") : f.join(QLatin1Char(','));
}

/// The same for the language model's settings ("llm:" and the fields: a drag of the prompt slider).
QString llmChangedFields(const LlmWork& a, const LlmWork& b)
{
    QStringList f;
    auto note = [&f](bool differs, const char* name) {
        if (differs)
            f << QLatin1String(name);
    };
    const LlmSettings &s = a.settings, &t = b.settings;
    note(a.model != b.model, "model");
    note(a.phase != b.phase, "phase");
    note(s.prompt != t.prompt, "prompt");
    note(s.generate != t.generate || s.context != t.context, "generate");
    note(s.batch != t.batch, "batch");
    note(s.weightBits != t.weightBits, "weights");
    note(s.kvBits != t.kvBits, "kv");
    note(s.actBits != t.actBits || s.actType != t.actType, "activations");
    note(s.attention != t.attention, "attention");
    note(s.allLogits != t.allLogits, "logits");
    note(s.tensorParallel != t.tensorParallel || s.interconnect != t.interconnect, "tensor parallel");
    return QStringLiteral("llm:") + (f.isEmpty() ? QStringLiteral("other") : f.join(QLatin1Char(',')));
}

} // namespace

/// One step of undo: the work before and after an edit. `key` names what was edited (the
/// configuration's fields; empty for devices, view settings and the table's device, which never merge).
class WorkCommand : public QUndoCommand {
public:
    WorkCommand(Workspace* workspace, Workspace::Snapshot before, Workspace::Snapshot after, QString key, int drag)
        : m_workspace(workspace)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_key(std::move(key))
        , m_drag(drag)
    {
        setText(QObject::tr("change"));
        m_time.start();
    }
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = static_cast<const WorkCommand*>(other);
        if (m_key.isEmpty() || m_key == QLatin1String("other") || o->m_key != m_key)
            return false;
        const bool sameDrag = m_drag != 0 && o->m_drag == m_drag; // held all along, however slowly
        if (!sameDrag && m_time.elapsed() > 700)
            return false;
        m_after = o->m_after;
        m_drag = o->m_drag;
        m_time.restart();
        return true;
    }
    void undo() override { m_workspace->apply(m_before); }
    void redo() override
    {
        if (m_first) { // the edit is already on screen when its command is pushed
            m_first = false;
            return;
        }
        m_workspace->apply(m_after);
    }

private:
    Workspace* m_workspace;
    Workspace::Snapshot m_before, m_after;
    QString m_key;
    int m_drag;
    QElapsedTimer m_time;
    bool m_first = true;
};

Workspace::Snapshot Workspace::snapshot() const
{
    return { m_state.config, m_state.deviceIds, m_state.view, m_state.tableDevice, m_state.llm };
}

void Workspace::record()
{
    if (m_applying)
        return;
    const Snapshot now = snapshot();
    if (now == m_recorded)
        return;
    // Only an edit of the configuration alone, or of the language model's settings alone, has a key to
    // merge by.
    const bool workOnly
        = now.devices == m_recorded.devices && now.view == m_recorded.view && now.tableDevice == m_recorded.tableDevice;
    const bool configOnly = workOnly && now.llm == m_recorded.llm;
    const bool llmOnly = workOnly && now.config == m_recorded.config;
    const QString key = configOnly ? changedFields(m_recorded.config, now.config)
        : llmOnly                  ? llmChangedFields(m_recorded.llm, now.llm)
                                   : QString();
    m_undo->push(new WorkCommand(this, m_recorded, now, key, configOnly || llmOnly ? m_drag : 0));
    m_recorded = now;
    markDirty();
}

void Workspace::apply(const Snapshot& s)
{
    m_applying = true;
    m_state.view = s.view;
    m_state.config = s.config;
    m_state.deviceIds = s.devices;
    m_state.tableDevice = s.tableDevice;
    m_state.llm = s.llm;
    m_drag = 0;
    recompute(View | TableDevice);
    m_applying = false;
    m_recorded = snapshot();
    markDirty();
}

void Workspace::startHistory()
{
    m_undo->clear();
    m_recorded = snapshot();
    m_dirty = false;
    emit documentChanged();
}

void Workspace::setDocumentPath(const QString& path)
{
    m_path = path;
    m_dirty = false;
    m_undo->setClean();
    emit documentChanged();
}

void Workspace::markDirty()
{
    m_dirty = true;
    emit documentChanged();
}

} // namespace rfx
