#include "features/exportdialog.h"

#include "widgets/checkedspinbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>

namespace rfx {

ExportDialog::ExportDialog(const QString& suggestedFile, QWidget* parent)
    : QDialog(parent)
    , m_file(new QLineEdit(suggestedFile))
    , m_size(new QComboBox)
    , m_width(new QDoubleSpinBox)
    , m_widthPx(new CheckedSpinBox(tr("width in pixels")))
    , m_heightPx(new CheckedSpinBox(tr("height in pixels")))
    , m_dpi(new QComboBox)
    , m_caption(new QCheckBox(tr("Caption line with the configuration and conventions")))
    , m_transparent(new QCheckBox(tr("Transparent background")))
    , m_sidecar(new QCheckBox(tr("Sidecar .json to reproduce the figure (roofline-cli reproduce)")))
{
    setWindowTitle(tr("Export chart"));
    auto* form = new QFormLayout;
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    auto* browse = new QPushButton(tr("Browse\u2026"));
    fileRow->addWidget(browse);
    form->addRow(tr("File (.png, .svg, .pdf)"), fileRow);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export chart"), m_file->text(),
            tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
        if (!f.isEmpty())
            setFile(f);
    });

    m_size->addItem(tr("One column, 3.5 in"), 3.5);
    m_size->addItem(tr("Full page width, 7 in"), 7.0);
    m_size->addItem(tr("Custom width in inches"), 0.0);
    m_size->addItem(tr("Exact pixels (PNG)"), -1.0);
    m_size->setCurrentIndex(1);
    form->addRow(tr("Size"), m_size);
    m_width->setRange(1, 40);
    m_width->setDecimals(2);
    m_width->setValue(7);
    m_width->setSuffix(tr(" in"));
    form->addRow(tr("Width"), m_width);
    auto* px = new QHBoxLayout;
    m_widthPx->setRange(64, 20000);
    m_widthPx->setValue(1600);
    m_heightPx->setRange(64, 20000);
    m_heightPx->setValue(1000);
    px->addWidget(m_widthPx);
    px->addWidget(new QLabel(QStringLiteral("\u00d7")));
    px->addWidget(m_heightPx);
    px->addWidget(new QLabel(tr("px")));
    form->addRow(tr("Pixels"), px);
    for (int dpi : { 150, 300, 600 })
        m_dpi->addItem(tr("%1 dpi").arg(dpi), dpi);
    m_dpi->setCurrentIndex(1);
    m_dpi->setToolTip(tr("PNG resolution, recorded in the file; SVG and PDF are vector"));
    form->addRow(tr("Resolution"), m_dpi);
    m_sizeNote = new QLabel;
    m_sizeNote->setObjectName(QStringLiteral("sizeNote"));
    m_sizeNote->setWordWrap(true);
    form->addRow(tr("Writes"), m_sizeNote);
    m_caption->setChecked(true);
    form->addRow(QString(), m_caption);
    form->addRow(QString(), m_transparent);
    form->addRow(QString(), m_sidecar);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    connect(m_size, &QComboBox::currentIndexChanged, this, [this] {
        const double w = m_size->currentData().toDouble();
        if (w > 0)
            m_width->setValue(w);
        updateEnabled();
    });
    connect(m_file, &QLineEdit::textChanged, this, &ExportDialog::updateEnabled);
    connect(m_width, &QDoubleSpinBox::valueChanged, this, &ExportDialog::updateSize);
    connect(m_widthPx, &QSpinBox::valueChanged, this, &ExportDialog::updateSize);
    connect(m_heightPx, &QSpinBox::valueChanged, this, &ExportDialog::updateSize);
    connect(m_dpi, &QComboBox::currentIndexChanged, this, &ExportDialog::updateSize);
    connect(m_caption, &QCheckBox::toggled, this, &ExportDialog::updateSize);
    updateEnabled();
}

void ExportDialog::setMeasure(std::function<FigureSize(const FigureSpec&)> measure)
{
    m_measure = std::move(measure);
    updateSize();
}

QString ExportDialog::sizeText() const { return m_sizeNote->text(); }

void ExportDialog::updateSize()
{
    // The greyed pixel fields said 1600 x 1000 where 7 in at 300 dpi writes 2100 x 1660: they show
    // what will be written, and a line says it in the format's units.
    if (!m_measure)
        return;
    const FigureSpec s = spec();
    const FigureSize z = m_measure(s);
    if (m_size->currentData().toDouble() >= 0) {
        const QSignalBlocker a(m_widthPx), b(m_heightPx);
        m_widthPx->setValue(z.widthPx);
        m_heightPx->setValue(z.heightPx);
    }
    QString note = QString::fromStdString(figureSizeText(z, s.format, s.dpi));
    if (z.captionOutside)
        note += tr("\nThe caption goes to a .caption.txt file beside it: in the figure it would make it taller than "
                   "%1 in, a page's text (a height you give keeps it in)")
                    .arg(kMaxFigureHeightIn);
    m_sizeNote->setText(note);
    // The note's second paragraph wraps: the dialog grows to show it whole (it was cut at 3.5 in).
    // Once the label's new text is laid out (at once, the layout still measured the old one).
    QTimer::singleShot(0, this, [this] {
        if (isVisible() && layout() && layout()->hasHeightForWidth())
            if (const int needed = layout()->totalHeightForWidth(width()); needed > height())
                resize(width(), needed);
    });
}

void ExportDialog::setFile(const QString& file) { m_file->setText(file); }

void ExportDialog::updateEnabled()
{
    const double mode = m_size->currentData().toDouble();
    m_width->setEnabled(mode == 0);
    m_widthPx->setEnabled(mode < 0);
    m_heightPx->setEnabled(mode < 0);
    const bool raster
        = formatFromPath(m_file->text().toStdString()).value_or(FigureSpec::Format::Png) == FigureSpec::Format::Png;
    m_dpi->setEnabled(raster);
    updateSize();
}

FigureSpec ExportDialog::spec() const
{
    FigureSpec s;
    s.file = m_file->text().toStdString();
    s.format = formatFromPath(s.file).value_or(FigureSpec::Format::Png);
    if (!formatFromPath(s.file))
        s.file += ".png";
    const double mode = m_size->currentData().toDouble();
    if (mode < 0) {
        s.widthPx = m_widthPx->value();
        s.heightPx = m_heightPx->value();
    } else {
        s.widthIn = mode > 0 ? mode : m_width->value();
    }
    s.dpi = m_dpi->currentData().toDouble();
    s.caption = m_caption->isChecked();
    s.transparent = m_transparent->isChecked();
    s.sidecar = m_sidecar->isChecked();
    return s;
}

} // namespace rfx
