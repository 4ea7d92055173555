#pragma once

#include "widgets/elidedlabel.h"

class QLabel;

namespace rfx {

class Workspace;
struct WorkspaceState;

/// The status bar's line on the analysis shown: the network's totals where the eye finds them
/// (parameters, FLOP and MAC, traffic, peak memory; checking ResNet-50's 4.1 GMAC meant multiplying a
/// rate by a time), the rows not counted, or why the configuration does not analyse; and beside it a
/// link counting the notes on the work (WorkspaceState::notes), which asks for them to be shown.
class AnalysisLine : public ElidedLabel {
    Q_OBJECT
public:
    explicit AnalysisLine(QWidget* parent = nullptr);
    /// Follows `workspace`: each analysis and each problem, said on the line.
    void follow(Workspace* workspace);
    /// The notes' link ("⚠ 3 notes"), hidden without notes; the window puts it on the status bar.
    QLabel* notesLink() const { return m_notes; }

signals:
    /// The notes' link was followed: the window shows them (in the Devices panel).
    void notesRequested();

private:
    void showWork(const WorkspaceState& state);
    void showLanguageModel(const WorkspaceState& state);
    void showNotes(const WorkspaceState& state);
    QLabel* m_notes;
};

} // namespace rfx
