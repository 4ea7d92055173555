#!/usr/bin/env python3
"""No function over 80 lines outside the tests (the house limit): a function that long is a list of
steps that want names. The functions listed below were longer when the limit came and are being cut
down; each may shrink but not grow, and leaves the list once it is within the limit (the check says
so). A function's lines run from its name to its closing brace; lambdas count in the function that
holds them.
    tests/scripts/check-function-sizes.py SOURCE_DIR [--list]
Prints every function over its limit and exits 1 if there is any; --list prints every function over
the limit with its length, longest first."""
import os
import re
import sys

LIMIT = 80
STILL_OVER = {  # 'path:function': its length when listed (2026-12-07; measured again after the tree was formatted, 2026-12-08); cut these down, never raise a number
    'core/measure/microbench.cpp:runMicrobenchmarks': 300,
    'core/io/figure_args.cpp:parseExportArgs': 224,
    'ui/table/layertablemodel.cpp:LayerTableModel::data': 191,
    'ui/table/layertablemodel_block.cpp:LayerTableModel::blockData': 174,
    'app/cli_measure_llm.cpp:runMeasureLlm': 164,
    'core/model/network_json.cpp:parseSpec': 157,
    'ui/panels/energycharts.cpp:EnergyCharts::fillPareto': 154,
    'app/cli.cpp:registry': 167,
    'core/io/figure.cpp:figureFromJson': 153,
    'core/llm/llm_analysis.cpp:analyzeLlm': 145,
    'ui/panels/controlpanel_groups.cpp:ControlPanel::buildInputGroup': 138,
    'app/cli_measure.cpp:runMeasure': 133,
    'core/llm/llm_files.cpp:readGgufModel': 138,
    'core/onnx/onnx_ops.cpp:node': 134,
    'ui/table/layertablemodel_header.cpp:LayerTableModel::headerData': 126,
    'core/llm/gguf.cpp:readGguf': 131,
    'core/onnx/onnx_evaluate_flow.cpp:Eval::sequenceOps': 121,
    'core/io/calibration_file.cpp:parseCalibration': 124,
    'core/engine/roofline.cpp:analyze': 121,
    'ui/window/mainwindow.cpp:MainWindow::MainWindow': 124,
    'core/onnx/onnx_node_check.cpp:checkNode': 119,
    'core/measure/layer_bench.cpp:measureNetwork': 125,
    'core/measure/microbench_doubts.cpp:ceilingDoubts': 118,
    'ui/chart/chartnavigator.cpp:ChartNavigator::eventFilter': 108,
    'core/onnx/onnx_evaluate_shape.cpp:Eval::reshapeOps': 107,
    'core/llm/llm_phase.cpp:buildLlmPhase': 106,
    'ui/figure/figurerenderer.cpp:writeFigure': 107,
    'core/measure/microbench_json.cpp:microbenchDeviceJson': 108,
    'ui/style/chartpointlabels.cpp:ChartPointLabels::place': 106,
    'core/io/measurement_formats.cpp:parsePlain': 107,
    'app/gui_command_line.cpp:parseGuiOptions': 108,
    'core/io/measurement_formats.cpp:parseNcu': 103,
    'ui/panels/energyview.cpp:EnergyView::EnergyView': 103,
    'core/engine/calibration.cpp:fitGroup': 99,
    'app/cli_calibrate_throughput.cpp:runCalibrateThroughput': 107,
    'ui/features/thismachine.cpp:measureThisMachine': 93,
    'core/onnx/onnx_count.cpp:countRow': 93,
    'core/io/measurements.cpp:compareMeasurements': 92,
    'core/llm/safetensors.cpp:readSafetensors': 93,
    'ui/panels/explain_formulas.cpp:flopFormula': 95,
    'ui/panels/energyview_export.cpp:EnergyView::exportCharts': 87,
    'core/onnx/onnx_skim.cpp:copyMessage': 85,
    'ui/figure/figurelayout.cpp:FigureLayout::arrange': 85,
    'core/io/measurement_trace.cpp:parsePyTorchTrace': 88,
    'ui/features/exportdialog.cpp:ExportDialog::ExportDialog': 83,
    'core/io/report_json.cpp:reportToJson': 82,
    'ui/chart/rooflinechart_fit.cpp:RooflineChart::placeTickLabels': 85,
    'core/onnx/onnx_evaluate.cpp:Eval::nary': 83,
}


def digit_separator(text, i):
    """Whether the ' at i separates digits (1'000'000, 0xFF'FF) rather than opening a character literal."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "'._"):
        j -= 1
    return j < i and text[j].isdigit() and i + 1 < len(text) and text[i + 1].isalnum()


def code_only(text):
    """The text with comments, strings and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(')' + (m.group(1) if m else '') + '"', i)
            j = n if end < 0 else end + len(m.group(1) if m else '') + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif c == "'" and digit_separator(text, i):
            out.append(c)
            i += 1
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(' ' * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


NOT_A_FUNCTION = re.compile(r'^\s*(if|for|while|switch|catch|do|else|return)\b|=\s*$|\breturn\b')


def functions(path):
    """(name, first line, lines) of each function defined at namespace or class scope."""
    text = code_only(open(path, encoding='utf-8').read())
    found = []
    stack = []  # the kinds of the open braces: 'scope' (namespace, class, extern) or 'body'
    header_start = 0  # where the text before the next brace begins
    line_of = [0] * (len(text) + 1)
    line = 1
    for k, ch in enumerate(text):
        line_of[k] = line
        if ch == '\n':
            line += 1
    opened = []  # for each open brace: (kind, name, first line)
    for k, ch in enumerate(text):
        if ch in ';':
            if not stack or stack[-1] == 'scope':
                header_start = k + 1
        elif ch == '{':
            header = text[header_start:k]
            in_scope = not stack or stack[-1] == 'scope'
            kind = 'body'
            name = None
            if in_scope:
                flat = ' '.join(header.split())
                if re.search(r'\b(namespace|class|struct|union|enum)\b[^()]*$', flat) or flat.startswith('extern "'):
                    kind = 'scope'
                elif '(' in flat and not NOT_A_FUNCTION.search(flat) and not flat.rstrip().endswith('='):
                    m = re.search(r'([~\w:<>]+)\s*\(', flat)
                    name = m.group(1) if m else '?'
                    # the first line that holds the name
                    at = header_start + max(0, header.find(name.split('::')[-1]))
                    kind = 'function'
                    opened.append((name, line_of[at]))
            stack.append(kind)
            if kind != 'function':
                opened.append(None)
            header_start = k + 1
        elif ch == '}':
            if stack:
                kind = stack.pop()
                entry = opened.pop()
                if kind == 'function' and entry:
                    name, first = entry
                    found.append((name, first, line_of[k] - first + 1))
            if not stack or stack[-1] == 'scope':
                header_start = k + 1
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith('--') else os.path.join(
        os.path.dirname(__file__), '..', '..')
    listing = '--list' in sys.argv
    over = {}
    for top in ('core', 'ui', 'app'):
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(('.cpp', '.h')):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                for fn, first, lines in functions(path):
                    if lines > LIMIT:
                        key = f'{rel}:{fn}'
                        over[key] = max(lines, over.get(key, 0))
    if listing:
        for key, lines in sorted(over.items(), key=lambda kv: -kv[1]):
            print(f"    '{key}': {lines},")
        return 0
    problems = []
    for key, lines in sorted(over.items()):
        limit = STILL_OVER.get(key, LIMIT)
        if lines > limit:
            problems.append(f'{key}: {lines} lines, over {"its listed " if key in STILL_OVER else "the "}{limit}: '
                            'split it into named steps')
    for key, listed in STILL_OVER.items():
        if key not in over:
            problems.append(f'{key}: within {LIMIT} lines now (or gone): take it off STILL_OVER in {sys.argv[0]}')
    left = f' but the {len(STILL_OVER)} listed, none grown' if STILL_OVER else ''
    print('\n'.join(problems) if problems else f'check-function-sizes: every function within {LIMIT} lines{left}')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
