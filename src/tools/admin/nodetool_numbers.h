#pragma once
// Numbers as nodetool 4.1 prints them, for output that scripts written
// against nodetool can parse unchanged.

#include <cstdint>
#include <string>

namespace sibyl::tools::admin {

// A size as FileUtils.stringifyFileSize writes it: the largest binary unit
// not above the value, at most two decimals without trailing zeros, half to
// even: "512 bytes", "1 KiB", "70.52 KiB", "3.1 GiB".
std::string FormatFileSize(int64_t bytes);

// A fraction as a percentage with `decimals` digits after the point, as
// DecimalFormat("##0.0%") (decimals 1, status) or "##0.00%" (2, ring) does:
// 1.0 → "100.0%", 0.33333 → "33.3%" / "33.33%".
std::string FormatPercent(double fraction, int decimals);

}  // namespace sibyl::tools::admin
