#pragma once
// roofline-cli run in-process, for the CLI's tests (tst_cli, tst_cli_llm).
#include "cli.h"

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

} // namespace rfx::test
