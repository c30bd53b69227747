#pragma once
// The WITH options of CREATE TABLE and ALTER TABLE, turned into TableParams
// and checked as Cassandra 4.1 does (TableAttributes, TableParams,
// CompactionParams and the compaction strategies' validateOptions,
// CompressionParams, CachingParams, SpeculativeRetryPolicy,
// ReadRepairStrategy, MemtableParams).
//
// Accepted options: additional_write_policy, bloom_filter_fp_chance,
// caching, cdc, comment, compaction, compression, crc_check_chance,
// default_time_to_live, extensions, gc_grace_seconds, id (CREATE only),
// max_index_interval, memtable, memtable_flush_period_in_ms,
// min_index_interval, read_repair, speculative_retry.
//
// Errors are CqlError: kSyntaxError for unknown options and values that are
// not numbers ("Unknown property 'x'", "Invalid integer value v for 'x'"),
// kConfigError for values Cassandra's parameter classes refuse, e.g.
//   bloom_filter_fp_chance must be larger than 6.71E-5 and less than or equal to 1.0 (got 2.0)
//   default_time_to_live must be greater than or equal to 0 (got -1)
//   Unable to find compaction strategy class 'org.apache.cassandra.db.compaction.Foo'
//   Properties specified [foo] are not understood by SizeTieredCompactionStrategy
//   Invalid caching sub-options [foo]: only 'keys' and 'rows_per_partition' are allowed
//   Invalid value foo for option 'speculative_retry'

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "schema/property_definitions.h"
#include "schema/table_metadata.h"
#include "types/uuid.h"

namespace sibyl::schema {

// Cassandra's Attributes.MAX_TTL: 20 years in seconds.
inline constexpr int32_t kMaxTtlSeconds = 630720000;

// Throws "Unknown property 'x'" for a name that is no table option.
void ValidateTableOptionNames(const PropertyDefinitions& options);

// TableAttributes.build: `base` with the given options applied (the
// defaults for CREATE, the table's current parameters for ALTER). For a new
// table without bloom_filter_fp_chance the compaction's default applies
// (0.1 for LeveledCompactionStrategy, else 0.01). Then TableParams.validate.
[[nodiscard]] TableParams BuildTableParams(const PropertyDefinitions& options, TableParams base,
                                           bool new_table);

// The `id` option of CREATE TABLE, if given; kConfigError "Invalid table id".
[[nodiscard]] std::optional<types::Uuid> TableIdOption(const PropertyDefinitions& options);

using OptionMap = std::map<std::string, std::string>;
using GivenMap = std::map<std::string, std::string, std::less<>>;

// CompactionParams.fromMap + validate: the class resolved to its full name,
// min_threshold/max_threshold defaulted to 4/32, sub-options checked.
[[nodiscard]] OptionMap BuildCompaction(const GivenMap& given);
[[nodiscard]] bool IsLeveledCompaction(const OptionMap& compaction);

// CompressionParams.fromMap + validate, as system_schema stores it:
// {'chunk_length_in_kb': '16', 'class': 'org.apache.cassandra.io.compress.LZ4Compressor'}
// or {'enabled': 'false'}. A crc_check_chance sub-option (accepted for
// compatibility) is returned through `crc_check_chance`.
[[nodiscard]] OptionMap BuildCompression(const GivenMap& given,
                                         std::optional<double>& crc_check_chance);

// CachingParams.fromMap: {'keys': 'ALL'|'NONE', 'rows_per_partition': 'ALL'|'NONE'|n}.
[[nodiscard]] OptionMap BuildCaching(const GivenMap& given);

// SpeculativeRetryPolicy.fromString then toString: "99p", "50ms",
// "ALWAYS", "NONE", "MIN(99p,50ms)".
[[nodiscard]] std::string NormalizeSpeculativeRetry(std::string_view text);

}  // namespace sibyl::schema
