#include "metadata/etcd_messages.h"

#include <openssl/evp.h>

#include <charconv>
#include <stdexcept>

#include "common/json_string.h"
#include "types/json_document.h"

namespace sibyl::metadata {
namespace {

using types::JsonValue;

const JsonValue* Member(const JsonValue& object, std::string_view name) {
  if (object.kind != JsonValue::Kind::kObject) return nullptr;
  for (const types::JsonMember& member : object.members) {
    if (member.first == name) return &member.second;
  }
  return nullptr;
}

// The gateway writes int64 as a string and int32 as a number; both are read.
int64_t Int(const JsonValue& object, std::string_view name) {
  const JsonValue* value = Member(object, name);
  if (value == nullptr) return 0;
  if (value->kind != JsonValue::Kind::kString && value->kind != JsonValue::Kind::kNumber) {
    throw std::invalid_argument("etcd reply: " + std::string(name) + " is not a number");
  }
  int64_t result = 0;
  const std::string& text = value->text;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), result);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument("etcd reply: " + std::string(name) + " is not an integer");
  }
  return result;
}

bool Bool(const JsonValue& object, std::string_view name) {
  const JsonValue* value = Member(object, name);
  return value != nullptr && value->kind == JsonValue::Kind::kBool && value->text == "true";
}

std::string Text(const JsonValue& object, std::string_view name) {
  const JsonValue* value = Member(object, name);
  if (value == nullptr) return {};
  if (value->kind != JsonValue::Kind::kString) {
    throw std::invalid_argument("etcd reply: " + std::string(name) + " is not a string");
  }
  return value->text;
}

std::string Bytes64(const JsonValue& object, std::string_view name) {
  return DecodeBase64(Text(object, name));
}

const JsonValue& Object(const JsonValue& parent, std::string_view name) {
  static const JsonValue kEmpty{JsonValue::Kind::kObject, {}, {}, {}};
  const JsonValue* value = Member(parent, name);
  return value != nullptr && value->kind == JsonValue::Kind::kObject ? *value : kEmpty;
}

const std::vector<JsonValue>& Array(const JsonValue& parent, std::string_view name) {
  static const std::vector<JsonValue> kEmpty;
  const JsonValue* value = Member(parent, name);
  if (value == nullptr) return kEmpty;
  if (value->kind != JsonValue::Kind::kArray) {
    throw std::invalid_argument("etcd reply: " + std::string(name) + " is not an array");
  }
  return value->elements;
}

JsonValue ParseObject(std::string_view json) {
  JsonValue value = types::ParseJsonDocument(json);
  if (value.kind != JsonValue::Kind::kObject) {
    throw std::invalid_argument("etcd reply is not a JSON object");
  }
  return value;
}

KeyValue ReadKeyValue(const JsonValue& object) {
  KeyValue kv;
  kv.key = Bytes64(object, "key");
  kv.value = Bytes64(object, "value");
  kv.create_revision = Int(object, "create_revision");
  kv.mod_revision = Int(object, "mod_revision");
  kv.version = Int(object, "version");
  kv.lease = Int(object, "lease");
  return kv;
}

RangeResponse ReadRange(const JsonValue& object) {
  RangeResponse response;
  response.revision = Int(Object(object, "header"), "revision");
  for (const JsonValue& kv : Array(object, "kvs")) response.kvs.push_back(ReadKeyValue(kv));
  response.more = Bool(object, "more");
  response.count = Int(object, "count");
  return response;
}

// Appends `"name":"<base64 of data>"` after a comma when the object has members.
void AppendField(std::string& out, std::string_view name, std::string_view json_value) {
  if (out.back() != '{') out += ',';
  out += QuoteJsonString(name);
  out += ':';
  out += json_value;
}

std::string Quoted64(std::string_view data) { return QuoteJsonString(EncodeBase64(data)); }
std::string QuotedInt(int64_t value) { return QuoteJsonString(std::to_string(value)); }

std::string RangeBody(const RangeRequest& request) {
  std::string out = "{";
  AppendField(out, "key", Quoted64(request.key));
  if (!request.range_end.empty()) AppendField(out, "range_end", Quoted64(request.range_end));
  if (request.limit != 0) AppendField(out, "limit", QuotedInt(request.limit));
  if (request.revision != 0) AppendField(out, "revision", QuotedInt(request.revision));
  if (request.descending) {
    AppendField(out, "sort_order", "\"DESCEND\"");
    AppendField(out, "sort_target", "\"KEY\"");
  }
  return out + "}";
}

std::string PutBody(const PutRequest& request) {
  std::string out = "{";
  AppendField(out, "key", Quoted64(request.key));
  AppendField(out, "value", Quoted64(request.value));
  if (request.lease != 0) AppendField(out, "lease", QuotedInt(request.lease));
  return out + "}";
}

std::string DeleteBody(const DeleteRangeRequest& request) {
  std::string out = "{";
  AppendField(out, "key", Quoted64(request.key));
  if (!request.range_end.empty()) AppendField(out, "range_end", Quoted64(request.range_end));
  return out + "}";
}

std::string CompareBody(const Compare& compare) {
  static constexpr const char* kTargets[] = {"VERSION", "CREATE", "MOD", "VALUE"};
  static constexpr const char* kResults[] = {"EQUAL", "GREATER", "LESS", "NOT_EQUAL"};
  static constexpr const char* kFields[] = {"version", "create_revision", "mod_revision", "value"};
  const auto target = static_cast<size_t>(compare.target);
  std::string out = "{";
  AppendField(out, "key", Quoted64(compare.key));
  AppendField(out, "target", QuoteJsonString(kTargets[target]));
  AppendField(out, "result", QuoteJsonString(kResults[static_cast<size_t>(compare.result)]));
  AppendField(out, kFields[target],
              compare.target == Compare::Target::kValue ? Quoted64(compare.value)
                                                        : QuotedInt(compare.number));
  return out + "}";
}

std::string OpsBody(const std::vector<TxnOp>& ops) {
  std::string out = "[";
  for (const TxnOp& op : ops) {
    if (out.size() > 1) out += ',';
    if (const auto* put = std::get_if<PutRequest>(&op)) {
      out += "{\"request_put\":" + PutBody(*put) + "}";
    } else if (const auto* erase = std::get_if<DeleteRangeRequest>(&op)) {
      out += "{\"request_delete_range\":" + DeleteBody(*erase) + "}";
    } else {
      out += "{\"request_range\":" + RangeBody(std::get<RangeRequest>(op)) + "}";
    }
  }
  return out + "]";
}

// A streaming RPC's messages come wrapped in {"result": ...}.
const JsonValue& Unwrap(const JsonValue& message) {
  const JsonValue* result = Member(message, "result");
  return result != nullptr && result->kind == JsonValue::Kind::kObject ? *result : message;
}

}  // namespace

Compare Compare::ValueEquals(std::string key, std::string value) {
  return {std::move(key), Target::kValue, Result::kEqual, std::move(value), 0};
}
Compare Compare::VersionEquals(std::string key, int64_t version) {
  return {std::move(key), Target::kVersion, Result::kEqual, {}, version};
}
Compare Compare::ModRevisionEquals(std::string key, int64_t revision) {
  return {std::move(key), Target::kModRevision, Result::kEqual, {}, revision};
}

std::string PrefixEnd(std::string_view prefix) {
  std::string end(prefix);
  while (!end.empty()) {
    if (static_cast<unsigned char>(end.back()) < 0xff) {
      end.back() = static_cast<char>(static_cast<unsigned char>(end.back()) + 1);
      return end;
    }
    end.pop_back();
  }
  return std::string(1, '\0');  // etcd: "\0" as range_end means every key >= key
}

std::string EncodeBase64(std::string_view data) {
  std::string out(4 * ((data.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(data.data()),
                                static_cast<int>(data.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string DecodeBase64(std::string_view text) {
  if (text.size() % 4 != 0) throw std::invalid_argument("bad base64 length");
  std::string out(3 * (text.size() / 4), '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) throw std::invalid_argument("bad base64");
  // EVP_DecodeBlock counts the padding as zero bytes.
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') ++padding;
  if (text.size() >= 2 && text[text.size() - 2] == '=') ++padding;
  out.resize(static_cast<size_t>(n) - padding);
  return out;
}

std::string RangeToJson(const RangeRequest& request) { return RangeBody(request); }
std::string PutToJson(const PutRequest& request) { return PutBody(request); }
std::string DeleteRangeToJson(const DeleteRangeRequest& request) { return DeleteBody(request); }

std::string TxnToJson(const TxnRequest& request) {
  std::string compare = "[";
  for (const Compare& c : request.compare) {
    if (compare.size() > 1) compare += ',';
    compare += CompareBody(c);
  }
  compare += "]";
  return "{\"compare\":" + compare + ",\"success\":" + OpsBody(request.success) +
         ",\"failure\":" + OpsBody(request.failure) + "}";
}

std::string WatchCreateToJson(const std::string& key, const std::string& range_end,
                              int64_t start_revision) {
  std::string out = "{";
  AppendField(out, "key", Quoted64(key));
  if (!range_end.empty()) AppendField(out, "range_end", Quoted64(range_end));
  if (start_revision != 0) AppendField(out, "start_revision", QuotedInt(start_revision));
  return "{\"create_request\":" + out + "}}";
}

std::string LeaseGrantToJson(int64_t ttl_seconds) {
  return "{\"TTL\":" + QuotedInt(ttl_seconds) + "}";
}
std::string LeaseIdToJson(int64_t lease) { return "{\"ID\":" + QuotedInt(lease) + "}"; }

RangeResponse ParseRangeResponse(std::string_view json) { return ReadRange(ParseObject(json)); }

int64_t ParseRevision(std::string_view json) {
  return Int(Object(ParseObject(json), "header"), "revision");
}

int64_t ParseDeletedCount(std::string_view json) { return Int(ParseObject(json), "deleted"); }

TxnResponse ParseTxnResponse(std::string_view json) {
  const JsonValue object = ParseObject(json);
  TxnResponse response;
  response.revision = Int(Object(object, "header"), "revision");
  response.succeeded = Bool(object, "succeeded");
  for (const JsonValue& op : Array(object, "responses")) {
    const JsonValue* range = Member(op, "response_range");
    response.responses.push_back(range != nullptr ? std::optional(ReadRange(*range))
                                                  : std::nullopt);
  }
  return response;
}

WatchMessage ParseWatchMessage(std::string_view json) {
  const JsonValue message = ParseObject(json);
  const JsonValue& result = Unwrap(message);
  if (Member(message, "error") != nullptr) {
    const GatewayError error = ParseGatewayError(json);
    throw std::invalid_argument("watch failed: " + error.message);
  }
  WatchMessage watch;
  watch.revision = Int(Object(result, "header"), "revision");
  watch.created = Bool(result, "created");
  watch.canceled = Bool(result, "canceled");
  watch.compact_revision = Int(result, "compact_revision");
  watch.cancel_reason = Text(result, "cancel_reason");
  for (const JsonValue& event : Array(result, "events")) {
    WatchEvent parsed;
    parsed.type =
        Text(event, "type") == "DELETE" ? WatchEvent::Type::kDelete : WatchEvent::Type::kPut;
    parsed.kv = ReadKeyValue(Object(event, "kv"));
    watch.events.push_back(std::move(parsed));
  }
  return watch;
}

LeaseGrant ParseLeaseResponse(std::string_view json) {
  const JsonValue message = ParseObject(json);
  const JsonValue& result = Unwrap(message);
  return {Int(result, "ID"), Int(result, "TTL")};
}

GatewayError ParseGatewayError(std::string_view json) {
  GatewayError error;
  try {
    const JsonValue object = ParseObject(json);
    const JsonValue& body =
        Object(object, "error").members.empty() ? object : Object(object, "error");
    // Unary replies say "code"; a stream's error says "grpc_code".
    const int64_t code =
        Member(body, "code") != nullptr ? Int(body, "code") : Int(body, "grpc_code");
    if (code != 0) error.code = static_cast<int>(code);
    error.message = Text(body, "message");
  } catch (const std::invalid_argument&) {
  }
  if (error.message.empty()) error.message = std::string(json.substr(0, 200));
  return error;
}

}  // namespace sibyl::metadata
