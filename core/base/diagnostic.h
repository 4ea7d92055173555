#pragma once

#include <string>
#include <vector>

namespace rfx {

enum class Severity { Info, Warning, Error };

/// A problem found while loading or analysing, returned as data (never thrown past a loader's boundary).
/// `file` and `field` are empty when they do not apply.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string file;
    std::string field;
    std::string message;
};

const char* severityName(Severity s);

/// "error: devices/x.json: dram_gbs: must be a positive number, got 0"
std::string toString(const Diagnostic& d);

bool hasErrors(const std::vector<Diagnostic>& diagnostics);

/// A loader's message ("FILE: node 'x': ...") said where FILE is already named (a dialog titled with it,
/// a status line): the message without its leading "FILE: "; unchanged when it does not start so.
std::string withoutSubject(const std::string& message, const std::string& subject);

} // namespace rfx
