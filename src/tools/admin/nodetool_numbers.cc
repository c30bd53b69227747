#include "tools/admin/nodetool_numbers.h"

#include <cfenv>
#include <cmath>
#include <cstdio>

namespace sibyl::tools::admin {
namespace {

// `value` rounded half to even at `decimals` digits (Java's DecimalFormat
// default), written with exactly that many decimals.
std::string FixedHalfEven(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  // nearbyint rounds in the current mode, round-to-nearest-even by default.
  const int old_mode = std::fegetround();
  std::fesetround(FE_TONEAREST);
  const double rounded = std::nearbyint(value * scale) / scale;
  std::fesetround(old_mode);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, rounded);
  return text;
}

// "#.##": at most two decimals, none of them trailing zeros, no lone point.
std::string UpToTwoDecimals(double value) {
  std::string text = FixedHalfEven(value, 2);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

std::string FormatFileSize(int64_t bytes) {
  struct Unit {
    double size;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1024.0 * 1024 * 1024 * 1024, "TiB"},
                                    {1024.0 * 1024 * 1024, "GiB"},
                                    {1024.0 * 1024, "MiB"},
                                    {1024.0, "KiB"}};
  const auto value = static_cast<double>(bytes);
  for (const Unit& unit : kUnits) {
    if (value >= unit.size) return UpToTwoDecimals(value / unit.size) + " " + unit.name;
  }
  return UpToTwoDecimals(value) + " bytes";
}

std::string FormatPercent(double fraction, int decimals) {
  return FixedHalfEven(fraction * 100.0, decimals) + "%";
}

}  // namespace sibyl::tools::admin
