// ONNX model files: any bytes give a model or a message, never a crash, an exception or undefined
// behaviour; a model that opens builds at a configuration taken from the input's last bytes (batch, image
// size, fusion, an If's branch, a decoder's new and cached tokens).
#include "onnx/onnx_model.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const rfx::OnnxLoad load
        = rfx::parseOnnxModel(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.onnx");
    if (!load.model) {
        if (load.error.empty())
            __builtin_trap(); // a refused model must say why
        return 0;
    }
    rfx::Config c;
    c.model = "fuzz.onnx";
    c.batch = size > 0 ? 1 + data[size - 1] % 8 : 1;
    c.unet.height = c.unet.width = size > 1 ? 8 + data[size - 2] % 300 : 224;
    c.fusion = size > 2 && (data[size - 3] & 1);
    if (size > 3 && (data[size - 4] & 2)) // --branch on the If the seed rnn_in_if names (any other name: a note)
        c.branches[(data[size - 4] & 4) ? "loud_or_quiet" : "no_such_if"] = data[size - 4] & 1;
    // a decoder (the seeds with past keys and values): a step of new tokens over cached ones, from two bytes
    if (const auto& decoder = load.model->decoder(); decoder && size > 5)
        c.dims = rfx::decoderExtents(*decoder, 1 + data[size - 5] % 64, data[size - 6] % 200);
    const rfx::BuildResult b = load.model->build(c);
    if (!b.network && b.error.empty())
        __builtin_trap();
    return 0;
}
