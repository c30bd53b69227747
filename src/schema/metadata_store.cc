#include "schema/metadata_store.h"

#include <exception>
#include <memory>
#include <string>

#include "common/error.h"

namespace sibyl::schema {

void MetadataStore::AddListener(Listener listener) {
  std::lock_guard lock(mutex_);
  listeners_.push_back(std::move(listener));
}

void MetadataStore::AddPublishedListener(Listener listener) {
  std::lock_guard lock(mutex_);
  published_listeners_.push_back(std::move(listener));
}

MetadataStore::CommitResult MetadataStore::Commit(const Transformation& transformation) {
  std::lock_guard lock(mutex_);
  for (;;) {
    CommitResult result;
    result.before = schemas_->snapshot();
    result.after = result.before;
    result.epoch = epoch();
    std::optional<Schema::KeyspaceMap> next = transformation(*result.before);
    if (!next) return result;
    auto after = std::make_shared<const Schema>(std::move(*next));
    // Equal contents give an equal version: Cassandra answers such a change
    // (an empty diff) as a no-op too.
    if (after->version() == result.before->version()) return result;
    if (Persist(*after, result.epoch + 1) == PersistResult::kSuperseded) continue;
    NotifyAndPublish(result.before, after, result.epoch + 1);
    result.after = std::move(after);
    result.changed = true;
    result.epoch = epoch();
    return result;
  }
}

void MetadataStore::PublishLocked(SchemaPtr after, uint64_t epoch) {
  const SchemaPtr before = schemas_->snapshot();
  if (after == nullptr) {
    epoch_.store(epoch, std::memory_order_release);
    return;
  }
  NotifyAndPublish(before, after, epoch);
}

void MetadataStore::NotifyAndPublish(const SchemaPtr& before, const SchemaPtr& after,
                                     uint64_t epoch) {
  for (const Listener& listener : listeners_) {
    try {
      listener(*before, *after);
    } catch (const CqlError&) {
      throw;
    } catch (const std::exception& e) {
      throw CqlError(ErrorCode::kServerError,
                     std::string("Failed to apply the schema change: ") + e.what());
    }
  }
  epoch_.store(epoch, std::memory_order_release);
  schemas_->Publish(after);
  for (const Listener& listener : published_listeners_) listener(*before, *after);
}

}  // namespace sibyl::schema
