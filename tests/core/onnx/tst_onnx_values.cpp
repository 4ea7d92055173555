// Values computed before the run (core/onnx/onnx_evaluate.cpp): one case per operator, each with its
// expectation worked by hand from ONNX's operator documentation and reference implementation
// (onnx/defs/*/defs.cc, onnx/reference/ops/op_*.py), numpy's broadcasting and the examples there. This test
// reaches into the importer (onnx_internal.h) on purpose: the evaluator's answers are the product's
// shapes, and a one-node model could only show them through the shapes they lead to.
#include "core/onnx/valuecases.h"
#include "onnx/onnx_internal.h"

#include <QTest>

#include <cmath>

using namespace rfx::onnximport;

Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(std::vector<std::int64_t>)

using namespace rfx::valuetest;

class TestOnnxValues : public QObject {
    Q_OBJECT

private slots:
    void operators_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<std::vector<std::int64_t>>("dims");
        QTest::addColumn<std::vector<double>>("data");
        int row = 0; // the case's index into the node builders: counted afresh on every run (-repeat)
        for (const auto& [name, dims, data] :
            std::vector<std::tuple<const char*, std::vector<std::int64_t>, std::vector<double>>> {
                // Split [1..8] into 2, 2, 4 (the split input), second piece: [3, 4] (the TF Pad amounts' case).
                { "Split", { 2 }, { 3, 4 } },
                // Split-18 num_outputs 3 of 7 elements: ceil(7/3) = 3, 3, 1; the last: [7].
                { "Split-18", { 1 }, { 7 } },
                // Range(1, 10, 3) = [1, 4, 7] (numpy.arange).
                { "Range", { 3 }, { 1, 4, 7 } },
                // Where([[1,0],[0,1]], 9, [[1,2],[3,4]]) broadcasting the scalar: [[9,2],[3,9]].
                { "Where", { 2, 2 }, { 9, 2, 3, 9 } },
                // Expand([[1],[2]], [2, 3]): [[1,1,1],[2,2,2]].
                { "Expand", { 2, 3 }, { 1, 1, 1, 2, 2, 2 } },
                // Tile([[1,2]], [2, 2]): [[1,2,1,2],[1,2,1,2]].
                { "Tile", { 2, 4 }, { 1, 2, 1, 2, 1, 2, 1, 2 } },
                // CumSum([1,2,3]) = [1,3,6]; exclusive = [0,1,3]; reverse = [6,5,3]; both = [5,3,0] (the docs'
                // examples).
                { "CumSum", { 3 }, { 1, 3, 6 } },
                { "CumSum-exclusive-reverse", { 3 }, { 5, 3, 0 } },
                // Mod fmod=0 takes the divisor's sign: [-4, 7, 5] mod [3, -3, 2] = [2, -2, 1] (the docs' mixed-sign
                // example).
                { "Mod", { 3 }, { 2, -2, 1 } },
                // Mod fmod=1 (C's fmod) keeps the dividend's: [-4, 7, 5.5] fmod [3, -3, 2] = [-1, 1, 1.5].
                { "Mod-fmod", { 3 }, { -1, 1, 1.5 } },
                // Min of three broadcast: min([1,5,3], 4, [2,2,2]) = [1,2,2]; Max [4,5,4].
                { "Min", { 3 }, { 1, 2, 2 } },
                { "Max", { 3 }, { 4, 5, 4 } },
                { "And", { 4 }, { 0, 0, 0, 1 } },
                { "Or", { 4 }, { 0, 1, 1, 1 } },
                { "Xor", { 4 }, { 0, 1, 1, 0 } },
                { "Not", { 2 }, { 0, 1 } },
                // [1, 2, 3] against 2.
                { "Less", { 3 }, { 1, 0, 0 } },
                { "Greater", { 3 }, { 0, 0, 1 } },
                { "LessOrEqual", { 3 }, { 1, 1, 0 } },
                { "GreaterOrEqual", { 3 }, { 0, 1, 1 } },
                // Reductions of [[1,2,3],[4,5,6]] over axis 1, keepdims 1: [[6],[15]], [[6],[120]], [[1],[4]],
                // [[3],[6]].
                { "ReduceSum", { 2, 1 }, { 6, 15 } },
                { "ReduceProd", { 2, 1 }, { 6, 120 } },
                { "ReduceMin", { 2, 1 }, { 1, 4 } },
                { "ReduceMax", { 2, 1 }, { 3, 6 } },
                // ReduceProd over all axes, keepdims 0: 720, a scalar.
                { "ReduceProd-all", {}, { 720 } },
                // NonZero([[1,0],[1,1]]) = [[0,1,1],[0,0,1]] (the docs' example).
                { "NonZero", { 2, 3 }, { 0, 1, 1, 0, 0, 1 } },
            }) {
            QTest::newRow(name) << row++ << dims << data;
        }
    }

    void operators()
    {
        QFETCH(int, which);
        QFETCH(std::vector<std::int64_t>, dims);
        QFETCH(std::vector<double>, data);
        NodeCase c;
        int output = 0;
        const Value abcd = tensor({ 2, 3 }, { 1, 2, 3, 4, 5, 6 });
        switch (which) {
        case 0:
            c.node = node("Split", { "a", "s" }, 3);
            c.values = { { "a", tensor({ 8 }, { 1, 2, 3, 4, 5, 6, 7, 8 }) }, { "s", tensor({ 3 }, { 2, 2, 4 }) } };
            c.node.mutable_output()->at(1) = "y1";
            output = 1;
            c.opset = 13;
            break;
        case 1:
            c.node = node("Split", { "a" }, 3);
            setInt(c.node, "num_outputs", 3);
            c.values = { { "a", tensor({ 7 }, { 1, 2, 3, 4, 5, 6, 7 }) } };
            output = 2;
            c.opset = 18;
            break;
        case 2:
            c.node = node("Range", { "a", "b", "c" });
            c.values = { { "a", scalar(1) }, { "b", scalar(10) }, { "c", scalar(3) } };
            break;
        case 3:
            c.node = node("Where", { "a", "b", "c" });
            c.values = { { "a", tensor({ 2, 2 }, { 1, 0, 0, 1 }) }, { "b", scalar(9) },
                { "c", tensor({ 2, 2 }, { 1, 2, 3, 4 }) } };
            break;
        case 4:
            c.node = node("Expand", { "a", "b" });
            c.values = { { "a", tensor({ 2, 1 }, { 1, 2 }) }, { "b", tensor({ 2 }, { 2, 3 }) } };
            break;
        case 5:
            c.node = node("Tile", { "a", "b" });
            c.values = { { "a", tensor({ 1, 2 }, { 1, 2 }) }, { "b", tensor({ 2 }, { 2, 2 }) } };
            break;
        case 6:
        case 7:
            c.node = node("CumSum", { "a", "b" });
            if (which == 7) {
                setInt(c.node, "exclusive", 1);
                setInt(c.node, "reverse", 1);
            }
            c.values = { { "a", tensor({ 3 }, { 1, 2, 3 }) }, { "b", scalar(0) } };
            break;
        case 8:
            c.node = node("Mod", { "a", "b" });
            c.values = { { "a", tensor({ 3 }, { -4, 7, 5 }) }, { "b", tensor({ 3 }, { 3, -3, 2 }) } };
            break;
        case 9:
            c.node = node("Mod", { "a", "b" });
            setInt(c.node, "fmod", 1);
            c.values = { { "a", tensor({ 3 }, { -4, 7, 5.5 }, false) }, { "b", tensor({ 3 }, { 3, -3, 2 }, false) } };
            break;
        case 10:
        case 11:
            c.node = node(which == 10 ? "Min" : "Max", { "a", "b", "c" });
            c.values = { { "a", tensor({ 3 }, { 1, 5, 3 }) }, { "b", scalar(4) }, { "c", tensor({ 3 }, { 2, 2, 2 }) } };
            break;
        case 12:
        case 13:
        case 14:
            c.node = node(which == 12 ? "And" : which == 13 ? "Or" : "Xor", { "a", "b" });
            c.values = { { "a", tensor({ 4 }, { 0, 0, 1, 1 }) }, { "b", tensor({ 4 }, { 0, 1, 0, 1 }) } };
            break;
        case 15:
            c.node = node("Not", { "a" });
            c.values = { { "a", tensor({ 2 }, { 1, 0 }) } };
            break;
        case 16:
        case 17:
        case 18:
        case 19: {
            const char* ops[] = { "Less", "Greater", "LessOrEqual", "GreaterOrEqual" };
            c.node = node(ops[which - 16], { "a", "b" });
            c.values = { { "a", tensor({ 3 }, { 1, 2, 3 }) }, { "b", scalar(2) } };
            break;
        }
        case 20:
        case 21:
        case 22:
        case 23: {
            const char* ops[] = { "ReduceSum", "ReduceProd", "ReduceMin", "ReduceMax" };
            c.node = node(ops[which - 20],
                which == 20 ? std::vector<std::string> { "a", "axes" } : std::vector<std::string> { "a" });
            if (which != 20)
                setInts(c.node, "axes", { 1 });
            c.values = { { "a", abcd }, { "axes", tensor({ 1 }, { 1 }) } };
            c.opset = 13;
            break;
        }
        case 24:
            c.node = node("ReduceProd", { "a" });
            setInt(c.node, "keepdims", 0);
            c.values = { { "a", abcd } };
            break;
        case 25:
            c.node = node("NonZero", { "a" });
            c.values = { { "a", tensor({ 2, 2 }, { 1, 0, 1, 1 }) } };
            break;
        default:
            QFAIL("no such case");
        }
        const auto out = run(c);
        QVERIFY(size_t(output) < out.size());
        QVERIFY2(out[size_t(output)].has_value(), "not computed");
        const Value& v = *out[size_t(output)];
        QCOMPARE(v.dims, dims);
        QCOMPARE(v.data, data);
    }

    // Whatever cannot be computed is unknown, never a guess: an input not known, an integer division by 0,
    // an output over the element limit, a Loop past the trip limit, the budget spent.
    void unknownRatherThanWrong()
    {
        NodeCase c;
        c.node = node("Add", { "a", "b" });
        c.values = { { "a", scalar(1) } };
        QVERIFY(!run(c).at(0));
        c.node = node("Div", { "a", "b" });
        c.values = { { "a", scalar(1) }, { "b", scalar(0) } };
        QVERIFY(!run(c).at(0));
        c.node = node("ConstantOfShape", { "a" });
        c.values = { { "a", tensor({ 2 }, { 1000, 1000 }) } };
        QVERIFY(!run(c).at(0)); // 10^6 > kMaxComputedElements
        c.values = { { "a", tensor({ 2 }, { 100, 100 }) } };
        QVERIFY(run(c).at(0));
        std::int64_t budget = 5'000;
        QVERIFY(!run(c, &budget).at(0)); // 10,000 elements against a budget of 5,000
        // A Loop of more trips than are run for values: unknown.
        onnx::GraphProto body2
            = graph({ named(node("Identity", { "c" }), { "c_out" }), named(node("Identity", { "s" }), { "s_out" }) },
                { "i", "c", "s" }, { "c_out", "s_out" });
        c.node = node("Loop", { "m", "", "s0" });
        auto* a = c.node.add_attribute();
        a->set_name("body");
        a->set_type(onnx::AttributeProto::GRAPH);
        *a->mutable_g() = body2;
        c.values = { { "m", scalar(double(kMaxEvaluatedTrips) + 1) }, { "s0", scalar(3) } };
        QVERIFY(!run(c).at(0));
        c.values["m"] = scalar(10);
        QCOMPARE(run(c).at(0)->data, std::vector<double> { 3 });
        // ScatterND with reduction: add.
        c.node = node("ScatterND", { "a", "b", "c" });
        setString(c.node, "reduction", "add");
        c.values = { { "a", tensor({ 3 }, { 1, 1, 1 }) }, { "b", tensor({ 2, 1 }, { 0, 0 }) },
            { "c", tensor({ 2 }, { 5, 6 }) } };
        QCOMPARE(run(c).at(0)->data, (std::vector<double> { 12, 1, 1 }));
    }

    void theListIsWhatIsComputed()
    {
        // Each operator the issue names is in the list the README and notes quote.
        for (const char* op : { "Split", "Range", "Where", "Expand", "Tile", "CumSum", "Mod", "Min", "Max", "And", "Or",
                 "Xor", "Not", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "ReduceProd", "ReduceSum",
                 "ReduceMin", "ReduceMax", "NonZero", "GatherElements", "ScatterND", "Trilu", "CastLike", "OneHot",
                 "Loop", "SequenceEmpty", "SequenceInsert", "SequenceAt", "ConcatFromSequence", "SplitToSequence" }) {
            const auto& ops = evaluatedOperators();
            QVERIFY2(std::find(ops.begin(), ops.end(), op) != ops.end(), op);
        }
    }
};

QTEST_GUILESS_MAIN(TestOnnxValues)
#include "tst_onnx_values.moc"
