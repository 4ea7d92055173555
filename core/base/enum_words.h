#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rfx {

/// One word of an enum's vocabulary: the name options, files and reports write for a value. An enum has
/// one table of them, in its header beside the enum (kPaddingWords, ...): a value's first word is its
/// name, a later word for the same value an alias parsers also take ("winograd" for winograd4). Names,
/// parsers and the lists of choices in messages all read the table: the vocabulary is written once.
template <class E> struct EnumWord {
    E value;
    std::string_view word;
    bool alias = false;
};

/// The name of `value`: its first word in `words` (tests/core/base/tst_enumwords.cpp checks that every
/// table names every value; the first word is the fallback).
template <class E, std::size_t N> constexpr std::string_view enumName(const EnumWord<E> (&words)[N], E value)
{
    for (const EnumWord<E>& w : words)
        if (w.value == value && !w.alias)
            return w.word;
    return words[0].word;
}

/// The value `word` names (a name or an alias), or nothing.
template <class E, std::size_t N>
constexpr std::optional<E> parseEnum(const EnumWord<E> (&words)[N], std::string_view word)
{
    for (const EnumWord<E>& w : words)
        if (w.word == word)
            return w.value;
    return std::nullopt;
}

/// The choices for a message: "valid, same"; an alias after its name as "winograd4 (= winograd)".
template <class E, std::size_t N> std::string enumChoices(const EnumWord<E> (&words)[N])
{
    std::string out;
    for (const EnumWord<E>& w : words) {
        if (w.alias) {
            out += " (= " + std::string(w.word) + ")";
            continue;
        }
        out += (out.empty() ? "" : ", ") + std::string(w.word);
    }
    return out;
}

} // namespace rfx
