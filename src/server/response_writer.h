#pragma once
// Where a request's response is written. A request executed on its
// connection's reactor thread writes straight into the connection's codec
// (CodecResponseWriter); one executed by a statement worker (a node of a
// cluster, docs/dev/server.md) is built in a BufferedResponse, which the
// reactor thread then copies into the codec, since the codec belongs to that
// thread alone.

#include <cstdint>

#include "common/bytes.h"
#include "protocol/connection_codec.h"
#include "protocol/frame.h"

namespace sibyl::server {

class ResponseWriter {
 public:
  virtual ~ResponseWriter() = default;
  // The connection's protocol version (decides error bodies, warnings).
  [[nodiscard]] virtual int version() const = 0;
  // Starts the response and returns its body to append to. One at a time.
  [[nodiscard]] virtual Bytes& Begin(int16_t stream, protocol::Opcode opcode,
                                     uint8_t flags = 0) = 0;
  virtual void End() = 0;
};

class CodecResponseWriter final : public ResponseWriter {
 public:
  // REQUIRES: used on the codec's thread; `codec` outlives the writer.
  explicit CodecResponseWriter(protocol::ConnectionCodec& codec) : codec_(codec) {}
  int version() const override { return codec_.version(); }
  Bytes& Begin(int16_t stream, protocol::Opcode opcode, uint8_t flags) override {
    return codec_.BeginResponse(stream, opcode, flags);
  }
  void End() override { codec_.EndResponse(); }

 private:
  protocol::ConnectionCodec& codec_;
};

// One response built away from the connection's thread. Not thread-safe: it
// is built by one thread, then handed over whole to the reactor thread.
class BufferedResponse final : public ResponseWriter {
 public:
  explicit BufferedResponse(int version) : version_(version) {}
  int version() const override { return version_; }
  Bytes& Begin(int16_t stream, protocol::Opcode opcode, uint8_t flags) override {
    stream_ = stream;
    opcode_ = opcode;
    flags_ = flags;
    body_.clear();
    return body_;
  }
  void End() override { complete_ = true; }

  // Queues the response in `codec`. REQUIRES: on the codec's thread; a
  // response was begun and ended (else nothing is written).
  void WriteTo(protocol::ConnectionCodec& codec) const {
    if (!complete_) return;
    Bytes& body = codec.BeginResponse(stream_, opcode_, flags_);
    body.append(body_);
    codec.EndResponse();
  }

 private:
  int version_;
  int16_t stream_ = 0;
  protocol::Opcode opcode_ = protocol::Opcode::kError;
  uint8_t flags_ = 0;
  Bytes body_;
  bool complete_ = false;
};

}  // namespace sibyl::server
