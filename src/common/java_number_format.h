#pragma once
// Numbers as Cassandra's Java code prints them, where Sibyl must print the
// same text: java.text.DecimalFormat's rounding (half to even), and
// FileUtils.stringifyFileSize (nodetool's loads, GuardrailsOptions'
// messages).

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace sibyl {

// `value` rounded half to even at `decimals` digits (DecimalFormat's
// default), written with exactly that many decimals.
inline std::string FormatHalfEven(double value, int decimals) {
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

// A size as FileUtils.stringifyFileSize writes it: the largest binary unit
// not above the value, at most two decimals without trailing zeros ("#.##"),
// half to even: "512 bytes", "1 KiB", "70.52 KiB", "3.1 GiB".
inline std::string FormatFileSize(int64_t bytes) {
  struct Unit {
    double size;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1024.0 * 1024 * 1024 * 1024, "TiB"},
                                    {1024.0 * 1024 * 1024, "GiB"},
                                    {1024.0 * 1024, "MiB"},
                                    {1024.0, "KiB"},
                                    {1.0, "bytes"}};
  const auto value = static_cast<double>(bytes);
  const Unit* unit = &kUnits[4];
  for (const Unit& candidate : kUnits) {
    if (value >= candidate.size) {
      unit = &candidate;
      break;
    }
  }
  std::string text = FormatHalfEven(value / unit->size, 2);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text + " " + unit->name;
}

}  // namespace sibyl
