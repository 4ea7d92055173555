#pragma once

#include <QGroupBox>

#include <map>
#include <memory>
#include <string>

class QComboBox;
class QFormLayout;

namespace rfx {

class OnnxModel;

/// "Model inputs": for an imported model, a field for each one-element input (the flag an If tests,
/// a Loop's trip count) where the user binds its value; empty is unbound (the heavier branch is
/// counted, with a note); and a choice for each If whose condition depends on the data (--branch):
/// the heavier branch, then or else. Hidden for models without either and for built-in networks.
class ModelInputsBox : public QGroupBox {
    Q_OBJECT
public:
    explicit ModelInputsBox(QWidget* parent = nullptr);

    /// Shows `model`'s one-element inputs (none: hidden) with the values bound in `values`.
    void setModel(const std::shared_ptr<const OnnxModel>& model, const std::map<std::string, double>& values,
        const std::map<std::string, bool>& branches = {});
    /// The values typed, by input name (empty fields left out).
    std::map<std::string, double> values() const { return m_values; }
    /// The branches chosen, by If node (true: then; the heavier, automatic, left out).
    std::map<std::string, bool> branches() const { return m_branches; }

signals:
    void valuesChanged();

private:
    QFormLayout* m_form = nullptr;
    const OnnxModel* m_model = nullptr;
    std::map<std::string, double> m_values;
    std::map<std::string, bool> m_branches;
};

} // namespace rfx
