#include "base/diagnostic.h"

#include <algorithm>

namespace rfx {

const char* severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "error";
}

std::string toString(const Diagnostic& d)
{
    std::string s = severityName(d.severity);
    s += ": ";
    if (!d.file.empty())
        s += d.file + ": ";
    if (!d.field.empty())
        s += d.field + ": ";
    s += d.message;
    return s;
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics)
{
    return std::any_of(
        diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::string withoutSubject(const std::string& message, const std::string& subject)
{
    const std::string prefix = subject + ": ";
    return !subject.empty() && message.starts_with(prefix) ? message.substr(prefix.size()) : message;
}

} // namespace rfx
