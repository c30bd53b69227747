#include "query/statements/consistency_rules.h"

#include <string>

#include "common/check.h"
#include "common/error.h"
#include "schema/replication_params.h"

namespace sibyl::query {
namespace {

using protocol::Consistency;

bool Is(uint16_t consistency, Consistency level) {
  return consistency == static_cast<uint16_t>(level);
}

}  // namespace

bool IsSerialConsistency(uint16_t consistency) {
  return Is(consistency, Consistency::kSerial) || Is(consistency, Consistency::kLocalSerial);
}

uint16_t SerialConsistencyOf(const protocol::QueryParameters& params) {
  return params.serial_consistency.value_or(static_cast<uint16_t>(Consistency::kSerial));
}

void RefuseNodeLocal(uint16_t consistency) {
  if (Is(consistency, Consistency::kNodeLocal)) {
    ThrowInvalid(
        "NODE_LOCAL consistency level is highly dangerous and should be used only for debugging "
        "purposes");
  }
}

void ValidateConsistencyForRead(uint16_t consistency) {
  if (Is(consistency, Consistency::kAny)) {
    ThrowInvalid("ANY ConsistencyLevel is only supported for writes");
  }
}

void ValidateConsistencyForWrite(uint16_t consistency, const schema::TableMetadata& table,
                                 bool is_counter) {
  if (is_counter) {
    if (Is(consistency, Consistency::kAny)) {
      ThrowInvalid("Consistency level ANY is not yet supported for counter table " + table.name);
    }
    if (IsSerialConsistency(consistency)) {
      ThrowInvalid("Counter operations are inherently non-serializable");
    }
    return;
  }
  if (IsSerialConsistency(consistency)) {
    ThrowInvalid("You must use conditional updates for serializable writes");
  }
}

void ValidateConsistencyForCas(const protocol::QueryParameters& params,
                               const schema::TableMetadata& table, const schema::Schema& schema) {
  if (!IsSerialConsistency(SerialConsistencyOf(params))) {
    ThrowInvalid(
        "Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL");
  }
  const uint16_t commit = params.consistency;
  if (IsSerialConsistency(commit)) {
    ThrowInvalid(std::string(protocol::ConsistencyName(commit)) +
                 " is not supported as conditional update commit consistency. Use ANY if you "
                 "mean \"make sure it is accepted but I don't care how many replicas commit it "
                 "for non-SERIAL reads\"");
  }
  if (Is(commit, Consistency::kEachQuorum)) {
    const schema::KeyspaceMetadata* keyspace = schema.FindKeyspace(table.keyspace);
    SIBYL_CHECK(keyspace != nullptr, "the keyspace of a table being written is in the schema");
    const auto it = keyspace->replication.find("class");
    const std::string strategy = it == keyspace->replication.end() ? "" : it->second;
    if (strategy != schema::kNetworkTopologyStrategy) {
      ThrowInvalid("consistency level EACH_QUORUM not compatible with replication strategy (" +
                   strategy + ")");
    }
  }
}

void ValidateConsistencyForReadBeforeWrite(uint16_t consistency, size_t partitions) {
  if (Is(consistency, Consistency::kAny)) {
    ThrowInvalid("Write operation require a read but consistency ANY is not supported on reads");
  }
  ValidateSerialReadPartitions(consistency, partitions);
}

void ValidateSerialReadPartitions(uint16_t consistency, size_t partitions) {
  if (IsSerialConsistency(consistency) && partitions > 1) {
    ThrowInvalid(
        "SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time");
  }
}

}  // namespace sibyl::query
