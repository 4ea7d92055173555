#include "panels/tourpanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace rfx {

TourPanel::TourPanel(QWidget* parent)
    : QWidget(parent)
    , m_step(new QLabel)
    , m_text(new QTextBrowser)
    , m_back(new QPushButton(tr("< Back")))
    , m_next(new QPushButton(tr("Next >")))
{
    auto* layout = new QVBoxLayout(this);
    m_step->setWordWrap(true); // a long step title does not set the panel's least width
    m_text->setFrameShape(QFrame::NoFrame);
    m_text->setOpenLinks(false);
    auto* close = new QPushButton(tr("Close"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    buttons->addStretch();
    buttons->addWidget(close);
    layout->addWidget(m_step);
    layout->addWidget(m_text, 1);
    layout->addLayout(buttons);
    connect(m_back, &QPushButton::clicked, this, [this] { setPage(m_page - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { setPage(m_page + 1); });
    connect(close, &QPushButton::clicked, this, &TourPanel::closeRequested);
}

void TourPanel::setPages(const QStringList& pages)
{
    m_pages = pages;
    m_page = -1;
    setPage(0);
}

void TourPanel::updatePages(const QStringList& pages)
{
    if (pages.size() != m_pages.size()) {
        setPages(pages);
        return;
    }
    m_pages = pages;
    show(m_page);
}

void TourPanel::setPage(int page)
{
    if (m_pages.isEmpty())
        return;
    page = std::clamp(page, 0, int(m_pages.size()) - 1);
    if (page == m_page)
        return;
    show(page);
    emit pageChanged(page);
}

void TourPanel::show(int page)
{
    m_page = page;
    m_step->setText(tr("Step %1 of %2 \u00b7 marked on the chart").arg(page + 1).arg(m_pages.size()));
    m_text->setHtml(m_pages[page]);
    m_back->setEnabled(page > 0);
    m_next->setEnabled(page < m_pages.size() - 1);
}

} // namespace rfx
