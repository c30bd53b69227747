#pragma once
// The text of a Java .properties file read as java.util.Properties.load
// reads it, for cassandra-rackdc.properties:
//
//   - lines whose first non-blank character is '#' or '!' are comments;
//   - a key ends at the first unescaped '=', ':' or blank; blanks around
//     the separator are skipped, blanks ending the value are kept;
//   - a line ending in an odd number of backslashes continues on the next,
//     whose leading blanks are dropped;
//   - escapes: \t \n \r \f, \uXXXX (written out as UTF-8), and a backslash
//     before any other character stands for that character;
//   - a key given twice keeps its last value.
//
// Blanks are ' ', '\t' and '\f'. Bytes other than escapes are kept as they
// are (Java would read ISO-8859-1; UTF-8 files keep their text this way).

#include <map>
#include <string>
#include <string_view>

namespace sibyl::locator {

std::map<std::string, std::string> ParseJavaProperties(std::string_view text);

}  // namespace sibyl::locator
