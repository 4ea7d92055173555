#include "base/number_type.h"

#include <array>
#include <cctype>
#include <utility>

namespace rfx {

namespace {
constexpr std::array<std::pair<NumberType, std::string_view>, 6> kWords { {
    { NumberType::Int8, "int8" },
    { NumberType::Fp8, "fp8" },
    { NumberType::Fp16, "fp16" },
    { NumberType::Bf16, "bf16" },
    { NumberType::Fp32, "fp32" },
    { NumberType::Fp64, "fp64" },
} };
} // namespace

int numberBits(NumberType type)
{
    switch (type) {
    case NumberType::Int8:
    case NumberType::Fp8:
        return 8;
    case NumberType::Fp16:
    case NumberType::Bf16:
        return 16;
    case NumberType::Fp32:
        return 32;
    case NumberType::Fp64:
        return 64;
    case NumberType::Unset:
        break;
    }
    return 0;
}

NumberType numberTypeOfBits(int bits)
{
    return bits <= 8 ? NumberType::Int8
        : bits <= 16 ? NumberType::Fp16
        : bits <= 32 ? NumberType::Fp32
                     : NumberType::Fp64;
}

std::string_view numberWord(NumberType type)
{
    for (const auto& [t, word] : kWords)
        if (t == type)
            return word;
    return {};
}

std::optional<NumberType> parseNumberType(std::string_view word)
{
    for (const auto& [t, w] : kWords) {
        if (w.size() != word.size())
            continue;
        bool same = true;
        for (size_t i = 0; i < w.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(word[i])) == w[i];
        if (same)
            return t;
    }
    return std::nullopt;
}

} // namespace rfx
