#pragma once
// roofline-cli run in-process, for the CLI's tests (tst_cli*), and a file's text.
#include "cli.h"
#include "testpaths.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace rfx::test {

struct Run {
    int code;
    std::string out;
    std::string err;
};

inline Run cli(std::vector<std::string> args)
{
    std::ostringstream out, err;
    const int code = runCli(args, out, err, {});
    return { code, out.str(), err.str() };
}

/// The CLI sees the shipped test devices and an empty user folder (`home`, the test's own), so that
/// the developer's own devices do not leak into a test.
inline void isolateCli(const QTemporaryDir& home)
{
    qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
    qputenv("XDG_DATA_HOME", home.path().toUtf8());
}

inline bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

/// A file's whole text, or empty when it cannot be read.
inline std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace rfx::test
