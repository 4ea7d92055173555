#include "features/thislanguagemodel.h"

#include "features/thisnetwork.h"
#include "style/text.h"
#include "widgets/progressrun.h"

#include "base/format.h"
#include "io/llm_measure_header.h"
#include "measure/llm_measure.h"
#include "measure/network_run.h"

#include <QDir>
#include <QFileInfo>

namespace rfx {

namespace {

// The model's name for a file name: a built-in's id as it is ("llama-3.2-1b", whose dots are not an
// extension), a GGUF's base name, a config.json's or a directory's folder name.
QString modelStem(const std::string& spec)
{
    const QFileInfo f(qs(spec));
    if (!f.exists())
        return qs(spec);
    if (f.isDir())
        return f.fileName();
    if (f.fileName().compare(QLatin1String("config.json"), Qt::CaseInsensitive) == 0)
        return f.dir().dirName();
    return f.completeBaseName();
}
} // namespace

LlmSettings measurableLlmSettings(const LlmSettings& shown)
{
    const int context = decodeContext(shown);
    const LlmSettings bf16 = cpuLlmSettings(shown.prompt, context, shown.batch, 16);
    // 16-bit activations run as bf16 where the CPU has it (AVX-512 BF16, or its emulation on AVX-512).
    if (shown.actBits == 16 && !measurementRefusal(llmConfig(bf16)))
        return bf16;
    return cpuLlmSettings(shown.prompt, context, shown.batch, 32);
}

std::optional<QString> languageModelMeasurementRefusal(const LlmModel& model, const LlmSettings& shown)
{
    if (model.onnx)
        return QObject::tr(
            "%1 is an ONNX decoder: its rows are its graph's operators, which this measurement does not run. "
            "Open a built-in model, a config.json or a GGUF file of it to measure its layers.")
            .arg(qs(model.arch.id));
    if (shown.batch > kMeasureLlmBatchRange.max)
        return QObject::tr(
            "A batch of %1 sequences is more than this CPU measurement runs (up to %2): set the batch to %2 or fewer.")
            .arg(shown.batch)
            .arg(kMeasureLlmBatchRange.max);
    const LlmSettings s = measurableLlmSettings(shown);
    if (auto e = validateLlmSettings(s))
        return QObject::tr("Cannot measure these settings: %1").arg(qs(*e));
    if (auto why = measurementRefusal(llmConfig(s)))
        return QObject::tr("Cannot measure these settings on this CPU: %1").arg(qs(*why));
    return std::nullopt;
}

QString measureThisLanguageModel(QWidget* parent, const LlmModel& model, const std::string& spec,
    const LlmSettings& shown, const LayerBenchOptions& options, QString* summary)
{
    auto say = [&](const QString& text) {
        if (summary)
            *summary = text;
    };
    if (const auto why = languageModelMeasurementRefusal(model, shown)) {
        say(*why);
        return {};
    }
    const LlmSettings s = measurableLlmSettings(shown);
    NetworkMeasurement m;
    const bool finished = runWithProgress(parent, QObject::tr("Measure this language model"),
        QObject::tr("Running the prefill's and a decode step's rows on this CPU"),
        [&](const ProgressReport& report) { m = measureLlm(model, s, options, report); });
    if (!finished || m.cancelled) {
        say(QObject::tr("Measuring cancelled; nothing written"));
        return {};
    }
    if (!m.error.empty()) {
        say(QObject::tr("Cannot measure these settings: %1").arg(qs(m.error)));
        return {};
    }
    const std::string csv = networkMeasurementCsv(m, llmMeasureArgs(spec, s), measurementDate());
    const QString stem
        = QStringLiteral("%1-p%2-c%3-b%4").arg(modelStem(spec)).arg(s.prompt).arg(s.context).arg(s.batch);
    QString saved;
    const QString path = saveMeasurement(m, csv, stem, &saved);
    if (path.isEmpty()) {
        say(saved);
        return {};
    }
    say(QObject::tr(
        "Measured at prompt %1, context %2, batch %3, %4 throughout, attention as two matrix products and a softmax "
        "(the window now shows these settings, both phases).\n\n%5")
            .arg(s.prompt)
            .arg(s.context)
            .arg(s.batch)
            .arg(s.actBits == 16 ? QStringLiteral("bf16") : QStringLiteral("fp32"), saved));
    return path;
}

} // namespace rfx
