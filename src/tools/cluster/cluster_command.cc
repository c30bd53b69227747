#include "tools/cluster/cluster_command.h"

#include <sys/wait.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "client/blocking_call.h"
#include "client/client_connection.h"
#include "client/io_thread.h"
#include "tools/admin/admin_error.h"
#include "tools/admin/decommission.h"
#include "tools/cluster/listening_socket.h"
#include "tools/cluster/managed_process.h"
#include "tools/tcp_probe.h"

namespace sibyl::tools::cluster {
namespace {

constexpr std::chrono::seconds kEtcdStartTimeout{30};
constexpr std::chrono::seconds kNodeStartTimeout{60};
constexpr std::chrono::seconds kStopGrace{10};
// A node added to a cluster holding data streams its ranges before it serves.
constexpr std::chrono::seconds kJoinTimeout{600};
// The options `start` was given, so that `add` starts a node like the others.
constexpr const char* kOptionsFile = "cluster.options";

int ParseNumber(const std::string& option, const std::string& value, int min, int max) {
  int n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < min || n > max) {
    throw std::invalid_argument(option + " expects a number from " + std::to_string(min) + " to " +
                                std::to_string(max) + ", not '" + value + "'");
  }
  return n;
}

// True once the node at `address` answers a CQL query.
bool AnswersCql(const std::string& address, uint16_t port) {
  if (!AcceptsConnections(address, port)) return false;
  client::IoThread io;
  client::ConnectionOptions options;
  options.host = address;
  options.port = port;
  options.connect_timeout = std::chrono::seconds(5);
  options.request_timeout = std::chrono::seconds(5);
  auto connection = client::Connection::Create(io.context(), options);
  bool ok = client::BlockingConnect(*connection).ok() &&
            client::BlockingQuery(*connection, "SELECT release_version FROM system.local").ok();
  boost::asio::post(connection->executor(), [connection] { connection->Close(); });
  io.Release();
  return ok;
}

// Waits for `ready(pid)` while the process `pid` lives. Returns "" or why not.
template <typename Ready>
std::string WaitUntil(Ready ready, pid_t pid, std::chrono::seconds timeout,
                      const std::filesystem::path& log) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    // The process is this command's child until it exits.
    if (waitpid(pid, nullptr, WNOHANG) != 0) return "it exited:\n" + LogTail(log);
    if (ready(pid)) return "";
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "it did not answer within " + std::to_string(timeout.count()) + " s:\n" + LogTail(log);
}

struct Member {
  std::filesystem::path directory;
  ProcessIdentity identity;  // "sibyl" or "etcd", started with --data-dir <directory>/data
};

Member MemberIn(std::filesystem::path directory, std::string program) {
  std::string data = (directory / "data").string();
  return {std::move(directory), {std::move(program), std::move(data)}};
}

// The nodes the directory holds: node1..nodeN, contiguous.
int NodeCount(const ClusterLayout& layout) {
  std::error_code error;
  int n = 0;
  while (std::filesystem::exists(layout.NodeDirectory(n + 1), error)) ++n;
  return n;
}

// Every process of the cluster, nodes first (stopped before etcd).
std::vector<Member> Members(const ClusterLayout& layout) {
  std::vector<Member> members;
  for (int i = 1; i <= NodeCount(layout); ++i) {
    members.push_back(MemberIn(layout.NodeDirectory(i), "sibyl"));
  }
  members.push_back(MemberIn(layout.EtcdDirectory(), "etcd"));
  return members;
}

int Stop(const ClusterLayout& layout, bool quiet) {
  int stopped = 0;
  for (const Member& member : Members(layout)) {
    const auto pid = ReadPidFile(member.directory / "pid");
    if (pid && StopProcess(*pid, member.identity, kStopGrace)) ++stopped;
    std::error_code ignored;
    std::filesystem::remove(member.directory / "pid", ignored);
  }
  if (!quiet) {
    if (stopped == 0) {
      std::cout << "No cluster is running in " << layout.directory.string() << "\n";
    } else {
      std::cout << "Stopped " << stopped << " processes of the cluster in "
                << layout.directory.string() << "\n";
    }
  }
  return 0;
}

bool AnyRunning(const ClusterLayout& layout) {
  for (const Member& member : Members(layout)) {
    const auto pid = ReadPidFile(member.directory / "pid");
    if (pid && IsRunning(*pid, member.identity)) return true;
  }
  return false;
}

// Starts one member and waits for it; "" or why it failed. `ready` is asked
// of the member's own process: something else answering on its address (a
// process left from an earlier cluster) is not the member.
template <typename Ready>
std::string StartMember(const std::vector<std::string>& command, const std::filesystem::path& dir,
                        const std::string& log_name, std::chrono::seconds timeout, Ready ready) {
  std::filesystem::create_directories(dir / "data");
  const pid_t pid = SpawnDetached(command, dir / log_name, dir / "pid");
  return WaitUntil(ready, pid, timeout, dir / log_name);
}

std::string StartNode(const ClusterLayout& layout, int i, const std::string& self,
                      std::chrono::seconds timeout) {
  std::string failure = StartMember(
      layout.NodeCommand(i, self), layout.NodeDirectory(i), "sibyl.log", timeout, [&](pid_t pid) {
        return ProcessListensOn(pid, layout.NodeAddress(i), layout.native_port) &&
               AnswersCql(layout.NodeAddress(i), layout.native_port);
      });
  if (!failure.empty()) failure = "node " + layout.NodeAddress(i) + " did not start: " + failure;
  return failure;
}

void SaveOptions(const ClusterLayout& layout, const std::vector<std::string>& options) {
  std::filesystem::create_directories(layout.directory);
  std::ofstream out(layout.directory / kOptionsFile, std::ios::trunc);
  for (size_t i = 0; i + 1 < options.size(); i += 2) {
    if (options[i] == "--dir" || options[i] == "--nodes") continue;
    out << options[i] << "\n" << options[i + 1] << "\n";
  }
  if (!out) throw std::runtime_error("cannot write " + (layout.directory / kOptionsFile).string());
}

// The layout `start` made in `given`'s directory, `given`'s options on top.
ClusterLayout SavedLayout(const std::vector<std::string>& given) {
  const ClusterLayout where = ParseClusterOptions(given);
  std::vector<std::string> options;
  std::ifstream in(where.directory / kOptionsFile);
  for (std::string line; std::getline(in, line);) options.push_back(line);
  options.insert(options.end(), given.begin(), given.end());
  ClusterLayout layout = ParseClusterOptions(options);
  layout.nodes = NodeCount(layout);
  return layout;
}

int Add(const ClusterLayout& layout, const std::string& self) {
  if (layout.nodes == 0 || !AnyRunning(layout)) {
    std::cerr << "sibyl cluster: no cluster is running in " << layout.directory.string()
              << " (sibyl cluster start --dir " << layout.directory.string() << ")\n";
    return 1;
  }
  const int i = layout.nodes + 1;
  if (i > kMaxNodes) {
    std::cerr << "sibyl cluster: the cluster has " << kMaxNodes << " nodes, the most it can\n";
    return 1;
  }
  const std::string failure = StartNode(layout, i, self, kJoinTimeout);
  if (!failure.empty()) {
    std::cerr << "sibyl cluster: " << failure;
    const auto pid = ReadPidFile(layout.NodeDirectory(i) / "pid");
    if (pid) StopProcess(*pid, MemberIn(layout.NodeDirectory(i), "sibyl").identity, kStopGrace);
    std::error_code ignored;
    std::filesystem::remove_all(layout.NodeDirectory(i), ignored);
    return 1;
  }
  std::cout << "Node " << layout.NodeAddress(i) << " joined the cluster in "
            << layout.directory.string() << "\n";
  return 0;
}

// The last node leaves the ring (decommission: its ranges streamed to the nodes taking them
// over), then its directory goes, as ccm's remove deletes a node's files.
int Remove(const ClusterLayout& layout) {
  const int i = layout.nodes;
  if (i < 2) {
    std::cerr << "sibyl cluster: "
              << (i == 0 ? "no cluster in " + layout.directory.string()
                         : std::string("the only node of a cluster cannot be removed"))
              << "\n";
    return 1;
  }
  const Member member = MemberIn(layout.NodeDirectory(i), "sibyl");
  const auto pid = ReadPidFile(member.directory / "pid");
  if (!pid || !IsRunning(*pid, member.identity)) {
    std::cerr << "sibyl cluster: node " << layout.NodeAddress(i)
              << " is not running; a dead node leaves the ring by removenode, which Sibyl does "
                 "not implement yet\n";
    return 1;
  }
  try {
    admin::DecommissionNode({.host = layout.NodeAddress(i), .port = layout.native_port});
  } catch (const admin::AdminError& e) {
    std::cerr << "sibyl cluster: node " << layout.NodeAddress(i) << " did not leave: " << e.what()
              << "\n";
    return 1;
  }
  // A decommissioned node stops on its own.
  if (!StopProcess(*pid, member.identity, kStopGrace) && IsRunning(*pid, member.identity)) {
    std::cerr << "sibyl cluster: node " << layout.NodeAddress(i) << " left but did not stop\n";
    return 1;
  }
  std::filesystem::remove_all(member.directory);
  std::cout << "Node " << layout.NodeAddress(i) << " left the cluster in "
            << layout.directory.string() << "\n";
  return 0;
}

int Start(const ClusterLayout& layout, const std::string& self) {
  if (AnyRunning(layout)) {
    std::cerr << "sibyl cluster: a cluster is already running in " << layout.directory.string()
              << " (sibyl cluster stop --dir " << layout.directory.string() << ")\n";
    return 1;
  }
  const std::string etcd = FindInPath("etcd");
  if (etcd.empty()) {
    std::cerr << "sibyl cluster: etcd is not installed (Debian package etcd-server)\n";
    return 1;
  }
  std::string failure =
      StartMember(layout.EtcdCommand(etcd), layout.EtcdDirectory(), "etcd.log", kEtcdStartTimeout,
                  [&](pid_t pid) {
                    return ProcessListensOn(pid, "127.0.0.1", layout.etcd_client_port) &&
                           AcceptsConnections("127.0.0.1", layout.etcd_client_port);
                  });
  if (!failure.empty()) failure = "etcd did not start: " + failure;
  // One node at a time, so each takes its tokens knowing the ones before.
  for (int i = 1; failure.empty() && i <= layout.nodes; ++i) {
    failure = StartNode(layout, i, self, kNodeStartTimeout);
  }
  if (!failure.empty()) {
    std::cerr << "sibyl cluster: " << failure;
    Stop(layout, true);
    return 1;
  }
  const std::string dir = layout.directory.string();
  std::cout << "Cluster '" << layout.cluster_name << "' is up: " << layout.nodes
            << " nodes on 127.0.0.1-" << layout.nodes << ":" << layout.native_port << ", etcd on "
            << layout.EtcdEndpoint() << "\n"
            << "  data and logs: " << dir << "/node<N>/, " << dir << "/etcd/\n"
            << "  connect:       sibyl shell 127.0.0.1 " << layout.native_port << "\n"
            << "  stop:          sibyl cluster stop --dir " << dir << "\n";
  return 0;
}

}  // namespace

ClusterLayout ParseClusterOptions(const std::vector<std::string>& options) {
  ClusterLayout layout;
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& option = options[i];
    if (i + 1 >= options.size()) throw std::invalid_argument("missing value for " + option);
    const std::string& value = options[++i];
    if (option == "--nodes") {
      layout.nodes = ParseNumber(option, value, 1, kMaxNodes);
    } else if (option == "--dir") {
      layout.directory = value;
    } else if (option == "--cluster-name") {
      layout.cluster_name = value;
    } else if (option == "--native-port") {
      layout.native_port = static_cast<uint16_t>(ParseNumber(option, value, 1, 65535));
    } else if (option == "--prometheus-port") {
      layout.prometheus_port = static_cast<uint16_t>(ParseNumber(option, value, 0, 65535));
    } else if (option == "--storage-port") {
      layout.storage_port = static_cast<uint16_t>(ParseNumber(option, value, 1, 65535));
    } else if (option == "--etcd-port") {
      layout.etcd_client_port = static_cast<uint16_t>(ParseNumber(option, value, 1, 65534));
      layout.etcd_peer_port = layout.etcd_client_port + 1;
    } else if (option == "--node-option") {
      const size_t equals = value.find('=');
      if (equals == 0 || equals == std::string::npos) {
        throw std::invalid_argument("--node-option takes key=value, not " + value);
      }
      layout.node_options.emplace_back(value.substr(0, equals), value.substr(equals + 1));
    } else {
      throw std::invalid_argument("unknown option " + option);
    }
  }
  layout.directory = std::filesystem::absolute(layout.directory);
  return layout;
}

std::string ClusterUsage() {
  return "Usage: sibyl cluster start [--nodes N] [--dir D] [options]\n"
         "       sibyl cluster add [--dir D]\n"
         "       sibyl cluster remove [--dir D]\n"
         "       sibyl cluster stop [--dir D]\n"
         "\n"
         "A local cluster, as ccm makes one: etcd (the metadata store) and N nodes\n"
         "on 127.0.0.1..N, each with its data and log under D. `add` starts node N+1,\n"
         "which joins the running cluster (streaming the ranges it takes) with start's\n"
         "options; `remove` decommissions the last node, then deletes its directory.\n"
         "\n"
         "Options:\n"
         "  --nodes N          nodes to start, 1 to 9 (default: 3)\n"
         "  --dir D            where data, logs and pid files go (default: ./sibyl-cluster)\n"
         "  --cluster-name S   the cluster's name (default: Test Cluster)\n"
         "  --native-port P    every node's CQL port (default: 9042)\n"
         "  --storage-port P   every node's internode port (default: 7000)\n"
         "  --prometheus-port P  every node's metrics endpoint, /metrics; 0: any free port\n"
         "                     (default: 9180)\n"
         "  --etcd-port P      etcd's client port; P+1 is its peer port (default: 2379)\n"
         "  --node-option K=V  start every node with cassandra.yaml's key K set to V\n"
         "                     (e.g. paxos_variant=v1); repeatable\n";
}

int RunClusterCommand(const std::vector<std::string>& args, const std::string& self) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout) << ClusterUsage();
    return args.empty() ? 2 : 0;
  }
  const std::string& action = args[0];
  try {
    const std::vector<std::string> options(args.begin() + 1, args.end());
    // The nodes run this very executable, wherever it was started from.
    std::error_code error;
    const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
    const std::string binary =
        error ? std::filesystem::absolute(self).string() : executable.string();
    if (action == "add") return Add(SavedLayout(options), binary);
    if (action == "remove") return Remove(SavedLayout(options));
    ClusterLayout layout = ParseClusterOptions(options);
    if (action == "start") {
      if (AnyRunning(layout)) return Start(layout, binary);  // refuses
      SaveOptions(layout, options);
      // A cluster restarted in its directory starts the nodes `add` gave it too.
      layout.nodes = std::max(layout.nodes, NodeCount(layout));
      return Start(layout, binary);
    }
    if (action == "stop") return Stop(layout, false);
    std::cerr << "sibyl cluster: unknown command '" << action << "'\n" << ClusterUsage();
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "sibyl cluster: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sibyl cluster: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace sibyl::tools::cluster
