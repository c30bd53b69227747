#include "fuzz/statements/statement_generator.h"

#include <algorithm>
#include <limits>

#include "fuzz/statements/schema_generator.h"
#include "fuzz/statements/value_generator.h"
#include "query/functions/function_value_text.h"
#include "types/cql_identifier.h"
#include "types/value_codec.h"
#include "types/value_to_literal.h"

namespace sibyl::fuzz {
namespace {

using schema::ColumnKind;
using schema::ColumnMetadata;
using schema::TableMetadata;
using types::Kind;

const types::TypePtr& BigintType() {
  static const types::TypePtr type = types::CqlType::Native(Kind::kBigint);
  return type;
}
const types::TypePtr& IntType() {
  static const types::TypePtr type = types::CqlType::Native(Kind::kInt);
  return type;
}

bool IsMultiCell(const types::CqlType& type) {
  return !type.frozen() && (type.is_collection() || type.kind() == Kind::kUdt);
}

std::string Literal(const types::CqlType& type, BytesView value) {
  try {
    return types::ToCqlLiteral(type, value);
  } catch (const std::exception&) {
    return "null";  // a value no literal spells (the empty tuple)
  }
}

std::string QuoteString(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

// Accumulates a statement's text and, when it is prepared, its markers' values.
class StatementGenerator::Writer {
 public:
  Writer(Choices& choices, bool prepared) : choices_(choices), prepared_(prepared) {}

  Writer& operator<<(std::string_view text) {
    text_ += text;
    return *this;
  }

  // A value of `type`: its literal, or (prepared, mostly) a marker bound to it.
  void Term(const types::CqlType& type) {
    Term(type, RandomValue(type, choices_, prepared_ && choices_.Percent(70)));
  }
  void Term(const types::CqlType& type, const Bytes& value) {
    if (prepared_ && (type.kind() == Kind::kTuple || type.kind() == Kind::kUdt) &&
        choices_.Percent(20) && ComponentTerms(type, value)) {
      return;
    }
    if (prepared_ && choices_.Percent(70)) {
      text_ += "?";
      values_.push_back(Corrupt(value));
    } else {
      text_ += Literal(type, value);
    }
  }
  void NullTerm() {
    if (prepared_ && choices_.Percent(50)) {
      text_ += "?";
      values_.push_back(BoundValue{Value::Kind::kNull, {}});
    } else {
      text_ += "null";
    }
  }

  bool prepared() const { return prepared_; }

  GeneratedStatement Finish() {
    GeneratedStatement statement;
    statement.text = std::move(text_);
    statement.prepared = prepared_;
    statement.values = std::move(values_);
    return statement;
  }

 private:
  // A tuple or UDT value written as a literal of its components, each a
  // literal or a marker: (?, 'a'), {f: ?, g: 1}. False (nothing written)
  // when the value has no components to spell.
  bool ComponentTerms(const types::CqlType& type, const Bytes& value) {
    std::vector<std::optional<BytesView>> components;
    try {
      components = types::DecodeTupleComponents(value);
    } catch (const std::exception&) {
      return false;
    }
    if (components.empty() || components.size() > type.params().size()) return false;
    const bool udt = type.kind() == Kind::kUdt;
    text_ += udt ? "{" : "(";
    for (size_t i = 0; i < components.size(); ++i) {
      if (i > 0) text_ += ", ";
      if (udt) text_ += types::MaybeQuoteIdentifier(type.field_names()[i]) + ": ";
      if (components[i]) {
        Term(*type.params()[i], Bytes(*components[i]));
      } else {
        NullTerm();
      }
    }
    text_ += udt ? "}" : ")";
    return true;
  }

  // What a client may bind instead of the value: null, unset, empty,
  // oversized (longer than a key may be) or bytes of the wrong shape.
  BoundValue Corrupt(Bytes value) {
    const uint32_t r = choices_.Below(100);
    if (r < 90) return BoundValue{Value::Kind::kBytes, std::move(value)};
    if (r < 93) return BoundValue{Value::Kind::kNull, {}};
    if (r < 95) return BoundValue{Value::Kind::kUnset, {}};
    if (r < 97) return BoundValue{Value::Kind::kBytes, Bytes()};
    if (r < 98) return BoundValue{Value::Kind::kBytes, Bytes(70000, 'x')};
    return BoundValue{Value::Kind::kBytes, GarbageValue(choices_)};
  }

  Choices& choices_;
  const bool prepared_;
  std::string text_;
  std::vector<BoundValue> values_;
};

StatementGenerator::Writer StatementGenerator::NewWriter() {
  return Writer(choices_, force_prepared_ ? *force_prepared_ : choices_.Percent(40));
}

StatementGenerator::StatementGenerator(Choices& choices, const schema::Schema& schema,
                                       int64_t now_micros)
    : choices_(choices), schema_(schema), now_micros_(now_micros) {
  if (const schema::KeyspaceMetadata* keyspace = schema_.FindKeyspace(kFuzzKeyspace)) {
    for (const auto& [name, table] : keyspace->tables) tables_.push_back(table);
    for (const auto& [name, type] : keyspace->user_types) user_types_.push_back(name);
  }
}

GeneratedStatement StatementGenerator::Next() {
  if (tables_.empty()) return Ddl();
  const uint32_t r = choices_.Below(100);
  if (r < 5) return Ddl();
  if (r < 55) return Modification(RandomTable(), /*allow_conditions=*/true);
  if (r < 63) return Batch();
  return Select(RandomTable());
}

const TableMetadata& StatementGenerator::RandomTable() { return *choices_.Pick(tables_); }

std::string StatementGenerator::Name(const TableMetadata& table) {
  // Now and then unqualified: it resolves if the input began with USE fz.
  return choices_.Percent(10) ? table.name : std::string(kFuzzKeyspace) + "." + table.name;
}

const ColumnMetadata* StatementGenerator::RandomValueColumn(const TableMetadata& table) {
  std::vector<const ColumnMetadata*> columns;
  for (const ColumnMetadata& c : table.columns) {
    if (!c.is_primary_key()) columns.push_back(&c);
  }
  return columns.empty() ? nullptr : choices_.Pick(columns);
}

// ---- DDL -------------------------------------------------------------------

GeneratedStatement StatementGenerator::Ddl() {
  Writer w(choices_, false);
  const std::string ks = kFuzzKeyspace;
  const uint32_t r = choices_.Below(100);
  if (tables_.empty() || r < 35) {
    w << RandomCreateTable(choices_, "t" + std::to_string(choices_.Below(4)), user_types_);
  } else if (r < 45) {
    w << RandomCreateType(choices_, "u" + std::to_string(choices_.Below(3)), user_types_);
  } else if (r < 55) {
    w << "DROP TABLE " << (choices_.Percent(20) ? "IF EXISTS " : "") << ks << "."
      << RandomTable().name;
  } else if (r < 58 && !user_types_.empty()) {
    w << "DROP TYPE " << ks << "." << choices_.Pick(user_types_);
  } else if (r < 75) {
    const std::string name = choices_.Percent(50) ? "a" + std::to_string(choices_.Below(3))
                                                  : "v" + std::to_string(choices_.Below(5));
    w << "ALTER TABLE " << ks << "." << RandomTable().name << " ADD " << name << " "
      << RandomTypeText(choices_, TypeRole::kRegular, user_types_);
  } else if (r < 88) {
    const TableMetadata& table = RandomTable();
    const ColumnMetadata* column = RandomValueColumn(table);
    w << "ALTER TABLE " << ks << "." << table.name << " DROP "
      << (column ? column->name : table.columns.front().name);
  } else if (r < 93) {
    w << "ALTER TABLE " << ks << "." << RandomTable().name << " WITH "
      << (choices_.Percent(50)
              ? "default_time_to_live = " + std::to_string(choices_.Pick({0, 2, 50}))
              : "gc_grace_seconds = " + std::to_string(choices_.Pick({0, 10})));
  } else {
    w << "TRUNCATE " << ks << "." << RandomTable().name;
  }
  return w.Finish();
}

// ---- Writes ----------------------------------------------------------------

void StatementGenerator::Using(Writer& w, bool ttl, bool timestamp) {
  std::vector<std::string> parts;
  if (ttl) parts.push_back("TTL");
  if (timestamp) parts.push_back("TIMESTAMP");
  if (parts.empty()) return;
  w << " USING ";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) w << " AND ";
    w << parts[i] << " ";
    if (parts[i] == "TTL") {
      // 0 cancels the table's default TTL; past 20 years is refused.
      const int32_t value = choices_.Pick({1, 2, 10, 100, 0, 630720001});
      w.Term(*IntType(), types::EncodeInt(value));
    } else {
      // Around the server's own timestamps, so ties and reorderings happen.
      const int64_t value =
          choices_.Pick({now_micros_, now_micros_ + 1, now_micros_ - 1, now_micros_ + 1000000,
                         int64_t{1}, now_micros_ - 1000000});
      w.Term(*BigintType(), types::EncodeBigint(value));
    }
  }
}

void StatementGenerator::WherePrimaryKey(Writer& w, const TableMetadata& table, bool is_delete,
                                         bool partition_only) {
  w << " WHERE ";
  bool first = true;
  auto and_ = [&] {
    if (!first) w << " AND ";
    first = false;
  };
  auto restrict_equal_or_in = [&](const ColumnMetadata& column) {
    and_();
    const uint32_t r = choices_.Below(100);
    if (r < 88) {
      w << column.name << " = ";
      w.Term(*column.type);
    } else if (r < 95 || !w.prepared()) {
      w << column.name << " IN (";
      for (uint32_t n = choices_.Below(3); n > 0; --n) {
        w.Term(*column.type);
        if (n > 1) w << ", ";
      }
      w << ")";
    } else {
      // IN ? binds a list of the column's values.
      std::vector<Bytes> elements;
      for (uint32_t n = choices_.Below(3); n > 0; --n) {
        elements.push_back(RandomValue(*column.type, choices_, true));
      }
      w << column.name << " IN ";
      w.Term(*types::CqlType::List(column.type), types::EncodeList(elements));
    }
  };
  const size_t partition = table.partition_key_size();
  for (size_t i = 0; i < partition; ++i) {
    if (choices_.Percent(2)) continue;  // a missing partition key column
    restrict_equal_or_in(table.columns[i]);
  }
  const size_t clustering = table.clustering_size();
  // UPDATE restricts every clustering column (now and then one too few);
  // DELETE a prefix, possibly ending in a slice.
  size_t restricted = clustering;
  if (partition_only) {
    restricted = 0;
  } else if (is_delete) {
    restricted = choices_.Below(clustering + 1);
  } else if (clustering > 0 && choices_.Percent(3)) {
    restricted = clustering - 1;
  }
  size_t from = 0;
  if (restricted >= 2 && choices_.Percent(12)) {
    // The first two clustering columns in tuple notation: = or IN, or (a
    // DELETE's last relation) a tuple slice.
    const ColumnMetadata& c0 = table.columns[table.clustering_begin()];
    const ColumnMetadata& c1 = table.columns[table.clustering_begin() + 1];
    auto tuple = [&] {
      w << "(";
      w.Term(*c0.type);
      w << ", ";
      w.Term(*c1.type);
      w << ")";
    };
    static const char* const kSlices[] = {" > ", " >= ", " < ", " <= "};
    and_();
    w << "(" << c0.name << ", " << c1.name << ")";
    if (is_delete && restricted == 2 && choices_.Percent(40)) {
      w << choices_.Pick(kSlices);
      tuple();
    } else if (choices_.Percent(70)) {
      w << " = ";
      tuple();
    } else {
      w << " IN (";
      for (uint32_t n = choices_.Below(3); n > 0; --n) {
        tuple();
        if (n > 1) w << ", ";
      }
      w << ")";
    }
    from = 2;
  }
  for (size_t i = from; i < restricted; ++i) {
    const ColumnMetadata& column = table.columns[table.clustering_begin() + i];
    const bool last = i + 1 == restricted;
    if (is_delete && last && choices_.Percent(40)) {
      // A slice: one or two bounds.
      const bool lower = choices_.Percent(70);
      const bool upper = !lower || choices_.Percent(50);
      if (lower) {
        and_();
        w << column.name << (choices_.Percent(50) ? " > " : " >= ");
        w.Term(*column.type);
      }
      if (upper) {
        and_();
        w << column.name << (choices_.Percent(50) ? " < " : " <= ");
        w.Term(*column.type);
      }
      continue;
    }
    restrict_equal_or_in(column);
  }
  if (choices_.Percent(2)) {
    // Not a key column: refused.
    if (const ColumnMetadata* column = RandomValueColumn(table)) {
      and_();
      w << column->name << " = ";
      w.Term(*column->type);
    }
  }
  if (first) w << "pk0 = 0";  // nothing was restricted: keep the text well formed
}

void StatementGenerator::SetOperation(Writer& w, const ColumnMetadata& column) {
  const types::CqlType& type = *column.type;
  const std::string& name = column.name;
  if (type.kind() == Kind::kCounter) {
    w << name << " = " << name << (choices_.Percent(70) ? " + " : " - ");
    w.Term(*BigintType());
    return;
  }
  if (choices_.Percent(5)) {
    w << name << " = ";
    w.NullTerm();
    return;
  }
  if (IsMultiCell(type)) {
    const types::TypePtr& element = type.params()[0];
    const uint32_t r = choices_.Below(6);
    switch (type.kind()) {
      case Kind::kList:
        if (r == 1) {
          w << name << " = " << name << " + ";
          w.Term(type);
          return;
        }
        if (r == 2) {
          w << name << " = ";
          w.Term(type);
          w << " + " << name;
          return;
        }
        if (r == 3) {
          w << name << " = " << name << " - ";
          w.Term(type);
          return;
        }
        if (r == 4) {
          w << name << "[";
          w.Term(*IntType(), types::EncodeInt(static_cast<int32_t>(choices_.Between(-1, 3))));
          w << "] = ";
          w.Term(*element);
          return;
        }
        break;
      case Kind::kSet:
        if (r == 1 || r == 2) {
          w << name << " = " << name << (r == 1 ? " + " : " - ");
          w.Term(type);
          return;
        }
        break;
      case Kind::kMap:
        if (r == 1) {
          w << name << " = " << name << " + ";
          w.Term(type);
          return;
        }
        if (r == 2) {
          w << name << " = " << name << " - ";
          w.Term(*types::CqlType::Set(element));
          return;
        }
        if (r == 3 || r == 4) {
          w << name << "[";
          w.Term(*element);
          w << "] = ";
          w.Term(*type.params()[1]);
          return;
        }
        break;
      case Kind::kUdt:
        if (r < 3) {
          const size_t field = choices_.Below(type.field_names().size());
          w << name << "." << type.field_names()[field] << " = ";
          w.Term(*type.params()[field]);
          return;
        }
        break;
      default:
        break;
    }
  }
  w << name << " = ";
  w.Term(type);
}

void StatementGenerator::Deletion(Writer& w, const ColumnMetadata& column) {
  const types::CqlType& type = *column.type;
  w << column.name;
  if (!IsMultiCell(type) || choices_.Percent(50)) return;
  switch (type.kind()) {
    case Kind::kList:
      w << "[";
      w.Term(*IntType(), types::EncodeInt(static_cast<int32_t>(choices_.Between(-1, 3))));
      w << "]";
      break;
    case Kind::kMap:
    case Kind::kSet:  // refused: a set's elements are not deleted by key
      w << "[";
      w.Term(*type.params()[0]);
      w << "]";
      break;
    case Kind::kUdt:
      w << "." << type.field_names()[choices_.Below(type.field_names().size())];
      break;
    default:
      break;
  }
}

void StatementGenerator::Conditions(Writer& w, const TableMetadata& table) {
  if (choices_.Percent(40)) {
    w << " IF EXISTS";
    return;
  }
  w << " IF ";
  const uint32_t count = 1 + choices_.Below(2);
  for (uint32_t i = 0; i < count; ++i) {
    if (i > 0) w << " AND ";
    const ColumnMetadata* column = RandomValueColumn(table);
    if (column == nullptr) column = &table.columns.back();  // a key column: refused
    const types::CqlType& type = *column->type;
    types::TypePtr operand = column->type;
    w << column->name;
    if (type.kind() == Kind::kList && choices_.Percent(30)) {
      w << "[";
      w.Term(*IntType(), types::EncodeInt(static_cast<int32_t>(choices_.Between(0, 2))));
      w << "]";
      operand = type.params()[0];
    } else if (type.kind() == Kind::kMap && choices_.Percent(30)) {
      w << "[";
      w.Term(*type.params()[0]);
      w << "]";
      operand = type.params()[1];
    } else if (type.kind() == Kind::kUdt && choices_.Percent(30)) {
      const size_t field = choices_.Below(type.field_names().size());
      w << "." << type.field_names()[field];
      operand = type.params()[field];
    }
    const uint32_t r = choices_.Below(100);
    if (r < 10) {
      w << " = ";
      w.NullTerm();
    } else if (r < 20) {
      w << " IN (";
      w.Term(*operand);
      w << ", ";
      w.Term(*operand);
      w << ")";
    } else {
      static const char* const kOperators[] = {" = ", " = ", " != ", " < ", " <= ", " > ", " >= "};
      w << choices_.Pick(kOperators);
      w.Term(*operand);
    }
  }
}

GeneratedStatement StatementGenerator::Insert(const TableMetadata& table, bool allow_conditions) {
  Writer w = NewWriter();
  w << "INSERT INTO " << Name(table);
  const bool if_not_exists = allow_conditions && choices_.Percent(15);
  if (choices_.Percent(15)) {
    // JSON: a document with the key columns and some others.
    std::string document = "{";
    for (const ColumnMetadata& column : table.columns) {
      if (!column.is_primary_key() && choices_.Percent(50)) continue;
      if (column.is_primary_key() && choices_.Percent(2)) continue;  // a missing key
      if (document.size() > 1) document += ", ";
      const Bytes value = RandomValue(*column.type, choices_, false);
      document += "\"" + column.name +
                  "\": " + (choices_.Percent(5) ? "null" : query::ToJsonText(*column.type, value));
    }
    document += "}";
    w << " JSON ";
    if (w.prepared() && choices_.Percent(70)) {
      w.Term(*types::CqlType::Native(Kind::kText), types::EncodeText(document));
    } else {
      w << QuoteString(document);
    }
    if (choices_.Percent(20)) w << (choices_.Percent(50) ? " DEFAULT UNSET" : " DEFAULT NULL");
  } else {
    std::vector<const ColumnMetadata*> columns;
    for (const ColumnMetadata& column : table.columns) {
      if (column.is_primary_key() ? !choices_.Percent(2) : choices_.Percent(60)) {
        columns.push_back(&column);
      }
    }
    if (columns.empty()) columns.push_back(&table.columns.front());
    w << " (";
    for (size_t i = 0; i < columns.size(); ++i) w << (i > 0 ? ", " : "") << columns[i]->name;
    w << ") VALUES (";
    for (size_t i = 0; i < columns.size(); ++i) {
      if (i > 0) w << ", ";
      if (columns[i]->type->kind() == Kind::kCounter) {
        w.Term(*BigintType());  // refused: counters are not inserted
      } else if (!columns[i]->is_primary_key() && choices_.Percent(5)) {
        w.NullTerm();
      } else {
        w.Term(*columns[i]->type);
      }
    }
    w << ")";
  }
  if (if_not_exists) w << " IF NOT EXISTS";
  Using(w, choices_.Percent(20), !if_not_exists && choices_.Percent(15));
  return w.Finish();
}

GeneratedStatement StatementGenerator::Update(const TableMetadata& table, bool allow_conditions) {
  Writer w = NewWriter();
  w << "UPDATE " << Name(table);
  const bool conditional = allow_conditions && choices_.Percent(20);
  Using(w, choices_.Percent(15), !conditional && choices_.Percent(15));
  w << " SET ";
  const uint32_t operations = 1 + choices_.Below(3);
  std::vector<const ColumnMetadata*> set;
  bool static_only = true;
  for (uint32_t i = 0; i < operations; ++i) {
    const ColumnMetadata* column = RandomValueColumn(table);
    if (column == nullptr) column = &table.columns.front();  // a key column: refused
    // Setting a column twice is mostly refused ("Multiple incompatible
    // setting"): now and then only.
    if (std::find(set.begin(), set.end(), column) != set.end() && !choices_.Percent(10)) continue;
    if (!set.empty()) w << ", ";
    set.push_back(column);
    static_only &= column->kind == ColumnKind::kStatic;
    SetOperation(w, *column);
  }
  // Static columns only: the row is the partition's static row, named by
  // the partition key alone.
  WherePrimaryKey(w, table, /*is_delete=*/false, static_only && choices_.Percent(90));
  if (conditional) Conditions(w, table);
  return w.Finish();
}

GeneratedStatement StatementGenerator::Delete(const TableMetadata& table, bool allow_conditions) {
  Writer w = NewWriter();
  w << "DELETE";
  const uint32_t columns = choices_.Percent(60) ? 0 : 1 + choices_.Below(2);
  for (uint32_t i = 0; i < columns; ++i) {
    w << (i > 0 ? ", " : " ");
    const ColumnMetadata* column = RandomValueColumn(table);
    if (column == nullptr) column = &table.columns.front();
    Deletion(w, *column);
  }
  w << " FROM " << Name(table);
  const bool conditional = allow_conditions && choices_.Percent(20);
  Using(w, false, !conditional && choices_.Percent(20));
  WherePrimaryKey(w, table, /*is_delete=*/true);
  if (conditional) Conditions(w, table);
  return w.Finish();
}

GeneratedStatement StatementGenerator::Modification(const TableMetadata& table,
                                                    bool allow_conditions) {
  const bool counter = std::any_of(table.columns.begin(), table.columns.end(),
                                   [](const auto& c) { return c.type->kind() == Kind::kCounter; });
  const uint32_t r = choices_.Below(100);
  // A counter table takes UPDATE (and DELETE); INSERT is refused.
  if (r < (counter ? 3 : 40)) return Insert(table, allow_conditions);
  if (r < 80) return Update(table, allow_conditions);
  return Delete(table, allow_conditions);
}

GeneratedStatement StatementGenerator::Batch() {
  const TableMetadata& first = RandomTable();
  const bool counter = std::any_of(first.columns.begin(), first.columns.end(),
                                   [](const auto& c) { return c.type->kind() == Kind::kCounter; });
  protocol::BatchType type = counter ? protocol::BatchType::kCounter
                                     : (choices_.Percent(50) ? protocol::BatchType::kLogged
                                                             : protocol::BatchType::kUnlogged);
  if (choices_.Percent(5)) type = static_cast<protocol::BatchType>(choices_.Below(3));
  // Now and then a conditional batch (a transaction on one partition, if the
  // children happen to agree on it).
  const bool conditions = choices_.Percent(10);
  const bool message = choices_.Percent(30);
  // BEGIN BATCH text is prepared (or not) as a whole; a BATCH message's
  // children each are, or are not.
  const bool prepared = choices_.Percent(40);
  if (!message) force_prepared_ = prepared;
  const uint32_t count = 1 + choices_.Below(4);
  std::vector<GeneratedStatement> children;
  for (uint32_t i = 0; i < count; ++i) {
    const TableMetadata& table = choices_.Percent(70) ? first : RandomTable();
    children.push_back(Modification(table, conditions));
  }
  force_prepared_.reset();
  const char* type_name = type == protocol::BatchType::kCounter    ? "COUNTER "
                          : type == protocol::BatchType::kUnlogged ? "UNLOGGED "
                                                                   : "";
  GeneratedStatement batch;
  if (message) {
    batch.is_batch_message = true;
    batch.batch_type = type;
    batch.text = std::string("BATCH message (") + (*type_name ? type_name : "LOGGED ") + ")";
    for (const GeneratedStatement& child : children) batch.text += "\n  " + child.text;
    batch.children = std::move(children);
    return batch;
  }
  // The children's markers are the batch's, in order.
  batch.prepared = prepared;
  batch.text = std::string("BEGIN ") + type_name + "BATCH";
  if (!counter && choices_.Percent(10)) {
    batch.text += " USING TIMESTAMP " + std::to_string(now_micros_ + choices_.Between(-1, 1));
  }
  for (GeneratedStatement& child : children) {
    batch.text += " " + child.text + ";";
    for (BoundValue& value : child.values) batch.values.push_back(std::move(value));
  }
  batch.text += " APPLY BATCH";
  return batch;
}

// ---- SELECT ----------------------------------------------------------------

std::string StatementGenerator::Selector(const TableMetadata& table) {
  // Mostly a value column: writetime() and ttl() refuse key columns.
  const ColumnMetadata* value_column = choices_.Percent(80) ? RandomValueColumn(table) : nullptr;
  const ColumnMetadata& column =
      value_column != nullptr ? *value_column : table.columns[choices_.Below(table.columns.size())];
  const std::string& name = column.name;
  switch (choices_.Below(12)) {
    case 0:
      return "writetime(" + name + ")";
    case 1:
      return "ttl(" + name + ")";
    case 2:
      return "count(*)";
    case 3:
      return "max(" + name + ")";
    case 4:
      return "min(" + name + ")";
    case 5: {
      std::string out = "token(";
      for (size_t i = 0; i < table.partition_key_size(); ++i) {
        out += (i > 0 ? ", " : "") + table.columns[i].name;
      }
      return out + ")";
    }
    case 6:
      return "CAST(" + name + " AS text)";
    case 7:
      return "toJson(" + name + ")";
    case 8:
      return name + " AS alias" + std::to_string(choices_.Below(2));
    case 9:
      if (column.type->kind() == Kind::kMap) {
        return name + "[" +
               Literal(*column.type->params()[0],
                       RandomValue(*column.type->params()[0], choices_, false)) +
               "]";
      }
      return "count(" + name + ")";
    default:
      return name;
  }
}

void StatementGenerator::SelectRestrictions(Writer& w, const TableMetadata& table, bool& filtering,
                                            bool& keyed) {
  const uint32_t shape = choices_.Below(10);
  bool first = true;
  auto and_ = [&] {
    w << (first ? " WHERE " : " AND ");
    first = false;
  };
  if (shape <= 1) return;  // the whole table
  if (shape == 7) {
    and_();
    w << "token(";
    for (size_t i = 0; i < table.partition_key_size(); ++i) {
      w << (i > 0 ? ", " : "") << table.columns[i].name;
    }
    w << ")" << (choices_.Percent(50) ? " > " : " <= ");
    w.Term(*BigintType(),
           types::EncodeBigint(
               choices_.Pick({int64_t{0}, int64_t{-4611686018427387904},
                              int64_t{4611686018427387904}, std::numeric_limits<int64_t>::min()})));
    return;
  }
  if (shape == 8) {
    // Filtering on a non-key column.
    const ColumnMetadata* column = RandomValueColumn(table);
    if (column == nullptr) return;
    and_();
    const types::CqlType& type = *column->type;
    if (type.kind() == Kind::kMap && choices_.Percent(40)) {
      if (choices_.Percent(50)) {
        w << column->name << " CONTAINS KEY ";
        w.Term(*type.params()[0]);
      } else {
        w << column->name << "[";
        w.Term(*type.params()[0]);
        w << "] = ";
        w.Term(*type.params()[1]);
      }
    } else if ((type.kind() == Kind::kList || type.kind() == Kind::kSet) && choices_.Percent(50)) {
      w << column->name << " CONTAINS ";
      w.Term(*type.params()[0]);
    } else {
      static const char* const kOperators[] = {" = ", " > ", " <= ", " != "};
      w << column->name << choices_.Pick(kOperators);
      w.Term(type);
    }
    filtering = true;
    return;
  }
  // The partition key by = or IN, then maybe clustering restrictions.
  keyed = true;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    const ColumnMetadata& column = table.columns[i];
    and_();
    if (shape == 6 && i + 1 == table.partition_key_size()) {
      w << column.name << " IN (";
      for (uint32_t n = 1 + choices_.Below(3); n > 0; --n) {
        w.Term(*column.type);
        if (n > 1) w << ", ";
      }
      w << ")";
    } else {
      w << column.name << " = ";
      w.Term(*column.type);
    }
  }
  const size_t clustering = table.clustering_size();
  if (clustering == 0 || choices_.Percent(30)) return;
  const size_t begin = table.clustering_begin();
  if (shape == 9 && clustering >= 2) {
    // A multi-column slice or equality on the first two clustering columns.
    static const char* const kOperators[] = {" = ", " > ", " >= ", " < ", " <= "};
    and_();
    w << "(" << table.columns[begin].name << ", " << table.columns[begin + 1].name << ")"
      << choices_.Pick(kOperators) << "(";
    w.Term(*table.columns[begin].type);
    w << ", ";
    w.Term(*table.columns[begin + 1].type);
    w << ")";
    return;
  }
  const size_t equal = choices_.Below(clustering);
  for (size_t i = 0; i < equal; ++i) {
    and_();
    w << table.columns[begin + i].name;
    if (choices_.Percent(15)) {
      w << " IN (";
      w.Term(*table.columns[begin + i].type);
      w << ", ";
      w.Term(*table.columns[begin + i].type);
      w << ")";
    } else {
      w << " = ";
      w.Term(*table.columns[begin + i].type);
    }
  }
  const ColumnMetadata& next = table.columns[begin + equal];
  if (choices_.Percent(60)) {
    and_();
    w << next.name << (choices_.Percent(50) ? " > " : " >= ");
    w.Term(*next.type);
  }
  if (choices_.Percent(40)) {
    and_();
    w << next.name << (choices_.Percent(50) ? " < " : " <= ");
    w.Term(*next.type);
  }
}

GeneratedStatement StatementGenerator::Select(const TableMetadata& table) {
  Writer w = NewWriter();
  w << "SELECT ";
  if (choices_.Percent(5)) w << "JSON ";
  const bool distinct = choices_.Percent(5);
  if (distinct) {
    w << "DISTINCT ";
    for (size_t i = 0; i < table.partition_key_size(); ++i) {
      w << (i > 0 ? ", " : "") << table.columns[i].name;
    }
  } else if (choices_.Percent(40)) {
    w << "*";
  } else {
    const uint32_t count = 1 + choices_.Below(3);
    for (uint32_t i = 0; i < count; ++i) w << (i > 0 ? ", " : "") << Selector(table);
  }
  w << " FROM " << Name(table);
  bool filtering = false;
  bool keyed = false;
  SelectRestrictions(w, table, filtering, keyed);
  if (choices_.Percent(8)) {
    w << " GROUP BY " << table.columns[0].name;
    for (size_t i = 1; i < table.partition_key_size(); ++i) w << ", " << table.columns[i].name;
    if (table.clustering_size() > 0 && choices_.Percent(50)) {
      w << ", " << table.columns[table.clustering_begin()].name;
    }
  }
  if (keyed && table.clustering_size() > 0 && choices_.Percent(15)) {
    w << " ORDER BY " << table.columns[table.clustering_begin()].name
      << (choices_.Percent(50) ? " DESC" : " ASC");
  }
  if (choices_.Percent(10)) {
    w << " PER PARTITION LIMIT ";
    w.Term(*IntType(), types::EncodeInt(choices_.Percent(5) ? 0 : choices_.Pick({1, 2, 3})));
  }
  if (choices_.Percent(15)) {
    w << " LIMIT ";
    w.Term(*IntType(), types::EncodeInt(choices_.Percent(5) ? 0 : choices_.Pick({1, 2, 3, 5})));
  }
  if (filtering || choices_.Percent(10)) w << " ALLOW FILTERING";
  GeneratedStatement statement = w.Finish();
  statement.is_select = true;
  return statement;
}

}  // namespace sibyl::fuzz
