#include "servingplan/servingtable.h"

#include "style/style.h"
#include "style/text.h"

#include "base/format.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QTableWidget>

namespace rfx {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("rfx::ServingTable", text); }

QTableWidgetItem* cell(const QString& text, bool number)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

void fillServingTable(QTableWidget* table, const Plan& plan, const QStringList& devices)
{
    const QStringList headers { tr("Device"), tr("Best within the targets"), tr("Tokens/s per user"),
        tr("Tokens/s per GPU"), tr("TPOT"), tr("TTFT"), tr("Memory per GPU"), tr("GPUs for the load"),
        tr("J a token") };
    table->clear();
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setRowCount(int(plan.devices.size()));
    for (size_t i = 0; i < plan.devices.size(); ++i) {
        const DevicePlan& d = plan.devices[i];
        const int r = int(i);
        auto* name = cell(i < size_t(devices.size()) ? devices[r] : qs(d.name), false);
        name->setForeground(deviceColor(i));
        name->setToolTip(qs(d.name));
        table->setItem(r, 0, name);
        if (!d.best) {
            auto* why = cell(qs(d.none), false);
            why->setToolTip(qs(d.none));
            table->setItem(r, 1, why);
            for (int c = 2; c < headers.size(); ++c)
                table->setItem(r, c, cell(QString(), true));
            continue;
        }
        const PlanPoint& p = d.points[*d.best];
        const ServingPoint& v = p.point;
        table->setItem(r, 1, cell(qs(planPointLabel(p)), false));
        table->setItem(r, 2, cell(qs(formatNumber3(v.userTokensPerSecond)), true));
        table->setItem(r, 3, cell(qs(formatNumber3(v.gpuTokensPerSecond)), true));
        table->setItem(r, 4, cell(qs(formatTime(v.tpot)), true));
        table->setItem(r, 5, cell(qs(formatTime(v.ttft)), true));
        table->setItem(
            r, 6, cell(tr("%1 of %2").arg(qs(formatMemory(v.memoryBytes)), qs(formatMemory(v.usableBytes))), true));
        table->setItem(r, 7, cell(p.gpus > 0 ? QString::number(p.gpus) : QStringLiteral("\u2013"), true));
        table->setItem(r, 8, cell(qs(formatNumber3(v.energyPerToken)), true));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
}

} // namespace rfx
