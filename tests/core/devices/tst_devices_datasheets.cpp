// The devices people deploy on (issue 74, step 0), each held to figures written here by hand from the
// datasheet its file cites: FP32, the dense tensor (matrix) FP16 and FP8 rates (NVIDIA's and AMD's
// datasheets quote FP16 and FP8 tensor rates with 2:4 sparsity, twice the dense ones: written here as
// the quoted figure / 2, or the dense figure where the datasheet gives it), the memory's bandwidth and size, the board
// power, and the scale-up link with the GPUs it joins. The links' rates from their own documents
// (resources/interconnects.json).
#include "devices/device_loader.h"
#include "devices/interconnects.h"
#include "testutils.h"

using namespace rfx;

class TestDevicesDatasheets : public QObject {
    Q_OBJECT
private slots:
    void datasheetFigures_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("fp32"); // TFLOP/s
        QTest::addColumn<double>("tensorFp16"); // dense TFLOP/s
        QTest::addColumn<double>("tensorFp8");
        QTest::addColumn<double>("dram"); // GB/s
        QTest::addColumn<double>("memory"); // GiB
        QTest::addColumn<double>("tdp"); // W
        QTest::addColumn<QString>("link");
        QTest::addColumn<int>("gpus");
        // NVIDIA H100 datasheet, H100 SXM column: FP32 67, FP16 Tensor 1,979*, FP8 3,958*; 3.35 TB/s; 700 W;
        // NVLink 900 GB/s through NVSwitch, 8 on an HGX board (the file's figures at 1.98 GHz: 66.9, 989.4, 1,978.9)
        QTest::newRow("H100 SXM") << "h100-sxm" << 66.9 << 1978.9 / 2 << 3957.8 / 2 << 3350.0 << 79.6 << 700.0
                                  << "nvlink4" << 8;
        // H100 PCIe column: FP32 51, FP16 Tensor 1,513*, FP8 3,026*; 2,000 GB/s; 350 W; an NVLink bridge for two
        QTest::newRow("H100 PCIe") << "h100-pcie" << 51.2 << 1513.0 / 2 << 3026.0 / 2 << 2000.0 << 79.6 << 350.0
                                   << "nvlink4-bridge" << 2;
        // H100 NVL column: FP32 60, FP16 Tensor 1,671*, FP8 3,341*; 94 GB at 3.9 TB/s; 350-400 W; a bridge for two
        QTest::newRow("H100 NVL") << "h100-nvl" << 60.0 << 1671.0 / 2 << 3341.0 / 2 << 3900.0 << 93.6 << 400.0
                                  << "nvlink4-bridge" << 2;
        // L40S datasheet, which gives the dense rate first: FP32 91.6, FP16 Tensor 362.05 | 733*, FP8 733 | 1,466*
        // (its sparse FP16 is not twice its dense one: the dense figure taken); 48 GB at 864 GB/s; 350 W; PCIe Gen4
        QTest::newRow("L40S") << "l40s" << 91.6 << 362.05 << 733.0 << 864.0 << 48.0 << 350.0 << "pcie4-x16" << 8;
        // A100 datasheet, PCIe columns (no FP8): FP32 19.5, FP16 Tensor 624*; 40 GB at 1,555 GB/s and 250 W, 80 GB at
        // 1,935 GB/s and 300 W; an NVLink bridge for two
        QTest::newRow("A100 PCIe 40 GB") << "a100-pcie-40gb" << 19.5 << 624.0 / 2 << 0.0 << 1555.0 << 40.0 << 250.0
                                         << "nvlink3-bridge" << 2;
        QTest::newRow("A100 PCIe 80 GB") << "a100-pcie-80gb" << 19.5 << 624.0 / 2 << 0.0 << 1935.0 << 80.0 << 300.0
                                         << "nvlink3-bridge" << 2;
        // GA102 whitepaper, RTX 3090: FP32 35.6, FP16 Tensor (FP32 accumulate) 142*, no FP8; 24 GB at 936 GB/s; 350 W
        QTest::newRow("RTX 3090") << "rtx-3090" << 35.58 << 142.0 / 2 << 0.0 << 936.0 << 24.0 << 350.0 << "pcie4-x16"
                                  << 4;
        // NVIDIA HGX platform page, HGX B200 per GPU: FP32 75, FP16/BF16 Tensor 4.5 PFLOPS* and FP8 9 PFLOPS*
        // (with sparsity); 180 GB HBM3E at 7.7 TB/s; up to 1,000 W; NVLink 5 through NVSwitch, 8 on a board
        QTest::newRow("B200") << "b200" << 75.0 << 4500.0 / 2 << 9000.0 / 2 << 7700.0 << 180.0 << 1000.0 << "nvlink5"
                              << 8;
        // NVIDIA GB200 NVL72 page, per Blackwell GPU: FP32 80, FP16 Tensor 5 PFLOPS*, FP8 10 PFLOPS*; 186 GB at
        // 8 TB/s; up to 1,200 W; 72 GPUs in one NVLink 5 domain
        QTest::newRow("GB200") << "gb200" << 80.0 << 5000.0 / 2 << 10000.0 / 2 << 8000.0 << 186.0 << 1200.0 << "nvlink5"
                               << 72;
        // AMD MI325X data sheet: MI300X's compute (FP16 matrix 2,614.9* and FP8 5,229.8* with sparsity); 256 GB
        // HBM3E at 6 TB/s; 1,000 W
        QTest::newRow("MI325X") << "mi325x" << 163.4 << 2614.9 / 2 << 5229.8 / 2 << 6000.0 << 256.0 << 1000.0
                                << "infinity-fabric-mi300" << 8;
        // NVIDIA GH200 datasheet, 144 GB HBM3e superchip's GPU: FP32 67, FP16 Tensor 1,979*, FP8 3,958*; 4.9 TB/s;
        // module 450 to 1,000 W; NVLink 4, 256 superchips in a DGX GH200's domain
        QTest::newRow("GH200") << "gh200" << 66.9 << 1978.9 / 2 << 3957.8 / 2 << 4900.0 << 144.0 << 1000.0 << "nvlink4"
                               << 256;
        // RTX Blackwell whitepaper, RTX 5090: FP32 104.8, FP16 Tensor with FP32 accumulate 419*, FP8 838*; 32 GB
        // GDDR7 at 28 Gbps on 512 bits = 1,792 GB/s; 575 W; no NVLink, PCIe 5.0
        QTest::newRow("RTX 5090") << "rtx-5090" << 104.8 << 419.0 / 2 << 838.0 / 2 << 1792.0 << 31.84 << 575.0
                                  << "pcie5-x16" << 4;
        // Intel's Hot Chips 2024 Gaudi 3 talk: BF16 matrix 1,835 and FP8 1,835 (dense: no sparsity is quoted),
        // BF16 vector 28.7 (FP32 vector half of it, derived); 128 GB HBM2e at 3.67 TB/s; 900 W air-cooled; 8 cards
        // all to all over RoCE
        QTest::newRow("Gaudi 3") << "gaudi-3" << 28.7 / 2 << 1835.0 << 1835.0 << 3670.0 << 128.0 << 900.0
                                 << "gaudi3-roce" << 8;
        // AMD MI300X data sheet: FP32 vector 163.4, FP16 matrix 2,614.9 and FP8 5,229.8 with sparsity; 192 GB
        // at 5.3 TB/s; 750 W; 7 Infinity Fabric links, 8 GPUs fully connected
        QTest::newRow("MI300X") << "mi300x" << 163.4 << 2614.9 / 2 << 5229.8 / 2 << 5300.0 << 192.0 << 750.0
                                << "infinity-fabric-mi300" << 8;
    }
    void datasheetFigures()
    {
        QFETCH(QString, id);
        QFETCH(double, fp32);
        QFETCH(double, tensorFp16);
        QFETCH(double, tensorFp8);
        QFETCH(double, dram);
        QFETCH(double, memory);
        QFETCH(double, tdp);
        QFETCH(QString, link);
        QFETCH(int, gpus);
        const Device& d = rfx::test::shippedDevice(qPrintable(id));
        RFX_COMPARE_REL(d.peak.at("fp32"), fp32 * 1e12, 1e-3);
        RFX_COMPARE_REL(d.peak.at("tensor_fp16"), tensorFp16 * 1e12, 1e-3); // the datasheets round the sparse rate
        if (tensorFp8 > 0)
            RFX_COMPARE_REL(d.peak.at("tensor_fp8"), tensorFp8 * 1e12, 1e-3);
        else
            QVERIFY(!d.peak.count("tensor_fp8")); // before Hopper and Ada: none
        RFX_COMPARE_REL(d.dramBandwidth, dram * 1e9, 1e-9);
        RFX_COMPARE_REL(d.memoryBytes, memory * 1024 * 1024 * 1024, 1e-9);
        QCOMPARE(d.tdpWatts, tdp);
        QCOMPARE(QString::fromStdString(d.scaleUpLink), link);
        QCOMPARE(d.scaleUpGpus, gpus);
        QVERIFY(findInterconnect(d.scaleUpLink));
    }

    // FP32 from the cores and the boost clock (NVIDIA: 2 FLOP per core per clock): the H100 PCIe's 14,592
    // x 2 x 1.755 GHz = 51.2 TFLOP/s; the L40S's 18,176 x 2 x 2.52 GHz = 91.6; the RTX 3090's 10,496 x 2 x
    // 1.695 GHz = 35.58; B200's and GB200's 148 SMs x 128 = 18,944 x 2 x 1.98 and 2.11 GHz = 75.0 and 79.9; the
    // RTX 5090's 21,760 x 2 x 2.407 GHz = 104.75; the GH200's GPU, an H100 SXM's 16,896 x 2 x 1.98 GHz = 66.9.
    void fp32FromTheClock()
    {
        for (const char* id : { "h100-pcie", "l40s", "rtx-3090", "b200", "gb200", "rtx-5090", "gh200" }) {
            const Device& d = rfx::test::shippedDevice(id);
            RFX_COMPARE_REL(d.peak.at("fp32"), d.cores * 2 * d.boostClockHz, 1e-3);
        }
    }

    // FP4 where the device has it (Blackwell's fifth-generation tensor cores): the HGX B200's 18 PFLOPS and the
    // GB200's 20 PFLOPS with sparsity, 9 and 10 dense; none on Hopper.
    void fp4WhereTheDeviceHasIt()
    {
        RFX_COMPARE_REL(rfx::test::shippedDevice("b200").peak.at("tensor_fp4"), 18e15 / 2, 1e-9);
        RFX_COMPARE_REL(rfx::test::shippedDevice("gb200").peak.at("tensor_fp4"), 20e15 / 2, 1e-9);
        // The RTX 5090's 3,352 AI TOPS are FP4 with sparsity: 1,676 dense.
        RFX_COMPARE_REL(rfx::test::shippedDevice("rtx-5090").peak.at("tensor_fp4"), 3352e12 / 2, 1e-9);
        QVERIFY(!rfx::test::shippedDevice("h100-sxm").peak.count("tensor_fp4"));
        QVERIFY(!rfx::test::shippedDevice("gaudi-3").peak.count("tensor_fp4"));
    }

    // Two current server sockets from their makers' pages and manuals (one socket each; the cores x FLOP a
    // cycle x base clock): AMD's EPYC 9755, 128 Zen 5 cores x 2 FMA pipes x 16 FP32 lanes x 2 x 2.7 GHz =
    // 22.1184 TFLOP/s, BF16 twice, INT8 four times; 12 channels of DDR5-6400: 12 x 8 B x 6.4 GT/s = 614.4 GB/s;
    // 500 W. Intel's Xeon 6980P: 128 x 64 x 2.0 GHz = 16.384 TFLOP/s, FP16 twice (AVX512_FP16); AMX 1,024 BF16 FLOP a
    // cycle a core: 128 x 1,024 x 2.0 GHz = 262.144 TFLOP/s (FP16 too), 2,048 INT8 operations: 524.288 TOPS; DDR5-6400
    // on 12 channels, 614.4 GB/s; 500 W.
    void serverSockets()
    {
        const Device& epyc = rfx::test::shippedDevice("epyc-9755");
        QCOMPARE(epyc.kind, std::string("cpu"));
        RFX_COMPARE_REL(epyc.peak.at("fp32"), 128 * 2 * 16 * 2 * 2.7e9, 1e-3);
        RFX_COMPARE_REL(epyc.peak.at("bf16"), 2 * 22.1184e12, 1e-3);
        RFX_COMPARE_REL(epyc.peak.at("int8"), 4 * 22.1184e12, 1e-3);
        QVERIFY(!epyc.peak.count("tensor_bf16") && !epyc.peak.count("fp16"));
        RFX_COMPARE_REL(epyc.dramBandwidth, 12 * 8 * 6.4e9, 1e-9);
        QCOMPARE(epyc.tdpWatts, 500.0);
        const Device& xeon = rfx::test::shippedDevice("xeon-6980p");
        RFX_COMPARE_REL(xeon.peak.at("fp32"), 16.384e12, 1e-9);
        RFX_COMPARE_REL(xeon.peak.at("fp16"), 2 * 16.384e12, 1e-9); // AVX512_FP16, which Zen 5 lacks
        RFX_COMPARE_REL(xeon.peak.at("tensor_bf16"), 128 * 1024 * 2.0e9, 1e-9);
        RFX_COMPARE_REL(xeon.peak.at("tensor_fp16"), 262.144e12, 1e-9);
        RFX_COMPARE_REL(xeon.peak.at("tensor_int8"), 128 * 2048 * 2.0e9, 1e-9);
        RFX_COMPARE_REL(xeon.dramBandwidth, 614.4e9, 1e-9);
        QCOMPARE(xeon.tdpWatts, 500.0);
        // 16-bit matrix rows take AMX on the Xeon and the AVX-512 BF16 rate on the EPYC, which says so.
        QCOMPARE(chooseCeiling(xeon, NumberType::Fp16, true).flops, 262.144e12);
        const CeilingChoice onEpyc = chooseCeiling(epyc, NumberType::Fp16, true);
        QCOMPARE(onEpyc.key, std::string("bf16"));
        QVERIFY2(onEpyc.note.find("has no FP16 ceiling") != std::string::npos, onEpyc.note.c_str());
    }

    // The scale-up links: an A100 or H100 NVLink bridge 600 GB/s both ways (300 each); NVLink 5, 18 links of 1.8
    // TB/s in all (900 each way); MI300X's 7 Infinity Fabric links of 128 GB/s both ways, a ring over all
    // seven streaming 7 x 64 = 448 GB/s each way.
    void scaleUpLinks()
    {
        QCOMPARE(findInterconnect("nvlink4-bridge")->bandwidth, 300e9);
        QCOMPARE(findInterconnect("nvlink3-bridge")->bandwidth, 300e9);
        QCOMPARE(findInterconnect("nvlink5")->bandwidth, 900e9);
        QCOMPARE(findInterconnect("infinity-fabric-mi300")->bandwidth, 7 * 64e9);
        // Gaudi 3: 21 of its 24 ports of 200 Gb/s to the seven peers: 21 x 200e9 / 8 bytes a second each way.
        QCOMPARE(findInterconnect("gaudi3-roce")->bandwidth, 21 * 200e9 / 8);
    }
};

QTEST_GUILESS_MAIN(TestDevicesDatasheets)
#include "tst_devices_datasheets.moc"
