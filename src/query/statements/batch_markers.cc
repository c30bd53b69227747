#include "query/statements/batch_markers.h"

#include <algorithm>
#include <optional>
#include <variant>
#include <vector>

namespace sibyl::query {
namespace {

// Every bind marker of a statement, so a batch's statement can be prepared
// with its markers renumbered from 0.
class MarkerCollector {
 public:
  void Add(cql::Term& term) {
    if (term.kind == cql::Term::Kind::kBindMarker) markers_.push_back(&term);
    for (auto& element : term.elements) Add(element);
  }
  void Add(std::optional<cql::Term>& term) {
    if (term) Add(*term);
  }
  void Add(std::vector<cql::Term>& terms) {
    for (auto& term : terms) Add(term);
  }
  void Add(cql::Attributes& attributes) {
    Add(attributes.timestamp);
    Add(attributes.ttl);
  }
  void Add(std::vector<cql::Relation>& where) {
    for (auto& relation : where) {
      Add(relation.map_key);
      Add(relation.terms);
    }
  }
  void Add(std::vector<cql::Condition>& conditions) {
    for (auto& condition : conditions) {
      Add(condition.element);
      Add(condition.values);
    }
  }
  void Add(cql::InsertStatement& insert) {
    Add(insert.values);
    Add(insert.json_value);
    Add(insert.attributes);
  }
  void Add(cql::UpdateStatement& update) {
    Add(update.attributes);
    for (auto& operation : update.operations) {
      Add(operation.value);
      Add(operation.element);
    }
    Add(update.where);
    Add(update.conditions);
  }
  void Add(cql::DeleteStatement& del) {
    for (auto& deletion : del.deletions) Add(deletion.element);
    Add(del.attributes);
    Add(del.where);
    Add(del.conditions);
  }

  const std::vector<cql::Term*>& markers() const { return markers_; }

 private:
  std::vector<cql::Term*> markers_;
};

}  // namespace

RenumberedMarkers RenumberMarkers(cql::ModificationStatement& statement, int marker_count) {
  MarkerCollector collector;
  std::visit([&](auto& s) { collector.Add(s); }, statement);
  int first = marker_count;
  for (const cql::Term* marker : collector.markers()) first = std::min(first, marker->bind_index);
  const int count = static_cast<int>(collector.markers().size());
  for (cql::Term* marker : collector.markers()) marker->bind_index -= first;
  return RenumberedMarkers{count == 0 ? 0 : first, count};
}

}  // namespace sibyl::query
