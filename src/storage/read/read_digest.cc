// The canonical form digested (big-endian, fixed widths; strings are
// u32(length) then the bytes; counts are u32):
//
//   result    := count partition*count
//   partition := i64(token) string(key) u8(has static row) [row] count row*count
//   row       := count string(value)*count                       -- clustering
//                i64(marker timestamp) i32(ttl) i32(local expiration time)
//                count cell*count
//   cell      := string(column) u8(has path) [string(path)] string(value)
//                i64(timestamp) i32(ttl) i32(local expiration time)

#include "storage/read/read_digest.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace sibyl::storage {
namespace {

// Feeds MD5 through a small buffer, so that a large result is digested
// without being copied whole.
class Md5 {
 public:
  Md5() : context_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_md5(), nullptr) != 1) Fail();
  }

  void U8(uint8_t v) { AppendU8(buffer_, v); }
  void I32(int32_t v) { AppendBE32(buffer_, static_cast<uint32_t>(v)); }
  void I64(int64_t v) { AppendBE64(buffer_, static_cast<uint64_t>(v)); }
  void Count(size_t n) { AppendBE32(buffer_, static_cast<uint32_t>(n)); }
  void String(BytesView v) {
    Count(v.size());
    if (v.size() > kFlushAt) {
      Flush();
      Update(v);
    } else {
      buffer_.append(v);
    }
    if (buffer_.size() > kFlushAt) Flush();
  }

  Bytes Finish() {
    Flush();
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(context_.get(), digest, &size) != 1 || size != kReadDigestSize) Fail();
    return Bytes(reinterpret_cast<const char*>(digest), size);
  }

 private:
  static constexpr size_t kFlushAt = 4096;

  void Flush() {
    Update(buffer_);
    buffer_.clear();
  }
  void Update(BytesView v) {
    if (!v.empty() && EVP_DigestUpdate(context_.get(), v.data(), v.size()) != 1) Fail();
  }
  [[noreturn]] static void Fail() {
    throw std::runtime_error("Cannot compute a read digest: MD5 is unavailable");
  }

  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context_;
  Bytes buffer_;
};

void DigestRow(const ReadRow& row, Md5& md5) {
  md5.Count(row.clustering.size());
  for (const auto& value : row.clustering) md5.String(value);
  md5.I64(row.marker.timestamp);
  md5.I32(row.marker.ttl);
  md5.I32(row.marker.local_expiration_time);
  md5.Count(row.cells.size());
  for (const ReadCell& cell : row.cells) {
    md5.String(cell.column);
    md5.U8(cell.path ? 1 : 0);
    if (cell.path) md5.String(*cell.path);
    md5.String(cell.value);
    md5.I64(cell.timestamp);
    md5.I32(cell.ttl);
    md5.I32(cell.local_expiration_time);
  }
}

}  // namespace

Bytes ReadDigest(const ReadResult& result) {
  Md5 md5;
  md5.Count(result.partitions.size());
  for (const ReadPartition& partition : result.partitions) {
    md5.I64(partition.key.token);
    md5.String(partition.key.key);
    md5.U8(partition.static_row ? 1 : 0);
    if (partition.static_row) DigestRow(*partition.static_row, md5);
    md5.Count(partition.rows.size());
    for (const ReadRow& row : partition.rows) DigestRow(row, md5);
  }
  return md5.Finish();
}

}  // namespace sibyl::storage
