#pragma once

#include "devices/device.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;
class QListWidget;
class QSortFilterProxyModel;
class QStandardItemModel;

namespace rfx {

class Workspace;

/// A searchable list of devices with a check box each; any number may be checked.
class DevicePicker : public QWidget {
    Q_OBJECT
public:
    explicit DevicePicker(QWidget* parent = nullptr);
    /// Lists `workspace`'s device library and checks its devices whenever they change, with the notes
    /// of each analysis that worked; the devices checked here go to it.
    void follow(Workspace* workspace);

    void setDevices(const std::vector<Device>& devices);
    /// Checks exactly these ids (unknown ids are ignored), in this order; does not emit.
    void setChecked(const QStringList& ids);
    /// Checked ids, in the order they were checked.
    QStringList checked() const { return m_checked; }
    QLineEdit* searchField() const { return m_search; }
    /// The notes beside the devices: device files that could not be used, or only in part, and what
    /// the analysis had to assume for a device (a missing ceiling and its fallback). Hidden when empty.
    void setNotes(const QStringList& deviceFileProblems, const QStringList& analysisNotes);
    /// Brings the notes into view and gives them the focus (the status bar's notes button).
    void showNotes();
    QListWidget* notesList() const { return m_notes; }

signals:
    void checkedChanged(const QStringList& ids);

private:
    QLineEdit* m_search;
    QListView* m_view;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLabel* m_notesTitle;
    QListWidget* m_notes;
    bool m_notesShown = false; ///< setNotes was called; what it was given:
    QStringList m_shownFileProblems, m_shownAnalysisNotes;
    QStringList m_checked;
    bool m_updating = false;
    QStringList m_asked; ///< what setChecked was last given (it may name devices the list lacks)
    bool m_askedValid = false;
};

} // namespace rfx
