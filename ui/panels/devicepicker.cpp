#include "panels/devicepicker.h"

#include "style/text.h"

#include "base/format.h"
#include "workspace/workspace.h"

#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStyle>
#include <QVBoxLayout>

namespace rfx {

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
} // namespace

DevicePicker::DevicePicker(QWidget* parent)
    : QWidget(parent)
    , m_search(new QLineEdit)
    , m_view(new QListView)
    , m_model(new QStandardItemModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_notesTitle(new QLabel)
    , m_notes(new QListWidget)
{
    auto* layout = new QVBoxLayout(this);
    m_search->setPlaceholderText(tr("Search devices (name, vendor, architecture, CPU or GPU)"));
    m_search->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterRole(Qt::ToolTipRole); // the tooltip holds name, id, vendor and architecture
    m_view->setModel(m_proxy);
    m_view->setUniformItemSizes(true);
    layout->addWidget(m_search);
    layout->addWidget(m_view, 1);
    auto* hint
        = new QLabel(tr("Check any number of devices: one chart each, or all on one chart (View \u25b8 Overlay)."));
    hint->setWordWrap(true);
    layout->addWidget(hint);
    m_notesTitle->setVisible(false);
    m_notes->setVisible(false);
    m_notes->setObjectName(QStringLiteral("deviceNotes"));
    m_notes->setWordWrap(true);
    m_notes->setAccessibleName(tr("Device notes"));
    m_notes->setMaximumHeight(fontMetrics().height() * 9);
    m_notes->setIconSize(QSize(16, 16));
    layout->addWidget(m_notesTitle);
    layout->addWidget(m_notes);
    connect(m_search, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_model, &QStandardItemModel::itemChanged, this, [this](QStandardItem* item) {
        if (m_updating)
            return;
        const QString id = item->data(kIdRole).toString();
        if (item->checkState() == Qt::Checked && !m_checked.contains(id))
            m_checked.append(id);
        else if (item->checkState() != Qt::Checked)
            m_checked.removeAll(id);
        emit checkedChanged(m_checked);
    });
}

void DevicePicker::setDevices(const std::vector<Device>& devices)
{
    m_askedValid = false; // a new list: the next setChecked marks it
    m_updating = true;
    m_model->clear();
    for (const Device& d : devices) {
        auto* item = new QStandardItem(qs(d.name) + (d.userDevice ? tr(" (user)") : QString()));
        item->setCheckable(true);
        item->setEditable(false);
        item->setData(qs(d.id), kIdRole);
        QString peak;
        if (auto it = d.peak.find("fp32"); it != d.peak.end())
            peak = qs(formatSI(it->second, "FLOP/s"));
        // The kind in words too: a search for "cpu" found nothing (issue 73 item 9), as no CPU's name says it.
        const QString kind = d.kind == "cpu" ? tr("CPU") : d.kind == "gpu" ? tr("GPU") : qs(d.kind);
        item->setToolTip(QStringLiteral("%1\n%2 \u2014 %3 %4 %10\nFP32 %5, DRAM %6, %7, TDP %8 W\n%9")
                             .arg(qs(d.name), qs(d.id), qs(d.vendor), qs(d.architecture), peak,
                                 qs(formatSI(d.dramBandwidth, "B/s")), qs(formatMemory(d.memoryBytes)))
                             .arg(d.tdpWatts)
                             .arg(qs(d.file), kind));
        item->setCheckState(m_checked.contains(qs(d.id)) ? Qt::Checked : Qt::Unchecked);
        m_model->appendRow(item);
    }
    m_updating = false;
}

void DevicePicker::follow(Workspace* workspace)
{
    connect(workspace, &Workspace::changed, this, [this, workspace](const WorkspaceState& s, Workspace::Parts parts) {
        if (parts & Workspace::Library)
            setDevices(workspace->library().devices);
        if (parts & (Workspace::Library | Workspace::Analysis))
            setChecked(s.deviceIds);
        if (parts & Workspace::Analysis && s.problem.isEmpty() && s.report)
            setNotes(s.notes.deviceFiles, s.notes.analysis);
    });
    connect(this, &DevicePicker::checkedChanged, workspace, &Workspace::setDevices);
}

void DevicePicker::setNotes(const QStringList& deviceFileProblems, const QStringList& analysisNotes)
{
    if (m_notesShown && deviceFileProblems == m_shownFileProblems && analysisNotes == m_shownAnalysisNotes)
        return; // the same notes (a slider step seldom changes them): the list is not rebuilt
    m_notesShown = true;
    m_shownFileProblems = deviceFileProblems;
    m_shownAnalysisNotes = analysisNotes;
    m_notes->clear();
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QIcon info = style()->standardIcon(QStyle::SP_MessageBoxInformation);
    for (const QString& n : deviceFileProblems) {
        auto* item = new QListWidgetItem(warning, n, m_notes);
        item->setToolTip(n);
    }
    for (const QString& n : analysisNotes) {
        auto* item = new QListWidgetItem(info, n, m_notes);
        item->setToolTip(n);
    }
    const int count = m_notes->count();
    QStringList parts;
    if (!deviceFileProblems.isEmpty())
        parts.append(deviceFileProblems.size() == 1 ? tr("1 device file problem")
                                                    : tr("%1 device file problems").arg(deviceFileProblems.size()));
    if (!analysisNotes.isEmpty())
        parts.append(analysisNotes.size() == 1 ? tr("1 note on the analysis")
                                               : tr("%1 notes on the analysis").arg(analysisNotes.size()));
    m_notesTitle->setText(QStringLiteral("<b>%1</b>").arg(parts.join(QStringLiteral(", "))));
    m_notesTitle->setVisible(count > 0);
    m_notes->setVisible(count > 0);
}

void DevicePicker::showNotes()
{
    if (m_notes->count() == 0)
        return;
    m_notes->setFocus(Qt::OtherFocusReason);
    if (!m_notes->currentItem())
        m_notes->setCurrentRow(0);
}

void DevicePicker::setChecked(const QStringList& ids)
{
    if (m_askedValid && ids == m_asked)
        return; // shows them already (the workspace hands every value back)
    m_asked = ids;
    m_askedValid = true;
    m_updating = true;
    m_checked.clear();
    for (int r = 0; r < m_model->rowCount(); ++r) {
        QStandardItem* item = m_model->item(r);
        const bool on = ids.contains(item->data(kIdRole).toString());
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    for (const QString& id : ids) {
        for (int r = 0; r < m_model->rowCount(); ++r)
            if (m_model->item(r)->data(kIdRole).toString() == id && !m_checked.contains(id))
                m_checked.append(id);
    }
    m_updating = false;
}

} // namespace rfx
