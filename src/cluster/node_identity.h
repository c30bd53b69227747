#pragma once
// The identity a node keeps across restarts: its host id and its tokens.
// Stored in `<data dir>/node_identity.yaml`-like plain text so that a
// restarted node comes back as the same member of the ring.

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "dht/token.h"

namespace sibyl::cluster {

struct NodeIdentity {
  std::array<uint8_t, 16> host_id{};  // a random (v4) UUID
  std::vector<dht::Token> tokens;     // sorted
};

// Loads the identity stored in `data_dir`, or creates one with `num_tokens`
// random tokens and stores it (written to a temporary file, fsynced and
// renamed, so a crash never leaves a half-written identity). If a stored
// identity has a different token count than `num_tokens`, the stored one wins
// (as Cassandra keeps its tokens) and `warning` says so.
// Throws std::runtime_error with a one-line message when the directory
// cannot be created, read or written.
NodeIdentity LoadOrCreateNodeIdentity(const std::filesystem::path& data_dir, int num_tokens,
                                      std::string& warning);

// Whether `data_dir` holds an identity: the node was a member before (a
// restart rejoins with its host id and tokens).
bool HasNodeIdentity(const std::filesystem::path& data_dir);

// Replaces the stored identity (as atomically as LoadOrCreateNodeIdentity
// writes it): a node of a cluster keeps the tokens the ring allocated it.
// Throws std::runtime_error with a one-line message when it cannot.
void SaveNodeIdentity(const std::filesystem::path& data_dir, const NodeIdentity& identity);

}  // namespace sibyl::cluster
