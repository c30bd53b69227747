#pragma once
// The options of a coordinator's writes and reads, shared by the
// coordinator (coordinator.h) and its cluster paths (write/, read/).

#include <cstdint>

namespace sibyl::cluster {

// The protocol's code of ONE (protocol::Consistency::kOne).
inline constexpr uint16_t kConsistencyOne = 0x0001;
// SERIAL and LOCAL_SERIAL (protocol::Consistency), the levels of Paxos reads.
inline constexpr uint16_t kConsistencySerial = 0x0008;
inline constexpr uint16_t kConsistencyLocalSerial = 0x0009;

// What a write is, as a WriteTimeout reports it (native protocol spec,
// section 8: the writeType strings).
enum class WriteType { kSimple, kBatch, kUnloggedBatch, kCounter, kBatchLog, kCas, kView, kCdc };
[[nodiscard]] const char* WriteTypeName(WriteType type);  // "SIMPLE", "UNLOGGED_BATCH", ...

struct WriteOptions {
  uint16_t consistency = kConsistencyOne;
  WriteType type = WriteType::kSimple;
};

}  // namespace sibyl::cluster
