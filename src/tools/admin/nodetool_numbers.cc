#include "tools/admin/nodetool_numbers.h"

namespace sibyl::tools::admin {

std::string FormatPercent(double fraction, int decimals) {
  return FormatHalfEven(fraction * 100.0, decimals) + "%";
}

}  // namespace sibyl::tools::admin
