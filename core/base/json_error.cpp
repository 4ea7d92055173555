#include "base/json_error.h"

#include <regex>

namespace rfx {

namespace {
// What follows "unexpected": nlohmann_json quotes the token it read ('...') or names it.
std::string token(const std::string& reason)
{
    static const std::regex unexpected(R"(unexpected (end of input|'[^']*'|[^;]+))");
    std::smatch m;
    if (std::regex_search(reason, m, unexpected))
        return m[1].str();
    return {};
}
} // namespace

std::string describeJsonError(const nlohmann::json::exception& error)
{
    std::string what = error.what();
    // "[json.exception.parse_error.101] " and the like: the library's own error code.
    if (const auto close = what.find("] "); what.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
        what = what.substr(close + 2);
    if (error.id == 406 || what.find("number overflow") != std::string::npos) {
        static const std::regex number(R"('([^']*)')");
        std::smatch m;
        const std::string n = std::regex_search(what, m, number) ? m[1].str() : std::string("a number");
        return "number " + n + " is too large for a double";
    }
    std::string place;
    static const std::regex at(R"(parse error at line (\d+), column (\d+): )");
    std::smatch m;
    if (std::regex_search(what, m, at)) {
        place = "line " + m[1].str() + ", column " + m[2].str() + ": ";
        what = m.suffix().str();
    } else if (what.rfind("parse error: ", 0) == 0) {
        what = what.substr(13);
    }
    if (what.find("empty input") != std::string::npos)
        return "the file is empty";
    const std::string tok = token(what);
    if (tok == "end of input")
        return place == "line 1, column 1: " ? std::string("the file is empty")
                                             : place + "the file ends in the middle of the JSON (cut short?)";
    if (what.find("invalid literal") != std::string::npos) {
        // "last read" holds what the lexer read up to the bad word; the word is its last run of letters.
        static const std::regex read(R"(last read: '.*?([A-Za-z_][A-Za-z0-9_]*)[^A-Za-z0-9_']*')");
        std::smatch r;
        const std::string word = std::regex_search(what, r, read) ? "'" + r[1].str() + "'" : std::string("a word");
        return place + word + " is not a JSON value (strings need double quotes; true, false and null are lower case)";
    }
    if (what.find("invalid string") != std::string::npos)
        return place + "a string is not closed, or holds a control character or a bad escape";
    std::string unexpected = tok.empty() ? std::string("this") : tok;
    if (unexpected == "number literal")
        unexpected = "a number";
    else if (unexpected == "string literal")
        unexpected = "a string";
    if (what.find("while parsing object key") != std::string::npos)
        return place + unexpected + " where a field name in double quotes should be (a trailing comma?)";
    if (what.find("while parsing object separator") != std::string::npos)
        return place + unexpected + " where ':' should follow the field name";
    if (what.find("while parsing object") != std::string::npos)
        return place + unexpected + " where ',' or '}' should be";
    if (what.find("while parsing array") != std::string::npos)
        return place + unexpected + " where ',' or ']' should be";
    if (what.find("while parsing value") != std::string::npos)
        return place + unexpected + " where a value should be (a trailing comma?)";
    if (what.find("expected end of input") != std::string::npos)
        return place + "more text after the end of the JSON document";
    return place + what;
}

} // namespace rfx
