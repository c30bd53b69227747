#include "tools/shell/cell_text.h"

#include "types/value_codec.h"

namespace sibyl::tools::shell {
namespace {

constexpr const char* kGreen = "\033[0;1;32m";
constexpr const char* kYellow = "\033[0;1;33m";
constexpr const char* kBlue = "\033[0;1;34m";
constexpr const char* kMagenta = "\033[0;1;35m";
constexpr const char* kCyan = "\033[0;1;36m";
constexpr const char* kWhite = "\033[0;1;37m";
constexpr const char* kDarkMagenta = "\033[0;35m";

const char* ValueColor(const types::CqlType& type) {
  using types::Kind;
  switch (type.kind()) {
    case Kind::kAscii:
    case Kind::kText:
    case Kind::kCustom:
      return kYellow;
    case Kind::kBlob:
      return kDarkMagenta;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
    case Kind::kTuple:
    case Kind::kUdt:
    case Kind::kVector:
      return kBlue;
    default:
      return kGreen;
  }
}

std::string Colored(const char* color, const std::string& text) {
  return std::string(color) + text + kReset;
}

}  // namespace

std::string CellText(const types::CqlType& type, const OptBytes& value, bool color) {
  if (!value) return color ? Colored(kRed, "null") : "null";
  std::string text = types::Format(type, *value);
  return color ? Colored(ValueColor(type), text) : text;
}

std::string ColumnNameText(const std::string& name, ColumnRole role, bool color) {
  if (!color) return name;
  switch (role) {
    case ColumnRole::kPartitionKey:
      return Colored(kRed, name);
    case ColumnRole::kClustering:
      return Colored(kCyan, name);
    case ColumnRole::kStatic:
      return Colored(kWhite, name);
    case ColumnRole::kRegular:
      break;
  }
  return Colored(kMagenta, name);
}

}  // namespace sibyl::tools::shell
