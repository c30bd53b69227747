// The `compression` table option: CompressionParams.fromMap and validate
// (Cassandra 4.1), with the compressors Cassandra ships and the options each
// supports.

#include <set>

#include "common/error.h"
#include "schema/describe_cql.h"
#include "schema/java_numbers.h"
#include "schema/table_options.h"

namespace sibyl::schema {
namespace {

constexpr std::string_view kCompressPackage = "org.apache.cassandra.io.compress.";
constexpr int kDefaultChunkLengthKb = 16;

bool IsFalse(std::string_view value) {
  std::string lower(value);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "false";
}

// The options each compressor's supportedOptions() names.
const std::set<std::string>* SupportedOptions(std::string_view simple_name) {
  static const std::set<std::string> kNone;
  static const std::set<std::string> kLz4{"lz4_compressor_type", "lz4_high_compressor_level"};
  static const std::set<std::string> kZstd{"compression_level"};
  if (simple_name == "LZ4Compressor") return &kLz4;
  if (simple_name == "ZstdCompressor") return &kZstd;
  if (simple_name == "SnappyCompressor" || simple_name == "DeflateCompressor" ||
      simple_name == "NoopCompressor") {
    return &kNone;
  }
  return nullptr;
}

int ParseChunkLength(const std::string& value) {
  const std::optional<int32_t> kb = ParseJavaInt(value);
  if (!kb) ThrowConfig("Invalid value for chunk_length_in_kb");
  if (*kb > INT32_MAX / 1024) {
    ThrowConfig("Value of chunk_length_in_kb is too large (" + std::to_string(*kb) + ")");
  }
  return *kb;
}

}  // namespace

OptionMap BuildCompression(const GivenMap& given, std::optional<double>& crc_check_chance) {
  OptionMap options(given.begin(), given.end());
  const bool enabled = !(options.count("enabled") > 0 && IsFalse(options.at("enabled")));
  if (!options.empty() && enabled && options.count("class") == 0) {
    ThrowConfig("Missing sub-option 'class' for the 'compression' option.");
  }
  if (auto it = options.find("crc_check_chance"); it != options.end()) {
    const std::optional<double> chance = ParseJavaDouble(it->second);
    if (!chance) {
      throw CqlError(ErrorCode::kSyntaxError,
                     "Invalid double value " + it->second + " for 'crc_check_chance'");
    }
    crc_check_chance = *chance;
    options.erase(it);
  }
  options.erase("enabled");
  if (!enabled) {
    if (!options.empty()) {
      ThrowConfig("If the 'enabled' option is set to false no other options must be specified");
    }
    return {{"enabled", "false"}};
  }

  std::string class_name = options.at("class");
  options.erase("class");
  const std::string full = class_name.find('.') != std::string::npos
                               ? class_name
                               : std::string(kCompressPackage) + class_name;
  const std::set<std::string>* supported = nullptr;
  if (full.compare(0, kCompressPackage.size(), kCompressPackage) == 0) {
    supported = SupportedOptions(std::string_view(full).substr(kCompressPackage.size()));
  }
  if (supported == nullptr) ThrowConfig("Could not create Compression for type " + full);

  int chunk_length_kb = kDefaultChunkLengthKb;
  if (auto it = options.find("chunk_length_in_kb"); it != options.end()) {
    if (options.count("chunk_length_kb") > 0) {
      ThrowConfig(
          "The 'chunk_length_kb' option must not be used if the chunk length is already "
          "specified by the 'chunk_length_in_kb' option");
    }
    chunk_length_kb = ParseChunkLength(it->second);
    options.erase(it);
  } else if (auto old = options.find("chunk_length_kb"); old != options.end()) {
    chunk_length_kb = ParseChunkLength(old->second);
    options.erase(old);
  }
  double min_compress_ratio = 0.0;
  if (auto it = options.find("min_compress_ratio"); it != options.end()) {
    const std::optional<double> ratio = ParseJavaDouble(it->second);
    if (!ratio) ThrowConfig("Invalid value for min_compress_ratio");
    min_compress_ratio = *ratio;
    options.erase(it);
  }
  for (const auto& [key, value] : options) {
    if (supported->count(key) == 0) ThrowConfig("Unknown compression options " + key);
  }

  const int64_t chunk_length = int64_t{chunk_length_kb} * 1024;
  if (chunk_length <= 0) ThrowConfig("Invalid negative or null chunk_length_in_kb");
  if ((chunk_length & (chunk_length - 1)) != 0) {
    ThrowConfig("chunk_length_in_kb must be a power of 2");
  }
  if (min_compress_ratio < 0) ThrowConfig("Invalid negative min_compress_ratio");
  if (min_compress_ratio > 0 && min_compress_ratio < 1) {
    ThrowConfig("min_compress_ratio can either be 0 or greater than or equal to 1");
  }

  options["class"] = full;
  options["chunk_length_in_kb"] = std::to_string(chunk_length_kb);
  if (min_compress_ratio != 0.0) {
    options["min_compress_ratio"] = JavaDoubleToString(min_compress_ratio);
  }
  return options;
}

}  // namespace sibyl::schema
