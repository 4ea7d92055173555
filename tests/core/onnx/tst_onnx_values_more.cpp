// Values computed before the run (core/onnx/onnx_evaluate*.cpp), the cases from GatherElements on (the
// first 26 and what stays unknown: tst_onnx_values), each worked by hand from ONNX's operator
// documentation and reference implementation (onnx/defs/*/defs.cc, onnx/reference/ops/op_*.py).
#include "core/onnx/valuecases.h"
#include "onnx/onnx_internal.h"

#include <QTest>

#include <cmath>

Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(std::vector<std::int64_t>)

using namespace rfx::valuetest;

class TestOnnxValuesMore : public QObject {
    Q_OBJECT

private slots:
    void operators_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<std::vector<std::int64_t>>("dims");
        QTest::addColumn<std::vector<double>>("data");
        int row = 26; // cases 0-25: tst_onnx_values; the index into the node builders, counted afresh each run
        for (const auto& [name, dims, data] :
            std::vector<std::tuple<const char*, std::vector<std::int64_t>, std::vector<double>>> {
                // GatherElements([[1,2],[3,4]], [[0,0],[1,0]], axis 1) = [[1,1],[4,3]] (the docs' example).
                { "GatherElements", { 2, 2 }, { 1, 1, 4, 3 } },
                // ScatterND([1..8], [[4],[3],[1],[7]], [9,10,11,12]) = [1,11,3,10,9,6,7,12] (the docs' example 1).
                { "ScatterND", { 8 }, { 1, 11, 3, 10, 9, 6, 7, 12 } },
                // Trilu upper of a 3 x 3 of ones, k = 0: [[1,1,1],[0,1,1],[0,0,1]]; lower k = -1:
                // [[0,0,0],[1,0,0],[1,1,0]].
                { "Trilu", { 3, 3 }, { 1, 1, 1, 0, 1, 1, 0, 0, 1 } },
                { "Trilu-lower", { 3, 3 }, { 0, 0, 0, 1, 0, 0, 1, 1, 0 } },
                // CastLike([1.7, -2.2], an int32 tensor) = [1, -2] (truncation, as numpy's astype).
                { "CastLike", { 2 }, { 1, -2 } },
                // OneHot([1, 3, -1], depth 4, values [0, 5]), axis -1: [[0,5,0,0],[0,0,0,5],[0,0,0,5]] (negative: depth
                // - 1).
                { "OneHot", { 3, 4 }, { 0, 5, 0, 0, 0, 0, 0, 5, 0, 0, 0, 5 } },
                // Gather on axis 1 of [[1,2,3],[4,5,6]] at [2, 0]: [[3,1],[6,4]].
                { "Gather-axis1", { 2, 2 }, { 3, 1, 6, 4 } },
                // Concat on axis 1 of [[1],[2]] and [[3,4],[5,6]]: [[1,3,4],[2,5,6]].
                { "Concat-axis1", { 2, 3 }, { 1, 3, 4, 2, 5, 6 } },
                // Reshape [1..6] to [0, -1] of a [2, 3]-shaped source: 0 copies 2, -1 is 3.
                { "Reshape", { 2, 3 }, { 1, 2, 3, 4, 5, 6 } },
                // Unsqueeze-13 axes [0, 2] of [5, 6]: [1, 2, 1].
                { "Unsqueeze", { 1, 2, 1 }, { 5, 6 } },
                // Add broadcast [[1],[2]] + [10, 20]: [[11,21],[12,22]].
                { "Add-broadcast", { 2, 2 }, { 11, 21, 12, 22 } },
                // Integer Div truncates toward zero: [-7, 7] / 2 = [-3, 3] (numpy divide, then astype).
                { "Div-integer", { 2 }, { -3, 3 } },
                // Sequences: Insert 1 then [2, 3] into an empty sequence, ConcatFromSequence axis 0: [1, 2, 3].
                { "ConcatFromSequence", { 3 }, { 1, 2, 3 } },
                // SplitToSequence([1..5], split 2): [1,2], [3,4], [5]; SequenceAt -1: [5].
                { "SplitToSequence+SequenceAt", { 1 }, { 5 } },
                // If on a known condition: the else branch's Constant 7.
                { "If", {}, { 7 } },
                // Loop of 4 trips carrying s = s * 2 + i from 1: 2, 5, 12, 27; scan output i * i stacked: [0, 1, 4, 9].
                { "Loop-carried", {}, { 27 } },
                { "Loop-scan", { 4 }, { 0, 1, 4, 9 } },
                // torchlib's as_strided, size [2, 3], stride [1, 2]: indices[i][j] = i + 2 j = [[0,2,4],[1,3,5]], built
                // by a Loop of 2 trips over a sequence of ones (SequenceEmpty, SequenceInsert, ConcatFromSequence).
                { "Loop-as-strided", { 2, 3 }, { 0, 2, 4, 1, 3, 5 } },
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
        case 26:
            c.node = node("GatherElements", { "a", "b" });
            setInt(c.node, "axis", 1);
            c.values = { { "a", tensor({ 2, 2 }, { 1, 2, 3, 4 }) }, { "b", tensor({ 2, 2 }, { 0, 0, 1, 0 }) } };
            break;
        case 27:
            c.node = node("ScatterND", { "a", "b", "c" });
            c.values = { { "a", tensor({ 8 }, { 1, 2, 3, 4, 5, 6, 7, 8 }) }, { "b", tensor({ 4, 1 }, { 4, 3, 1, 7 }) },
                { "c", tensor({ 4 }, { 9, 10, 11, 12 }) } };
            break;
        case 28:
        case 29:
            c.node = node("Trilu", { "a", which == 29 ? "k" : "" });
            if (which == 29)
                setInt(c.node, "upper", 0);
            c.values = { { "a", tensor({ 3, 3 }, std::vector<double>(9, 1)) }, { "k", scalar(-1) } };
            break;
        case 30:
            c.node = node("CastLike", { "a", "like_int" });
            c.values = { { "a", tensor({ 2 }, { 1.7, -2.2 }, false) }, { "like_int", tensor({ 1 }, { 0 }) } };
            break;
        case 31:
            c.node = node("OneHot", { "a", "b", "c" });
            c.values = { { "a", tensor({ 3 }, { 1, 3, -1 }) }, { "b", scalar(4) }, { "c", tensor({ 2 }, { 0, 5 }) } };
            break;
        case 32:
            c.node = node("Gather", { "a", "b" });
            setInt(c.node, "axis", 1);
            c.values = { { "a", abcd }, { "b", tensor({ 2 }, { 2, 0 }) } };
            break;
        case 33:
            c.node = node("Concat", { "a", "b" });
            setInt(c.node, "axis", 1);
            c.values = { { "a", tensor({ 2, 1 }, { 1, 2 }) }, { "b", tensor({ 2, 2 }, { 3, 4, 5, 6 }) } };
            break;
        case 34:
            c.node = node("Reshape", { "a", "b" });
            c.values = { { "a", abcd }, { "b", tensor({ 2 }, { 0, -1 }) } };
            break;
        case 35:
            c.node = node("Unsqueeze", { "a", "b" });
            c.values = { { "a", tensor({ 2 }, { 5, 6 }) }, { "b", tensor({ 2 }, { 0, 2 }) } };
            c.opset = 13;
            break;
        case 36:
            c.node = node("Add", { "a", "b" });
            c.values = { { "a", tensor({ 2, 1 }, { 1, 2 }) }, { "b", tensor({ 2 }, { 10, 20 }) } };
            break;
        case 37:
            c.node = node("Div", { "a", "b" });
            c.values = { { "a", tensor({ 2 }, { -7, 7 }) }, { "b", scalar(2) } };
            break;
        case 38: { // a sequence built and joined: each node's value feeds the next
            NodeCase step;
            step.node = node("SequenceEmpty", {});
            step.values = {};
            Value seq = *run(step).at(0);
            step.node = node("SequenceInsert", { "s", "t" });
            step.values = { { "s", seq }, { "t", tensor({ 1 }, { 1 }) } };
            seq = *run(step).at(0);
            step.values = { { "s", seq }, { "t", tensor({ 2 }, { 2, 3 }) } };
            seq = *run(step).at(0);
            QCOMPARE(seq.items.size(), size_t(2));
            c.node = node("ConcatFromSequence", { "s" });
            setInt(c.node, "axis", 0);
            c.values = { { "s", seq } };
            break;
        }
        case 39: {
            NodeCase step;
            step.node = node("SplitToSequence", { "a", "b" });
            step.values = { { "a", tensor({ 5 }, { 1, 2, 3, 4, 5 }) }, { "b", scalar(2) } };
            const Value seq = *run(step).at(0);
            QCOMPARE(seq.items.size(), size_t(3));
            c.node = node("SequenceAt", { "s", "p" });
            c.values = { { "s", seq }, { "p", scalar(-1) } };
            break;
        }
        case 40: {
            c.node = node("If", { "cond" });
            onnx::NodeProto seven = named(node("Constant", {}), { "seven" });
            auto* v = seven.add_attribute();
            v->set_name("value_int");
            v->set_type(onnx::AttributeProto::INT);
            v->set_i(7);
            onnx::NodeProto eight = named(node("Constant", {}), { "eight" });
            setInt(eight, "value_int", 8);
            for (const auto& [name, g] : { std::pair { "then_branch", graph({ eight }, {}, { "eight" }) },
                     std::pair { "else_branch", graph({ seven }, {}, { "seven" }) } }) {
                auto* a = c.node.add_attribute();
                a->set_name(name);
                a->set_type(onnx::AttributeProto::GRAPH);
                *a->mutable_g() = g;
            }
            c.values = { { "cond", scalar(0) } };
            break;
        }
        case 41:
        case 42: {
            // body(i, cond, s): s' = s * 2 + i; out cond; scan i * i.
            c.node = node("Loop", { "m", "", "s0" }, 2);
            onnx::GraphProto body
                = graph({ named(node("Mul", { "s", "two" }), { "s2" }), named(node("Add", { "s2", "i" }), { "s3" }),
                            named(node("Mul", { "i", "i" }), { "sq" }), named(node("Identity", { "c" }), { "c_out" }) },
                    { "i", "c", "s" }, { "c_out", "s3", "sq" });
            auto* a = c.node.add_attribute();
            a->set_name("body");
            a->set_type(onnx::AttributeProto::GRAPH);
            *a->mutable_g() = body;
            c.values = { { "m", scalar(4) }, { "s0", scalar(1) }, { "two", scalar(2) } };
            output = which == 41 ? 0 : 1;
            break;
        }
        case 43: {
            // torchlib's _aten_as_strided_onnx for size [2, 3], stride [1, 2], rank 2, written out: trip i takes
            // j = rank - 1 - i, expands the indices to size[j:], adds Range(size[j]) * stride[j] reshaped to
            // [size[j], 1, ...] (i ones, from the sequence), and inserts one more 1 into the sequence.
            auto constant = [](const char* out, std::vector<std::int64_t> extents, std::vector<std::int64_t> values) {
                onnx::NodeProto n = named(node("Constant", {}), { out });
                auto* t = n.add_attribute();
                t->set_name("value");
                t->set_type(onnx::AttributeProto::TENSOR);
                t->mutable_t()->set_data_type(onnx::TensorProto::INT64);
                for (auto d : extents)
                    t->mutable_t()->add_dims(d);
                for (auto v : values)
                    t->mutable_t()->add_int64_data(v);
                return n;
            };
            onnx::NodeProto reshapeJ = named(node("Reshape", { "j", "neg1" }), { "j1" });
            onnx::NodeProto gatherSize = named(node("Gather", { "size", "j1" }), { "size_j" });
            onnx::NodeProto sliceSize = named(node("Slice", { "size", "j1", "rank1" }), { "size_after" });
            onnx::NodeProto gatherStride = named(node("Gather", { "stride", "j1" }), { "stride_j" });
            onnx::NodeProto concatOnes = named(node("ConcatFromSequence", { "ones" }), { "ones_t" });
            setInt(concatOnes, "axis", 0);
            onnx::NodeProto shape = named(node("Concat", { "size_j", "ones_t" }), { "shape" });
            setInt(shape, "axis", 0);
            onnx::GraphProto body
                = graph({ named(node("Sub", { "rank_m1", "i" }), { "j" }), constant("neg1", { 1 }, { -1 }),
                            constant("rank1", { 1 }, { 2 }), reshapeJ, gatherSize, sliceSize, gatherStride,
                            named(node("Expand", { "idx", "size_after" }), { "idx_e" }),
                            named(node("Squeeze", { "size_j" }), { "size_s" }), constant("zero", {}, { 0 }),
                            constant("one", {}, { 1 }), named(node("Range", { "zero", "size_s", "one" }), { "r" }),
                            named(node("Mul", { "r", "stride_j" }), { "add" }), concatOnes, shape,
                            named(node("Reshape", { "add", "shape" }), { "add_r" }),
                            named(node("Add", { "idx_e", "add_r" }), { "idx2" }), constant("one1", { 1 }, { 1 }),
                            named(node("SequenceInsert", { "ones", "one1" }), { "ones2" }),
                            named(node("Identity", { "c" }), { "c_out" }) },
                    { "i", "c", "idx", "ones" }, { "c_out", "idx2", "ones2" });
            // The first trip's sequence of ones is empty, and ConcatFromSequence of nothing is not a value: start
            // it with none but concatenate only what there is (as the If in torchlib does): here, seed it with
            // an empty 1-D tensor, which Concat joins to anything.
            c.node = node("Loop", { "m", "", "idx0", "ones0" }, 2);
            auto* a = c.node.add_attribute();
            a->set_name("body");
            a->set_type(onnx::AttributeProto::GRAPH);
            *a->mutable_g() = body;
            Value ones;
            ones.sequence = true;
            ones.items.push_back(tensor({ 0 }, {}));
            c.values = { { "m", scalar(2) }, { "idx0", scalar(0) }, { "ones0", ones },
                { "size", tensor({ 2 }, { 2, 3 }) }, { "stride", tensor({ 2 }, { 1, 2 }) }, { "rank_m1", scalar(1) } };
            break;
        }
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
};

QTEST_GUILESS_MAIN(TestOnnxValuesMore)
#include "tst_onnx_values_more.moc"
