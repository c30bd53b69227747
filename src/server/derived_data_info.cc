#include "server/derived_data_info.h"

namespace sibyl::server {
namespace {

template <typename Info>
void FillBuild(const index::IndexBuildStatus& status, Info& build) {
  build.keyspace = status.keyspace;
  build.built = status.built;
  build.partitions_built = status.partitions_built;
  if (status.partitions_built > 0) build.last_token = status.last_token;
  build.failure = status.failure;
}

schema::ViewCheckInfo InfoOf(const index::ViewCheck& check) {
  schema::ViewCheckInfo info;
  info.keyspace = check.keyspace;
  info.view = check.view;
  info.repair = check.repair;
  info.checked_at_millis = check.checked_at_micros / 1000;
  info.rows_expected = check.rows_expected;
  info.missing = check.missing;
  info.unexpected = check.unexpected;
  info.different = check.different;
  info.repaired = check.repaired;
  return info;
}

}  // namespace

void ShowDerivedData(index::IndexingEngine& engine, schema::LocalNodeInfo& node_info) {
  node_info.index_builds = [&engine] {
    std::vector<schema::IndexBuildInfo> builds;
    for (const index::IndexBuildStatus& status : engine.BuildStatuses()) {
      schema::IndexBuildInfo& build = builds.emplace_back();
      FillBuild(status, build);
      build.table = status.table;
      build.index = status.index;
    }
    return builds;
  };
  node_info.view_builds = [&engine] {
    std::vector<schema::ViewBuildInfo> builds;
    for (const index::IndexBuildStatus& status : engine.ViewBuildStatuses()) {
      schema::ViewBuildInfo& build = builds.emplace_back();
      FillBuild(status, build);
      build.view = status.index;  // the view's name
    }
    return builds;
  };
  node_info.check_view = [&engine](const std::string& keyspace, const std::string& view,
                                   bool repair) -> std::optional<schema::ViewCheckInfo> {
    const index::ViewCheck check = engine.CheckView(keyspace, view, repair);
    if (!check.found) return std::nullopt;
    return InfoOf(check);
  };
  node_info.view_checks = [&engine] {
    std::vector<schema::ViewCheckInfo> checks;
    for (const index::ViewCheck& check : engine.LastViewChecks()) checks.push_back(InfoOf(check));
    return checks;
  };
}

}  // namespace sibyl::server
