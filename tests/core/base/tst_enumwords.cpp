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

/// Every value 0 .. last has one name; names are distinct; parse(name(v)) == v.
template <class E, std::size_t N>
bool complete(const EnumWord<E> (&words)[N], E last, std::string& why)
{
    std::set<std::string_view> names;
    for (int i = 0; i <= int(last); ++i) {
        const E v = E(i);
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
        if (int(w.value) > int(last)) {
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
        QVERIFY2(complete(kPaddingWords, Padding::Same, why), why.c_str());
        QVERIFY2(complete(kDownsampleWords, Downsample::Strided, why), why.c_str());
        QVERIFY2(complete(kConvTypeWords, ConvType::Separable, why), why.c_str());
        QVERIFY2(complete(kModeWords, Mode::Training, why), why.c_str());
        QVERIFY2(complete(kOptimizerWords, Optimizer::Adam, why), why.c_str());
        QVERIFY2(complete(kAlgorithmWords, ConvAlgorithm::Auto, why), why.c_str());
        QVERIFY2(complete(kTrafficWords, TrafficModel::Tiled, why), why.c_str());
        QVERIFY2(complete(kCacheAwareWords, CacheAware::Off, why), why.c_str());
        QVERIFY2(complete(kObjectiveWords, Objective::Edp, why), why.c_str());
        QVERIFY2(complete(kBoundWords, Bound::Compute, why), why.c_str());
        QVERIFY2(complete(kMemoryLevelWords, MemoryLevel::L3, why), why.c_str());
        QVERIFY2(complete(kOverheadSourceWords, OverheadSource::Joint, why), why.c_str());
        QVERIFY2(complete(kLlmPhaseWords, LlmPhase::Both, why), why.c_str());
        QVERIFY2(complete(kLlmAttentionWords, LlmAttention::Naive, why), why.c_str());
        QVERIFY2(complete(kMeasurementFormatWords, MeasurementFormat::PyTorchTrace, why), why.c_str());
        QVERIFY2(complete(kFigureFormatWords, FigureSpec::Format::Pdf, why), why.c_str());
        QVERIFY2(complete(kOpWords, Op::Uncounted, why), why.c_str());
    }

    // The words as the options, files and reports have always written them; an alias parses, never names.
    void wordsAsWritten()
    {
        QCOMPARE(std::string(algorithmName(ConvAlgorithm::Winograd4)), std::string("winograd4"));
        QCOMPARE(parseAlgorithm("winograd"), std::optional(ConvAlgorithm::Winograd4));
        QCOMPARE(parseAlgorithm("Winograd"), std::optional<ConvAlgorithm>());
        QCOMPARE(std::string(memoryLevelName(MemoryLevel::Dram)), std::string("DRAM"));
        QCOMPARE(std::string(opName(Op::ConvTranspose)), std::string("conv_transpose"));
        QCOMPARE(std::string(measurementFormatName(MeasurementFormat::NsightCompute)), std::string("Nsight Compute CSV"));
        QCOMPARE(enumChoices(kAlgorithmWords), std::string("direct, im2col, fft, winograd2, winograd4 (= winograd), auto"));
        QCOMPARE(enumChoices(kPaddingWords), std::string("valid, same"));
        QCOMPARE(enumChoices(kCacheAwareWords), std::string("auto, on, off"));
    }
};

QTEST_GUILESS_MAIN(TestEnumWords)
#include "tst_enumwords.moc"
