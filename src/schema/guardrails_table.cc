#include "schema/guardrails_table.h"

#include <stdexcept>

#include "common/error.h"
#include "guardrails/guardrails.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

using guardrails::GuardrailDefinition;
using guardrails::GuardrailField;
using guardrails::GuardrailKind;

std::string_view KindName(GuardrailKind kind) {
  switch (kind) {
    case GuardrailKind::kMaxThreshold:
      return "max threshold";
    case GuardrailKind::kMinThreshold:
      return "min threshold";
    case GuardrailKind::kFlag:
      return "flag";
    case GuardrailKind::kValues:
      return "values";
  }
  return "";
}

// The table's settable columns and the field each changes.
struct SettableColumn {
  std::string_view column;
  GuardrailField field;
  bool boolean;
};
constexpr SettableColumn kSettable[] = {
    {"warn_threshold", GuardrailField::kWarnThreshold, false},
    {"fail_threshold", GuardrailField::kFailThreshold, false},
    {"enabled", GuardrailField::kEnabled, true},
    {"warned", GuardrailField::kWarnedFlag, true},
    {"warned_values", GuardrailField::kWarnedValues, false},
    {"ignored_values", GuardrailField::kIgnoredValues, false},
    {"disallowed_values", GuardrailField::kDisallowedValues, false},
    {"max_disk_size", GuardrailField::kMaxDiskSize, false},
};

// The key of `field` when `definition` has it.
std::optional<std::string> KeyOf(const GuardrailDefinition& definition, GuardrailField field) {
  std::string key = guardrails::GuardrailKeyName(definition, field);
  const auto found = guardrails::FindGuardrailKey(key);
  if (!found || found->id != definition.id || found->field != field) return std::nullopt;
  return key;
}

class GuardrailsTable final : public VirtualTable {
 public:
  GuardrailsTable() : VirtualTable(std::string(kViewsKeyspace), "guardrails") {}

  void Apply(const TableMetadata&, const storage::Mutation& mutation,
             const VirtualTableContext& context) const override {
    if (context.node.guardrails == nullptr) {
      ThrowInvalid("Guardrails cannot be changed on this node");
    }
    if (!mutation.partition_deletion.is_live() || !mutation.range_tombstones.empty()) {
      ThrowInvalid("Only INSERT or UPDATE of system_views.guardrails changes a guardrail");
    }
    const std::string name(mutation.partition.key.begin(), mutation.partition.key.end());
    const GuardrailDefinition* definition = guardrails::FindGuardrail(name);
    if (definition == nullptr) ThrowInvalid("Unknown guardrail '" + name + "'");
    std::vector<std::pair<std::string, std::string>> settings;
    for (const storage::RowWrite& row : mutation.rows) {
      if (!row.deletion.is_live()) {
        ThrowInvalid("Only INSERT or UPDATE of system_views.guardrails changes a guardrail");
      }
      for (const storage::CellWrite& cell : row.cells) {
        const SettableColumn* settable = nullptr;
        for (const SettableColumn& candidate : kSettable) {
          if (candidate.column == cell.column) settable = &candidate;
        }
        if (settable == nullptr) {
          ThrowInvalid("Column " + cell.column + " of system_views.guardrails cannot be set");
        }
        const std::optional<std::string> key = KeyOf(*definition, settable->field);
        if (!key) {
          ThrowInvalid("Guardrail " + name + " has no " + cell.column + " setting");
        }
        // An empty value (blobAsBoolean(0x)) means no value, as null does.
        const bool is_null = cell.cell.kind == storage::Cell::Kind::kTombstone ||
                             (settable->boolean && cell.cell.value.empty());
        std::string value;
        if (settable->boolean) {
          if (is_null) ThrowInvalid("Invalid value for " + *key + ": null is not allowed");
          value = types::DecodeBoolean(cell.cell.value) ? "true" : "false";
        } else if (is_null) {
          // Null disables: -1 for a count or a percentage, empty otherwise.
          const bool counted = (definition->unit == guardrails::ThresholdUnit::kCount ||
                                definition->unit == guardrails::ThresholdUnit::kPercent) &&
                               settable->field != GuardrailField::kMaxDiskSize;
          value = definition->kind == GuardrailKind::kValues || !counted ? "" : "-1";
        } else {
          value.assign(cell.cell.value.begin(), cell.cell.value.end());
        }
        settings.emplace_back(*key, std::move(value));
      }
    }
    try {
      context.node.guardrails->Apply(settings);
    } catch (const std::invalid_argument& e) {
      ThrowInvalid(e.what());
    }
  }

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    const guardrails::Guardrails* live = context.node.guardrails;
    if (live == nullptr) return;
    for (const GuardrailDefinition& definition : guardrails::AllGuardrails()) {
      RowWriter row(table);
      row.Set("name", types::EncodeText(definition.name))
          .Set("kind", types::EncodeText(KindName(definition.kind)))
          .Set("enforced", types::EncodeText(definition.enforced));
      for (const SettableColumn& settable : kSettable) {
        const std::optional<std::string> key = KeyOf(definition, settable.field);
        const std::optional<std::string> value = key ? live->Get(*key) : std::nullopt;
        if (!value) {
          row.SetNull(settable.column);
        } else if (settable.boolean) {
          row.Set(settable.column, types::EncodeBoolean(*value == "true"));
        } else {
          row.Set(settable.column, types::EncodeText(*value));
        }
      }
      rows.push_back(row.Take());
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeGuardrailsTable() { return std::make_unique<GuardrailsTable>(); }

}  // namespace sibyl::schema
