#pragma once

#include <QSpinBox>

namespace rfx {

/// A spin box that answers every typed value. QSpinBox drops a keystroke that would leave its range
/// (99999 typed into a box that ends at 9999 reads 9999, the fifth digit gone) and, on Enter, puts
/// back the last value for a number below its minimum (batch 0 becomes the 8 it was): both without
/// a word. This one lets any number be typed, then on Enter or leaving the field sets the nearest
/// value it takes and says so through `corrected` (the control panel shows it under the field), or,
/// where nothing listens, in a tooltip at the field: "99999 is more than the largest image size,
/// 16384: set to 16384". A letter typed is not taken, and said: "Batch takes whole numbers from 1 to
/// 65,536: 'x' is not typed".
class CheckedSpinBox : public QSpinBox {
    Q_OBJECT
public:
    /// `what` names the value in the message ("image size", "batch").
    explicit CheckedSpinBox(const QString& what = QString(), QWidget* parent = nullptr);
    void setWhat(const QString& what) { m_what = what; }
    /// The last correction's message (empty before any).
    QString lastCorrection() const { return m_lastCorrection; }

signals:
    /// A typed value was out of range and was set to `value`; `message` says so in the user's words.
    void corrected(const QString& message, int value);

protected:
    /// Ctrl+Z / Ctrl+Shift+Z in the field: its own text's undo while it has one, else the window's
    /// (a value entered, Ctrl+Z did nothing: the line edit took the keys with nothing to undo).
    bool event(QEvent* event) override;
    QValidator::State validate(QString& text, int& pos) const override;
    void fixup(QString& input) const override;

private:
    /// Says `message` after the key's handling: through `corrected`, else in a tooltip at the field.
    void say(const QString& message, int value);
    QString m_what;
    mutable QString m_lastCorrection;
};

} // namespace rfx
