#include "widgets/checkedspinbox.h"

#include "base/format.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QLocale>
#include <QMetaMethod>
#include <QTimer>
#include <QToolTip>

#include <algorithm>

namespace rfx {

CheckedSpinBox::CheckedSpinBox(const QString& what, QWidget* parent)
    : QSpinBox(parent)
    , m_what(what)
{
}

namespace {
// The number in `text` without the box's prefix, suffix and group separators.
QString bare(const QString& text, const QString& prefix, const QString& suffix, const QLocale& locale)
{
    QString t = text.trimmed();
    if (!prefix.isEmpty() && t.startsWith(prefix))
        t.remove(0, prefix.size());
    if (!suffix.isEmpty() && t.endsWith(suffix))
        t.chop(suffix.size());
    t.remove(locale.groupSeparator());
    return t.trimmed();
}
} // namespace

bool CheckedSpinBox::event(QEvent* event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if ((key->matches(QKeySequence::Undo) && !lineEdit()->isUndoAvailable())
            || (key->matches(QKeySequence::Redo) && !lineEdit()->isRedoAvailable())) {
            event->ignore(); // not the field's: the window's Edit > Undo / Redo takes it
            return false;
        }
    }
    return QSpinBox::event(event);
}

QValidator::State CheckedSpinBox::validate(QString& text, int& pos) const
{
    const QValidator::State own = QSpinBox::validate(text, pos);
    if (own != QValidator::Invalid)
        return own;
    // A whole number outside the range may be typed (and is answered on Enter); anything else not.
    const QString t = bare(text, prefix(), suffix(), locale());
    bool ok = false;
    t.toLongLong(&ok);
    if (ok && t.size() <= 18)
        return QValidator::Intermediate;
    // A letter or a sign the box does not take is not typed, and it says why (issue 73 item 6: typed
    // letters were dropped without a word).
    const auto odd = std::find_if(
        t.begin(), t.end(), [](QChar c) { return !c.isDigit() && c != QLatin1Char('-') && c != QLatin1Char('+'); });
    if (odd != t.end()) {
        const QString what = m_what.isEmpty() ? tr("This box") : m_what.at(0).toUpper() + m_what.mid(1);
        m_lastCorrection = tr("%1 takes whole numbers from %2 to %3: '%4' is not typed")
                               .arg(what, QString::fromStdString(formatCount(minimum())),
                                   QString::fromStdString(formatCount(maximum())), QString(*odd));
        auto* self = const_cast<CheckedSpinBox*>(this);
        const QString message = m_lastCorrection;
        QTimer::singleShot(0, self, [self, message] { self->say(message, self->value()); });
    }
    return QValidator::Invalid;
}

void CheckedSpinBox::say(const QString& message, int value)
{
    // Said once: by whoever shows `corrected` (the control panel's note under the field), else in a
    // tooltip at the field (the energy view's, the table's and the export dialog's boxes).
    if (isVisible() && !isSignalConnected(QMetaMethod::fromSignal(&CheckedSpinBox::corrected)))
        QToolTip::showText(mapToGlobal(QPoint(0, height())), message, this);
    emit corrected(message, value);
}

void CheckedSpinBox::fixup(QString& input) const
{
    const QString t = bare(input, prefix(), suffix(), locale());
    bool ok = false;
    const qlonglong typed = t.toLongLong(&ok);
    if (!ok || (typed >= minimum() && typed <= maximum())) {
        QSpinBox::fixup(input);
        return;
    }
    const int value = typed > maximum() ? maximum() : minimum();
    const QString what = m_what.isEmpty() ? tr("value") : m_what;
    // With thousands separators, as the summaries write numbers (issue 73: "65536" beside "131,072").
    const QString typedText = QString::fromStdString(formatCount(typed)),
                  valueText = QString::fromStdString(formatCount(value));
    m_lastCorrection = typed > maximum()
        ? tr("%1 is more than the largest %2, %3: set to %3").arg(typedText, what, valueText)
        : tr("%1 is less than the smallest %2, %3: set to %3").arg(typedText, what, valueText);
    input = prefix() + textFromValue(value) + suffix();
    // fixup() is const and runs inside QSpinBox's own handling of the Enter key: say it after.
    auto* self = const_cast<CheckedSpinBox*>(this);
    const QString message = m_lastCorrection;
    QTimer::singleShot(0, self, [self, message, value] { self->say(message, value); });
}

} // namespace rfx
