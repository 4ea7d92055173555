#include "panels/algorithmmenu.h"

#include <QActionGroup>
#include <QMenu>

namespace rfx {

QMenu* layerAlgorithmMenu(const Report* report, const Config& config, int layer,
    const std::function<void(const Config&)>& apply, QWidget* parent)
{
    if (!report || report->results.empty())
        return nullptr;
    const auto& layers = report->results.front().layers;
    if (layer < 0 || size_t(layer) >= layers.size() || !runsOnMatrixUnits(layers[size_t(layer)].op))
        return nullptr;
    const std::string name = layers[size_t(layer)].name;
    auto* menu = new QMenu(parent);
    menu->setTitle(QObject::tr("Algorithm for %1").arg(QString::fromStdString(name)));
    menu->addSection(QObject::tr("Algorithm for %1").arg(QString::fromStdString(name)));
    auto* group = new QActionGroup(menu);
    const auto own = config.layerAlgorithms.find(name);
    QAction* global = menu->addAction(
        QObject::tr("As the global setting (%1)").arg(QString::fromUtf8(algorithmName(config.algorithm).data())));
    global->setCheckable(true);
    global->setChecked(own == config.layerAlgorithms.end());
    group->addAction(global);
    QObject::connect(global, &QAction::triggered, menu, [config, name, apply] {
        Config c = config;
        c.layerAlgorithms.erase(name);
        apply(c);
    });
    for (ConvAlgorithm a : { ConvAlgorithm::Direct, ConvAlgorithm::Im2col, ConvAlgorithm::Fft, ConvAlgorithm::Winograd2,
             ConvAlgorithm::Winograd4, ConvAlgorithm::Auto }) {
        QAction* act = menu->addAction(QString::fromUtf8(algorithmName(a).data()));
        act->setCheckable(true);
        act->setChecked(own != config.layerAlgorithms.end() && own->second == a);
        act->setObjectName(QStringLiteral("algorithm-%1").arg(QString::fromUtf8(algorithmName(a).data())));
        group->addAction(act);
        QObject::connect(act, &QAction::triggered, menu, [config, name, a, apply] {
            Config c = config;
            c.layerAlgorithms[name] = a;
            apply(c);
        });
    }
    return menu;
}

} // namespace rfx
