#include "cluster/membership/metadata_epoch_gate.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

namespace sibyl::cluster {

MetadataEpochGate::MetadataEpochGate(metadata::EtcdMetadataStore& store,
                                     std::chrono::milliseconds timeout)
    : store_(store), timeout_(timeout) {}

MetadataEpochGate::~MetadataEpochGate() { Stop(); }

void MetadataEpochGate::WhenCaughtUp(uint64_t epoch, std::function<void(bool)> done) {
  if (store_.epoch() >= epoch) {
    done(true);
    return;
  }
  boost::asio::post(catch_up_, [this, epoch, done = std::move(done)] {
    bool caught_up = false;
    try {
      caught_up = store_.WaitForEpoch(epoch, timeout_);
    } catch (const std::exception& e) {
      spdlog::warn("Could not catch up with metadata epoch {}: {}", epoch, e.what());
    }
    done(caught_up);
  });
}

void MetadataEpochGate::Stop() { catch_up_.join(); }

}  // namespace sibyl::cluster
