#pragma once
// What makes a node a member of a cluster (metadata_store: etcd): the
// metadata log in etcd and this node's record in its directory, internode
// messaging on listen_address:storage_port, the failure detector, the
// current ClusterView, schema agreement after DDL, the statement workers,
// and the events drivers follow (docs/dev/cluster.md). A single node
// (metadata_store: local) has none of it.
//
// Start-up, in node.cc's order:
//   auto cluster = ClusterNode::Open(config, data_dir, identity, identity_existed, node_info);
//   ... the engine, the coordinator, the query processor over cluster->metadata() ...
//   cluster->Join(coordinator, engine, clock, events);  // messaging and heartbeats start
//   ... serve; on SIGTERM: stop the CQL server, then cluster->Stop() ...
//
// Thread-safety: Open, Join and Stop on the main thread, in that order.
// The rest (listeners, peers, AwaitSchemaAgreement) from any thread.
#include <boost/asio/thread_pool.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cluster/batchlog/batch_store.h"
#include "cluster/batchlog/batchlog_manager.h"
#include "cluster/cluster_services.h"
#include "cluster/cluster_view.h"
#include "cluster/coordinator.h"
#include "cluster/hints/hint_dispatcher.h"
#include "cluster/hints/hint_store.h"
#include "cluster/membership/epoch_notifier.h"
#include "cluster/membership/failure_detector.h"
#include "cluster/membership/metadata_epoch_gate.h"
#include "cluster/node_identity.h"
#include "cluster/paxos/ballot.h"
#include "cluster/streaming/range_streamer.h"
#include "cluster/streaming/stream_source.h"
#include "cluster/streaming/stream_sources.h"
#include "cluster/views/view_update_dispatcher.h"
#include "common/clock.h"
#include "index/indexing_engine.h"
#include "messaging/asio_scheduler.h"
#include "messaging/messaging_service.h"
#include "messaging/tcp_transport.h"
#include "metadata/etcd_metadata_store.h"
#include "schema/local_node_info.h"
#include "server/config.h"
#include "server/event_bus.h"

namespace sibyl::server {

class ClusterNode {
 public:
  // Opens the metadata store (its local copy under <data dir>/metadata) and
  // registers this node in the directory with its tokens: those the
  // directory already records for its host id (a restart), else the stored
  // identity's when the node existed before, else tokens allocated over the
  // current ring (seeded from the host id), then kept in the identity.
  // Sets node_info's tokens and its provider of current peers.
  // REQUIRES: node_info outlives the ClusterNode. Throws when etcd cannot
  // be reached without a local copy, or the registration fails.
  static std::unique_ptr<ClusterNode> Open(const Config& config,
                                           const std::filesystem::path& data_dir,
                                           const cluster::NodeIdentity& identity,
                                           bool identity_existed, schema::LocalNodeInfo& node_info);
  ~ClusterNode();  // Stop()
  ClusterNode(const ClusterNode&) = delete;
  ClusterNode& operator=(const ClusterNode&) = delete;

  metadata::EtcdMetadataStore& metadata() { return *store_; }
  // Where statements run (native_transport_max_threads threads).
  boost::asio::thread_pool& statement_workers() { return *workers_; }
  // The hints this node keeps for others (for the metrics endpoint); null
  // when hinted_handoff_enabled is false.
  const cluster::HintStore* hints() const { return hints_.get(); }

  // Where the view updates this node derives go on the ring
  // (cluster/views/ring_view_update_router.h), for the engine's
  // SetViewUpdateRouter. Valid from Open on; it shares the node's current
  // ClusterView, so it may outlive the ClusterNode (routing on the last
  // view).
  std::shared_ptr<const index::ViewUpdateRouter> MakeViewUpdateRouter() const;

  // Starts messaging and failure detection, the coordinator's replica
  // handlers, the delivery of `engine`'s view outbox (cluster/views/), and
  // events to `events`. REQUIRES: called once, after Open, and after
  // `engine` was given MakeViewUpdateRouter(); all four outlive this
  // ClusterNode.
  void Join(cluster::Coordinator& coordinator, index::IndexingEngine& engine, Clock& clock,
            EventBus& events);

  // Waits (at most request_timeout) until every live member has applied
  // `epoch`; logs a warning naming those that did not answer.
  void AwaitSchemaAgreement(uint64_t epoch);
  // This node serves CQL now: its heartbeats say so, and the other nodes
  // send their clients NEW_NODE / UP for it (Cassandra's RPC_READY).
  void NativeTransportReady();

  // Stops heartbeats, messaging, the workers and the metadata watch: no
  // listener runs after it. Idempotent.
  void Stop();

 private:
  ClusterNode(const Config& config, types::Uuid host_id, schema::LocalNodeInfo& node_info);
  void Register(const cluster::NodeIdentity& identity, bool identity_existed,
                const std::filesystem::path& data_dir);
  // A node new to a ring that holds user keyspaces joins in steps (issue
  // 31): JOINING (written, not read) while it streams its ranges from the
  // replicas losing them, then reads move to it, then NORMAL; each step one
  // directory commit followed by a barrier (every live member applied it).
  // A restart in the middle resumes at its step, the streaming after the
  // slices it applied. Throws when a step fails (the node does not start).
  void Bootstrap(storage::Engine& engine);
  // At start-up, a node the directory shows mid-move: a join resumes
  // (Bootstrap); a leave whose reads had not moved is cancelled (NORMAL
  // again, serving); one whose reads had moved finishes (Leave), and the
  // node does not start.
  void ResumeMove(storage::Engine& engine);
  // The last steps of a decommission: the mark, out of the directory.
  void Leave();
  // A decommission stopped before reads moved: NORMAL again.
  void CancelLeave();
  // Sends STREAM_RANGES of `plan` to each of `receivers`, their sources
  // chosen by `rule`, and waits for them all; `answered` is told of each
  // receiver as it answers. The failures, each naming its receiver (empty:
  // all streamed).
  std::string AskToStream(
      const std::vector<types::Uuid>& receivers, const types::Uuid& plan,
      cluster::streaming::SourceRule rule = cluster::streaming::SourceRule::kStrict,
      const std::function<void(const types::Uuid&)>& answered = {});
  // Finishes the Paxos rounds left unfinished in the tables and ranges of
  // `tasks` (4.1's repairPaxosForTopologyChange), before their replicas
  // change; blocks; throws when a node does not answer.
  void RepairPaxos(const std::vector<cluster::streaming::StreamTask>& tasks);
  // Streams the ranges this node is pending for, as plan `plan_id`; blocks.
  void StreamRanges(storage::Engine& engine, const types::Uuid& plan_id);
  // Answers STREAM_RANGES: streams what this node is pending for (a
  // leaving node asks each of its ranges' new owners), replying when done.
  void RegisterStreamRangesHandler(storage::Engine& engine);
  // `nodetool decommission` (LocalNodeInfo::decommission): refused unless
  // every member is NORMAL and every keyspace keeps its replication factor;
  // then kLeaving, every new owner streams from this node, kLeavingReadNew,
  // out of the directory. A failure before reads move puts it back NORMAL.
  // Leaves a mark in the data directory that stops it from rejoining, and
  // ends the process.
  void Decommission(bool force);
  // `nodetool removenode` (LocalNodeInfo::remove_node), run by any live
  // member for a dead one: refused for this node, an unknown host id, a live
  // node, or while data moves; then the dead node is kLeaving, every new
  // owner of its ranges streams them from a live replica that keeps them,
  // kLeavingReadNew, out of the directory. A failed stream puts it back
  // NORMAL (ask again). `force`: out of the directory at once, unstreamed.
  void RemoveNode(const types::Uuid& host, bool force);
  void SetOwnState(metadata::NodeState state) { SetStateOf(host_id_, state); }
  // Takes `node` out of the directory, then waits at a barrier for `step`.
  void ForgetNode(const types::Uuid& node, const char* step);
  // What removenode status shows (none: no removal under way here).
  void SetRemoval(std::optional<schema::RemovalStatus> removal);
  // Commits `node`'s state; throws when it is no longer in the directory,
  // or, given `expected`, when its state is another.
  void SetStateOf(const types::Uuid& node, metadata::NodeState state,
                  std::optional<metadata::NodeState> expected = std::nullopt);
  // Waits until every live member applied this node's epoch; throws after
  // a few request_timeouts without.
  void Barrier(const char* step);
  void FollowChanges();
  void RebuildView(metadata::DirectoryPtr directory, schema::SchemaPtr schema);
  void OnDirectoryChange(const metadata::Directory& before, const metadata::Directory& after);
  void OnLivenessChange(const types::Uuid& node, bool alive);
  void OnNativeTransportReady(const types::Uuid& node);
  std::vector<schema::PeerInfo> Peers() const;

  const Config& config_;
  const types::Uuid host_id_;
  schema::LocalNodeInfo& node_info_;
  std::unique_ptr<metadata::EtcdMetadataStore> store_;
  std::unique_ptr<boost::asio::thread_pool> workers_;
  // Shared with the engine's view update router, which the engine may keep
  // using after this ClusterNode is gone (its view builds stop with it).
  const std::shared_ptr<cluster::ClusterViewHolder> views_ =
      std::make_shared<cluster::ClusterViewHolder>();
  std::mutex view_mutex_;  // serializes rebuilds
  // Events about a node held until it serves CQL.
  struct PendingEvents {
    bool new_node = false;
    bool up = false;
  };
  std::mutex pending_mutex_;
  std::map<types::Uuid, PendingEvents> pending_events_;  // GUARDED_BY(pending_mutex_)
  metadata::DirectoryPtr view_directory_;                // GUARDED_BY(view_mutex_)
  schema::SchemaPtr view_schema_;                        // GUARDED_BY(view_mutex_)

  // Set by Join, before serving; then read-only.
  EventBus* events_ = nullptr;
  cluster::Coordinator* coordinator_ = nullptr;
  std::unique_ptr<messaging::TcpTransport> transport_;
  std::unique_ptr<messaging::AsioScheduler> scheduler_;
  std::unique_ptr<cluster::MetadataEpochGate> gate_;
  std::unique_ptr<messaging::MessagingService> messaging_;
  std::unique_ptr<cluster::FailureDetector> detector_;
  std::unique_ptr<cluster::EpochNotifier> notifier_;
  std::unique_ptr<cluster::HintStore> hints_;
  std::unique_ptr<cluster::BatchStore> batches_;
  std::unique_ptr<cluster::HintDispatcher> hint_dispatcher_;  // with hints_
  std::unique_ptr<cluster::BatchlogManager> batchlog_;
  std::unique_ptr<cluster::ViewUpdateDispatcher> view_dispatcher_;
  // Paxos ballots, unique to this node across restarts (<data dir>/paxos_ballots).
  std::unique_ptr<cluster::paxos::BallotGenerator> ballots_;
  // Answers other nodes' STREAM_PULL (stream_throughput_outbound).
  std::unique_ptr<cluster::streaming::StreamSource> stream_source_;
  // Where Paxos work that waits for the disk runs (services_.blocking):
  // replicas' promises and acceptances, this node's own part of its rounds.
  std::unique_ptr<boost::asio::thread_pool> paxos_workers_;
  cluster::ClusterServices services_;
  std::mutex decommission_mutex_;  // one decommission or removenode at a time
  std::mutex removal_mutex_;
  std::optional<schema::RemovalStatus> removal_;  // GUARDED_BY(removal_mutex_)
  bool stopped_ = false;
};

}  // namespace sibyl::server
