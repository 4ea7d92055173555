#pragma once

#include "io/view_settings.h"
#include "llm/llm_phase.h"
#include "model/config.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// Values bound to a model file's one-element inputs and the branches chosen for its data-dependent
/// Ifs (Config::inputValues, Config::branches), kept for a model while another is shown.
struct BoundInputs {
    std::map<std::string, double> values;
    std::map<std::string, bool> branches;
    friend bool operator==(const BoundInputs&, const BoundInputs&) = default;
};

/// The user's work as a document (.rfx.json, with a schema version): what is analysed and how it is
/// shown, so that opening it shows the same screen. Fields after `tableDevice` are optional in the file (sessions
/// written before them open with their defaults).
struct Session {
    Config config;
    std::vector<std::string> devices;
    ViewSettings view; ///< overlay, shared axes, power ticks, layer labels, the rows shown
    std::string tableDevice; ///< the device whose layers the table shows ("" = the first)
    std::string selectedLayer; ///< the selected row's name ("" = none)
    std::string measurements; ///< the imported measurement file ("" = none)
    std::string calibration; ///< the loaded calibration file ("" = none)
    bool calibrated = false; ///< its calibrated times shown in place of the bounds
    /// What was bound for the other model files shown in this work, by path (the shown model's own
    /// bindings are in `config`): they come back when the model is shown again.
    std::map<std::string, BoundInputs> modelInputs;
    /// The language model shown in place of the network (`config` is then the network it left), or nothing.
    std::optional<LlmWork> llm;
    friend bool operator==(const Session&, const Session&) = default;
};

inline constexpr int kSessionSchema = 1;
inline constexpr std::size_t kMaxSessionBytes = 1 << 20;

std::string sessionToJson(const Session& session);

/// Reads a session document; nothing and `error` ("field: reason") when it is not one.
std::optional<Session> sessionFromJson(const std::string& json, std::string& error);

} // namespace rfx
