// Measuring a network on this machine, the workflow the CLI and the window share
// (core/measure/network_run.h): what is refused before anything is measured, when this machine's
// ceilings are measured first, the sentence both say, the CSV's header. The rows themselves are
// tst_layerbench's; here one tiny network is run once.
#include "devices/device.h"
#include "io/measurements.h"
#include "measure/cpu_kernels.h"
#include "measure/network_run.h"
#include "testutils.h"

#include <QTest>

#include <regex>

using namespace rfx;

class TestNetworkRun : public QObject {
    Q_OBJECT

    static Config smallUNet()
    {
        Config c;
        c.unet.height = c.unet.width = 32;
        c.unet.baseFilters = 8;
        c.unet.depth = 2;
        c.unet.padding = Padding::Same;
        return c;
    }

private slots:
    // A configuration that does not build is said as such; nothing is run.
    void impossibleConfigurationIsRefusedFirst()
    {
        Config c = smallUNet();
        c.unet.height = c.unet.width = 7; // too small for two poolings
        const NetworkRun run = NetworkRun::prepare(c);
        QVERIFY(!run.ready());
        QVERIFY(!run.network);
        QVERIFY(!run.buildError.empty());
        QVERIFY(run.refusal.empty());
        QCOMPARE(run.whyNot(), run.buildError);
        const NetworkMeasurement m = run.run(LayerBenchOptions::quickMode());
        QCOMPARE(m.error, run.buildError);
        QVERIFY(m.rows.empty());
    }

    // One that builds but that this CPU does not measure: the network is there, the refusal says why.
    void unmeasurableConfigurationsSayWhy()
    {
        Config c = smallUNet();
        c.bits = 64;
        NetworkRun run = NetworkRun::prepare(c);
        QVERIFY(run.network);
        QVERIFY(run.buildError.empty());
        QVERIFY2(run.refusal.find("64-bit numbers are not measured") != std::string::npos, run.refusal.c_str());
        QVERIFY(!run.ready());
        QCOMPARE(run.whyNot(), run.refusal);
        c = smallUNet();
        c.mode = Mode::Training;
        run = NetworkRun::prepare(c);
        QVERIFY2(run.refusal.find("training is not measured") != std::string::npos, run.refusal.c_str());
        QVERIFY(run.run(LayerBenchOptions::quickMode()).rows.empty());
    }

    // The ceilings come first when there are none, and when theirs is another clock than the one under
    // load now (kClockDrift); a device without a clock is taken as it is.
    void ceilingsFirstWhenMissingOrFromAnotherClock()
    {
        const auto none = ceilingsFirst(nullptr);
        QVERIFY(none);
        QCOMPARE(*none, std::string("no device 'this-machine' yet: measuring this CPU's ceilings first"));
        QCOMPARE(
            *ceilingsFirst(nullptr, "mine"), std::string("no device 'mine' yet: measuring this CPU's ceilings first"));
        Device d;
        d.id = "this-machine";
        d.boostClockHz = 0; // no clock recorded: nothing to hold it to
        QVERIFY(!ceilingsFirst(&d));
        if (!cpu::canMeasureClock())
            QSKIP("this CPU's clock cannot be measured here (no x86 clock kernel)");
        d.boostClockHz = 1e6; // 1 MHz: no clock under load today is within 3 % of it
        const auto again = ceilingsFirst(&d);
        QVERIFY(again);
        QVERIFY2(
            again->find("this-machine's ceilings were measured at 1.00 MHz: measuring them again") != std::string::npos,
            again->c_str());
    }

    // The sentence the CLI and the window say of a measurement, worked by hand.
    void measuredLineSaysRowsLibraryAndTime()
    {
        NetworkMeasurement m;
        m.library = "oneDNN 2.6.3";
        m.dataType = "f32";
        m.threads = 2;
        m.seconds = 3.41;
        m.rows.resize(3);
        m.rows[0].measured = m.rows[2].measured = true;
        QCOMPARE(measuredLine(m), std::string("2 of 3 rows measured with oneDNN 2.6.3 (f32, 2 threads) in 3.41 s"));
    }

    // One tiny network run for real: the CSV says the configuration and the date, and reads back.
    void csvCarriesTheConfigurationAndTheDate()
    {
        const NetworkRun run = NetworkRun::prepare(smallUNet());
        QVERIFY2(run.ready(), run.whyNot().c_str());
        LayerBenchOptions quick = LayerBenchOptions::quickMode();
        quick.totalBudgetSeconds = 20;
        const NetworkMeasurement m = run.run(quick);
        QVERIFY2(m.error.empty(), m.error.c_str());
        QCOMPARE(m.rows.size(), run.network->layers.size());
        const std::string csv = run.csv(m);
        QVERIFY2(csv.find("--image 32") != std::string::npos || csv.find("--height 32") != std::string::npos,
            csv.substr(0, 600).c_str());
        QVERIFY2(std::regex_search(csv, std::regex("20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]Z")),
            csv.substr(0, 600).c_str());
        const MeasurementSet set = parseMeasurements(csv, "run.csv");
        QVERIFY(set.ok());
        QCOMPARE(int(set.rows.size()), m.measuredCount());
    }
};

QTEST_GUILESS_MAIN(TestNetworkRun)
#include "tst_networkrun.moc"
