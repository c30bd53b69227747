// The CQL of the data-modelling articles in the project's seed documents
// (shared/seeds/): every statement must be accepted as the statement it is,
// and the one with a typo must be refused as Cassandra refuses it.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "cql/parser.h"

namespace sibyl::cql {
namespace {

struct Example {
  const char* kind;  // StatementKindName of the statement
  const char* cql;
};

const std::vector<Example>& SeedStatements() {
  static const std::vector<Example> examples = {
      {"CREATE TABLE", R"(CREATE TABLE user_activities (
    user_id uuid,                    -- Partition key: groups data by user
    activity_timestamp timestamp,    -- Clustering column: sorts activities by time
    activity_type text,              -- Type of activity (login, purchase, etc.)
    activity_data text,              -- JSON or other serialized activity details
    device_info text,                -- Device that generated the activity
    ip_address text,                 -- IP address of the request
    PRIMARY KEY (user_id, activity_timestamp)
) WITH CLUSTERING ORDER BY (activity_timestamp DESC);
-- DESC ordering returns most recent activities first without extra sorting
)"},
      {"SELECT", R"(-- Fetch the 20 most recent activities for a user
-- This hits a single partition and returns pre-sorted results
SELECT * FROM user_activities
WHERE user_id = 550e8400-e29b-41d4-a716-446655440000
LIMIT 20;)"},
      {"CREATE TABLE", R"(CREATE TABLE user_activities_by_type (
    user_id uuid,                    -- Part of partition key
    activity_type text,              -- Part of partition key: enables type filtering
    activity_timestamp timestamp,    -- Clustering column for time ordering
    activity_data text,
    device_info text,
    ip_address text,
    PRIMARY KEY ((user_id, activity_type), activity_timestamp)
    -- Double parentheses indicate composite partition key
) WITH CLUSTERING ORDER BY (activity_timestamp DESC);)"},
      {"SELECT", R"(SELECT * FROM user_activities_by_type
WHERE user_id = 550e8400-e29b-41d4-a716-446655440000
  AND activity_type = 'purchase'
LIMIT 50;)"},
      {"CREATE TABLE", R"(CREATE TABLE user_activities_by_month (
    user_id uuid,                    -- Part of partition key
    year_month text,                 -- Part of partition key: '2026-01' format
    activity_timestamp timestamp,    -- Clustering column for range queries
    activity_type text,
    activity_data text,
    device_info text,
    ip_address text,
    PRIMARY KEY ((user_id, year_month), activity_timestamp)
) WITH CLUSTERING ORDER BY (activity_timestamp DESC);)"},
      {"SELECT", R"(SELECT * FROM user_activities_by_month
WHERE user_id = 550e8400-e29b-41d4-a716-446655440000
  AND year_month = '2026-01'
  AND activity_timestamp >= '2026-01-15 00:00:00'
  AND activity_timestamp < '2026-01-20 00:00:00';)"},
      {"BATCH", R"(BEGIN BATCH
    INSERT INTO user_activities (
        user_id, activity_timestamp, activity_type, activity_data, device_info, ip_address
    ) VALUES (
        550e8400-e29b-41d4-a716-446655440000,
        '2026-01-26 10:30:00',
        'purchase',
        '{"item_id": "ABC123", "amount": 99.99}',
        'iPhone 15 Pro',
        '192.168.1.100'
    );

    INSERT INTO user_activities_by_type (
        user_id, activity_type, activity_timestamp, activity_data, device_info, ip_address
    ) VALUES (
        550e8400-e29b-41d4-a716-446655440000,
        'purchase',
        '2026-01-26 10:30:00',
        '{"item_id": "ABC123", "amount": 99.99}',
        'iPhone 15 Pro',
        '192.168.1.100'
    );
APPLY BATCH;)"},
      {"SELECT", R"(SELECT * FROM user_activities
WHERE activity_type = 'purchase'
ALLOW FILTERING;)"},
      {"SELECT", R"(SELECT * FROM user_activities_by_type
WHERE user_id = ? AND activity_type = 'purchase';)"},
      {"CREATE TABLE", R"(CREATE TABLE over_clustered (
    user_id uuid,
    year int,
    month int,
    day int,
    hour int,
    activity_data text,
    PRIMARY KEY (user_id, year, month, day, hour)
);)"},
      {"SELECT", "SELECT * FROM over_clustered WHERE user_id = ? AND year = 2026 AND day = 26;"},
      {"CREATE TABLE", R"(CREATE TABLE time_bucketed (
    user_id uuid,
    date text,                       -- '2026-01-26' format
    activity_timestamp timestamp,
    activity_data text,
    PRIMARY KEY (user_id, date, activity_timestamp)
);)"},
      {"CREATE TABLE", R"(CREATE TABLE user_with_huge_list (
    user_id uuid PRIMARY KEY,
    all_activities list<text>        -- Grows unbounded, loaded entirely on read
);)"},
      {"CREATE TABLE", R"(CREATE TABLE user_activities_proper (
    user_id uuid,
    activity_timestamp timestamp,
    activity_data text,
    PRIMARY KEY (user_id, activity_timestamp)
);)"},
      {"CREATE INDEX", "CREATE INDEX ON user_activities (activity_type);"},
      {"SELECT", R"(SELECT * FROM user_activities
WHERE user_id = 550e8400-e29b-41d4-a716-446655440000
  AND activity_type = 'login';)"},
      {"CREATE TABLE", R"(CREATE TABLE metrics (
    metric_name text,                -- Name of the metric (e.g., 'cpu_usage')
    bucket timestamp,                -- Truncated to hour: '2026-01-26 10:00:00'
    recorded_at timestamp,           -- Exact measurement time
    value double,                    -- Metric value
    tags map<text, text>,            -- Additional dimensions
    PRIMARY KEY ((metric_name, bucket), recorded_at)
) WITH CLUSTERING ORDER BY (recorded_at DESC)
  AND default_time_to_live = 2592000;  -- Auto-delete after 30 days (in seconds)
)"},
      {"INSERT",
       "INSERT INTO metrics (metric_name, bucket, recorded_at, value, tags) "
       "VALUES (?, ?, ?, ?, ?)"},
      {"SELECT", "SELECT * FROM metrics WHERE metric_name = ? AND bucket = ?"},
      {"CREATE TABLE",
       "CREATE TABLE videos (  \n    videoid uuid,  \n    userid uuid,  \n"
       "    name text,  \n    description text,  \n    location text,  \n"
       "    location_type text,  \n    preview_image_location text,  \n"
       "    tags set<text>,  \n    added_date timestamp,  \n"
       "    PRIMARY KEY (videoid)  \n);"},
      {"CREATE TABLE", R"(CREATE TABLE IF NOT EXISTS latest_videos (
    yyyyymmdd text,
    added_date timestamp,
    videoid uuid,
    userid uuid,
    name text,
    preview_image_location text,
    PRIMARY KEY (yyyyymmdd, added_date, videoid)
) WITH CLUSTERING ORDER BY (added_date DESC, videoid ASC);)"},
      {"SELECT", R"(SELECT commentid, toTimestamp(commentid) AS timestamp, videoid, comment
FROM comments_by_user
WHERE userid = 2506535a-4999-438d-8682-d5a739596343
LIMIT 3;)"},
      {"CREATE TABLE",
       "CREATE TABLE videos (videoid uuid PRIMARY KEY, name text, tags set<text>);"},
      {"UPDATE",
       "UPDATE videos SET tags = tags + {'wet cat'}  \n"
       "WHERE videoid = 5b6962dd-3f90-4c93-8f61-eabfa4a803e2;"},
      {"CREATE TYPE",
       "CREATE TYPE address (  \n    unit text,  \n    street_number text,  \n"
       "    street_name text,  \n    city text,  \n    prov_state text,  \n"
       "    post_code text  \n);"},
      {"SELECT", "SELECT * FROM groups WHERE groupname = ? ;"},
      {"CREATE TABLE",
       "CREATE TABLE groups (  \n    groupname text,  \n"
       "    group_description text static,  \n    userid uuid,  \n"
       "    firstname text,  \n    lastname text,  \n"
       "    PRIMARY KEY (groupname, userid)  \n);"},
      {"CREATE TABLE",
       "CREATE TABLE users (  \n    userid uuid,  \n    firstname text,  \n"
       "    lastname text,  \n    PRIMARY KEY (userid)  \n);"},
      {"CREATE TABLE",
       "CREATE TABLE groups (  \n    groupname text,  \n"
       "    group_description text,  \n    PRIMARY KEY (groupname)  \n);"},
      {"CREATE TABLE",
       "CREATE TABLE user_groups (  \n    groupname text,  \n    userid uuid,  \n"
       "    PRIMARY KEY (groupname, userid)  \n);"},
      {"CREATE TABLE",
       "CREATE TABLE user_accounts (  \n    username text PRIMARY KEY,  \n"
       "    email text,  \n    password text,  \n    country text  \n);"},
      {"CREATE INDEX", "CREATE INDEX user_account_country ON user_accounts(country);"},
      {"SELECT", "SELECT * FROM user_accounts WHERE country = 'UK';"},
      {"CREATE MATERIALIZED VIEW",
       "CREATE MATERIALIZED VIEW users_by_email AS  \nSELECT email, password, country  \n"
       "FROM user_accounts  \nWHERE username IS NOT NULL AND email IS NOT NULL  \n"
       "PRIMARY KEY (email, username);"},
      {"SELECT", "SELECT * FROM users_by_email WHERE email = ?;"},
  };
  return examples;
}

TEST(ParserCorpusTest, SeedStatementsParseAsTheirKind) {
  for (const Example& example : SeedStatements()) {
    SCOPED_TRACE(example.cql);
    ParsedStatement parsed;
    try {
      parsed = ParseStatement(example.cql);
    } catch (const CqlError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_EQ(StatementKindName(parsed.statement), example.kind);
  }
}

// The seed's CREATE TABLE users has a typo (`list<frozen<address>>s`);
// Cassandra refuses it at the stray `s`.
TEST(ParserCorpusTest, SeedTypoIsASyntaxError) {
  const char* typo =
      "CREATE TABLE users (  \n    userid uuid PRIMARY KEY,  \n"
      "    firstname text,  \n    lastname text,  \n    address address,  \n"
      "    previous_addresses list<frozen<address>>s  \n);";
  try {
    (void)ParseStatement(typo);
    ADD_FAILURE() << "parsed";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kSyntaxError);
    EXPECT_STREQ(e.what(),
                 "line 6:44 mismatched input 's' expecting ')' "
                 "(...      previous_addresses list<frozen<address>>[s]...)");
  }
}

TEST(ParserCorpusTest, SeedTablesParseToTheirDefinitions) {
  ParsedStatement metrics = ParseStatement(R"(CREATE TABLE metrics (
    metric_name text,                -- Name of the metric (e.g., 'cpu_usage')
    bucket timestamp,                -- Truncated to hour: '2026-01-26 10:00:00'
    recorded_at timestamp,           -- Exact measurement time
    value double,                    -- Metric value
    tags map<text, text>,            -- Additional dimensions
    PRIMARY KEY ((metric_name, bucket), recorded_at)
) WITH CLUSTERING ORDER BY (recorded_at DESC)
  AND default_time_to_live = 2592000;  -- Auto-delete after 30 days (in seconds)
)");
  const auto& table = std::get<CreateTableStatement>(metrics.statement);
  EXPECT_EQ(table.table.name, "metrics");
  EXPECT_FALSE(table.table.keyspace);
  ASSERT_EQ(table.columns.size(), 5u);
  EXPECT_EQ(table.columns[4].name, "tags");
  EXPECT_EQ(table.columns[4].type, "map<text, text>");
  EXPECT_EQ(table.partition_key, (std::vector<std::string>{"metric_name", "bucket"}));
  EXPECT_EQ(table.clustering_columns, std::vector<std::string>{"recorded_at"});
  ASSERT_EQ(table.clustering_order.size(), 1u);
  EXPECT_EQ(table.clustering_order[0].column, "recorded_at");
  EXPECT_TRUE(table.clustering_order[0].descending);
  ASSERT_EQ(table.options.size(), 1u);
  EXPECT_EQ(table.options[0].name, "default_time_to_live");
  EXPECT_EQ(table.options[0].value.kind, OptionValue::Kind::kConstant);
  EXPECT_EQ(table.options[0].value.constant_kind, Term::Kind::kInteger);
  EXPECT_EQ(table.options[0].value.text, "2592000");

  const auto groups = std::get<CreateTableStatement>(
      ParseStatement("CREATE TABLE groups (  \n    groupname text,  \n"
                     "    group_description text static,  \n    userid uuid,  \n"
                     "    firstname text,  \n    lastname text,  \n"
                     "    PRIMARY KEY (groupname, userid)  \n);")
          .statement);
  EXPECT_TRUE(groups.columns[1].is_static);
  EXPECT_EQ(groups.partition_key, std::vector<std::string>{"groupname"});

  const auto latest = std::get<CreateTableStatement>(
      ParseStatement("CREATE TABLE IF NOT EXISTS latest_videos (yyyyymmdd text, added_date "
                     "timestamp, videoid uuid, PRIMARY KEY (yyyyymmdd, added_date, videoid)) "
                     "WITH CLUSTERING ORDER BY (added_date DESC, videoid ASC);")
          .statement);
  EXPECT_TRUE(latest.if_not_exists);
  ASSERT_EQ(latest.clustering_order.size(), 2u);
  EXPECT_FALSE(latest.clustering_order[1].descending);

  const auto address = std::get<CreateTypeStatement>(
      ParseStatement("CREATE TYPE address (  \n    unit text,  \n    street_number text,  \n"
                     "    street_name text,  \n    city text,  \n    prov_state text,  \n"
                     "    post_code text  \n);")
          .statement);
  EXPECT_EQ(address.type.name, "address");
  ASSERT_EQ(address.fields.size(), 6u);
  EXPECT_EQ(address.fields[5].name, "post_code");

  const auto view = std::get<CreateViewStatement>(
      ParseStatement("CREATE MATERIALIZED VIEW users_by_email AS  \nSELECT email, password, "
                     "country  \nFROM user_accounts  \nWHERE username IS NOT NULL AND email IS "
                     "NOT NULL  \nPRIMARY KEY (email, username);")
          .statement);
  EXPECT_EQ(view.base_table.name, "user_accounts");
  EXPECT_EQ(view.selectors.size(), 3u);
  EXPECT_EQ(view.where.size(), 2u);
  EXPECT_EQ(view.partition_key, std::vector<std::string>{"email"});
  EXPECT_EQ(view.clustering_columns, std::vector<std::string>{"username"});

  const auto index = std::get<CreateIndexStatement>(
      ParseStatement("CREATE INDEX user_account_country ON user_accounts(country);").statement);
  EXPECT_EQ(index.index_name, "user_account_country");
  ASSERT_EQ(index.targets.size(), 1u);
  EXPECT_EQ(index.targets[0].column, "country");
  EXPECT_EQ(index.targets[0].kind, IndexTarget::Kind::kSimple);
}

TEST(ParserCorpusTest, SeedWritesParseToTheirStatements) {
  const auto update = std::get<UpdateStatement>(
      ParseStatement("UPDATE videos SET tags = tags + {'wet cat'}  \n"
                     "WHERE videoid = 5b6962dd-3f90-4c93-8f61-eabfa4a803e2;")
          .statement);
  ASSERT_EQ(update.operations.size(), 1u);
  EXPECT_EQ(update.operations[0].kind, UpdateOperation::Kind::kAdd);
  EXPECT_EQ(update.operations[0].value.kind, Term::Kind::kSet);
  EXPECT_EQ(update.where[0].terms[0].kind, Term::Kind::kUuid);

  const auto batch = std::get<BatchStatement>(
      ParseStatement("BEGIN BATCH INSERT INTO user_activities (user_id, activity_type) VALUES "
                     "(550e8400-e29b-41d4-a716-446655440000, 'purchase'); INSERT INTO "
                     "user_activities_by_type (user_id, activity_type) VALUES (?, ?); APPLY BATCH;")
          .statement);
  EXPECT_EQ(batch.type, BatchStatement::Type::kLogged);
  ASSERT_EQ(batch.statements.size(), 2u);
  const auto& second = std::get<InsertStatement>(batch.statements[1]);
  EXPECT_EQ(second.table.name, "user_activities_by_type");
  EXPECT_EQ(second.values[1].bind_index, 1);
}

TEST(ParserCorpusTest, SeedBindMarkers) {
  EXPECT_EQ(ParseStatement("INSERT INTO metrics (metric_name, bucket, recorded_at, value, tags) "
                           "VALUES (?, ?, ?, ?, ?)")
                .bind_marker_count,
            5);
  EXPECT_EQ(
      ParseStatement("SELECT * FROM over_clustered WHERE user_id = ? AND year = 2026 AND day = 26")
          .bind_marker_count,
      1);
}

TEST(ParserCorpusTest, SeedAliasesMayBeUnreservedKeywords) {
  ParsedStatement parsed =
      ParseStatement("SELECT commentid, toTimestamp(commentid) AS timestamp FROM comments_by_user");
  const auto& select = std::get<SelectStatement>(parsed.statement);
  ASSERT_EQ(select.selectors.size(), 2u);
  EXPECT_EQ(select.selectors[1].kind, Selector::Kind::kFunction);
  EXPECT_EQ(select.selectors[1].name, "totimestamp");
  EXPECT_EQ(select.selectors[1].alias, "timestamp");
}

}  // namespace
}  // namespace sibyl::cql
