#include "tools/demo/temporary_node.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "tools/tcp_probe.h"

namespace sibyl::tools::demo {

TemporaryNode::TemporaryNode(std::string binary) : binary_(std::move(binary)) {}

TemporaryNode::~TemporaryNode() { Stop(); }

std::string TemporaryNode::LogTail() const {
  std::ifstream log(directory_ + "/sibyl.log");
  std::vector<std::string> lines;
  for (std::string line; std::getline(log, line);) lines.push_back(line);
  std::string tail;
  for (size_t i = lines.size() > 20 ? lines.size() - 20 : 0; i < lines.size(); ++i) {
    tail += "  " + lines[i] + "\n";
  }
  return tail;
}

std::string TemporaryNode::Start(const std::atomic<bool>& interrupted) {
  std::string pattern = (std::filesystem::temp_directory_path() / "sibyl-demo-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return std::string("cannot create a temporary directory: ") + std::strerror(errno);
  }
  directory_ = pattern;
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = FreeLoopbackPort();
    const std::string data = directory_ + "/data";
    const std::string log = directory_ + "/sibyl.log";
    const std::string port = std::to_string(port_);
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ < 0) return std::string("cannot start a node: ") + std::strerror(errno);
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(1);  // the parent died before prctl
      // Its own process group: Ctrl-C at the terminal reaches the demo only,
      // which then stops the node in order.
      setpgid(0, 0);
      const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int null_fd = open("/dev/null", O_RDONLY);
      if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
      }
      if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
      execl(binary_.c_str(), binary_.c_str(), "start", "--data-dir", data.c_str(),
            "--listen-address", "127.0.0.1", "--native-transport-port", port.c_str(),
            // Any free port: a demo must start beside a running node.
            "--prometheus-port", "0", static_cast<char*>(nullptr));
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      if (interrupted.load()) return "interrupted";
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      if (AcceptsConnections("127.0.0.1", port_)) return "";
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (pid_ > 0) return "the node did not accept connections within 60 s:\n" + LogTail();
    // The port may have been taken between the probe and the bind: retry.
    if (LogTail().find("in use") == std::string::npos) break;
  }
  return "the node exited before accepting connections:\n" + LogTail();
}

void TemporaryNode::Stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
  }
  if (!directory_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
    directory_.clear();
  }
}

}  // namespace sibyl::tools::demo
