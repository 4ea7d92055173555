#pragma once

#include <QObject>

class QComboBox;

namespace rfx {

/// Keeps a combo box at least as wide as its current text, in the type it is drawn in now, so that a
/// layout short of room moves the box (a form with QFormLayout::WrapLongRows puts it under its label)
/// rather than cut the text: at 1024 x 640 in presentation type the Network box read
/// "U-Net (Ronneberger et al. 2015" (issue 52 item 7). Follows the current item and the font.
class WholeText : public QObject {
    Q_OBJECT
public:
    /// Watches `box` (the watcher is the box's child and goes with it).
    static void keep(QComboBox* box);
    /// The least width that shows `box`'s current text whole, frame and arrow included.
    static int needed(const QComboBox* box);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WholeText(QComboBox* box);
    void update();
    QComboBox* m_box;
};

} // namespace rfx
