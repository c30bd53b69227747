#include "cluster/streaming/stream_messages.h"

#include <stdexcept>

#include "common/bytes.h"

namespace sibyl::cluster::streaming {

namespace {

constexpr size_t kRequestBytes = 16 + 16 + 8 + 8;

}  // namespace

Bytes EncodeStreamPullRequest(const StreamPullRequest& request) {
  Bytes out;
  out.reserve(kRequestBytes);
  out.append(request.plan_id.View());
  out.append(request.table_id.View());
  AppendBE64(out, static_cast<uint64_t>(request.slice.start));
  AppendBE64(out, static_cast<uint64_t>(request.slice.end));
  return out;
}

StreamPullRequest DecodeStreamPullRequest(BytesView bytes) {
  if (bytes.size() != kRequestBytes) throw std::runtime_error("Not a stream pull request");
  StreamPullRequest request;
  request.plan_id = types::Uuid::FromBytes(bytes.substr(0, 16));
  request.table_id = types::Uuid::FromBytes(bytes.substr(16, 16));
  request.slice.start = static_cast<int64_t>(LoadBE64(bytes.data() + 32));
  request.slice.end = static_cast<int64_t>(LoadBE64(bytes.data() + 40));
  return request;
}

}  // namespace sibyl::cluster::streaming
