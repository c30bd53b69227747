#include "schema/metadata_store.h"

#include <memory>

namespace sibyl::schema {

uint64_t MetadataStore::epoch() const {
  std::lock_guard lock(mutex_);
  return epoch_;
}

MetadataStore::CommitResult MetadataStore::Commit(const Transformation& transformation) {
  std::lock_guard lock(mutex_);
  CommitResult result;
  result.before = schemas_->snapshot();
  result.after = result.before;
  result.epoch = epoch_;
  std::optional<Schema::KeyspaceMap> next = transformation(*result.before);
  if (!next) return result;
  auto after = std::make_shared<const Schema>(std::move(*next));
  // Equal contents give an equal version: Cassandra answers such a change
  // (an empty diff) as a no-op too.
  if (after->version() == result.before->version()) return result;
  Persist(*after, epoch_ + 1);
  ++epoch_;
  schemas_->Publish(after);
  result.after = std::move(after);
  result.changed = true;
  result.epoch = epoch_;
  return result;
}

}  // namespace sibyl::schema
