#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rfx {

/// The arithmetic a row computes in, which decides the compute ceiling it runs against. The width alone
/// does not: fp8 and int8 are both 8 bits (an H100's tensor FP8 and tensor INT8 ceilings), bf16 and
/// fp16 both 16 (a T4 has tensor cores for FP16, none for BF16).
enum class NumberType : std::uint8_t {
    Unset, ///< not given: the configuration's bits say it (numberTypeOfBits)
    Int8,
    Fp8, ///< any of ONNX's float8 formats (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ)
    Fp16,
    Bf16,
    Fp32,
    Fp64,
};

/// The element width: 8, 8, 16, 16, 32, 64 (Unset: 0).
int numberBits(NumberType type);

/// What a width means where nothing says more (the configuration's bits, a built-in network): 8 bits
/// is int8, 16 fp16, 32 fp32, 64 fp64; other widths take the next one up (4 -> int8, 24 -> fp32).
NumberType numberTypeOfBits(int bits);

/// "int8", "fp8", "fp16", "bf16", "fp32", "fp64" ("" for Unset).
std::string_view numberWord(NumberType type);

/// The inverse of numberWord, case-insensitively; nothing for any other text.
std::optional<NumberType> parseNumberType(std::string_view word);

/// Whether the type is a floating-point one.
inline bool isFloatingNumber(NumberType type) { return type != NumberType::Int8 && type != NumberType::Unset; }

} // namespace rfx
