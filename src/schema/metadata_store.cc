#include "schema/metadata_store.h"

#include <exception>
#include <memory>
#include <string>

#include "common/error.h"

namespace sibyl::schema {

uint64_t MetadataStore::epoch() const {
  std::lock_guard lock(mutex_);
  return epoch_;
}

void MetadataStore::AddListener(Listener listener) {
  std::lock_guard lock(mutex_);
  listeners_.push_back(std::move(listener));
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
  for (const Listener& listener : listeners_) {
    try {
      listener(*result.before, *after);
    } catch (const CqlError&) {
      throw;
    } catch (const std::exception& e) {
      throw CqlError(ErrorCode::kServerError,
                     std::string("Failed to apply the schema change: ") + e.what());
    }
  }
  ++epoch_;
  schemas_->Publish(after);
  result.after = std::move(after);
  result.changed = true;
  result.epoch = epoch_;
  return result;
}

}  // namespace sibyl::schema
