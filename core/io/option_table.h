#pragma once
// A command line's options as one table: each option's name, whether it takes a value, what it sets,
// and how the help shows it. applyOption reads an argument against any such table and optionsHelp
// prints it, so that an option is named once and its help cannot drift from what it parses
// (config_options.cpp holds the configuration's table).

#include "base/enum_words.h"
#include "io/options.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// What a table's setter is handed: the option as given, its value ("" for a flag), the options it
/// sets, and the readers every option shares, each with the one message for its kind of value.
template <typename Target> struct OptionInput {
    const std::string& name;
    const std::string& value;
    Target& target;
    std::string& error;

    OptionStatus fail(std::string message) const
    {
        error = std::move(message);
        return OptionStatus::Error;
    }
    OptionStatus wholeNumber(int& out) const
    {
        if (const auto v = parseWholeNumber(value)) {
            out = *v;
            return OptionStatus::Consumed;
        }
        return fail(name + ": expected a whole number, got '" + value + "'");
    }
    template <typename E, std::size_t N> OptionStatus word(const EnumWord<E> (&words)[N], E& out) const
    {
        if (const auto v = parseEnum(words, value)) {
            out = *v;
            return OptionStatus::Consumed;
        }
        return fail(name + ": expected one of " + enumChoices(words) + ", got '" + value + "'");
    }
};

/// One option of a table.
template <typename Target> struct OptionSpec {
    std::string_view name; ///< "--filters"
    bool takesValue; ///< false: a flag ("--fusion"), which refuses "--fusion=..."
    OptionStatus (*apply)(const OptionInput<Target>&);
    std::string_view usage = {}; ///< the help's left column, "--filters F"; empty: no line of its own
    std::string_view help = {}; ///< its lines, '\n' between them
    std::string_view missingHint = {}; ///< after "NAME: missing value", " (nvlink4, pcie5-x16, ...)"
};

/// Applies args[i] (and its value, "--name value" or "--name=value") through `table`: NotConfigOption
/// where no entry has its name.
template <typename Target, std::size_t N>
OptionStatus applyOption(const OptionSpec<Target> (&table)[N], const std::vector<std::string>& args, std::size_t& i,
    Target& target, std::string& error)
{
    const SplitOption split = splitOption(args[i]);
    const auto* spec
        = std::find_if(std::begin(table), std::end(table), [&](const auto& s) { return s.name == split.name; });
    if (spec == std::end(table))
        return OptionStatus::NotConfigOption;
    std::string value;
    if (!spec->takesValue) {
        if (split.value) {
            error = split.name + " takes no value";
            return OptionStatus::Error;
        }
    } else if (split.value) {
        value = *split.value;
    } else if (i + 1 < args.size()) {
        value = args[++i];
    } else {
        error = split.name + ": missing value" + std::string(spec->missingHint);
        return OptionStatus::Error;
    }
    return spec->apply(OptionInput<Target> { split.name, value, target, error });
}

/// The table's help, an option a line (more where its help has them), indented by two spaces, the
/// help in a column at 29 characters.
template <typename Target, std::size_t N> std::string optionsHelp(const OptionSpec<Target> (&table)[N])
{
    constexpr std::size_t kColumn = 27; // after the two spaces
    std::string out;
    for (const OptionSpec<Target>& s : table) {
        if (s.usage.empty())
            continue;
        out += "  " + std::string(s.usage)
            + std::string(std::max<std::size_t>(2, kColumn - std::min(kColumn, s.usage.size())), ' ');
        for (std::size_t at = 0; at <= s.help.size();) {
            const std::size_t end = std::min(s.help.find('\n', at), s.help.size());
            if (at > 0)
                out += std::string(kColumn + 2, ' ');
            out += std::string(s.help.substr(at, end - at)) + "\n";
            at = end + 1;
        }
    }
    return out;
}

} // namespace rfx
