#pragma once
// Numbers as nodetool 4.1 prints them, for output that scripts written
// against nodetool can parse unchanged. Sizes: FormatFileSize
// (common/java_number_format.h).

#include <string>

#include "common/java_number_format.h"

namespace sibyl::tools::admin {

// A fraction as a percentage with `decimals` digits after the point, as
// DecimalFormat("##0.0%") (decimals 1, status) or "##0.00%" (2, ring) does:
// 1.0 → "100.0%", 0.33333 → "33.3%" / "33.33%".
std::string FormatPercent(double fraction, int decimals);

}  // namespace sibyl::tools::admin
