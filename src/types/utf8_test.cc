#include "types/utf8.h"

#include <gtest/gtest.h>

namespace sibyl::types {
namespace {

TEST(Utf8Test, AcceptsWellFormedText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8(std::string("\0", 1)));
  EXPECT_TRUE(IsValidUtf8("\xc3\xa9"));          // é
  EXPECT_TRUE(IsValidUtf8("\xe2\x82\xac"));      // €
  EXPECT_TRUE(IsValidUtf8("\xed\x9f\xbf"));      // U+D7FF, just below the surrogates
  EXPECT_TRUE(IsValidUtf8("\xee\x80\x80"));      // U+E000
  EXPECT_TRUE(IsValidUtf8("\xf0\x9f\x98\x80"));  // 😀
  EXPECT_TRUE(IsValidUtf8("\xf4\x8f\xbf\xbf"));  // U+10FFFF
}

TEST(Utf8Test, RejectsWhatJavasDecoderRejects) {
  EXPECT_FALSE(IsValidUtf8("\x80"));              // stray continuation
  EXPECT_FALSE(IsValidUtf8("\xc3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\xc0\x80"));          // overlong NUL (modified UTF-8)
  EXPECT_FALSE(IsValidUtf8("\xc1\xbf"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xe0\x9f\xbf"));      // overlong 3-byte
  EXPECT_FALSE(IsValidUtf8("\xf0\x8f\xbf\xbf"));  // overlong 4-byte
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // U+D800 surrogate
  EXPECT_FALSE(IsValidUtf8("\xed\xbf\xbf"));      // U+DFFF surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // U+110000
  EXPECT_FALSE(IsValidUtf8("\xf5\x80\x80\x80"));
  EXPECT_FALSE(IsValidUtf8("\xff"));
  EXPECT_FALSE(IsValidUtf8("\xc3\x28"));  // bad continuation
  EXPECT_FALSE(IsValidUtf8("\xe2\x28\xa1"));
}

// One U+FFFD per maximal ill-formed subsequence (the Unicode standard's
// practice, which Java's decoder follows), cut at a character boundary.
TEST(Utf8Test, RepairsIllFormedText) {
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(ToValidUtf8("plain"), "plain");
  EXPECT_EQ(ToValidUtf8("a\x80z"), "a" + fffd + "z");
  EXPECT_EQ(ToValidUtf8("\xce\x8e\xce"), "\xce\x8e" + fffd);   // a character cut in two
  EXPECT_EQ(ToValidUtf8("\xe2\x82z"), fffd + "z");             // one maximal subsequence
  EXPECT_EQ(ToValidUtf8("\xed\xa0\x80"), fffd + fffd + fffd);  // a surrogate: three
  EXPECT_EQ(ToValidUtf8("\xf0\x9f\x98\x80!", 4), "\xf0\x9f\x98\x80");
  EXPECT_EQ(ToValidUtf8("ab\xf0\x9f\x98\x80", 5), "ab");  // never half a character
  EXPECT_EQ(ToValidUtf8("\xff\xff", 4), fffd);
  EXPECT_TRUE(IsValidUtf8(ToValidUtf8("\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc")));
}

// Where Java's decoder stops and the length its MalformedInputException reports.
TEST(Utf8Test, FindsWhereJavaStops) {
  auto at = [](std::string_view text) {
    const auto found = FindMalformedUtf8(text);
    return found ? std::make_pair(found->offset, found->length)
                 : std::make_pair(size_t{99}, size_t{99});
  };
  EXPECT_FALSE(FindMalformedUtf8("ok \xc3\xa9"));
  EXPECT_EQ(at("ab\xc3\x28"), std::make_pair(size_t{2}, size_t{1}));
  EXPECT_EQ(at("\x80"), std::make_pair(size_t{0}, size_t{1}));
  EXPECT_EQ(at("x\xe2\x82"), std::make_pair(size_t{1}, size_t{2}));  // cut short: what is left
  EXPECT_EQ(at("\xe2\x82x"), std::make_pair(size_t{0}, size_t{2}));
  EXPECT_EQ(at("\xe0\x80\x80"), std::make_pair(size_t{0}, size_t{1}));  // overlong
  EXPECT_EQ(at("\xed\xa0\x80"), std::make_pair(size_t{0}, size_t{3}));  // surrogate
  EXPECT_EQ(at("\xf0\x9f\x98"), std::make_pair(size_t{0}, size_t{3}));
  EXPECT_EQ(at("\xf0\x9fx"), std::make_pair(size_t{0}, size_t{2}));
  EXPECT_EQ(at("\xf0\x9f\x98x"), std::make_pair(size_t{0}, size_t{3}));
  EXPECT_EQ(at("\xf5\x80\x80\x80"), std::make_pair(size_t{0}, size_t{1}));
}

}  // namespace
}  // namespace sibyl::types
