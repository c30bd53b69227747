#pragma once
// A failure `sibyl admin` reports to the operator and exits 1 on: the node
// cannot be reached, it answered with an error, or the request cannot be
// answered (an unknown keyspace). The message is printed as it is.

#include <stdexcept>

namespace sibyl::tools::admin {

class AdminError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace sibyl::tools::admin
