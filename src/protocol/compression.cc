#include "protocol/compression.h"

#include <lz4.h>
#include <snappy.h>

#include <cctype>
#include <limits>

namespace sibyl::protocol {

namespace {
bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Appends the LZ4 block of `in` to `out` without an intermediate buffer.
void AppendLz4Block(BytesView in, Bytes& out) {
  const int bound = LZ4_compressBound(static_cast<int>(in.size()));
  const size_t start = out.size();
  out.resize(start + static_cast<size_t>(bound));
  const int written =
      LZ4_compress_default(in.data(), out.data() + start, static_cast<int>(in.size()), bound);
  out.resize(start + static_cast<size_t>(written > 0 ? written : 0));
}
}  // namespace

std::optional<Compression> CompressionByName(std::string_view name) {
  if (EqualsIgnoreCase(name, "lz4")) return Compression::kLz4;
  if (EqualsIgnoreCase(name, "snappy")) return Compression::kSnappy;
  return std::nullopt;
}

void CompressBody(Compression c, BytesView in, Bytes& out) {
  switch (c) {
    case Compression::kNone:
      out.append(in);
      return;
    case Compression::kLz4:
      AppendBE32(out, static_cast<uint32_t>(in.size()));
      AppendLz4Block(in, out);
      return;
    case Compression::kSnappy: {
      const size_t start = out.size();
      out.resize(start + snappy::MaxCompressedLength(in.size()));
      size_t written = 0;
      snappy::RawCompress(in.data(), in.size(), out.data() + start, &written);
      out.resize(start + written);
      return;
    }
  }
}

DecompressOutcome DecompressBodyDetailed(Compression c, BytesView in, size_t max_size, Bytes& out) {
  using Kind = DecompressOutcome::Kind;
  out.clear();
  switch (c) {
    case Compression::kNone:
      if (in.size() > max_size) {
        return {Kind::kBadLength, static_cast<int64_t>(in.size())};
      }
      out.assign(in);
      return {Kind::kOk, static_cast<int64_t>(in.size())};
    case Compression::kLz4: {
      if (in.size() < 4) return {Kind::kMalformed, 0};
      const int64_t declared = static_cast<int32_t>(LoadBE32(in.data()));
      if (declared < 0 || static_cast<uint64_t>(declared) > max_size ||
          declared > std::numeric_limits<int>::max()) {
        return {Kind::kBadLength, declared};
      }
      out.resize(static_cast<size_t>(declared));
      const BytesView block = in.substr(4);
      if (block.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
        return {Kind::kMalformed, declared};
      }
      const int produced = LZ4_decompress_safe(
          block.data(), out.data(), static_cast<int>(block.size()), static_cast<int>(declared));
      // The whole block must decode to exactly the declared length.
      if (produced < 0 || produced != declared) {
        out.clear();
        return {Kind::kMalformed, declared};
      }
      return {Kind::kOk, declared};
    }
    case Compression::kSnappy: {
      size_t length = 0;
      if (!snappy::GetUncompressedLength(in.data(), in.size(), &length)) {
        return {Kind::kMalformed, 0};
      }
      const int64_t declared = length > static_cast<size_t>(std::numeric_limits<int64_t>::max())
                                   ? std::numeric_limits<int64_t>::max()
                                   : static_cast<int64_t>(length);
      if (length > max_size) return {Kind::kBadLength, declared};
      if (!snappy::IsValidCompressedBuffer(in.data(), in.size())) {
        return {Kind::kMalformed, declared};
      }
      out.resize(length);
      if (!snappy::RawUncompress(in.data(), in.size(), out.data())) {
        out.clear();
        return {Kind::kMalformed, declared};
      }
      return {Kind::kOk, declared};
    }
  }
  return {Kind::kMalformed, 0};
}

bool DecompressBody(Compression c, BytesView in, size_t max_size, Bytes& out) {
  return DecompressBodyDetailed(c, in, max_size, out).kind == DecompressOutcome::Kind::kOk;
}

void Lz4CompressRaw(BytesView in, Bytes& out) { AppendLz4Block(in, out); }

bool Lz4DecompressRaw(BytesView in, size_t uncompressed_size, Bytes& out) {
  out.clear();
  if (in.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      uncompressed_size > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return false;
  }
  out.resize(uncompressed_size);
  const int produced = LZ4_decompress_safe(in.data(), out.data(), static_cast<int>(in.size()),
                                           static_cast<int>(uncompressed_size));
  if (produced < 0 || static_cast<size_t>(produced) != uncompressed_size) {
    out.clear();
    return false;
  }
  return true;
}

}  // namespace sibyl::protocol
