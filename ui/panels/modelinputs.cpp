#include "panels/modelinputs.h"

#include "onnx/onnx_model.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

// An input of one element: rank 0, or every extent the file gives is 1.
bool oneElement(const OnnxInput& in)
{
    return std::all_of(in.dims.begin(), in.dims.end(), [](const std::string& d) { return d == "1"; });
}

// The combo box's row for a node: 0 the heavier (unchosen), 1 then, 2 else.
int branchIndex(const std::map<std::string, bool>& branches, const std::string& node)
{
    const auto it = branches.find(node);
    return it == branches.end() ? 0 : it->second ? 1 : 2;
}

} // namespace

ModelInputsBox::ModelInputsBox(QWidget* parent)
    : QGroupBox(tr("Model inputs"), parent)
    , m_form(new QFormLayout(this))
{
    setToolTip(tr("Values for the model's one-element inputs: the flag an If tests, a Loop's trip count. "
                  "Empty: not known before the run (an If counts its heavier branch, a Loop its body once; "
                  "the notes say so). An If that tests the data: choose its branch."));
    hide();
}

void ModelInputsBox::setModel(const std::shared_ptr<const OnnxModel>& model,
    const std::map<std::string, double>& values, const std::map<std::string, bool>& branches)
{
    m_values = values;
    m_branches = branches;
    if (model.get() == m_model) { // the same model: only the fields' text, without echo
        for (auto* edit : findChildren<QLineEdit*>()) {
            const auto it = values.find(edit->objectName().toStdString());
            const QString text = it == values.end() ? QString() : QLocale().toString(it->second, 'g', 12);
            if (!edit->hasFocus() && edit->text() != text)
                edit->setText(text);
        }
        for (auto* combo : findChildren<QComboBox*>()) {
            const QSignalBlocker quiet(combo);
            combo->setCurrentIndex(branchIndex(branches, combo->objectName().toStdString()));
        }
        return;
    }
    m_model = model.get();
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    int rows = 0;
    if (model)
        for (const OnnxInput& in : model->inputs()) {
            if (!oneElement(in))
                continue;
            auto* edit = new QLineEdit;
            edit->setObjectName(QString::fromStdString(in.name));
            edit->setPlaceholderText(tr("not known before the run"));
            edit->setClearButtonEnabled(true);
            edit->setToolTip(tr("A value for input '%1' (%2). Empty: unbound.")
                                 .arg(QString::fromStdString(in.name),
                                     in.floating ? tr("a number") : tr("a whole number or a flag, 0 or 1")));
            if (auto it = values.find(in.name); it != values.end())
                edit->setText(QLocale().toString(it->second, 'g', 12));
            connect(edit, &QLineEdit::editingFinished, this, [this, edit] {
                const std::string name = edit->objectName().toStdString();
                bool ok = false;
                const double v = QLocale().toDouble(edit->text().trimmed(), &ok);
                const bool cleared = edit->text().trimmed().isEmpty();
                if (!cleared && (!ok || !std::isfinite(v))) {
                    edit->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #d55e00; }"));
                    edit->setToolTip(tr("'%1' is not a number: type one, or leave the field empty.").arg(edit->text()));
                    return;
                }
                edit->setStyleSheet(QString());
                const auto before = m_values;
                if (cleared)
                    m_values.erase(name);
                else
                    m_values[name] = v;
                if (m_values != before)
                    emit valuesChanged();
            });
            m_form->addRow(QString::fromStdString(in.name), edit);
            ++rows;
        }
    if (model)
        for (const std::string& node : model->dataBranches()) {
            auto* combo = new QComboBox;
            combo->setObjectName(QString::fromStdString(node));
            combo->addItems({ tr("Heavier branch"), tr("Then"), tr("Else") });
            combo->setToolTip(
                tr("If '%1' tests the data, so which branch runs is not known before the run. The heavier one is "
                   "counted unless you choose (the CLI's --branch %1=then|else).")
                    .arg(QString::fromStdString(node)));
            combo->setCurrentIndex(branchIndex(branches, node));
            connect(combo, &QComboBox::currentIndexChanged, this, [this, combo](int index) {
                const std::string name = combo->objectName().toStdString();
                if (index == 0)
                    m_branches.erase(name);
                else
                    m_branches[name] = index == 1;
                emit valuesChanged();
            });
            m_form->addRow(tr("If %1").arg(QString::fromStdString(node)), combo);
            ++rows;
        }
    setVisible(rows > 0);
}

} // namespace rfx
