#pragma once

#include "model/config.h"
#include "model/unet.h"

namespace rfx {

/// Builds the configured network: the U-Net from its parameters, a built-in preset at the configured
/// image size, input channels and classes, or a custom network file (whose own input is used): a JSON
/// layer list or an ONNX model (read once per path and modification time, onnx/onnx_model.h).
BuildResult buildNetwork(const Config& config);

/// Validates the configuration (validate()) and builds its network; `error` says why not. For analyses
/// that use the network more than once (the energy model's forward pass, the tuning sweeps).
BuildResult buildCheckedNetwork(const Config& config);

} // namespace rfx
