// SelectStatement::Execute: one request of a prepared SELECT.
//
// The rows stream from the RowSource one bounded read at a time
// (MatchingRows), are checked against the request's RowFilter, counted
// against PER PARTITION LIMIT, grouped (GROUP BY, or one group for an
// aggregate over everything), projected by the Selection and cut into the
// client's page. Where a page ends is recorded by value in the paging state
// (paging_state.h), so the next page resumes right after the last row
// returned, whatever was written in between.
//
// What counts against the page size and LIMIT, as in Cassandra 4.1: rows;
// groups under GROUP BY; nothing for an aggregate without GROUP BY, which
// reads everything (paged internally) and answers one row.

#include <algorithm>
#include <limits>
#include <string>

#include "common/error.h"
#include "dht/token.h"
#include "query/read/paging_state.h"
#include "query/statements/consistency_rules.h"
#include "query/statements/large_partition_guard.h"
#include "query/statements/select_statement.h"
#include "schema/row_order.h"
#include "storage/data/clustering_order.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::TableMetadata;

// Rows per source read when rows are filtered or folded here, so that a read
// brings enough to fill a page but never the whole table.
constexpr int32_t kInternalPageRows = 1000;

constexpr int32_t kReadTooManyTombstones = 0x0001;  // RequestFailureReason

constexpr std::string_view kPostOrderingPagingMessage =
    "Cannot page queries with both ORDER BY and a IN restriction on the partition key; you "
    "must either remove the ORDER BY or the IN and sort client side, or disable paging for "
    "this query";

bool SamePartition(const TableMetadata& table, const schema::Row& a, const schema::Row& b) {
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Same partition and the same values in the first `prefix` clustering columns.
bool SameGroup(const TableMetadata& table, size_t prefix, const schema::Row& a,
               const schema::Row& b) {
  if (!SamePartition(table, a, b)) return false;
  const size_t begin = table.clustering_begin();
  for (size_t i = begin; i < begin + prefix; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Tombstone accounting per source read, as Cassandra counts per read command.
class TombstoneGuard {
 public:
  TombstoneGuard(const SelectContext& context, const TableMetadata& table,
                 const protocol::QueryParameters& params)
      : context_(context), table_(table), params_(params) {}

  void Check(int64_t tombstones) {
    const ReadThresholds& limits = context_.thresholds;
    if (limits.tombstone_failure >= 0 && tombstones > limits.tombstone_failure) Fail(tombstones);
    if (limits.tombstone_warn >= 0 && tombstones > limits.tombstone_warn) {
      most_warned_ = std::max(most_warned_, tombstones);
    }
  }

  // Adds the warning, once per request, for the reads that went over the threshold.
  void Warn() const {
    if (most_warned_ == 0 || context_.warnings == nullptr) return;
    context_.warnings->push_back("1 nodes scanned up to " + std::to_string(most_warned_) +
                                 " tombstones and issued tombstone warnings for query " +
                                 QueryText() + "  (see tombstone_warn_threshold)");
  }

 private:
  // Cassandra shows the replica's read command; Sibyl shows its table.
  std::string QueryText() const { return "SELECT * FROM " + table_.QualifiedName(); }

  [[noreturn]] void Fail(int64_t tombstones) const {
    if (context_.warnings != nullptr) {
      context_.warnings->push_back("1 nodes scanned over " + std::to_string(tombstones) +
                                   " tombstones and aborted the query " + QueryText() +
                                   " (see tombstone_failure_threshold)");
    }
    const std::string& address = context_.node_address;
    ReadFailureInfo info;
    info.consistency = params_.consistency;
    info.received = 0;
    info.block_for = 1;
    info.failures.push_back({types::EncodeInet(address), kReadTooManyTombstones});
    info.data_present = false;
    throw CqlError(ErrorCode::kReadFailure,
                   "Operation failed - received 0 responses and 1 failures: "
                   "READ_TOO_MANY_TOMBSTONES from /" +
                       address + ":7000",
                   std::move(info));
  }

  const SelectContext& context_;
  const TableMetadata& table_;
  const protocol::QueryParameters& params_;
  int64_t most_warned_ = 0;
};

// The rows of a read that match the request's filter and are within PER
// PARTITION LIMIT, streamed from the source one read at a time.
class MatchingRows {
 public:
  // `request` is the read's template (plan, columns, direction); `resume`
  // where the request starts (a paging state's position). When `filter`
  // has conditions, the per-partition limit counts matching rows here;
  // otherwise it goes down to the source.
  MatchingRows(const RowSource& source, ReadRequest request, const RowFilter& filter,
               int32_t per_partition_limit, std::optional<storage::ReadPosition> resume,
               TombstoneGuard& tombstones)
      : source_(source),
        request_(std::move(request)),
        filter_(filter),
        filters_(!filter.conditions().empty()),
        per_partition_limit_(per_partition_limit < 0 ? kNoRowLimit : per_partition_limit),
        next_read_(std::move(resume)),
        tombstones_(tombstones) {
    if (next_read_) {
      in_partition_ = next_read_->rows_in_partition;
      resume_key_ = next_read_->partition.key;
    }
    if (!filters_) request_.per_partition_limit = per_partition_limit_;
  }

  // How many more rows the caller expects to take, to size the next read.
  void set_rows_wanted(int32_t rows) { rows_wanted_ = rows; }

  // The next matching row, or nullptr at the end. Valid until the next call.
  const schema::Row* Next() {
    while (true) {
      if (index_ == page_.rows.size() && !Fill()) return nullptr;
      const schema::Row& row = page_.rows[index_++];
      if (current_ == nullptr || !SamePartition(request_.table, row, *current_)) {
        // The partition the request resumes in keeps its count.
        const bool resumed_partition = current_ == nullptr && resume_key_ &&
                                       schema::PartitionOf(request_.table, row).key == *resume_key_;
        if (!resumed_partition) in_partition_ = 0;
      }
      current_ = &row;
      if (filters_) {
        if (in_partition_ >= per_partition_limit_) continue;
        if (!filter_.Matches(row)) continue;
      }
      ++in_partition_;
      return &row;
    }
  }

  // Matching rows returned from the partition of the last row, counting it.
  int32_t rows_in_partition() const { return in_partition_; }

  // Whether rows may follow the last one returned.
  bool MayHaveMore() const { return index_ < page_.rows.size() || !done_; }

 private:
  // Reads the next non-empty page of rows; false when the source has no more.
  bool Fill() {
    while (!done_) {
      request_.resume_after = next_read_ ? &*next_read_ : nullptr;
      request_.row_limit =
          filters_ ? std::max(rows_wanted_, kInternalPageRows) : std::max(rows_wanted_, 1);
      RowPage page = source_.Read(request_);
      tombstones_.Check(page.tombstones_scanned);
      // current_ points into the page being replaced: keep its values.
      if (current_ != nullptr) {
        last_of_previous_ = *current_;
        current_ = &last_of_previous_;
      }
      page_ = std::move(page);
      index_ = 0;
      next_read_ = std::move(page_.next);
      done_ = !next_read_.has_value();
      if (!page_.rows.empty()) return true;
    }
    return false;
  }

  const RowSource& source_;
  ReadRequest request_;
  const RowFilter& filter_;
  const bool filters_;
  const int32_t per_partition_limit_;
  std::optional<storage::ReadPosition> next_read_;
  TombstoneGuard& tombstones_;
  int32_t rows_wanted_ = kInternalPageRows;
  RowPage page_;
  size_t index_ = 0;
  bool done_ = false;
  std::optional<Bytes> resume_key_;       // the partition a paged request resumes in
  const schema::Row* current_ = nullptr;  // the last row read
  schema::Row last_of_previous_;
  int32_t in_partition_ = 0;
};

// Sorts rows of several partitions for ORDER BY, as 4.1's ordering
// comparator does: by the ORDER BY columns only, each in its clustering
// order, all reversed when the ordering is; stable, so ties keep the order
// they were read in.
void SortForOrderBy(const TableMetadata& table, const std::vector<size_t>& columns, bool reversed,
                    std::vector<schema::Row>& rows) {
  auto compare = [&](const schema::Row& a, const schema::Row& b) {
    for (size_t column : columns) {
      const OptBytes& x = a[column];
      const OptBytes& y = b[column];
      if (!x || !y) {
        if (x.has_value() != y.has_value()) return x.has_value() ? 1 : -1;
        continue;
      }
      const int c = storage::CompareClusteringValues(
          *table.columns[column].type,
          table.columns[column].order == schema::ClusteringOrder::kDesc, *x, *y);
      if (c != 0) return c;
    }
    return 0;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const schema::Row& a, const schema::Row& b) {
    const int c = compare(a, b);
    return reversed ? c > 0 : c < 0;
  });
}

SystemClock& DefaultClock() {
  static SystemClock clock;
  return clock;
}

}  // namespace

// Runs one request of a SelectStatement; a friend of it.
class SelectExecution {
 public:
  SelectExecution(const SelectStatement& statement, const BoundValues& values,
                  const protocol::QueryParameters& params, const schema::Schema& schema,
                  const RowSource& source, const SelectContext& context)
      : statement_(statement),
        table_(*statement.table_),
        values_(values),
        params_(params),
        schema_(schema),
        source_(source),
        context_(context),
        tombstones_(context, table_, params) {
    function_context_.clock = context.clock != nullptr ? context.clock : &DefaultClock();
  }

  RowsResult Run() {
    const SelectStatement& s = statement_;
    bound_.emplace(s.restrictions_.Bind(table_, values_));
    limit_ = s.BindLimit(s.limit_, values_);
    per_partition_limit_ = s.BindLimit(s.per_partition_limit_, values_);
    if (s.distinct_) per_partition_limit_ = 1;
    page_size_ = params_.page_size > 0 ? params_.page_size : kNoRowLimit;
    if (params_.paging_state) paging_state_ = PagingState::Parse(*params_.paging_state);

    result_.columns = s.selection_.result_columns();
    const bool aggregates_everything = s.selection_.is_aggregate() && !s.grouped_;
    if (context_.guardrails != nullptr) CheckGuardrails(*context_.guardrails);
    if (s.guarded_ && bound_->plan.partitions) {
      for (const storage::PartitionKey& key : *bound_->plan.partitions) {
        GuardLargePartition(table_, key, /*adds_data=*/false,
                            {context_.guardrails, context_.ledger, context_.warnings});
      }
    }
    if (aggregates_everything || s.grouped_) WarnAboutAggregation();
    if (s.post_query_ordering_ && params_.page_size > 0) {
      ThrowInvalid(std::string(kPostOrderingPagingMessage));
    }
    CheckSerialRead(aggregates_everything);

    ReadRequest request = MakeRequest();
    std::optional<storage::ReadPosition> resume;
    if (paging_state_ && !aggregates_everything) resume = ResumePosition(*paging_state_);
    // Under GROUP BY, PER PARTITION LIMIT counts groups (RunGrouped); DISTINCT
    // still reads one row per partition.
    const bool rows_per_partition_limited = !aggregates_everything && (!s.grouped_ || s.distinct_);
    MatchingRows rows(source_, request, bound_->filter,
                      rows_per_partition_limited ? per_partition_limit_ : -1, std::move(resume),
                      tombstones_);
    Selection::Selectors selectors = s.selection_.NewSelectors(values_, function_context_);

    if (aggregates_everything) {
      rows.set_rows_wanted(kInternalPageRows);
      while (const schema::Row* row = rows.Next()) selectors.AddRow(*row);
      result_.rows.push_back(selectors.Output());
    } else if (s.post_query_ordering_) {
      RunSorted(rows, selectors);
    } else if (s.grouped_) {
      RunGrouped(rows, selectors);
    } else {
      RunPlain(rows, selectors);
    }
    tombstones_.Warn();
    return std::move(result_);
  }

 private:
  ReadRequest MakeRequest() {
    const SelectStatement& s = statement_;
    ReadRequest request{.schema = schema_, .table = table_};
    request.plan = &bound_->plan;
    request.cell_metadata = &s.selection_.cell_metadata();
    // Filtered columns must be read too; the statement's list serves as it
    // is when the filter adds none (the common, unfiltered case: no copy).
    request.columns = &s.columns_read_;
    for (const auto& condition : bound_->filter.conditions()) {
      const auto kind = table_.columns[condition.column].kind;
      if ((kind == ColumnKind::kStatic || kind == ColumnKind::kRegular) &&
          std::find(request.columns->begin(), request.columns->end(), condition.column) ==
              request.columns->end()) {
        if (request.columns != &columns_) columns_ = s.columns_read_;
        columns_.push_back(condition.column);
        request.columns = &columns_;
      }
    }
    request.static_only_rows = s.queries_full_partitions_;
    request.reversed = s.reversed_;
    request.now_seconds = params_.now_in_seconds;
    request.consistency = params_.consistency;
    return request;
  }

  // The guardrails of a read of a user table, in the order 5.0's SelectStatement meets them:
  // validate (ALLOW FILTERING, GROUP BY), execute (the consistency level,
  // the page size of a paged read), the partitions and clustering keys IN
  // names, then the index and filtering shapes.
  void CheckGuardrails(const guardrails::Guardrails& g) {
    using guardrails::GuardrailId;
    const SelectStatement& s = statement_;
    std::vector<std::string>* warnings = context_.warnings;
    // Not on system keyspaces: drivers and tools read them with their own
    // page sizes and levels, and 5.0 exempts them from ALLOW FILTERING's.
    if (!s.guarded_) return;
    if (s.allow_filtering_) g.EnsureEnabled(GuardrailId::kAllowFiltering, warnings);
    if (s.grouped_) g.EnsureEnabled(GuardrailId::kGroupBy, warnings);
    const uint16_t level = params_.consistency;
    g.GuardConsistencyLevels(GuardrailId::kReadConsistencyLevels, std::span(&level, 1), warnings);
    const bool aggregates = s.selection_.is_aggregate() || s.grouped_;
    const bool limited_within_page = limit_ >= 0 && limit_ <= params_.page_size;  // -1: no LIMIT
    if (params_.page_size > 0 && (aggregates || !limited_within_page)) {
      g.Guard(GuardrailId::kPageSize, params_.page_size, table_.name, warnings);
    }
    const ReadPlan& plan = bound_->plan;
    if (s.restrictions_.partition_key_in() && plan.partitions) {
      const auto keys = static_cast<int64_t>(plan.partitions->size());
      g.Guard(GuardrailId::kPartitionKeysInSelect, keys, table_.name, warnings);
      g.Guard(GuardrailId::kInSelectCartesianProduct, keys, "partition key", warnings);
    }
    if (s.restrictions_.clustering_has_in()) {
      g.Guard(GuardrailId::kInSelectCartesianProduct, static_cast<int64_t>(plan.slices.size()),
              "clustering key", warnings);
    }
    if (plan.index && !plan.partitions) {
      g.EnsureEnabled(GuardrailId::kNonPartitionRestrictedIndexQuery, warnings);
    }
    // 5.0's RowFilter.isMutableIntersection at a level that reconciles replicas.
    const auto reconciles = static_cast<protocol::Consistency>(level);
    if (reconciles != protocol::Consistency::kOne &&
        reconciles != protocol::Consistency::kLocalOne &&
        reconciles != protocol::Consistency::kNodeLocal) {
      size_t mutable_conditions = 0;
      for (const auto& condition : bound_->filter.conditions()) {
        const ColumnKind kind = table_.columns[condition.column].kind;
        if (kind == ColumnKind::kRegular || kind == ColumnKind::kStatic) ++mutable_conditions;
      }
      if (mutable_conditions > 1) {
        g.EnsureEnabled(GuardrailId::kIntersectFilteringQuery, warnings);
      }
    }
  }

  // A SELECT at SERIAL or LOCAL_SERIAL reads with Paxos (StorageProxy.read).
  // 4.1 refuses several named partitions read in one go, which is when the
  // query is not paged (SelectStatement.execute): no aggregate nor GROUP BY
  // (always paged), and no page size or a LIMIT within it (a post-query
  // ordering reads without a limit). Paged, each partition is read on its
  // own; a range read (no partition named) or a read of nothing is not
  // refused; a virtual table ignores the level.
  void CheckSerialRead(bool aggregates_everything) const {
    const SelectStatement& s = statement_;
    if (!IsSerialConsistency(params_.consistency) || table_.is_virtual) return;
    const ReadPlan& plan = bound_->plan;
    if (!plan.partitions || plan.selects_nothing) return;
    const bool limit_within_page =
        limit_ >= 0 && !s.post_query_ordering_ && limit_ <= params_.page_size;
    const bool paged =
        aggregates_everything || s.grouped_ || (params_.page_size > 0 && !limit_within_page);
    if (!paged) ValidateSerialReadPartitions(params_.consistency, plan.partitions->size());
  }

  // 4.1 warns about aggregates that read many partitions.
  void WarnAboutAggregation() {
    if (context_.warnings == nullptr) return;
    bool restricts_partition_key = false;
    for (size_t i = 0; i < table_.partition_key_size(); ++i) {
      if (statement_.restrictions_.Find(i) != nullptr) restricts_partition_key = true;
    }
    if (statement_.restrictions_.has_token_restriction()) restricts_partition_key = true;
    if (!restricts_partition_key) {
      context_.warnings->push_back("Aggregation query used without partition key");
    } else if (statement_.restrictions_.partition_key_in()) {
      context_.warnings->push_back(
          "Aggregation query used on multiple partition keys (IN restriction)");
    }
  }

  storage::ReadPosition ResumePosition(const PagingState& state) const {
    storage::ReadPosition position;
    position.partition.key = state.partition_key;
    position.partition.token = dht::Murmur3Token(state.partition_key);
    if (!state.clustering.empty()) {
      position.last_row = storage::Clustering(state.clustering.begin(), state.clustering.end());
    }
    position.rows_in_partition = state.returned_in_partition;
    return position;
  }

  int32_t RemainingLimit() const {
    if (paging_state_) return paging_state_->remaining;
    return limit_ < 0 ? -1 : limit_;
  }

  // Hands out where the next page starts: right after `last` (a source row).
  void SetPagingState(const schema::Row& last, int32_t in_partition, int32_t remaining) {
    PagingState state;
    state.remaining = remaining;
    state.returned_in_partition = in_partition;
    state.partition_key = schema::PartitionOf(table_, last).key;
    if (!statement_.distinct_ && table_.clustering_size() > 0 &&
        last[table_.clustering_begin()].has_value()) {
      const size_t begin = table_.clustering_begin();
      for (size_t i = begin; i < begin + table_.clustering_size(); ++i) {
        state.clustering.push_back(last[i].value_or(Bytes()));
      }
    }
    result_.paging_state = state.Serialize();
  }

  // Rows as they come: the page and LIMIT count rows.
  void RunPlain(MatchingRows& rows, Selection::Selectors& selectors) {
    int32_t remaining = RemainingLimit();
    if (remaining == 0) return;
    int32_t page_left = page_size_;
    while (true) {
      rows.set_rows_wanted(remaining < 0 ? page_left : std::min(page_left, remaining));
      const schema::Row* row = rows.Next();
      if (row == nullptr) return;
      selectors.AddRow(*row);
      result_.rows.push_back(selectors.Output());
      if (remaining > 0 && --remaining == 0) return;
      if (--page_left == 0) {
        if (rows.MayHaveMore()) SetPagingState(*row, rows.rows_in_partition(), remaining);
        return;
      }
    }
  }

  // GROUP BY: the page, LIMIT and PER PARTITION LIMIT count groups. A group
  // ends when the next row belongs to another one, so a page never splits a
  // group: it resumes after the group's last row.
  void RunGrouped(MatchingRows& rows, Selection::Selectors& selectors) {
    int32_t remaining = RemainingLimit();
    if (remaining == 0) return;
    const bool aggregates = statement_.selection_.is_aggregate();
    const size_t prefix = statement_.group_clustering_prefix_;
    int32_t page_left = page_size_;
    int32_t groups_in_partition = paging_state_ ? paging_state_->returned_in_partition : 0;
    std::optional<schema::Row> group_last;  // the open group's last row
    bool group_open = false;
    rows.set_rows_wanted(kInternalPageRows);
    while (true) {
      const schema::Row* row = rows.Next();
      if (group_open && (row == nullptr || !SameGroup(table_, prefix, *row, *group_last))) {
        result_.rows.push_back(selectors.Output());
        group_open = false;
        ++groups_in_partition;
        if (remaining > 0 && --remaining == 0) return;
        if (--page_left == 0) {
          if (row != nullptr) SetPagingState(*group_last, groups_in_partition, remaining);
          return;
        }
      }
      if (row == nullptr) return;
      if (group_last && !SamePartition(table_, *row, *group_last)) groups_in_partition = 0;
      if (!group_last && paging_state_ &&
          schema::PartitionOf(table_, *row).key != paging_state_->partition_key) {
        groups_in_partition = 0;
      }
      if (per_partition_limit_ >= 0 && groups_in_partition >= per_partition_limit_) {
        group_last = *row;
        continue;
      }
      // Without aggregates a group shows its first row.
      if (aggregates || !group_open) selectors.AddRow(*row);
      group_open = true;
      group_last = *row;
    }
  }

  // ORDER BY with IN on the partition key: every row, sorted, then LIMIT.
  // Never paged (Run refuses a page size), as in Cassandra.
  void RunSorted(MatchingRows& rows, Selection::Selectors& selectors) {
    std::vector<schema::Row> all;
    rows.set_rows_wanted(kInternalPageRows);
    while (const schema::Row* row = rows.Next()) all.push_back(*row);
    SortForOrderBy(table_, statement_.ordering_columns_, statement_.reversed_, all);
    const size_t limit = limit_ < 0 ? all.size() : static_cast<size_t>(limit_);
    if (statement_.grouped_) {
      // Groups over the sorted rows.
      const bool aggregates = statement_.selection_.is_aggregate();
      const size_t prefix = statement_.group_clustering_prefix_;
      for (size_t i = 0; i < all.size() && result_.rows.size() < limit;) {
        size_t j = i;
        for (; j < all.size() && SameGroup(table_, prefix, all[j], all[i]); ++j) {
          if (aggregates || j == i) selectors.AddRow(all[j]);
        }
        result_.rows.push_back(selectors.Output());
        i = j;
      }
      return;
    }
    for (size_t i = 0; i < all.size() && i < limit; ++i) {
      selectors.AddRow(all[i]);
      result_.rows.push_back(selectors.Output());
    }
  }

  const SelectStatement& statement_;
  const TableMetadata& table_;
  const BoundValues& values_;
  const protocol::QueryParameters& params_;
  const schema::Schema& schema_;
  const RowSource& source_;
  const SelectContext& context_;
  TombstoneGuard tombstones_;
  FunctionContext function_context_;
  std::optional<BoundRestrictions> bound_;
  std::vector<size_t> columns_;
  int32_t limit_ = -1;
  int32_t per_partition_limit_ = -1;
  int32_t page_size_ = kNoRowLimit;
  std::optional<PagingState> paging_state_;
  RowsResult result_;
};

int32_t SelectStatement::BindLimit(const std::optional<PreparedTerm>& term,
                                   const BoundValues& values) const {
  if (!term) return -1;
  const Value value = term->Bind(values);
  if (value.is_unset()) return -1;  // an unset limit means no limit
  // An empty int is Cassandra's "no value" too. 4.1 words LIMIT and PER
  // PARTITION LIMIT alike (SelectStatement.getLimit).
  if (value.is_null() || value.bytes.empty()) ThrowInvalid("Invalid null value of limit");
  const int32_t limit = types::DecodeInt(value.bytes);
  if (limit <= 0) ThrowInvalid("LIMIT must be strictly positive");
  return limit;
}

RowsResult SelectStatement::Execute(const BoundValues& values,
                                    const protocol::QueryParameters& params,
                                    const schema::Schema& schema, const RowSource& source,
                                    const SelectContext& context) const {
  // SelectStatement.execute: before anything is bound.
  ValidateConsistencyForRead(params.consistency);
  return SelectExecution(*this, values, params, schema, source, context).Run();
}

}  // namespace sibyl::query
