#pragma once

#include "devices/device.h"
#include "engine/roofline.h"

#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// The report as JSON in SI base units (FLOP, byte, second, FLOP/s, byte/s), as documented in README.
std::string reportToJson(const Report& report, int indent = 2);

/// One line per device and row: device,layer,op,n,c,h,w,params,flops,bytes,intensity,peak_flops,
/// attainable_flops,bound,time_s,share. SI base units; RFC 4180 quoting.
std::string reportToCsv(const Report& report);

/// A table for people, in human units, fitting a 100-column terminal.
std::string reportToTable(const Report& report);

/// The layer table and summary of every device as Markdown (a table per device) or LaTeX (a booktabs
/// table per device, with a caption stating the configuration and conventions).
std::string reportToMarkdown(const Report& report);
std::string reportToLatex(const Report& report);
/// LaTeX's special characters escaped; then the units of the tool's numbers typeset ("189 us" ->
/// "189\,$\mu$s", "4.5 %" -> "4.5\,\%").
std::string latexEscape(const std::string& text);
std::string latexUnits(std::string text);

/// The configuration as a JSON object string (the "config" member of reportToJson).
std::string configToJson(const Config& config);

/// The table formats a report is written in, in one place: the CLI's --format, the window's Export
/// table (by the file's suffix) and their help texts are built from this list. A new format is one
/// entry.
struct TableFormat {
    std::string name; ///< as --format takes it: "table", "json", "csv", "markdown", "latex"
    std::vector<std::string> suffixes; ///< file suffixes, lower case, the first preferred ("csv"; "md", "markdown")
    std::string description; ///< for a file dialog's filter: "Markdown"
    std::string (*write)(const Report&) = nullptr;
};
const std::vector<TableFormat>& tableFormats();
const TableFormat* tableFormatByName(std::string_view name);
/// By a file's suffix, any case ("Report.MD"); null when no format has it.
const TableFormat* tableFormatBySuffix(std::string_view suffix);
/// "table, json, csv, markdown or latex"
std::string tableFormatNames();

/// The device list as a table (id, name, FP32, FP16, DRAM, memory, TDP) or JSON.
std::string devicesToTable(const std::vector<Device>& devices);
std::string devicesToJson(const std::vector<Device>& devices);

/// "energy 9.87 J per batch (9.87 J per image, 207 W average, 37.0 GFLOP/s per W, 0.101 images/J)" on one GPU.
std::string energyLine(const DeviceResult& result, const Config& config);

/// On a calibrated device, the rows whose size lies outside what their fit was fitted on:
/// "extrapolated: 3 of 52 rows lie more than twice outside the sizes their class was fitted on
/// (features.0.0, classifier.1, ...): their calibrated times are the fit's line extended". Empty when none.
std::string extrapolatedRowsNote(const DeviceResult& result);

/// "U-Net 572x572x1 -> 388x388x2, batch 1, 32-bit, inference"
std::string reportTitle(const Report& report);

/// The network's totals for the batch, from the first device's result (FLOPs and parameters do not
/// depend on the device): "31,030,658 parameters · 109 GFLOP = 54.6 GMAC in products + 327 MFLOP
/// other · 2.56 GB moved · peak memory 310 MiB". A MAC is a multiply-add of a convolution or matrix
/// product (2 FLOP); 8-bit analyses count OP. Empty without a result.
std::string networkTotalsLine(const Report& report);
/// "23,467 parameters", or, where the rows count fewer than the file stores (an If's other branch),
/// "155,908 parameters counted of 444,936 stored".
std::string parametersPhrase(const Report& report);

} // namespace rfx
