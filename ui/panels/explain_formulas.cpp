// Explain's formulas: a row's FLOP count written out with its own extents, as the engine counts it.
#include "panels/explain_text.h"

#include "engine/cost.h"

#include <algorithm>
#include <numeric>

#include <QStringList>

namespace rfx::explaintext {

QString flopFormula(const Layer& l)
{
    const Shape& in = l.inShapes.empty() ? l.out : l.inShapes.front();
    const Shape& o = l.out;
    QString f;
    if ((l.op == Op::Conv || l.op == Op::ConvTranspose) && (l.out.rank == 5 || in.rank == 5)) {
        // A 3-D convolution: the spatial extents are D x H x W, the kernel Kd x Kh x Kw.
        const bool conv = l.op == Op::Conv;
        const Shape& at = conv ? o : in;
        return QStringLiteral("2%1N%1C%2%1(D%1H%1W)%3%1(C%4/groups)%1K<sub>d</sub>%1K<sub>h</sub>%1K<sub>w</sub> = "
                              "2%1%5%1%6%1%7%1%8%1%9%1%10%1%11%12")
            .arg(dot(), conv ? QStringLiteral("<sub>out</sub>") : QStringLiteral("<sub>in</sub>"),
                conv ? QStringLiteral("<sub>out</sub>") : QStringLiteral("<sub>in</sub>"),
                conv ? QStringLiteral("<sub>in</sub>") : QStringLiteral("<sub>out</sub>"))
            .arg(at.n)
            .arg(at.c)
            .arg(at.spatial())
            .arg((conv ? in.c : o.c) / l.groups)
            .arg(l.kd)
            .arg(l.kh)
            .arg(l.kw)
            .arg(conv ? QString() : QStringLiteral(" (counted at input positions)"));
    }
    switch (l.op) {
    case Op::Conv:
        f = QStringLiteral("2%1N%1C<sub>out</sub>%1H<sub>out</sub>%1W<sub>out</sub>%1(C<sub>in</sub>/groups)%1K<sub>h</"
                           "sub>%1K<sub>w</sub> = 2%1%2%1%3%1%4%1%5%1%6%1%7%1%8")
                .arg(dot())
                .arg(o.n)
                .arg(o.c)
                .arg(o.h)
                .arg(o.w)
                .arg(in.c / l.groups)
                .arg(l.kh)
                .arg(l.kw);
        break;
    case Op::ConvTranspose:
        f = QStringLiteral("2%1N%1C<sub>in</sub>%1H<sub>in</sub>%1W<sub>in</sub>%1(C<sub>out</sub>/groups)%1K<sub>h</"
                           "sub>%1K<sub>w</sub> = 2%1%2%1%3%1%4%1%5%1%6%1%7%1%8 (counted at input positions)")
                .arg(dot())
                .arg(in.n)
                .arg(in.c)
                .arg(in.h)
                .arg(in.w)
                .arg(o.c / l.groups)
                .arg(l.kh)
                .arg(l.kw);
        break;
    case Op::MaxPool:
        f = QStringLiteral("(k\u00b2 \u2212 1)%1outputs = %2%1%3")
                .arg(dot())
                .arg(l.kh * l.kw - 1)
                .arg(count(double(o.elements())));
        break;
    case Op::Concat:
        f = QStringLiteral("0 (data movement only)");
        break;
    case Op::Linear:
        f = QStringLiteral("2%1N%1C<sub>out</sub>%1(C%1H%1W)<sub>in</sub> = 2%1%2%1%3%1%4")
                .arg(dot())
                .arg(o.n)
                .arg(o.c)
                .arg(in.c * in.h * in.w);
        break;
    case Op::AvgPool:
        f = QStringLiteral("k²%1outputs = %2%1%3").arg(dot()).arg(l.kh * l.kw).arg(count(double(o.elements())));
        break;
    case Op::Add:
        f = QStringLiteral("1%1elements = %2").arg(dot(), count(double(o.elements())));
        break;
    case Op::Bias:
    case Op::ReLU:
        f = QStringLiteral("1%1elements = %2").arg(dot(), count(double(o.elements())));
        break;
    case Op::BatchNorm:
        f = QStringLiteral("2%1elements = 2%1%2").arg(dot(), count(double(o.elements())));
        break;
    case Op::MatMul:
        f = QStringLiteral("2K%1outputs = %2%1%3").arg(dot()).arg(l.opsPerElement).arg(count(double(o.elements())));
        break;
    case Op::Eltwise:
    case Op::Reduce:
    case Op::Copy:
        f = QStringLiteral("%2%1outputs = %2%1%3").arg(dot()).arg(l.opsPerElement).arg(count(double(o.elements())));
        break;
    case Op::Uncounted:
        f = QStringLiteral("not counted (an operator the tool does not know)");
        break;
    case Op::Optimizer:
        break;
    }
    if (!l.epilogue.empty())
        f += QStringLiteral(" + the fused elementwise ops on %1 outputs").arg(count(double(o.elements())));
    return f;
}

namespace {

bool runsOnce(const Layer& l) { return !(l.repeats > 0) || std::abs(l.repeats - 1) < 1e-9; }

// "2", "0.5", "0.563": bytes per element, as Explain writes them.
QString width(double bytes) { return QString::number(bytes, 'g', 3); }

} // namespace

QString timesRuns(const Layer& l, const QString& perRun, const QString& total)
{
    if (runsOnce(l))
        return QStringLiteral("<b>%1</b>").arg(total);
    const bool blocks = !l.block.empty();
    return QStringLiteral("%1 a %2 \u00d7 %3 %4 = <b>%5</b>")
        .arg(perRun, blocks ? QStringLiteral("block") : QStringLiteral("run"), count(l.repeats),
            blocks ? QStringLiteral("blocks") : QStringLiteral("runs"), total);
}

QString bytesArithmetic(const Layer& l, double elementBytes, bool asInFile)
{
    const RowWidths w = rowWidths(l, elementBytes, asInFile);
    auto at = [&](std::uint8_t bits) { return asInFile && bits > 0 ? bits / 8.0 : elementBytes; };
    bool uniform = runsOnce(l) && l.weightBytes < 0 && w.weight == elementBytes && w.output == elementBytes;
    for (size_t i = 0; i < l.inShapes.size(); ++i)
        uniform = uniform && at(i < l.inBits.size() ? l.inBits[i] : 0) == elementBytes;
    if (uniform)
        return {};
    QStringList inputs;
    for (size_t i = 0; i < l.inShapes.size(); ++i)
        inputs << QStringLiteral("%1%2%3 B")
                      .arg(count(double(l.inShapes[i].elements())), dot(),
                          width(at(i < l.inBits.size() ? l.inBits[i] : 0)));
    const double runs = runsOnce(l) ? 1 : l.repeats;
    // A language model's row stores every block's parameters and reads one block's weights a run
    // (Layer::weightBytes); other rows read their parameters at the weights' width.
    const double params = double(layerParams(l)) / (l.weightBytes >= 0 ? runs : 1);
    const double weights = l.weightBytes >= 0 ? l.weightBytes : params * w.weight;
    QString weightTerm;
    if (weights <= 0)
        weightTerm = QStringLiteral("0");
    else if (params >= 1)
        weightTerm = QStringLiteral("%1%2%3 B").arg(count(params), dot(), width(weights / params));
    else
        weightTerm = qsRich(formatBytes(weights)); // cached keys and values read as the row's stored bytes
    const double out = double(l.out.elements());
    const double perRun = w.inputBytes + weights + out * w.output;
    const QString in = inputs.isEmpty() ? QStringLiteral("0")
        : inputs.size() == 1            ? inputs.front()
                                        : QStringLiteral("(%1)").arg(inputs.join(QStringLiteral(" + ")));
    return QStringLiteral("inputs %1 + weights %2 + outputs %3%4%5 B = %6")
        .arg(in, weightTerm, count(out), dot(), width(w.output),
            timesRuns(l, qsRich(formatBytes(perRun)), qsRich(formatBytes(perRun * runs))));
}

} // namespace rfx::explaintext
