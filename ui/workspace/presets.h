#pragma once

#include "engine/tuning.h"

#include <QStringList>

#include <optional>

namespace rfx {

/// Presets > the three studies' settings (SEEDS.md): the configuration, the devices it is
/// shown on and, for the energy study, the tuning ranges the energy view opens with.
struct Preset {
    Config config;
    QStringList devices;
    std::optional<TuneRanges> energyRanges; ///< set: the energy view opens with these ranges
};

/// 0: classic 2015 U-Net; 1: the 2022 study's balanced configuration; 2: the energy study.
Preset studyPreset(int which);

} // namespace rfx
