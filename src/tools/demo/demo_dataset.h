#pragma once
// What `sibyl demo` loads: the data models the guides in the project's seeds
// teach, with a few thousand rows of believable data that obey them.
//
//   killrvideo      the KillrVideo schema of DataStax's "Data Modeling in
//                   Apache Cassandra: Five Steps to an Awesome Data Model":
//                   users (with the address type), user_credentials, videos,
//                   latest_videos (one partition per day), user_videos,
//                   comments_by_user / comments_by_video (timeuuid
//                   clustering, newest first), video_ratings (counters),
//                   videos_by_tag and tags_by_letter. Every denormalized
//                   copy is written in the same logged batch as its source.
//   user_activity   "How to design Cassandra data models": user_activities,
//                   _by_type and _by_month (month buckets), written three at
//                   a time in logged batches as the guide shows, and metrics
//                   (hour buckets, a 30-day default TTL). The guide's user
//                   550e8400-e29b-41d4-a716-446655440000 has January 2026
//                   activity, so the guide's queries work as written.
//
// Deterministic: the same seed and clock give the same statements.

#include <cstdint>
#include <string>
#include <vector>

namespace sibyl::tools::demo {

struct DemoExample {
  std::string why;  // one line: why the table answers the query
  std::string cql;
};

// CREATE KEYSPACE / TYPE / TABLE statements, in order.
std::vector<std::string> DemoSchema();

// INSERT / UPDATE statements and logged batches. `now_millis` places the
// videos and comments in the last week and the metrics in the last hours.
std::vector<std::string> DemoData(uint64_t seed, int64_t now_millis);

// Three queries on the loaded data.
std::vector<DemoExample> DemoExamples(int64_t now_millis);

// The day partition of latest_videos for a time: "yyyymmdd".
std::string DayBucket(int64_t millis);

}  // namespace sibyl::tools::demo
