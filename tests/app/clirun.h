#pragma once
// roofline-cli run in-process, for the CLI's tests (tst_cli*), and a file's text.
#include "cli.h"

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

inline bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

/// A file's whole text, or empty when it cannot be read.
inline std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace rfx::test
