#include "table/layerpane.h"

#include "table/layerfilterproxy.h"
#include "table/layertable.h"
#include "table/layertablemodel.h"
#include "widgets/checkedspinbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace rfx {

LayerPane::LayerPane(QWidget* parent)
    : QWidget(parent)
    , m_device(new QComboBox)
    , m_convOnly(new QCheckBox(tr("Only convolutions")))
    , m_topN(new CheckedSpinBox(tr("number of rows")))
    , m_table(new LayerTable)
    , m_model(new LayerTableModel(this))
    , m_proxy(new LayerFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    // The bar: the device on the first line; the filters beside it where the pane is wide enough
    // for both at their natural widths, else on a line of their own (at 1024 x 640 the device's
    // name was cut to "RTX 2060 Supe" and the Top box ran off the pane).
    m_bar = new QHBoxLayout;
    m_deviceLabel = new QLabel(tr("Layers on"));
    m_bar->addWidget(m_deviceLabel);
    m_device->setToolTip(tr("The device whose per-layer figures the table shows"));
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_bar->addWidget(m_device);
    m_bar->addStretch();
    m_filters = new QWidget;
    auto* filters = new QHBoxLayout(m_filters);
    filters->setContentsMargins(0, 0, 0, 0);
    m_convOnly->setToolTip(tr("Show only conv and conv_transpose rows, in the charts and the table"));
    filters->addWidget(m_convOnly);
    filters->addSpacing(8);
    filters->addWidget(new QLabel(tr("Top")));
    m_topN->setRange(0, 999);
    m_topN->setSpecialValueText(tr("all"));
    m_topN->setSuffix(tr(" by time"));
    m_topN->setToolTip(tr("Show only the N layers that take the most time (0 = all)"));
    filters->addWidget(m_topN);
    filters->addStretch();
    m_bar->insertWidget(2, m_filters);
    m_bar->insertSpacing(2, 16);
    v->addLayout(m_bar);
    m_secondLine = new QHBoxLayout;
    v->addLayout(m_secondLine);

    m_table->setModel(m_proxy);
    m_table->sortByColumn(LayerTableModel::Name, Qt::AscendingOrder);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QTableView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_table->indexAt(pos);
        const int layer = index.isValid() ? index.data(LayerTableModel::LayerIndexRole).toInt() : -1;
        if (layer >= 0) // a block's own line has no row's menu
            emit layerMenuRequested(layer, m_table->viewport()->mapToGlobal(pos));
    });
    v->addWidget(m_table, 1);

    connect(m_device, &QComboBox::currentIndexChanged, this, [this](int index) { emit deviceChanged(index); });
    auto onFilter = [this] {
        m_filter.convolutionsOnly = m_convOnly->isChecked();
        m_filter.topN = m_topN->value();
        m_proxy->setLayerFilter(m_filter);
        emit filterChanged(m_filter);
    };
    connect(m_convOnly, &QCheckBox::toggled, this, onFilter);
    connect(m_topN, &QSpinBox::valueChanged, this, onFilter);
    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (current.isValid()) // a block's line selects no row (-1)
                emit layerActivated(current.data(LayerTableModel::LayerIndexRole).toInt());
        });
    connect(m_model, &LayerTableModel::foldChanged, m_proxy, &LayerFilterProxy::refresh);
}

int LayerPane::oneLineWidth() const
{
    const int spacing = std::max(0, m_bar->spacing());
    return m_deviceLabel->sizeHint().width() + m_device->sizeHint().width() + 16 + m_filters->sizeHint().width()
        + 4 * spacing;
}

bool LayerPane::filtersOnTheirOwnLine() const { return m_secondLine->indexOf(m_filters) >= 0; }

void LayerPane::arrangeBar()
{
    // Decided from the natural widths of what the bar holds, never from the layout's current
    // state, with a few pixels of hysteresis so that a resize by one pixel cannot flip it back.
    const int need = oneLineWidth();
    const bool twoLines = filtersOnTheirOwnLine() ? width() < need + 8 : width() < need;
    if (twoLines == filtersOnTheirOwnLine())
        return;
    if (twoLines) {
        m_bar->removeWidget(m_filters);
        m_secondLine->addWidget(m_filters);
    } else {
        m_secondLine->removeWidget(m_filters);
        m_bar->insertWidget(3, m_filters);
    }
}

void LayerPane::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeBar();
}

int LayerPane::device() const { return m_device->currentIndex(); }

QString LayerPane::deviceId() const { return m_device->currentData().toString(); }

bool LayerPane::setDeviceId(const QString& id)
{
    const int i = m_device->findData(id);
    if (i >= 0)
        m_device->setCurrentIndex(i);
    return i >= 0;
}

void LayerPane::setFilter(const LayerFilter& filter)
{
    if (filter == m_filter)
        return;
    const QSignalBlocker quietBox(m_convOnly), quietSpin(m_topN);
    m_convOnly->setChecked(filter.convolutionsOnly);
    m_topN->setValue(filter.topN);
    m_filter = filter;
    m_proxy->setLayerFilter(m_filter);
}

void LayerPane::updateDevices(const Report& report)
{
    const QString current = deviceId();
    QStringList ids;
    for (const DeviceResult& d : report.results)
        ids.append(QString::fromStdString(d.device.id));
    QStringList existing;
    for (int i = 0; i < m_device->count(); ++i)
        existing.append(m_device->itemData(i).toString());
    if (existing == ids)
        return;
    const QSignalBlocker block(m_device);
    m_device->clear();
    for (const DeviceResult& d : report.results)
        m_device->addItem(QString::fromStdString(d.device.name), QString::fromStdString(d.device.id));
    const int keep = int(ids.indexOf(current));
    m_device->setCurrentIndex(keep >= 0 ? keep : 0);
    arrangeBar(); // a longer name may not fit beside the filters
}

void LayerPane::setColumnShown(int column, bool shown)
{
    if (m_table->isColumnHidden(column) == shown)
        m_table->setColumnHidden(column, !shown);
}

void LayerPane::updateLevelColumns()
{
    // Per-level intensities exist only under the tiled model, on devices whose file gives L2 / L1
    // bandwidths: a column shows where some row has a figure for it (under cache-aware bounds none does,
    // and two empty columns said nothing).
    const DeviceResult* shown = m_model->deviceResult();
    auto any = [&](double LayerResult::*traffic) {
        return shown && std::any_of(shown->layers.begin(), shown->layers.end(), [&](const LayerResult& l) {
            return l.*traffic > 0;
        });
    };
    setColumnShown(LayerTableModel::IntensityL2, shown && shown->l2Bandwidth > 0 && any(&LayerResult::l2Bytes));
    setColumnShown(LayerTableModel::IntensityL1, shown && shown->l1Bandwidth > 0 && any(&LayerResult::l1Bytes));
}

void LayerPane::setReport(const std::shared_ptr<const Report>& shared)
{
    const Report& report = *shared;
    updateDevices(report);
    m_model->setReport(shared, device());
    m_proxy->refresh();
    // The algorithm columns say something only once an algorithm is chosen: all "direct" and empty
    // otherwise, and three fewer columns of text to paint on every slider step.
    const Config& c = report.config;
    const bool algorithms = c.algorithm != ConvAlgorithm::Direct || !c.layerAlgorithms.empty();
    for (int column : { int(LayerTableModel::Algorithm), int(LayerTableModel::Extra), int(LayerTableModel::Workspace) })
        setColumnShown(column, algorithms);
    updateLevelColumns();
    // Calibrated times rename the Time and Error columns ("Calibrated time"): fit them again then too.
    m_reportKind = QStringLiteral("%1|%2|%3|%4|%5|%6")
                       .arg(QString::fromStdString(c.model), deviceId())
                       .arg(int(c.mode))
                       .arg(algorithms)
                       .arg(m_model->rowCount())
                       .arg(m_model->calibrated());
}

void LayerPane::showDevice(std::shared_ptr<const Report> report)
{
    m_model->setReport(std::move(report), device());
    updateLevelColumns();
}

void LayerPane::setMeasuredColumnsShown(bool shown)
{
    for (int column : { int(LayerTableModel::Measured), int(LayerTableModel::OfBound), int(LayerTableModel::Error) })
        setColumnShown(column, shown);
}

void LayerPane::fitColumnsIfRowsChanged()
{
    if (m_reportKind != m_rowsKind) {
        m_table->fitColumns();
        m_rowsKind = m_reportKind;
    }
}

void LayerPane::refit()
{
    m_proxy->refresh();
    m_table->fitColumns();
}

void LayerPane::selectLayer(int layer)
{
    if (layer < 0) {
        // a block's line made current selects no row: it stays selected
        const QModelIndex current = m_table->currentIndex();
        if (!current.isValid() || current.data(LayerTableModel::LayerIndexRole).toInt() >= 0)
            m_table->clearSelection();
        return;
    }
    m_model->unfoldTo(layer); // a row picked on a chart shows, its block unfolded
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(m_model->rowOfLayer(layer), 0));
    if (proxyIndex.isValid()) {
        m_table->selectionModel()->setCurrentIndex(
            proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(proxyIndex);
    }
}

} // namespace rfx
