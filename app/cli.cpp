// roofline-cli: the command table, usage and help, and the dispatch to each subcommand's file
// (cli_analyze.cpp, cli_tune.cpp, ...; shared options in cli_options.cpp).
#include "cli.h"

#include "cli_commands.h"

#include "base/version.h"
#include "devices/device_loader.h"
#include "io/figure.h"
#include "io/options.h"

#include <algorithm>
#include <ostream>
#include <utility>

namespace rfx {

namespace {

constexpr const char* kCommonOptions
    = "  --devices-dir DIR          also load device files from DIR (overrides by id)\n"
      "  --help                     this command's help\n";

int runMeasureEither(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    std::vector<std::string> rest = args;
    if (const auto it = std::find(rest.begin(), rest.end(), "--network"); it != rest.end()) {
        rest.erase(it);
        return runMeasureNetwork(rest, out, err, exeDir);
    }
    if (const auto it = std::find(rest.begin(), rest.end(), "--llm"); it != rest.end()) {
        rest.erase(it);
        return runMeasureLlm(rest, out, err, exeDir);
    }
    return runMeasure(args, out, err);
}

int runNetworksCommand(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path&)
{
    return runNetworks(args, out, err);
}

std::vector<CliCommandSpec>& registry()
{
    // The built-in commands; registerCliCommand() adds the rest (export, reproduce).
    static std::vector<CliCommandSpec> commands {
        { "analyze", runAnalyze,
            { "analyze [configuration options] [--calibration CAL.json]",
                "        [--format table|json|csv|markdown|latex]" },
            "per-layer FLOPs, bytes, intensity, bound and time per device",
            "  --calibration CAL.json     add each row's calibrated time (a file from 'calibrate')\n"
            "  --format FORMAT            table (default), json, csv, markdown or latex\n",
            true },
        { "devices", runDevices, { "devices [--format table|json]" },
            "list the device library (shipped and user devices)",
            "  --format FORMAT            table (default) or json\n" },
        { "networks", runNetworksCommand, { "networks [--model FILE]... [--format table|json] [--format-help]" },
            "list the built-in networks; --model FILE: describe a model file (its inputs, what binds them, counts, "
            "operators); --format-help: the custom network format",
            "  --model FILE               describe this model file (ONNX or JSON); repeatable\n"
            "  --format FORMAT            table (default) or json\n"
            "  --format-help              the custom network file format\n" },
        { "llm", runLlm,
            { "llm --model NAME|config.json|DIR|FILE.gguf [--prompt P] [--generate G] [--context C] [--batch B]",
                "    [--weights-bits 4|mxfp4|8|16|32|file] [--kv-bits N] [--act-bits N|fp8|bf16] [--attention "
                "flash|naive] [--all-logits]",
                "    [--tp N] [--interconnect ID] [--device ID]... [--sweep context|batch] [--calibration CAL.json]",
                "    [--draft MODEL --accept A [--lookahead K]] [--format table|json|csv|markdown|latex]" },
            "a language model's prefill of P prompt tokens and decode at context C for B sequences, per device: time "
            "to "
            "first token, time per output token, tokens per second, the time for P in and G out, memory (weights, KV "
            "cache, activations) against the device's, the largest batch and context that fit, energy per token, and "
            "every row of both phases. Times are roofline bounds. Models: the built-in ones ('roofline-cli networks'), "
            "a Hugging Face config.json or model directory (its safetensors headers give each tensor's dtype), a GGUF "
            "file (each tensor's quantization)",
            "  --model M                  a built-in id (llama-3.1-8b), config.json, a model directory or FILE.gguf\n"
            "  --prompt P, --generate G   prompt tokens in (default 512), tokens generated (default 128)\n"
            "  --context C                the decode context TPOT is quoted at (default P + G/2)\n"
            "  --sweep context|batch      the decode step against the context (128, 256, ... tokens) or the batch\n"
            "                             (1, 2, 4, ...) per device, each line ending where memory runs out\n"
            "  --batch B                  sequences decoded together (default 1)\n"
            "  --weights-bits N|file      4 (int4 with an fp16 scale per 128), mxfp4 (4.25 bits), 8, 16 (default), "
            "32,\n"
            "                             or file: as the weight file stores each tensor (the default for GGUF and\n"
            "                             safetensors; for gpt-oss as published: MXFP4 experts)\n"
            "  --kv-bits N                the KV cache's width: 4, 8, 16 (default) or 32 (or int4, int8, fp8, fp16, "
            "...)\n"
            "  --act-bits N|TYPE          activations and the matrix rows' arithmetic: 8 (int8), 16 (default, fp16),\n"
            "                             32 (fp32), or a type: fp8 (tensor FP8 ceilings), bf16 (BF16 ceilings)\n"
            "  --attention flash|naive    FlashAttention (default: scores stay on chip) or naive (scores through "
            "memory)\n"
            "  --all-logits               prefill computes the logits of every prompt token (default: the last one of\n"
            "                             each sequence, as serving engines do)\n"
            "  --calibration CAL.json     also TTFT and TPOT as this machine's kernels run them (calibrate on a\n"
            "                             measure --llm file; the settings it prints with it)\n"
            "  --tp N                     tensor parallel over N GPUs of each device (heads, MLP and vocabulary "
            "split;\n"
            "                             two all-reduces a block; memory is per GPU; default 1)\n"
            "  --interconnect ID          the link between them (default nvlink4; 'roofline-cli --help' lists them)\n"
            "  --draft MODEL              speculative decoding: MODEL drafts K tokens a sequence, one step of the\n"
            "                             model verifies K + 1; TPOT = the round / its expected tokens (table, json)\n"
            "  --accept A                 the share of drafted tokens the model accepts, 0 to 1 (measure it)\n"
            "  --lookahead K              tokens drafted a round, 1 to 16 (default 4)\n"
            "  --device ID                a device id, repeatable, or all (default h100-sxm)\n"
            "  --format FORMAT            table (default), json, csv, markdown or latex\n" },
        { "plan", runPlan,
            { "plan --model NAME|config.json|DIR|FILE.gguf [--device ID]... [--prompt P] [--generate G]",
                "     [--ttft T] [--tpot T] [--users N | --rate R] [--price ID=USD]... [--gpus-per-node N] "
                "[--usable-memory F]",
                "     [--chunk N] [--disaggregated [--kv-link ID]] [--draft MODEL --accept A [--lookahead K]]",
                "     [--calibration CAL.json] [--format table|json|csv|markdown]" },
            "a language model served by continuous batching, in steady state: over each device's tensor parallelism "
            "(1, 2, 4, 8 over its own link), weights at 16, 8 (fp8 where the device has it, else int8) and 4 bits, the "
            "KV cache at 16 and 8, and N users a replica serves, from 1 to the most that fit: the Pareto front of "
            "tokens/s per user against tokens/s per GPU, the configuration with the most tokens/s per GPU within "
            "--ttft and --tpot, and for a load the GPUs it needs (replicas x TP); energy per token, and cost per "
            "million "
            "tokens where the devices have prices; with --disaggregated, prefill and decode on separate pools beside "
            "it. "
            "Every figure is a roofline bound; with --calibration, its device's calibrated plan beside it",
            "  --model M                  a built-in id (llama-3.1-70b), config.json, a model directory or FILE.gguf\n"
            "  --device ID                a device id, repeatable, or all (default h100-sxm)\n"
            "  --prompt P, --generate G   tokens in and out per request (default 512 and 128)\n"
            "  --ttft T, --tpot T         latency targets under load: 1s, 200ms, 0.05 (seconds)\n"
            "  --users N                  users served at once: the GPUs for them\n"
            "  --rate R                   requests per second: the GPUs for them\n"
            "  --price ID=USD             a GPU-hour of device ID, over its file's price_per_hour_usd; with a price\n"
            "                             for every device the plan ranks by cost per million tokens (an hour, for a "
            "load)\n"
            "  --gpus-per-node N          the most GPUs a replica spans (default 8)\n"
            "  --usable-memory F          the share of each GPU's memory the engine fills (default 0.9)\n"
            "  --chunk N                  the most prompt tokens a step takes (default 2048)\n"
            "  --disaggregated            also plan prefill and decode pools (as DistServe, Splitwise, Dynamo): the\n"
            "                             pools balanced for the load, each prompt's cache moved between them\n"
            "  --kv-link ID               the link the caches cross (default: the device's own, else pcie4-x16;\n"
            "                             ib-ndr400 between nodes)\n"
            "  --draft MODEL, --accept A, --lookahead K\n"
            "                             every configuration also with speculative decoding (as llm's)\n"
            "  --calibration CAL.json     also plan its device at calibrated times (each row at the efficiency its\n"
            "                             kernels were measured at; calibrate --measured-tokens-per-s makes one from\n"
            "                             a benchmark's throughput): the calibrated best and front beside the bound\n"
            "  --format FORMAT            table (default), json, csv (every configuration) or markdown\n"
            "Exit 1 when targets were given and no configuration meets them (the answer says what to relax).\n" },
        { "tune", runTune,
            { "tune [--objective time|energy|edp] [--batch A..B] [--gpus A..B] [--clock A..B]",
                "     [configuration options] [--format table|json|csv]" },
            "sweep batch, GPU count and clock; Pareto front of time against energy and the configurations with "
            "least time, energy and energy x delay",
            "  --objective time|energy|edp  what to minimise (default time)\n"
            "  --batch A..B, --gpus A..B, --clock A..B  the ranges to sweep\n"
            "  --format FORMAT            table (default), json or csv\n",
            true },
        { "compare", runCompare,
            { "compare MEASUREMENTS [configuration options] [--calibration CAL.json] [--format table|csv]",
                "compare LLM.csv MORE.csv... [--device ID] [--calibration CAL.json] [--format table|csv]" },
            "measured layer times (plain CSV, ncu --csv, PyTorch trace) against the model's bounds on the first "
            "--device: efficiency, error, what did not map; --calibration: the calibrated prediction and its error, "
            "per layer and in total (fit on one configuration, check on another); several measure --llm files: a "
            "line each, the measured prefill and decode step beside their bound and calibrated prediction",
            "  --calibration CAL.json     also the calibrated prediction and its error\n"
            "  --format FORMAT            table (default) or csv\n",
            true },
        { "calibrate", runCalibrate,
            { "calibrate MEASUREMENTS [MORE...] --device ID [configuration options] --output CAL.json|-",
                "calibrate --measured-tokens-per-s X [--measured-prefill-tokens-per-s Y] --model M [llm options] "
                "--device ID "
                "--output CAL.json|-" },
            "fit how far this machine's kernels fall below the roofline (measured = overhead + bound / efficiency, "
            "per operator class and bound side) from a measurement file of the configured network on --device; "
            "MORE files (measure --network writes them) are analysed in the configuration their header names and "
            "fitted with it, e.g. resources/networks/calibration-classes.json measured for the pointwise, depthwise "
            "and "
            "batch-norm classes; write it as a calibration file. analyze --calibration adds calibrated_time_s. A "
            "measure --llm file is held against the language model and settings its header names (both phases; "
            "alone); llm --calibration then gives calibrated TTFT and TPOT. --measured-tokens-per-s: a language "
            "model's "
            "calibration from the throughput a benchmark printed at its model, batch, context and device",
            "  --output CAL.json|-        where to write the calibration (- for standard output)\n"
            "  --measured-tokens-per-s X  the generated tokens a second of the whole batch (B / TPOT) measured\n"
            "                             at --model and its llm options on --device: no measurement file\n"
            "  --measured-prefill-tokens-per-s Y  and the prompt tokens a second (P x B / TTFT): the\n"
            "                             memory and compute sides fitted apart\n",
            true },
        { "measure", runMeasureEither,
            { "measure [--quick] [--tdp-w W] [--id ID] [--name NAME] [--output FILE|-]",
                "measure --network [configuration options] [--quick|--full] [--output FILE|-]",
                "measure --llm [--model M] [--prompt P] [--context C] [--batch B] [--bits 32|16] [--device ID] "
                "[--quick|--full] "
                "[--output FILE|-] [--keep-fastest]" },
            "micro-benchmark this machine's CPU (FMA peak per precision, cache and DRAM bandwidth) and write a device "
            "file to the user device folder; --network: run every row of the configured network on this CPU with "
            "oneDNN (best, median, spread, reorders), write the measurement CSV and hold it against this machine's "
            "roofline (its ceilings measured first); --llm: the same for a language model's prefill and decode rows "
            "(default llama-3.2-1b with random weights, fp32, naive attention as matrix products and a softmax), "
            "measured prefill and decode step against TTFT's and TPOT's bounds",
            "  --quick                    a short run (seconds); --full: more repeats\n"
            "  --tdp-w W                  the CPU's power, for the energy model\n"
            "  --id ID, --name NAME       the device file's id and display name\n"
            "  --network                  measure the configured network's rows instead of the ceilings\n"
            "  --llm                      measure a language model's rows: --model M (default llama-3.2-1b),\n"
            "                             --prompt P (128), --context C (256), --batch B (1), --bits 32|16 (bf16),\n"
            "                             --device ID to hold them against (default this machine's ceilings)\n"
            "  --keep-fastest             --llm into an --output FILE measured before at the same settings:\n"
            "                             each row's fastest run over that file's passes and this one\n"
            "  --output FILE|-            where to write (default: the user device folder; - for standard output)\n",
            true },
    };
    return commands;
}

// A command's usage lines: each "roofline-cli LINE", a line that starts with a space continuing the
// one before it, under its arguments.
std::string usageLines(const CliCommandSpec& c, bool first)
{
    std::string u;
    for (const std::string& line : c.usage) {
        const bool continued = line.starts_with(" ");
        const std::string lead = first ? "usage: " : "       ";
        first = false;
        if (continued)
            u += lead + std::string(std::string("roofline-cli ").size() + c.name.size() + 1, ' ')
                + line.substr(line.find_first_not_of(' ')) + "\n";
        else
            u += lead + "roofline-cli " + line + "\n";
    }
    return u;
}

std::string usage()
{
    std::string u;
    for (const CliCommandSpec& c : registry())
        u += usageLines(c, u.empty());
    return u + "       roofline-cli COMMAND --help | --help | --version\n";
}

// A paragraph broken at spaces to lines of at most `width` characters, each after `indent`.
std::string wrap(const std::string& text, size_t indent, size_t width, bool indentFirst)
{
    std::string out, line;
    auto flush = [&](bool first) {
        out += (first && !indentFirst ? std::string() : std::string(indent, ' ')) + line + "\n";
        line.clear();
    };
    bool first = true;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(' ', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            flush(first);
            first = false;
        }
        line += (line.empty() ? "" : " ") + word;
        start = end + 1;
    }
    if (!line.empty())
        flush(first);
    return out;
}

void printHelp(std::ostream& out)
{
    out << "roofline-cli " << kVersion
        << ": where a network's time goes on GPUs and CPUs, layer by layer, and why:\n"
           "a roofline bound per row for convolutional networks, ONNX models and language models,\n"
           "served language models planned over devices, this machine measured.\n\n"
        << usage() << "\nCommands (roofline-cli COMMAND --help for one command's options):\n";
    for (const CliCommandSpec& c : registry())
        out << "  " << c.name << std::string(c.name.size() < 27 ? 27 - c.name.size() : 1, ' ')
            << wrap(c.summary, 29, 72, false);
    const bool anyExport
        = std::any_of(registry().begin(), registry().end(), [](const CliCommandSpec& c) { return c.exportOptions; });
    out << "\nConfiguration options (analyze, tune, compare, calibrate, measure --network, export):\n"
        << configOptionsHelp() << (anyExport ? "\nExport options (export):\n" + exportOptionsHelp() : std::string())
        << "\nOther options:\n"
           "  --format FORMAT            table, json, csv, markdown or latex (default table; devices: table|json)\n"
        << kCommonOptions
        << "  --version\n"
           "\nUser devices in "
        << userDeviceDir().string()
        << " override shipped ones by id.\n"
           "JSON and CSV use SI base units: FLOP, byte, second, FLOP/s, byte/s.\n"
           "Exit status: 0 success, 2 bad usage or impossible configuration, 1 other failure.\n";
}

// One command's help: its usage lines, what it does, its options (and the shared ones it takes).
void printCommandHelp(std::ostream& out, const CliCommandSpec& c)
{
    out << usageLines(c, true) << "\n" << wrap(c.summary, 0, 100, false);
    out << "\nOptions:\n" << c.options << kCommonOptions;
    if (c.exportOptions)
        out << "\nExport options:\n" << exportOptionsHelp();
    if (c.configOptions)
        out << "\nConfiguration options:\n" << configOptionsHelp();
    out << "\nExit status: 0 success, 2 bad usage or impossible configuration, 1 other failure.\n";
}

// The command runCli is running, for usageError: its usage lines, not every command's (an error
// followed by 25 lines of usage scrolled the error out of sight).
const CliCommandSpec* g_running = nullptr;

const CliCommandSpec* findCommand(const std::string& name)
{
    for (const CliCommandSpec& c : registry())
        if (c.name == name)
            return &c;
    return nullptr;
}

} // namespace

void registerCliCommand(CliCommandSpec spec)
{
    for (CliCommandSpec& c : registry())
        if (c.name == spec.name) {
            c = std::move(spec);
            return;
        }
    registry().push_back(std::move(spec));
}

int runCli(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    if (args.empty()) {
        err << usage() << "Try 'roofline-cli --help'.\n";
        return ExitUsage;
    }
    const std::string& command = args.front();
    if (command == "--help" || command == "-h" || command == "help") {
        // "roofline-cli help CMD": that command's help.
        if (args.size() > 1)
            if (const CliCommandSpec* c = findCommand(args[1])) {
                printCommandHelp(out, *c);
                return ExitOk;
            }
        printHelp(out);
        return ExitOk;
    }
    if (command == "--version") {
        out << "roofline-cli " << kVersion << "\n";
        return ExitOk;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const CliCommandSpec* c = findCommand(command);
    if (!c)
        return usageError(err, "unknown command '" + command + "'");
    if (std::find(rest.begin(), rest.end(), "--help") != rest.end()
        || std::find(rest.begin(), rest.end(), "-h") != rest.end()) {
        printCommandHelp(out, *c);
        return ExitOk;
    }
    struct Running { // restores the one before (runCli runs in tests, one call after another)
        const CliCommandSpec* before;
        ~Running() { g_running = before; }
    } running { std::exchange(g_running, c) };
    return c->run(rest, out, err, exeDir);
}

int usageError(std::ostream& err, const std::string& message)
{
    err << "roofline-cli: " << message << "\n";
    if (g_running)
        err << usageLines(*g_running, true) << "Try 'roofline-cli " << g_running->name << " --help'.\n";
    else
        err << usage() << "Try 'roofline-cli --help'.\n";
    return ExitUsage;
}

} // namespace rfx
