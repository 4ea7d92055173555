#pragma once

#include <QLabel>

namespace rfx {

/// A problem with a value, shown right under the field it concerns (in that field's form), with its
/// one-click fixes as links, and scrolled into view: the user's eye is on the field just changed,
/// not at the bottom of a long panel.
class ProblemNote : public QLabel {
    Q_OBJECT
public:
    explicit ProblemNote(QWidget* parent = nullptr);
    /// Shows `html` as a row of its own under `field` (a widget of a QFormLayout row, or a widget
    /// inside one), moving from wherever it was, and scrolls the enclosing scroll area to it.
    void showUnder(QWidget* field, const QString& html);
    void dismiss();
    /// The form field the note is under (null while hidden).
    QWidget* field() const { return m_field; }

private:
    void detach();
    QWidget* m_field = nullptr;
};

} // namespace rfx
