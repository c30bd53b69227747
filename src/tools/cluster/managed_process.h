#pragma once
// The processes of a local cluster: started detached (their own session, so
// they outlive the `sibyl cluster start` that launched them and ignore its
// terminal's Ctrl-C), found again later through pid files, and stopped.
//
// A pid file may outlive its process and the pid be reused (by another
// cluster's node, even: pids wrap within minutes on a busy machine): a
// process counts as ours only while its executable's name is the one
// expected and its command line holds the argument that names its own
// directory.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sibyl::tools::cluster {

// Starts `command` (argv[0] a path, or a name looked up in PATH) with stdin
// from /dev/null and stdout and stderr appended to `log`, and writes its pid
// to `pid_file`. Throws std::runtime_error when it cannot be started.
pid_t SpawnDetached(const std::vector<std::string>& command, const std::filesystem::path& log,
                    const std::filesystem::path& pid_file);

// The pid in `pid_file`, if the file exists and holds one.
[[nodiscard]] std::optional<pid_t> ReadPidFile(const std::filesystem::path& pid_file);

// What identifies one member's process: its executable's file name
// ("sibyl", "etcd") and one argument of its command line (its data
// directory).
struct ProcessIdentity {
  std::string program;
  std::string argument;
};

// True while `pid` runs `identity`'s program with its argument; false for
// a zombie.
[[nodiscard]] bool IsRunning(pid_t pid, const ProcessIdentity& identity);

// SIGTERM, then SIGKILL if it still runs after `grace`. Returns once the
// process is gone (true) or could not be signalled (false: not ours).
bool StopProcess(pid_t pid, const ProcessIdentity& identity, std::chrono::milliseconds grace);

// The last `lines` lines of a log file, each indented by two spaces.
[[nodiscard]] std::string LogTail(const std::filesystem::path& log, size_t lines = 20);

// The path of `name` in PATH, or empty.
[[nodiscard]] std::string FindInPath(const std::string& name);

}  // namespace sibyl::tools::cluster
