// A calibration applied: calibrated times on a report's rows, the other kinds of work noted, the shares
// moved by the overhead.
#include "engine/calibration.h"
#include "testutils.h"

using namespace rfx;

class TestCalibrationApply : public QObject {
    Q_OBJECT

private slots:
    // Applied to the default U-Net: every row at efficiency 1/2 and no overhead takes twice its bound; the
    // calibrated view doubles the time, halves throughput and attained rate and keeps every share.
    void appliedToAReport()
    {
        const Device d = test::roundDevice();
        Report report = *analyzeConfig(Config {}, { d }).report;
        Calibration c;
        c.deviceId = d.id;
        for (Bound side : { Bound::Compute, Bound::Memory })
            c.groups.push_back({ "all", side, 0, 0.5, 10, 0, 1, 0, 0 });
        Report other = report;
        c.deviceId = "not-this-one";
        QCOMPARE(applyCalibration(other, c, "cal.json"), 0);
        QCOMPARE(other.results[0].totals.calibratedTime, -1.0);
        c.deviceId = d.id;
        QCOMPARE(applyCalibration(report, c, "cal.json"), 1);
        const DeviceResult& r = report.results[0];
        QCOMPARE(r.calibration, std::string("cal.json"));
        for (const LayerResult& l : r.layers)
            RFX_COMPARE_REL(l.calibratedTime, 2 * l.time, 1e-12);
        RFX_COMPARE_REL(r.totals.calibratedTime, 2 * r.totals.time, 1e-12);

        const Report view = calibratedView(report);
        const DeviceResult& v = view.results[0];
        QVERIFY(v.timesCalibrated);
        RFX_COMPARE_REL(v.totals.time, 2 * r.totals.time, 1e-12);
        QCOMPARE(v.totals.boundTime, r.totals.time);
        RFX_COMPARE_REL(v.totals.throughput, r.totals.throughput / 2, 1e-12);
        RFX_COMPARE_REL(v.totals.peakShare, r.totals.peakShare / 2, 1e-12);
        for (size_t i = 0; i < r.layers.size(); ++i) {
            RFX_COMPARE_REL(v.layers[i].share, r.layers[i].share, 1e-12);
            QCOMPARE(v.layers[i].boundTime, r.layers[i].time);
        }
        // Taking the view twice changes nothing more.
        QCOMPARE(calibratedView(view).results[0].totals.time, v.totals.time);
    }

    // A fit applied to work of another kind says so: training rows, another precision.
    void otherKindsOfWorkAreNoted()
    {
        const Device d = test::roundDevice();
        Calibration c;
        c.deviceId = d.id;
        c.file = "cal.json";
        c.fittedOn = "--model unet --height 128 --bits 32 --mode inference";
        for (Bound side : { Bound::Compute, Bound::Memory })
            c.groups.push_back({ "all", side, 0, 0.5, 10, 0, 1, 0, 0 });
        Report same = *analyzeConfig(Config {}, { d }).report;
        const size_t before = same.diagnostics.size();
        applyCalibration(same, c, "cal.json");
        QCOMPARE(same.diagnostics.size(), before);
        Config other;
        other.bits = 16;
        other.mode = Mode::Training;
        Report training = *analyzeConfig(other, { d }).report;
        const size_t trainingBefore = training.diagnostics.size();
        applyCalibration(training, c, "cal.json");
        QCOMPARE(training.diagnostics.size(), trainingBefore + 2);
        QVERIFY(training.diagnostics[trainingBefore].message.find("training rows") != std::string::npos);
        QCOMPARE(training.diagnostics[trainingBefore + 1].field, std::string("fitted_on"));
        QVERIFY(training.diagnostics[trainingBefore + 1].message.find("fitted on 32-bit kernels, applied to 16-bit rows") != std::string::npos);
    }

    // An overhead moves time towards the many small rows: 1 ms on each of the U-Net's rows.
    void overheadShiftsTheShares()
    {
        const Device d = test::roundDevice();
        Report report = *analyzeConfig(Config {}, { d }).report;
        Calibration c;
        c.deviceId = d.id;
        for (Bound side : { Bound::Compute, Bound::Memory })
            c.groups.push_back({ "all", side, 1e-3, 1, 10, 0, 1, 0, 0 });
        applyCalibration(report, c, "cal.json");
        const DeviceResult& r = report.results[0];
        RFX_COMPARE_REL(r.totals.calibratedTime, r.totals.time + 1e-3 * double(r.layers.size()), 1e-12);
    }
};

QTEST_APPLESS_MAIN(TestCalibrationApply)
#include "tst_calibration_apply.moc"
