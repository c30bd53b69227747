// EtcdWatch against a real etcd: events in order from a revision, nothing
// lost or repeated across an etcd restart, cancellation.

#include "metadata/etcd_watch.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "metadata/etcd_test_util.h"

namespace sibyl::metadata {
namespace {

// What a watch delivered, for the test thread to wait on.
class Recorder {
 public:
  WatchCallbacks callbacks() {
    return {[this](const std::vector<WatchEvent>& events) {
              std::lock_guard lock(mutex_);
              for (const WatchEvent& event : events) events_.push_back(event);
              changed_.notify_all();
            },
            [this] {
              std::lock_guard lock(mutex_);
              ++connections_;
              changed_.notify_all();
            }};
  }

  // Waits (30 s at most, a failure bound, not a speed test) for `n` events.
  std::vector<WatchEvent> WaitForEvents(size_t n) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(30), [&] { return events_.size() >= n; });
    return events_;
  }
  int WaitForConnections(int n) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(30), [&] { return connections_ >= n; });
    return connections_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<WatchEvent> events_;
  int connections_ = 0;
};

std::vector<std::string> Values(const std::vector<WatchEvent>& events) {
  std::vector<std::string> values;
  for (const WatchEvent& event : events) {
    values.push_back(event.type == WatchEvent::Type::kDelete ? "deleted" : event.kv.value);
  }
  return values;
}

TEST(EtcdWatchTest, DeliversAPrefixFromARevisionAndSurvivesARestart) {
  testing::EtcdServer etcd;
  EtcdClient client(etcd.options());
  const int64_t start = client.Put({.key = "/w/1", .value = "one"});
  client.Put({.key = "/other", .value = "not watched"});

  Recorder recorder;
  EtcdWatch watch(etcd.options(), {"/w/", PrefixEnd("/w/"), start}, recorder.callbacks());
  client.Put({.key = "/w/2", .value = "two"});
  client.DeleteRange({.key = "/w/1"});
  EXPECT_EQ(Values(recorder.WaitForEvents(3)), (std::vector<std::string>{"one", "two", "deleted"}));
  EXPECT_EQ(recorder.WaitForConnections(1), 1);

  etcd.Kill();
  etcd.Start();
  // After the restart the watch is made again, from the revision after the
  // last event: the next events come once, and none before them again.
  EXPECT_EQ(recorder.WaitForConnections(2), 2);
  client.Put({.key = "/w/3", .value = "three"});
  EXPECT_EQ(Values(recorder.WaitForEvents(4)),
            (std::vector<std::string>{"one", "two", "deleted", "three"}));
  watch.Cancel();
  watch.Cancel();  // idempotent
}

TEST(EtcdWatchTest, WatchesWhileEtcdIsDownAndConnectsWhenItComes) {
  auto etcd = std::make_unique<testing::EtcdServer>();
  const EtcdOptions options = etcd->options();
  etcd->Kill();
  Recorder recorder;
  EtcdWatch watch(options, {"/w/", PrefixEnd("/w/"), 0}, recorder.callbacks());
  etcd->Start();
  EXPECT_EQ(recorder.WaitForConnections(1), 1);
  EtcdClient(options).Put({.key = "/w/a", .value = "a"});
  EXPECT_EQ(Values(recorder.WaitForEvents(1)), std::vector<std::string>{"a"});
  EXPECT_NE(watch.last_error(), "");  // the attempts while etcd was down
}

}  // namespace
}  // namespace sibyl::metadata
