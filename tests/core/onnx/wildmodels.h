#pragma once
// What the tst_onnx_wild* tests share: a wild fixture's path, a model built at a batch and bound
// values, whether a network's notes say something.
#include "open/build_network.h"
#include "testpaths.h"

#include <algorithm>
#include <map>
#include <string>

namespace rfx::wildtest {

inline std::string wild(const char* name)
{
    return std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/wild/" + name + ".onnx";
}

inline BuildResult build(const std::string& path, int batch = 1, std::map<std::string, double> values = {})
{
    Config c;
    c.model = path;
    c.batch = batch;
    c.inputValues = std::move(values);
    return buildNetwork(c);
}

inline bool says(const Network& net, const std::string& words)
{
    return std::any_of(net.diagnostics.begin(), net.diagnostics.end(),
        [&](const Diagnostic& d) { return (d.field + ": " + d.message).find(words) != std::string::npos; });
}

} // namespace rfx::wildtest
