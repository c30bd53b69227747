#include "locator/java_properties.h"

#include <gtest/gtest.h>

namespace sibyl::locator {
namespace {

using Properties = std::map<std::string, std::string>;

TEST(JavaPropertiesTest, CassandrasDefaultFile) {
  EXPECT_EQ(ParseJavaProperties("# These properties are used with GossipingPropertyFileSnitch\n"
                                "# and will indicate the rack and dc for this node\n"
                                "dc=dc1\n"
                                "rack=rack1\n"
                                "\n"
                                "# Add a suffix to a datacenter name.\n"
                                "# dc_suffix=\n"
                                "\n"
                                "# prefer_local=true\n"),
            (Properties{{"dc", "dc1"}, {"rack", "rack1"}}));
}

TEST(JavaPropertiesTest, SeparatorsAndBlanks) {
  EXPECT_EQ(ParseJavaProperties("a=1\n"
                                "b: 2\n"
                                "  c = 3  \n"
                                "d 4\n"
                                "e\t:\t5\n"
                                "f\n"
                                "g==7\n"
                                "! comment\n"
                                "   # indented comment\n"),
            (Properties{{"a", "1"},
                        {"b", "2"},
                        {"c", "3  "},  // trailing blanks stay in the value
                        {"d", "4"},
                        {"e", "5"},
                        {"f", ""},
                        {"g", "=7"}}));
}

TEST(JavaPropertiesTest, LineEndingsContinuationsAndEscapes) {
  EXPECT_EQ(ParseJavaProperties("a=1\r\nb=2\rc=3"),
            (Properties{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_EQ(ParseJavaProperties("dc=east\\\n     -1\nrack=r\\\\\nx=y\n"),
            (Properties{{"dc", "east-1"}, {"rack", "r\\"}, {"x", "y"}}));
  EXPECT_EQ(ParseJavaProperties("key\\ with\\=sep=v\\t\\u0041\\u00e9\\q\n"),
            (Properties{{"key with=sep", "v\tA\xc3\xa9q"}}));
  EXPECT_EQ(ParseJavaProperties("# a comment ends its line only \\\ndc=1\n"),
            (Properties{{"dc", "1"}}));
  EXPECT_EQ(ParseJavaProperties("dc=1\ndc=2\n"), (Properties{{"dc", "2"}}));
}

}  // namespace
}  // namespace sibyl::locator
