#include "cql/keywords.h"

#include <algorithm>
#include <array>
#include <vector>

namespace sibyl::cql {
namespace {

struct Spelling {
  std::string_view word;  // lower case
  TokenType type;
};

// Every keyword spelling, sorted by word for binary search.
const std::vector<Spelling>& Spellings() {
  static const std::vector<Spelling> spellings = [] {
    std::vector<Spelling> all;
#define SIBYL_CQL_ADD_SPELLINGS(name, antlr, cls, ...)                                 \
  for (std::string_view word : std::initializer_list<std::string_view>{__VA_ARGS__}) { \
    all.push_back({word, TokenType::name});                                            \
  }
    SIBYL_CQL_KEYWORDS(SIBYL_CQL_ADD_SPELLINGS)
#undef SIBYL_CQL_ADD_SPELLINGS
    all.push_back({"true", TokenType::kBoolean});
    all.push_back({"false", TokenType::kBoolean});
    std::sort(all.begin(), all.end(),
              [](const Spelling& a, const Spelling& b) { return a.word < b.word; });
    return all;
  }();
  return spellings;
}

constexpr size_t kTokenTypeCount = static_cast<size_t>(TokenType::kCount_);

const std::array<KeywordClass, kTokenTypeCount>& Classes() {
  static const std::array<KeywordClass, kTokenTypeCount> classes = [] {
    std::array<KeywordClass, kTokenTypeCount> table{};
    table.fill(KeywordClass::kNotKeyword);
#define SIBYL_CQL_SET_CLASS(name, antlr, cls, ...) \
  table[static_cast<size_t>(TokenType::name)] = KeywordClass::cls;
    SIBYL_CQL_KEYWORDS(SIBYL_CQL_SET_CLASS)
#undef SIBYL_CQL_SET_CLASS
    return table;
  }();
  return classes;
}

// The longest spelling is "columnfamilies" (14 letters).
constexpr size_t kMaxSpelling = 14;

}  // namespace

KeywordClass ClassOf(TokenType type) {
  auto index = static_cast<size_t>(type);
  return index < kTokenTypeCount ? Classes()[index] : KeywordClass::kNotKeyword;
}

TokenType ClassifyWord(std::string_view word) {
  if (word.empty() || word.size() > kMaxSpelling) return TokenType::kIdent;
  char lower[kMaxSpelling];
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  std::string_view key(lower, word.size());
  const auto& spellings = Spellings();
  auto it = std::lower_bound(spellings.begin(), spellings.end(), key,
                             [](const Spelling& s, std::string_view k) { return s.word < k; });
  if (it != spellings.end() && it->word == key) return it->type;
  return TokenType::kIdent;
}

bool IsReservedWord(std::string_view word) {
  return ClassOf(ClassifyWord(word)) == KeywordClass::kReserved;
}

}  // namespace sibyl::cql
