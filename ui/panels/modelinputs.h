#pragma once

#include <QGroupBox>

#include <map>
#include <memory>
#include <string>

class QFormLayout;

namespace rfx {

class OnnxModel;

/// "Model inputs": for an imported model, a field for each one-element input (the flag an If tests,
/// a Loop's trip count) where the user binds its value; empty is unbound (the heavier branch is
/// counted, with a note). Hidden for models without such inputs and for built-in networks.
class ModelInputsBox : public QGroupBox {
    Q_OBJECT
public:
    explicit ModelInputsBox(QWidget* parent = nullptr);

    /// Shows `model`'s one-element inputs (none: hidden) with the values bound in `values`.
    void setModel(const std::shared_ptr<const OnnxModel>& model, const std::map<std::string, double>& values);
    /// The values typed, by input name (empty fields left out).
    std::map<std::string, double> values() const { return m_values; }

signals:
    void valuesChanged();

private:
    QFormLayout* m_form = nullptr;
    const OnnxModel* m_model = nullptr;
    std::map<std::string, double> m_values;
};

} // namespace rfx
