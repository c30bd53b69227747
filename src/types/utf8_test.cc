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

}  // namespace
}  // namespace sibyl::types
