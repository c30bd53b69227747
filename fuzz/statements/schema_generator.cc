#include "fuzz/statements/schema_generator.h"

namespace sibyl::fuzz {
namespace {

const char* const kNativeTypes[] = {"ascii",    "bigint", "blob",   "boolean",   "date",
                                    "decimal",  "double", "float",  "inet",      "int",
                                    "smallint", "text",   "time",   "timestamp", "timeuuid",
                                    "tinyint",  "uuid",   "varint", "varchar"};

std::string NativeType(Choices& choices, TypeRole role) {
  // duration is allowed in regular columns only; tried elsewhere now and then.
  const bool duration = role == TypeRole::kRegular ? choices.Percent(5) : choices.Percent(1);
  return duration ? "duration" : choices.Pick(kNativeTypes);
}

}  // namespace

std::string RandomTypeText(Choices& choices, TypeRole role,
                           const std::vector<std::string>& user_types, int depth) {
  if (depth >= 2 || choices.Percent(60)) return NativeType(choices, role);
  if (role == TypeRole::kRegular && choices.Percent(5)) {
    // Cassandra 5.0's vector, of fixed-size elements.
    return std::string("vector<") + choices.Pick({"float", "int", "bigint"}) + ", " +
           std::to_string(1 + choices.Below(3)) + ">";
  }
  const bool frozen = role != TypeRole::kRegular || choices.Percent(30);
  auto element = [&] { return RandomTypeText(choices, TypeRole::kElement, user_types, depth + 1); };
  std::string type;
  switch (choices.Below(5)) {
    case 0:
      type = "list<" + element() + ">";
      break;
    case 1:
      type = "set<" + element() + ">";
      break;
    case 2:
      type = "map<" + element() + ", " + element() + ">";
      break;
    case 3: {
      type = "tuple<" + element();
      for (uint32_t n = choices.Below(3); n > 0; --n) type += ", " + element();
      return type + ">";  // tuples are always frozen
    }
    default:
      if (user_types.empty()) return NativeType(choices, role);
      type = choices.Pick(user_types);
      break;
  }
  return frozen ? "frozen<" + type + ">" : type;
}

std::string RandomCreateType(Choices& choices, const std::string& name,
                             const std::vector<std::string>& user_types) {
  std::string text = std::string("CREATE TYPE ") + kFuzzKeyspace + "." + name + " (";
  const uint32_t fields = 1 + choices.Below(3);
  for (uint32_t i = 0; i < fields; ++i) {
    if (i > 0) text += ", ";
    text += "f" + std::to_string(i) + " " +
            RandomTypeText(choices, TypeRole::kElement, user_types, /*depth=*/1);
  }
  return text + ")";
}

std::string RandomCreateTable(Choices& choices, const std::string& name,
                              const std::vector<std::string>& user_types) {
  const uint32_t partition_columns = 1 + choices.Below(2);
  const uint32_t clustering_columns = choices.Below(4);
  const uint32_t static_columns = clustering_columns > 0 ? choices.Below(3) : 0;
  const uint32_t regular_columns = choices.Percent(10) ? 0 : 1 + choices.Below(4);
  const bool counters = choices.Percent(10);

  std::string text = std::string("CREATE TABLE ") + (choices.Percent(10) ? "IF NOT EXISTS " : "") +
                     kFuzzKeyspace + "." + name + " (";
  std::vector<std::string> partition;
  std::vector<std::string> clustering;
  auto column = [&](const std::string& column_name, const std::string& type) {
    text += column_name + " " + type + ", ";
  };
  for (uint32_t i = 0; i < partition_columns; ++i) {
    partition.push_back("pk" + std::to_string(i));
    column(partition.back(), RandomTypeText(choices, TypeRole::kKey, user_types));
  }
  for (uint32_t i = 0; i < clustering_columns; ++i) {
    clustering.push_back("ck" + std::to_string(i));
    column(clustering.back(), RandomTypeText(choices, TypeRole::kKey, user_types));
  }
  auto value_type = [&] {
    return counters ? std::string("counter")
                    : RandomTypeText(choices, TypeRole::kRegular, user_types);
  };
  for (uint32_t i = 0; i < static_columns; ++i) {
    column("s" + std::to_string(i), value_type() + " static");
  }
  for (uint32_t i = 0; i < regular_columns; ++i) column("v" + std::to_string(i), value_type());
  text += "PRIMARY KEY (";
  if (partition.size() == 1) {
    text += partition[0];
  } else {
    text += "(" + partition[0] + ", " + partition[1] + ")";
  }
  for (const std::string& c : clustering) text += ", " + c;
  text += "))";

  std::vector<std::string> options;
  if (!clustering.empty() && choices.Percent(40)) {
    std::string order = "CLUSTERING ORDER BY (";
    for (size_t i = 0; i < clustering.size(); ++i) {
      if (i > 0) order += ", ";
      order += clustering[i] + (choices.Percent(50) ? " DESC" : " ASC");
    }
    options.push_back(order + ")");
  }
  if (!counters && choices.Percent(10)) {
    options.push_back("default_time_to_live = " + std::to_string(choices.Pick({1, 5, 100})));
  }
  if (choices.Percent(10)) options.push_back("gc_grace_seconds = 0");
  for (size_t i = 0; i < options.size(); ++i) text += (i == 0 ? " WITH " : " AND ") + options[i];
  return text;
}

}  // namespace sibyl::fuzz
