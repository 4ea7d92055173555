// Language-model files: GGUF headers, safetensors headers and Hugging Face config.json. Any bytes give a
// model or a message, never a crash, an exception or undefined behaviour (the fuzz preset builds with
// UBSan); a model that opens builds both phases. The first byte picks the reader (0 GGUF, 1 safetensors,
// 2 config.json); for the binary formats the second says how many MiB of tensor data follow the header
// (the readers check every offset against the file's size and never read the data).
#include "llm/llm_files.h"
#include "llm/llm_phase.h"
#include "llm/weight_files.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

namespace {

void buildPhases(const rfx::LlmModel& m)
{
    rfx::LlmSettings s;
    s.prompt = 16;
    s.generate = 4;
    s.weightBits = m.storage ? 0 : 16;
    for (rfx::LlmPhase p : { rfx::LlmPhase::Prefill, rfx::LlmPhase::Decode }) {
        const rfx::LlmPhaseBuild b = rfx::buildLlmPhase(m, s, p, 16);
        if (!b.network && b.error.empty())
            __builtin_trap(); // a refusal must say why
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    const int reader = data[0] % 3;
    const std::uint64_t dataBytes = std::uint64_t(data[1]) << 20;
    const std::string bytes(reinterpret_cast<const char*>(data + 2), size - 2);
    std::istringstream in(bytes);
    if (reader == 0) {
        const rfx::LlmLoad l = rfx::readGgufModel(in, bytes.size() + dataBytes, "fuzz.gguf");
        if (!l.model && l.error.empty())
            __builtin_trap();
        if (l.model)
            buildPhases(*l.model);
    } else if (reader == 1) {
        std::string error;
        const auto tensors = rfx::readSafetensors(in, bytes.size() + dataBytes, "fuzz.safetensors", error);
        if (!tensors && error.empty())
            __builtin_trap();
    } else {
        const rfx::LlmLoad l = rfx::parseHfConfig(bytes, "config.json");
        if (!l.model && l.error.empty())
            __builtin_trap();
        if (l.model)
            buildPhases(*l.model);
    }
    return 0;
}
