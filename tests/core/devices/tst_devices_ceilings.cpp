// A device's ceilings chosen per row: the precision and the matrix units asked for, the fallbacks said,
// and the arithmetic types (bf16, fp8, int8) each on their own ceiling.
#include "devices/device_loader.h"
#include "testutils.h"

#include <QDir>
#include <QTemporaryDir>

#include <fstream>

using namespace rfx;

class TestDevicesCeilings : public QObject {
    Q_OBJECT
private slots:
    void ceilingChoice()
    {
        const Device& mx = rfx::test::shippedDevice("geforce-mx230");
        QCOMPARE(chooseCeiling(mx, 16, false).key, std::string("fp16")); // the 1:64 rate, 12.25 GFLOP/s
        QCOMPARE(chooseCeiling(mx, 16, false).flops, 12.25e9);
        // Tensor FP16 wanted, none: its FP16, 1/64 of FP32 on Pascal consumer parts (NVIDIA's Pascal
        // tuning guide). Hand-worked: 783.9 GFLOP/s / 12.25 GFLOP/s = 63.99, said as 64.0 in the note.
        const CeilingChoice slow = chooseCeiling(mx, 16, true);
        QCOMPARE(slow.key, std::string("fp16"));
        QVERIFY(std::abs(mx.peak.at("fp32") / slow.flops - 64.0) < 0.01); // 783.9 / 12.25 in the device file
        QVERIFY2(
            slow.note.find("has no tensor FP16 ceiling; using its FP16 ceiling, 64.0x slower than its FP32 ceiling "
                           "(12.2 GFLOP/s against 784 GFLOP/s)")
                != std::string::npos,
            slow.note.c_str());
        // A fallback less than 2x slower says no ratio.
        Device round = rfx::test::roundDevice(10e12);
        round.peak["fp16"] = 6e12; // 1.67x: under 2x, no ratio
        QVERIFY(chooseCeiling(round, 16, true).note.find("slower") == std::string::npos);
        const Device& maxwell = rfx::test::shippedDevice("titan-x-maxwell");
        const CeilingChoice c = chooseCeiling(maxwell, 16, false);
        QCOMPARE(c.key, std::string("fp32"));
        QVERIFY(!c.note.empty());
        const Device& h100 = rfx::test::shippedDevice("h100-sxm");
        QCOMPARE(chooseCeiling(h100, 32, true).key, std::string("tensor_tf32"));
        QCOMPARE(chooseCeiling(h100, 16, true).flops, 989.4e12);
        QCOMPARE(chooseCeiling(h100, 64, false).flops, 33.5e12);
        QCOMPARE(precisionLabel("tensor_fp16"), std::string("tensor FP16"));
        // A CPU asked for matrix units (a language model asks every device) has none to miss: its FP32
        // without a note, and a missing BF16 said as BF16, not tensor BF16. Seen under the Zen 4 VM's
        // language-model chart: "has no tensor TF32 ceiling; using its FP32 ceiling".
        const Device& ryzen = rfx::test::shippedDevice("ryzen-9-5950x");
        QCOMPARE(ryzen.kind, std::string("cpu"));
        const CeilingChoice cpu32 = chooseCeiling(ryzen, 32, true);
        QCOMPARE(cpu32.key, std::string("fp32"));
        QVERIFY2(cpu32.note.empty(), cpu32.note.c_str());
        QVERIFY(!ryzen.peak.count("bf16")); // Zen 3: no AVX512-BF16
        const CeilingChoice cpuBf16 = chooseCeiling(ryzen, NumberType::Bf16, true);
        QVERIFY2(cpuBf16.note.find("has no BF16 ceiling; using its FP32 ceiling") != std::string::npos,
            cpuBf16.note.c_str());
        const CeilingChoice cpuFp8 = chooseCeiling(ryzen, NumberType::Fp8, true); // fp8 weights on a CPU: said as FP8
        QVERIFY2(cpuFp8.note.find("has no tensor FP8 ceiling; using its FP32 ceiling") != std::string::npos,
            cpuFp8.note.c_str());
        // a CPU file that gives its matrix units (AMX as tensor_bf16) has them chosen, without a note
        Device amx = ryzen;
        amx.peak["tensor_bf16"] = 100e12;
        QCOMPARE(chooseCeiling(amx, NumberType::Bf16, true).key, std::string("tensor_bf16"));
        QVERIFY(chooseCeiling(amx, NumberType::Bf16, true).note.empty());
    }

    // Bits alone do not name the arithmetic (issue 47): fp8 and int8 are both 8 bits, bf16 and fp16 both
    // 16. Figures from the vendors' datasheets, as the device files hold them (dense, no sparsity):
    // A100 SXM: tensor FP16 312 TFLOPS, tensor INT8 624 TOPS, BF16 (vector) 39 TFLOPS, no FP8;
    // H100 SXM: tensor FP8 1,979 TFLOPS (3,958 with sparsity), FP16 (vector) 133.8 TFLOPS;
    // T4: tensor FP16 65 TFLOPS, FP32 8.1 TFLOPS, no BF16 at all (Turing).
    void arithmeticTypesTakeTheirOwnCeilings()
    {
        const Device& a100 = rfx::test::shippedDevice("a100-sxm-80gb");
        const CeilingChoice int8 = chooseCeiling(a100, NumberType::Int8, true);
        QCOMPARE(int8.key, std::string("tensor_int8"));
        QCOMPARE(int8.flops, 624e12);
        QVERIFY(int8.note.empty());
        const CeilingChoice fp8 = chooseCeiling(a100, NumberType::Fp8, true); // no FP8: the next wider float
        QCOMPARE(fp8.key, std::string("tensor_fp16"));
        QCOMPARE(fp8.flops, 312e12);
        QVERIFY2(fp8.note.find("has no tensor FP8 ceiling; using its tensor FP16 ceiling") != std::string::npos,
            fp8.note.c_str());
        QCOMPARE(chooseCeiling(a100, NumberType::Bf16, true).key, std::string("tensor_bf16"));
        QCOMPARE(chooseCeiling(a100, NumberType::Bf16, false).flops, 39e12);

        const Device& h100 = rfx::test::shippedDevice("h100-sxm");
        QCOMPARE(chooseCeiling(h100, NumberType::Fp8, true).key, std::string("tensor_fp8"));
        QCOMPARE(chooseCeiling(h100, NumberType::Fp8, true).flops, 1978.9e12);
        QCOMPARE(std::string(rateUnit("tensor_fp8")), std::string("FLOP/s"));
        QCOMPARE(std::string(rateUnit("tensor_int8")), std::string("OP/s"));
        // fp8 elementwise work runs at 16 bits in every runtime: FP16's vector ceiling, nothing to note.
        const CeilingChoice vector8 = chooseCeiling(h100, NumberType::Fp8, false);
        QCOMPARE(vector8.key, std::string("fp16"));
        QCOMPARE(vector8.flops, 133.8e12);
        QVERIFY(vector8.note.empty());

        const Device& t4 = rfx::test::shippedDevice("t4");
        QCOMPARE(chooseCeiling(t4, NumberType::Fp16, true).flops, 65.13e12);
        const CeilingChoice bf16 = chooseCeiling(t4, NumberType::Bf16, true); // never FP16's tensor cores
        QCOMPARE(bf16.key, std::string("fp32"));
        QCOMPARE(bf16.flops, 8.141e12);
        QVERIFY2(bf16.note.find("has no tensor BF16 ceiling; using its FP32 ceiling") != std::string::npos,
            bf16.note.c_str());

        // The bits overload is the type of those bits.
        for (int bits : { 8, 16, 32, 64 })
            QCOMPARE(chooseCeiling(a100, bits, true).key, chooseCeiling(a100, numberTypeOfBits(bits), true).key);
        QCOMPARE(numberTypeOfBits(4), NumberType::Int8);
        QCOMPARE(numberTypeOfBits(24), NumberType::Fp32);
        for (NumberType t : { NumberType::Int8, NumberType::Fp8, NumberType::Fp16, NumberType::Bf16, NumberType::Fp32,
                 NumberType::Fp64 })
            QCOMPARE(parseNumberType(numberWord(t)), std::optional<NumberType>(t));
        QCOMPARE(parseNumberType("BF16"), std::optional<NumberType>(NumberType::Bf16));
        QVERIFY(!parseNumberType("fp4"));
        QVERIFY(!parseNumberType(""));
        QCOMPARE(numberBits(NumberType::Fp8), 8);
        QCOMPARE(numberBits(NumberType::Bf16), 16);
    }
};

QTEST_GUILESS_MAIN(TestDevicesCeilings)
#include "tst_devices_ceilings.moc"
