// JSON syntax errors in words, with line and column: what a user of a network, device, session or
// measurement file needs to fix it, not the library's exception text.
#include "base/json_error.h"

#include <QTest>

using namespace rfx;

namespace {
std::string describe(const std::string& text)
{
    try {
        const nlohmann::json doc = nlohmann::json::parse(text);
        (void)doc;
    } catch (const nlohmann::json::exception& e) {
        return describeJsonError(e);
    }
    return "parsed";
}
} // namespace

class TestJsonError : public QObject {
    Q_OBJECT
private slots:
    void inWords_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        // Columns are nlohmann_json's: the character after the one that failed, counted from 1.
        QTest::newRow("trailing comma in object")
            << R"({"a": 1,})"
            << "line 1, column 9: '}' where a field name in double quotes should be (a trailing comma?)";
        QTest::newRow("double comma")
            << "{\"layers\": [ {\"op\": \"conv\",, } ]}"
            << "line 1, column 28: ',' where a field name in double quotes should be (a trailing comma?)";
        QTest::newRow("missing colon") << R"({"a" 1})"
                                       << "line 1, column 6: a number where ':' should follow the field name";
        QTest::newRow("missing comma in object") << R"({"a":1 "b":2})"
                                                 << "line 1, column 10: a string where ',' or '}' should be";
        QTest::newRow("missing comma in array") << "[1 2]"
                                                << "line 1, column 4: a number where ',' or ']' should be";
        QTest::newRow("cut short") << "{\n  \"a\": [1, 2"
                                   << "line 2, column 13: the file ends in the middle of the JSON (cut short?)";
        QTest::newRow("empty") << ""
                               << "the file is empty";
        QTest::newRow("bad word") << R"({"a": tru})"
                                  << "line 1, column 10: 'tru' is not a JSON value (strings need double quotes; true, "
                                     "false and null are lower case)";
        QTest::newRow("unquoted name") << "{name: 1}"
                                       << "line 1, column 3: 'na' is not a JSON value (strings need double quotes; "
                                          "true, false and null are lower case)";
        QTest::newRow("huge number") << R"({"a": 1e999})"
                                     << "number 1e999 is too large for a double";
        QTest::newRow("newline in string")
            << "{\"a\": \"x\ny\"}"
            << "line 2, column 0: a string is not closed, or holds a control character or a bad escape";
    }
    void inWords()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const std::string got = describe(text.toStdString());
        QCOMPARE(QString::fromStdString(got), expected);
        QVERIFY(got.find("json.exception") == std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestJsonError)
#include "tst_jsonerror.moc"
