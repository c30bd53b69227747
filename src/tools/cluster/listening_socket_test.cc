#include "tools/cluster/listening_socket.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sibyl::tools::cluster {
namespace {

// A socket of this process listening on `address`, on a port the kernel picks.
struct Listener {
  explicit Listener(const char* address) {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = 0;
    inet_pton(AF_INET, address, &addr.sin_addr);
    EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(listen(fd, 4), 0);
    socklen_t length = sizeof addr;
    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length);
    port = ntohs(addr.sin_port);
  }
  ~Listener() { close(fd); }
  int fd = -1;
  uint16_t port = 0;
};

TEST(ListeningSocketTest, TheProcessHoldingTheSocketListensThere) {
  Listener listener("127.0.0.2");
  EXPECT_TRUE(ProcessListensOn(getpid(), "127.0.0.2", listener.port));
  // Another address with that port, or another port, is not it.
  EXPECT_FALSE(ProcessListensOn(getpid(), "127.0.0.3", listener.port));
  EXPECT_FALSE(ProcessListensOn(getpid(), "127.0.0.2", static_cast<uint16_t>(listener.port + 1)));
  EXPECT_FALSE(ProcessListensOn(getpid(), "not an address", listener.port));
}

TEST(ListeningSocketTest, AnotherProcessDoesNotListenOnThisOnesSocket) {
  Listener listener("127.0.0.1");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Without the socket, as a process started after the listener would be.
    close(listener.fd);
    pause();
    _exit(0);
  }
  // The child holds no socket: it closed its copy (give it the time to).
  bool child_listens = true;
  for (int i = 0; i < 200 && child_listens; ++i) {
    child_listens = ProcessListensOn(child, "127.0.0.1", listener.port);
    if (child_listens) usleep(10'000);
  }
  EXPECT_FALSE(child_listens);
  EXPECT_TRUE(ProcessListensOn(getpid(), "127.0.0.1", listener.port));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_FALSE(ProcessListensOn(child, "127.0.0.1", listener.port));
}

TEST(ListeningSocketTest, AWildcardListenerCounts) {
  Listener listener("0.0.0.0");
  EXPECT_TRUE(ProcessListensOn(getpid(), "127.0.0.5", listener.port));
}

}  // namespace
}  // namespace sibyl::tools::cluster
