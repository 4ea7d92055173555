#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace rfx {

/// The guided tour's pages, beside the chart rather than over it (MainWindow docks it on the
/// right): each page's text, its place in the tour, and Back / Next / Close. The window marks on
/// the chart what the page talks about (pageChanged).
class TourPanel : public QWidget {
    Q_OBJECT
public:
    explicit TourPanel(QWidget* parent = nullptr);
    /// New pages (the device's own figures), from the first.
    void setPages(const QStringList& pages);
    /// Keeps the page shown, with fresh figures (a slider moved while the tour is open).
    void updatePages(const QStringList& pages);
    int page() const { return m_page; }
    /// The pages as given (HTML).
    const QStringList& pages() const { return m_pages; }
    void setPage(int page);
    QTextBrowser* text() const { return m_text; }

signals:
    void pageChanged(int page);
    void closeRequested();

private:
    void show(int page);
    QStringList m_pages;
    int m_page = 0;
    QLabel* m_step;
    QTextBrowser* m_text;
    QPushButton* m_back;
    QPushButton* m_next;
};

} // namespace rfx
