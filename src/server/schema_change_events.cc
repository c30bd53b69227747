#include "server/schema_change_events.h"

#include "schema/schema_diff.h"

namespace sibyl::server {

void PublishSchemaChanges(schema::MetadataStore& store, EventBus& events) {
  store.AddPublishedListener([&events](const schema::Schema& before, const schema::Schema& after) {
    for (const protocol::SchemaChange& change : schema::SchemaChangesBetween(before, after)) {
      events.Publish(EventBus::SchemaChangeEvent(change));
    }
  });
}

}  // namespace sibyl::server
