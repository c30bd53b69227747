#include "tools/cluster/managed_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace sibyl::tools::cluster {
namespace {

// The state letter of /proc/<pid>/stat ('Z' for a zombie), 0 when gone.
char ProcessState(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return 0;
  // "pid (comm) S ...": the name may hold spaces and parentheses.
  const size_t close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() ? text[close + 2] : 0;
}

}  // namespace

std::string FindInPath(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string directories = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= directories.size()) {
    const size_t colon = std::min(directories.find(':', start), directories.size());
    const std::filesystem::path candidate =
        std::filesystem::path(directories.substr(start, colon - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = colon + 1;
  }
  return "";
}

pid_t SpawnDetached(const std::vector<std::string>& command, const std::filesystem::path& log,
                    const std::filesystem::path& pid_file) {
  const std::string program = FindInPath(command.at(0));
  if (program.empty()) throw std::runtime_error(command[0] + " is not installed (not in PATH)");
  std::vector<char*> argv;
  for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  // The child reports a failed exec through this pipe; a successful exec
  // closes it (O_CLOEXEC), so once it reads empty the process runs `program`.
  int exec_status[2];
  if (pipe2(exec_status, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot start a process: ") + strerror(errno));
  }
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a process: ") + strerror(errno));
  if (pid == 0) {
    close(exec_status[0]);
    setsid();
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    const int in = open("/dev/null", O_RDONLY);
    if (out >= 0) {
      dup2(out, STDOUT_FILENO);
      dup2(out, STDERR_FILENO);
    }
    if (in >= 0) dup2(in, STDIN_FILENO);
    execv(program.c_str(), argv.data());
    const int error = errno;
    (void)!write(exec_status[1], &error, sizeof error);
    _exit(127);
  }
  close(exec_status[1]);
  int exec_error = 0;
  ssize_t n;
  while ((n = read(exec_status[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  close(exec_status[0]);
  if (n > 0) {
    waitpid(pid, nullptr, 0);
    throw std::runtime_error("cannot run " + program + ": " + strerror(exec_error));
  }
  std::ofstream(pid_file) << pid << "\n";
  return pid;
}

std::optional<pid_t> ReadPidFile(const std::filesystem::path& pid_file) {
  std::ifstream in(pid_file);
  long pid = 0;
  if (!(in >> pid) || pid <= 0) return std::nullopt;
  return static_cast<pid_t>(pid);
}

bool IsRunning(pid_t pid, const ProcessIdentity& identity) {
  const char state = ProcessState(pid);
  if (state == 0 || state == 'Z') return false;
  std::error_code error;
  const auto executable =
      std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", error);
  // The link reads "... (deleted)" once the binary is rebuilt under a running node.
  if (error || executable.filename().string().rfind(identity.program, 0) != 0) return false;
  std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string argument;
  while (std::getline(cmdline, argument, '\0')) {
    if (argument == identity.argument) return true;
  }
  return false;
}

bool StopProcess(pid_t pid, const ProcessIdentity& identity, std::chrono::milliseconds grace) {
  if (!IsRunning(pid, identity)) return false;
  kill(pid, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (IsRunning(pid, identity)) {
    // Our own child (a start that failed half-way) must be reaped to vanish.
    waitpid(pid, nullptr, WNOHANG);
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  waitpid(pid, nullptr, WNOHANG);
  return true;
}

std::string LogTail(const std::filesystem::path& log, size_t lines) {
  std::ifstream in(log);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  std::string tail;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) {
    tail += "  " + all[i] + "\n";
  }
  return tail;
}

}  // namespace sibyl::tools::cluster
