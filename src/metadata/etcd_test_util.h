#pragma once
// A real etcd for the tests: one single-member cluster per fixture, on free
// ports, with a temporary data directory, stopped (SIGKILL) and removed at
// the end. Kill() and Start() again keep the data directory and ports, as a
// restart of the etcd process would.

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "metadata/etcd_client.h"

extern char** environ;

namespace sibyl::metadata::testing {

// A port nothing listens on now (the kernel's choice for a socket bound to 0).
inline int FreePort() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(
      io, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  return acceptor.local_endpoint().port();
}

class TempDirectory {
 public:
  explicit TempDirectory(const std::string& stem) {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            (stem + "-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

class EtcdServer {
 public:
  EtcdServer() : directory_("sibyl-etcd"), client_port_(FreePort()), peer_port_(FreePort()) {
    Start();
  }
  ~EtcdServer() { Kill(); }

  std::string endpoint() const { return "127.0.0.1:" + std::to_string(client_port_); }
  EtcdOptions options() const {
    return {.endpoints = {endpoint()},
            .connect_timeout = std::chrono::milliseconds(1000),
            .request_timeout = std::chrono::milliseconds(5000)};
  }

  // Starts etcd and waits until it answers (throws after 30 s).
  void Start() {
    const std::string client = "http://127.0.0.1:" + std::to_string(client_port_);
    const std::string peer = "http://127.0.0.1:" + std::to_string(peer_port_);
    std::vector<std::string> args = {"/usr/bin/etcd",
                                     "--name=test",
                                     "--data-dir=" + (directory_.path() / "data").string(),
                                     "--listen-client-urls=" + client,
                                     "--advertise-client-urls=" + client,
                                     "--listen-peer-urls=" + peer,
                                     "--initial-advertise-peer-urls=" + peer,
                                     "--initial-cluster=test=" + peer};
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const std::string log = (directory_.path() / "etcd.log").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int error = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) throw std::runtime_error("cannot start etcd");
    WaitUntilServing();
  }

  void Kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
  }

 private:
  void WaitUntilServing() {
    EtcdClient client({.endpoints = {endpoint()},
                       .connect_timeout = std::chrono::milliseconds(200),
                       .request_timeout = std::chrono::milliseconds(1000)});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      try {
        (void)client.Range({.key = "/ready"});
        return;
      } catch (const EtcdError& e) {
        if (std::chrono::steady_clock::now() > deadline) {
          throw std::runtime_error(std::string("etcd did not start: ") + e.what());
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  TempDirectory directory_;
  int client_port_;
  int peer_port_;
  pid_t pid_ = 0;
};

}  // namespace sibyl::metadata::testing
