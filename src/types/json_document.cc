#include "types/json_document.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "types/utf8.h"

namespace sibyl::types {
namespace {

class JsonParser {
 public:
  explicit JsonParser(std::string_view input) : in_(input) {}

  // Throws std::invalid_argument naming the problem.
  JsonValue ParseDocument() {
    JsonValue value = ParseValue(0);
    SkipSpace();
    if (pos_ != in_.size()) Fail("unexpected content after the JSON value");
    return value;
  }

 private:
  static constexpr int kMaxDepth = 256;

  [[noreturn]] void Fail(const std::string& what) const {
    throw std::invalid_argument(what + " at character " + std::to_string(pos_));
  }
  void SkipSpace() {
    while (pos_ < in_.size() && std::isspace(static_cast<unsigned char>(in_[pos_]))) ++pos_;
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < in_.size() && in_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Consume(c)) Fail(std::string("expected '") + c + "'");
  }
  // The whole (UTF-8) character at `at`, so a message never quotes half of one.
  std::string_view CharacterAt(size_t at) const {
    const auto lead = static_cast<unsigned char>(in_[at]);
    const size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    return in_.substr(at, length);
  }
  bool ConsumeWord(std::string_view word) {
    if (in_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  JsonValue ParseValue(int depth) {
    if (depth > kMaxDepth) Fail("JSON nested too deeply");
    SkipSpace();
    if (pos_ >= in_.size()) Fail("unexpected end of input");
    JsonValue value;
    const char c = in_[pos_];
    if (c == '{') {
      ++pos_;
      value.kind = JsonValue::Kind::kObject;
      if (Consume('}')) return value;
      do {
        SkipSpace();
        if (pos_ >= in_.size() || in_[pos_] != '"') Fail("expected a string key");
        std::string key = ParseString();
        Expect(':');
        JsonValue member = ParseValue(depth + 1);
        // As a Java map: a repeated key keeps its last value.
        auto it = std::find_if(value.members.begin(), value.members.end(),
                               [&](const auto& m) { return m.first == key; });
        if (it != value.members.end()) {
          it->second = std::move(member);
        } else {
          value.members.push_back(JsonMember{std::move(key), std::move(member)});
        }
      } while (Consume(','));
      Expect('}');
    } else if (c == '[') {
      ++pos_;
      value.kind = JsonValue::Kind::kArray;
      if (Consume(']')) return value;
      do {
        value.elements.push_back(ParseValue(depth + 1));
      } while (Consume(','));
      Expect(']');
    } else if (c == '"') {
      value.kind = JsonValue::Kind::kString;
      value.text = ParseString();
    } else if (ConsumeWord("true") || ConsumeWord("false")) {
      value.kind = JsonValue::Kind::kBool;
      value.text = c == 't' ? "true" : "false";
    } else if (ConsumeWord("null")) {
      value.kind = JsonValue::Kind::kNull;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      value.kind = JsonValue::Kind::kNumber;
      const size_t start = pos_;
      if (in_[pos_] == '-') ++pos_;
      auto digits = [&] {
        const size_t from = pos_;
        while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
        if (pos_ == from) Fail("malformed number");
      };
      digits();
      if (pos_ < in_.size() && in_[pos_] == '.') {
        ++pos_;
        digits();
      }
      if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
        ++pos_;
        if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) ++pos_;
        digits();
      }
      value.text = std::string(in_.substr(start, pos_ - start));
    } else {
      Fail("unexpected character '" + std::string(CharacterAt(pos_)) + "'");
    }
    return value;
  }

  uint32_t ParseHex4() {
    if (pos_ + 4 > in_.size()) Fail("truncated \\u escape");
    uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = in_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= uint32_t(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= uint32_t(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= uint32_t(h - 'A' + 10);
      else
        Fail("malformed \\u escape");
    }
    return code;
  }

  // REQUIRES: in_[pos_] == '"'.
  std::string ParseString() {
    ++pos_;
    std::string out;
    for (;;) {
      if (pos_ >= in_.size()) Fail("unterminated string");
      const char c = in_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) Fail("control character in string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= in_.size()) Fail("unterminated string");
      const char e = in_[pos_++];
      switch (e) {
        case '"':
          out.push_back('"');
          break;
        case '\\':
          out.push_back('\\');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          uint32_t code = ParseHex4();
          if (code >= 0xD800 && code < 0xDC00 && in_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            const uint32_t low = ParseHex4();
            if (low < 0xDC00 || low > 0xDFFF) Fail("malformed surrogate pair");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, code);
          break;
        }
        default:
          Fail(std::string("malformed escape \\") + e);
      }
    }
  }

  std::string_view in_;
  size_t pos_ = 0;
};

}  // namespace

JsonValue ParseJsonDocument(std::string_view text) { return JsonParser(text).ParseDocument(); }

}  // namespace sibyl::types
