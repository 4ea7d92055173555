// Every enum's vocabulary is one table (core/base/enum_words.h): each table names every value once,
// parses back what it writes, takes its aliases, and the choices a message lists are the table's.
#include "engine/calibration.h"
#include "engine/roofline.h"
#include "engine/tuning.h"
#include "io/figure.h"
#include "io/measurements.h"
#include "llm/llm_phase.h"
#include "model/config.h"
#include "model/network.h"

#include <QTest>

#include <set>
#include <string>

using namespace rfx;

namespace {

// Whether a value is one of its enum's enumerators: a switch over every enumerator with no default,
// built with -Werror=switch (tests/CMakeLists.txt), so an enumerator added to an enum and not listed
// here stops this test building, and the table is checked up to the real last value, not a last one
// written here by hand.
bool declared(Padding v)
{
    switch (v) {
    case Padding::Valid:
    case Padding::Same:
        return true;
    }
    return false;
}

bool declared(Downsample v)
{
    switch (v) {
    case Downsample::MaxPool:
    case Downsample::Strided:
        return true;
    }
    return false;
}

bool declared(ConvType v)
{
    switch (v) {
    case ConvType::Standard:
    case ConvType::Separable:
        return true;
    }
    return false;
}

bool declared(Mode v)
{
    switch (v) {
    case Mode::Inference:
    case Mode::Training:
        return true;
    }
    return false;
}

bool declared(Optimizer v)
{
    switch (v) {
    case Optimizer::Sgd:
    case Optimizer::Momentum:
    case Optimizer::Adam:
        return true;
    }
    return false;
}

bool declared(ConvAlgorithm v)
{
    switch (v) {
    case ConvAlgorithm::Direct:
    case ConvAlgorithm::Im2col:
    case ConvAlgorithm::Fft:
    case ConvAlgorithm::Winograd2:
    case ConvAlgorithm::Winograd4:
    case ConvAlgorithm::Auto:
        return true;
    }
    return false;
}

bool declared(TrafficModel v)
{
    switch (v) {
    case TrafficModel::Compulsory:
    case TrafficModel::Fused:
    case TrafficModel::Naive:
    case TrafficModel::Tiled:
        return true;
    }
    return false;
}

bool declared(CacheAware v)
{
    switch (v) {
    case CacheAware::Auto:
    case CacheAware::On:
    case CacheAware::Off:
        return true;
    }
    return false;
}

bool declared(Objective v)
{
    switch (v) {
    case Objective::Time:
    case Objective::Energy:
    case Objective::Edp:
        return true;
    }
    return false;
}

bool declared(Bound v)
{
    switch (v) {
    case Bound::Memory:
    case Bound::Compute:
        return true;
    }
    return false;
}

bool declared(MemoryLevel v)
{
    switch (v) {
    case MemoryLevel::Dram:
    case MemoryLevel::L2:
    case MemoryLevel::L1:
    case MemoryLevel::L3:
        return true;
    }
    return false;
}

bool declared(OverheadSource v)
{
    switch (v) {
    case OverheadSource::Rows:
    case OverheadSource::Parent:
    case OverheadSource::None:
    case OverheadSource::Joint:
        return true;
    }
    return false;
}

bool declared(LlmPhase v)
{
    switch (v) {
    case LlmPhase::Prefill:
    case LlmPhase::Decode:
    case LlmPhase::Both:
        return true;
    }
    return false;
}

bool declared(LlmAttention v)
{
    switch (v) {
    case LlmAttention::Flash:
    case LlmAttention::Naive:
        return true;
    }
    return false;
}

bool declared(MeasurementFormat v)
{
    switch (v) {
    case MeasurementFormat::PlainCsv:
    case MeasurementFormat::NsightCompute:
    case MeasurementFormat::PyTorchTrace:
        return true;
    }
    return false;
}

bool declared(FigureSpec::Format v)
{
    switch (v) {
    case FigureSpec::Format::Png:
    case FigureSpec::Format::Svg:
    case FigureSpec::Format::Pdf:
        return true;
    }
    return false;
}

bool declared(Op v)
{
    switch (v) {
    case Op::Conv:
    case Op::ConvTranspose:
    case Op::MaxPool:
    case Op::Concat:
    case Op::Bias:
    case Op::BatchNorm:
    case Op::ReLU:
    case Op::Optimizer:
    case Op::Linear:
    case Op::AvgPool:
    case Op::Add:
    case Op::MatMul:
    case Op::Eltwise:
    case Op::Reduce:
    case Op::Copy:
    case Op::Uncounted:
        return true;
    }
    return false;
}

/// The largest value that is an enumerator (scanned over 0 .. 255: every enum here is small).
template <class E> int lastDeclared()
{
    int last = -1;
    for (int i = 0; i < 256; ++i)
        if (declared(E(i)))
            last = i;
    return last;
}

/// Every enumerator has one name; names are distinct; parse(name(v)) == v; no word names a value past
/// the last enumerator.
template <class E, std::size_t N> bool complete(const EnumWord<E> (&words)[N], std::string& why)
{
    const int last = lastDeclared<E>();
    std::set<std::string_view> names;
    for (int i = 0; i <= last; ++i) {
        const E v = E(i);
        if (!declared(v))
            continue;
        int count = 0;
        for (const EnumWord<E>& w : words)
            count += w.value == v && !w.alias;
        if (count != 1) {
            why = "value " + std::to_string(i) + " has " + std::to_string(count) + " names";
            return false;
        }
        const std::string_view name = enumName(words, v);
        if (!names.insert(name).second || parseEnum(words, name) != v) {
            why = "'" + std::string(name) + "' does not name value " + std::to_string(i) + " alone";
            return false;
        }
    }
    for (const EnumWord<E>& w : words)
        if (int(w.value) > last) {
            why = "'" + std::string(w.word) + "' names a value past the last";
            return false;
        }
    return true;
}

} // namespace

class TestEnumWords : public QObject {
    Q_OBJECT

private slots:
    void everyTableIsComplete()
    {
        std::string why;
        QVERIFY2(complete(kPaddingWords, why), why.c_str());
        QVERIFY2(complete(kDownsampleWords, why), why.c_str());
        QVERIFY2(complete(kConvTypeWords, why), why.c_str());
        QVERIFY2(complete(kModeWords, why), why.c_str());
        QVERIFY2(complete(kOptimizerWords, why), why.c_str());
        QVERIFY2(complete(kAlgorithmWords, why), why.c_str());
        QVERIFY2(complete(kTrafficWords, why), why.c_str());
        QVERIFY2(complete(kCacheAwareWords, why), why.c_str());
        QVERIFY2(complete(kObjectiveWords, why), why.c_str());
        QVERIFY2(complete(kBoundWords, why), why.c_str());
        QVERIFY2(complete(kMemoryLevelWords, why), why.c_str());
        QVERIFY2(complete(kOverheadSourceWords, why), why.c_str());
        QVERIFY2(complete(kLlmPhaseWords, why), why.c_str());
        QVERIFY2(complete(kLlmAttentionWords, why), why.c_str());
        QVERIFY2(complete(kMeasurementFormatWords, why), why.c_str());
        QVERIFY2(complete(kFigureFormatWords, why), why.c_str());
        QVERIFY2(complete(kOpWords, why), why.c_str());
    }

    // The words as the options, files and reports have always written them; an alias parses, never names.
    void wordsAsWritten()
    {
        QCOMPARE(std::string(algorithmName(ConvAlgorithm::Winograd4)), std::string("winograd4"));
        QCOMPARE(parseAlgorithm("winograd"), std::optional(ConvAlgorithm::Winograd4));
        QCOMPARE(parseAlgorithm("Winograd"), std::optional<ConvAlgorithm>());
        QCOMPARE(std::string(memoryLevelName(MemoryLevel::Dram)), std::string("DRAM"));
        QCOMPARE(std::string(opName(Op::ConvTranspose)), std::string("conv_transpose"));
        QCOMPARE(
            std::string(measurementFormatName(MeasurementFormat::NsightCompute)), std::string("Nsight Compute CSV"));
        QCOMPARE(
            enumChoices(kAlgorithmWords), std::string("direct, im2col, fft, winograd2, winograd4 (= winograd), auto"));
        QCOMPARE(enumChoices(kPaddingWords), std::string("valid, same"));
        QCOMPARE(enumChoices(kCacheAwareWords), std::string("auto, on, off"));
    }
};

QTEST_GUILESS_MAIN(TestEnumWords)
#include "tst_enumwords.moc"
