#include "query/statement_id.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "common/hex.h"

namespace sibyl::query {
namespace {

class Md5 {
 public:
  Md5() : context_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_md5(), nullptr) != 1) {
      throw std::runtime_error("MD5 is not available from OpenSSL");
    }
  }
  void Update(BytesView bytes) { EVP_DigestUpdate(context_.get(), bytes.data(), bytes.size()); }
  Bytes Finish() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(context_.get(), digest, &length);
    return Bytes(reinterpret_cast<const char*>(digest), length);
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context_;
};

}  // namespace

Bytes ComputeStatementId(std::optional<std::string_view> keyspace, std::string_view query) {
  Md5 md5;
  if (keyspace) md5.Update(*keyspace);
  md5.Update(query);
  return md5.Finish();
}

Bytes ComputeResultMetadataId(const std::vector<protocol::ColumnSpec>& columns) {
  Md5 md5;
  const char separator[2] = {0, 0};
  for (const auto& column : columns) {
    md5.Update(column.name);
    md5.Update(BytesView(separator, 1));
    md5.Update(column.type->ToMarshal());
    md5.Update(BytesView(separator, 2));
  }
  return md5.Finish();
}

}  // namespace sibyl::query
