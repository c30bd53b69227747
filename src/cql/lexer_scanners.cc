#include "cql/lexer_scanners.h"

#include "cql/keywords.h"

namespace sibyl::cql::lexer_internal {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// The character at `i`, or '\0' past the end (never a character any rule
// here accepts).
char At(std::string_view in, size_t i) { return i < in.size() ? in[i] : '\0'; }

size_t SkipDigits(std::string_view in, size_t pos) {
  while (IsDigit(At(in, pos))) ++pos;
  return pos;
}

size_t SignLength(std::string_view in) { return At(in, 0) == '-' ? 1 : 0; }

Scan Stop(TokenType type, size_t at, FailureKind failure, char expected = 0) {
  Scan s;
  s.type = type;
  s.viable = at;
  s.accepts = false;
  s.failure = failure;
  s.expected = expected;
  return s;
}

Scan Complete(TokenType type, size_t length) {
  Scan s;
  s.type = type;
  s.viable = length;
  s.accepts = true;
  return s;
}

// Length in bytes of a duration unit at `pos` (DURATION_UNIT: y, mo, w, d,
// h, m, s, ms, us, µs, ns), 0 when none starts there; sets `incomplete` when
// a two-letter unit is cut short.
size_t UnitLength(std::string_view in, size_t pos, bool& incomplete) {
  incomplete = false;
  char c = Lower(At(in, pos));
  char next = Lower(At(in, pos + 1));
  switch (c) {
    case 'y':
    case 'w':
    case 'd':
    case 'h':
    case 's':
      return 1;
    case 'm':
      return (next == 'o' || next == 's') ? 2 : 1;
    case 'u':
    case 'n':
      if (next == 's') return 2;
      incomplete = true;
      return 1;
    case '\xC2':  // µ (U+00B5) is C2 B5 in UTF-8
      if (At(in, pos + 1) != '\xB5') return 0;
      if (Lower(At(in, pos + 2)) == 's') return 3;
      incomplete = true;
      return 2;
    default:
      return 0;
  }
}

}  // namespace

Scan ScanInteger(std::string_view in) {
  size_t sign = SignLength(in);
  size_t end = SkipDigits(in, sign);
  if (end == sign) return Stop(TokenType::kInteger, sign, FailureKind::kEarlyExit);
  return Complete(TokenType::kInteger, end);
}

Scan ScanFloat(std::string_view in) {
  size_t sign = SignLength(in);
  size_t pos = SkipDigits(in, sign);
  if (pos == sign) return Stop(TokenType::kFloat, sign, FailureKind::kEarlyExit);
  if (At(in, pos) == '.' && At(in, pos + 1) == '.') {
    // FLOAT's syntactic predicates: `1...` is the FLOAT `1.` before a RANGE,
    // `1..` an INTEGER before a RANGE (slices such as s[1..3]).
    Scan s = Complete(TokenType::kFloat, pos + 2);
    bool float_then_range = At(in, pos + 2) == '.';
    s.token_type = float_then_range ? TokenType::kFloat : TokenType::kInteger;
    s.token_length = float_then_range ? pos + 1 : pos;
    return s;
  }
  if (At(in, pos) == '.') pos = SkipDigits(in, pos + 1);
  char e = At(in, pos);
  if (e == 'e' || e == 'E') {
    ++pos;
    if (At(in, pos) == '+' || At(in, pos) == '-') ++pos;
    size_t digits_end = SkipDigits(in, pos);
    if (digits_end == pos) return Stop(TokenType::kFloat, pos, FailureKind::kEarlyExit);
    pos = digits_end;
  }
  return Complete(TokenType::kFloat, pos);
}

Scan ScanUnitDuration(std::string_view in) {
  size_t pos = SignLength(in);
  size_t digits_end = SkipDigits(in, pos);
  if (digits_end == pos) return Stop(TokenType::kDuration, pos, FailureKind::kEarlyExit);
  pos = digits_end;
  while (true) {
    bool incomplete = false;
    size_t unit = UnitLength(in, pos, incomplete);
    if (unit == 0) return Stop(TokenType::kDuration, pos, FailureKind::kNoViableAlt);
    if (incomplete) return Stop(TokenType::kDuration, pos + unit, FailureKind::kMismatchSet);
    pos += unit;
    if (!IsDigit(At(in, pos))) return Complete(TokenType::kDuration, pos);
    pos = SkipDigits(in, pos);
  }
}

Scan ScanIsoDuration(std::string_view in) {
  constexpr TokenType kType = TokenType::kDuration;
  size_t pos = SignLength(in);
  if (At(in, pos) != 'P') return Stop(kType, pos, FailureKind::kMismatchChar, 'P');
  ++pos;

  // The time designators after a 'T': nH[nM][nS] | nM[nS] | nS.
  auto time_part = [&](size_t p) -> Scan {
    ++p;            // 'T'
    int stage = 0;  // 0: nothing yet, 1: after H, 2: after M
    while (true) {
      if (!IsDigit(At(in, p))) {
        if (stage == 0) return Stop(kType, p, FailureKind::kNoViableAlt);
        return Complete(kType, p);
      }
      size_t d = SkipDigits(in, p);
      char c = At(in, d);
      if (c == 'H' && stage < 1) {
        stage = 1;
      } else if (c == 'M' && stage < 2) {
        stage = 2;
      } else if (c == 'S') {
        return Complete(kType, d + 1);
      } else {
        return Stop(kType, d, FailureKind::kNoViableAlt);
      }
      p = d + 1;
    }
  };

  if (At(in, pos) == 'T') return time_part(pos);
  size_t d = SkipDigits(in, pos);
  if (d == pos) return Stop(kType, pos, FailureKind::kNoViableAlt);
  char c = At(in, d);
  if (c == 'W') return Complete(kType, d + 1);
  if (c == '-' && d - pos == 4) {
    // The "alternative format" PYYYY-MM-DDThh:mm:ss.
    static constexpr std::string_view kShape = "-dd-ddTdd:dd:dd";
    size_t p = d;
    for (char want : kShape) {
      char got = At(in, p);
      if (want == 'd') {
        if (!IsDigit(got)) return Stop(kType, p, FailureKind::kMismatchSet);
      } else if (got != want) {
        return Stop(kType, p, FailureKind::kMismatchChar, want);
      }
      ++p;
    }
    return Complete(kType, p);
  }
  // nY[nM][nD] | nM[nD] | nD, then optionally the time designators.
  int stage = 0;  // 1: after Y, 2: after M, 3: after D
  while (true) {
    if (c == 'Y' && stage < 1) {
      stage = 1;
    } else if (c == 'M' && stage < 2) {
      stage = 2;
    } else if (c == 'D' && stage < 3) {
      stage = 3;
    } else {
      return Stop(kType, d, FailureKind::kNoViableAlt);
    }
    pos = d + 1;
    if (At(in, pos) == 'T') return time_part(pos);
    if (stage == 3 || !IsDigit(At(in, pos))) return Complete(kType, pos);
    d = SkipDigits(in, pos);
    c = At(in, d);
  }
}

Scan ScanUuid(std::string_view in) {
  static constexpr std::string_view kShape = "hhhhhhhh-hhhh-hhhh-hhhh-hhhhhhhhhhhh";
  size_t pos = 0;
  for (char want : kShape) {
    char got = At(in, pos);
    if (want == 'h') {
      if (!IsHex(got)) return Stop(TokenType::kUuid, pos, FailureKind::kMismatchSet);
    } else if (got != want) {
      return Stop(TokenType::kUuid, pos, FailureKind::kMismatchChar, want);
    }
    ++pos;
  }
  return Complete(TokenType::kUuid, pos);
}

Scan ScanHexNumber(std::string_view in) {
  if (At(in, 0) != '0') return Stop(TokenType::kHexNumber, 0, FailureKind::kMismatchChar, '0');
  char x = At(in, 1);
  if (x != 'x' && x != 'X') return Stop(TokenType::kHexNumber, 1, FailureKind::kMismatchSet);
  size_t pos = 2;
  while (IsHex(At(in, pos))) ++pos;
  return Complete(TokenType::kHexNumber, pos);
}

Scan ScanWord(std::string_view in) {
  if (!IsLetter(At(in, 0))) return Stop(TokenType::kIdent, 0, FailureKind::kNoViableAlt);
  size_t pos = 1;
  while (true) {
    char c = At(in, pos);
    if (!IsLetter(c) && !IsDigit(c) && c != '_') break;
    ++pos;
  }
  return Complete(ClassifyWord(in.substr(0, pos)), pos);
}

Scan ScanLiteral(std::string_view in, std::string_view text, TokenType type) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (At(in, i) != text[i]) return Stop(type, i, FailureKind::kMismatchChar, text[i]);
  }
  return Complete(type, text.size());
}

Scan ScanNegativeKeyword(std::string_view in, std::string_view word, TokenType type) {
  if (At(in, 0) != '-') return Stop(type, 0, FailureKind::kMismatchChar, '-');
  for (size_t i = 0; i < word.size(); ++i) {
    if (Lower(At(in, i + 1)) != word[i]) return Stop(type, i + 1, FailureKind::kMismatchSet);
  }
  return Complete(type, word.size() + 1);
}

Choice Choose(const Scan* candidates, size_t count) {
  constexpr size_t kMaxCandidates = 16;
  bool alive[kMaxCandidates] = {};
  size_t alive_count = 0;
  for (size_t c = 0; c < count && c < kMaxCandidates; ++c) {
    alive[c] = candidates[c].viable >= 1;
    if (alive[c]) ++alive_count;
  }
  Choice choice;
  if (alive_count == 0) {
    choice.failure_at = 0;
    return choice;
  }
  auto commit = [&](const Scan& s) {
    Choice result;
    if (s.token_length != 0) {
      result.ok = true;
      result.type = s.token_type;
      result.length = s.token_length;
    } else if (s.accepts) {
      result.ok = true;
      result.type = s.type;
      result.length = s.viable;
    } else {
      result.failure_at = s.viable;
      result.failure = s.failure;
      result.expected = s.expected;
    }
    return result;
  };
  for (size_t consumed = 1;; ++consumed) {
    if (alive_count == 1) {
      for (size_t c = 0; c < count; ++c) {
        if (alive[c]) return commit(candidates[c]);
      }
    }
    size_t continuing = 0;
    for (size_t c = 0; c < count; ++c) {
      if (alive[c] && candidates[c].viable > consumed) ++continuing;
    }
    if (continuing == 0) {
      // Nobody takes the next character: the first rule whose match is
      // complete here wins, as ANTLR's rule order decides ties.
      for (size_t c = 0; c < count; ++c) {
        if (alive[c] && candidates[c].accepts) return commit(candidates[c]);
      }
      choice.failure_at = consumed;
      return choice;
    }
    for (size_t c = 0; c < count; ++c) {
      if (alive[c] && candidates[c].viable <= consumed) {
        alive[c] = false;
        --alive_count;
      }
    }
  }
}

}  // namespace sibyl::cql::lexer_internal
