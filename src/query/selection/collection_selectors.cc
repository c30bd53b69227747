// Selectors that take part of a value: a user type's field (u.f), a set's or
// map's element (c[k]) and slice (c[a..b]), as Cassandra 4.1's FieldSelector
// and ElementsSelector compute them on the serialized value.

#include "common/error.h"
#include "query/selection/selector.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using types::CqlType;
using types::Kind;

// Wraps the selected value's selector; Extract computes the part.
class PartSelector : public Selector {
 public:
  explicit PartSelector(std::unique_ptr<Selector> selected) : selected_(std::move(selected)) {}
  void AddInput(const schema::Row& row) override { selected_->AddInput(row); }
  OptBytes Output() override {
    OptBytes value = selected_->Output();
    if (!value) return std::nullopt;
    return Extract(*value);
  }
  void Reset() override { selected_->Reset(); }

 protected:
  virtual OptBytes Extract(BytesView value) const = 0;

 private:
  std::unique_ptr<Selector> selected_;
};

class FieldSelector final : public PartSelector {
 public:
  FieldSelector(std::unique_ptr<Selector> selected, size_t field)
      : PartSelector(std::move(selected)), field_(field) {}

 protected:
  OptBytes Extract(BytesView value) const override {
    const auto components = types::DecodeTupleComponents(value);
    if (field_ >= components.size() || !components[field_]) return std::nullopt;
    return Bytes(*components[field_]);
  }

 private:
  size_t field_;
};

class FieldFactory final : public SelectorFactory {
 public:
  FieldFactory(std::string name, SelectorFactoryPtr selected, size_t field)
      : SelectorFactory(std::move(name), selected->type()->params().at(field),
                        selected->is_aggregate()),
        selected_(std::move(selected)),
        field_(field) {}
  std::unique_ptr<Selector> NewSelector(const SelectorContext& context) const override {
    return std::make_unique<FieldSelector>(selected_->NewSelector(context), field_);
  }

 private:
  SelectorFactoryPtr selected_;
  size_t field_;
};

// The type of the keys a set or map is indexed by.
const CqlType& KeyType(const CqlType& collection) { return *collection.params()[0]; }

class ElementSelector final : public PartSelector {
 public:
  ElementSelector(std::unique_ptr<Selector> selected, types::TypePtr type, Bytes key)
      : PartSelector(std::move(selected)), type_(std::move(type)), key_(std::move(key)) {}

 protected:
  OptBytes Extract(BytesView value) const override {
    const CqlType& key_type = KeyType(*type_);
    if (type_->kind() == Kind::kMap) {
      for (const auto& [k, v] : types::DecodeMapEntries(value)) {
        if (types::Compare(key_type, k, key_) == 0) return Bytes(v);
      }
      return std::nullopt;
    }
    for (BytesView element : types::DecodeListElements(value)) {
      if (types::Compare(key_type, element, key_) == 0) return Bytes(element);
    }
    return std::nullopt;
  }

 private:
  types::TypePtr type_;
  Bytes key_;
};

class ElementFactory final : public SelectorFactory {
 public:
  ElementFactory(std::string name, SelectorFactoryPtr selected, PreparedTerm key)
      : SelectorFactory(std::move(name), ValueType(*selected->type()), selected->is_aggregate()),
        selected_(std::move(selected)),
        key_(std::move(key)) {}
  std::unique_ptr<Selector> NewSelector(const SelectorContext& context) const override {
    const Value key = key_.Bind(context.values);
    if (key.is_null()) {
      ThrowInvalid("Invalid null value for element selection on " + selected_->column_name());
    }
    if (key.is_unset()) {
      ThrowInvalid("Invalid unset value for element selection on " + selected_->column_name());
    }
    return std::make_unique<ElementSelector>(selected_->NewSelector(context), selected_->type(),
                                             Bytes(key.bytes));
  }

 private:
  // ElementsSelector.valueType: a map's values, a set's elements.
  static types::TypePtr ValueType(const CqlType& collection) {
    return collection.kind() == Kind::kMap ? collection.params()[1] : collection.params()[0];
  }

  SelectorFactoryPtr selected_;
  PreparedTerm key_;
};

class SliceSelector final : public PartSelector {
 public:
  SliceSelector(std::unique_ptr<Selector> selected, types::TypePtr type, std::optional<Bytes> from,
                std::optional<Bytes> to)
      : PartSelector(std::move(selected)),
        type_(std::move(type)),
        from_(std::move(from)),
        to_(std::move(to)) {}

 protected:
  OptBytes Extract(BytesView value) const override {
    if (!from_ && !to_) return Bytes(value);
    const CqlType& key_type = KeyType(*type_);
    auto within = [&](BytesView key) {
      return (!from_ || types::Compare(key_type, key, *from_) >= 0) &&
             (!to_ || types::Compare(key_type, key, *to_) <= 0);
    };
    Bytes out;
    AppendBE32(out, 0);
    uint32_t count = 0;
    auto append = [&](BytesView bytes) {
      AppendBE32(out, static_cast<uint32_t>(bytes.size()));
      out.append(bytes.data(), bytes.size());
    };
    if (type_->kind() == Kind::kMap) {
      for (const auto& [k, v] : types::DecodeMapEntries(value)) {
        if (!within(k)) continue;
        append(k);
        append(v);
        ++count;
      }
    } else {
      for (BytesView element : types::DecodeListElements(value)) {
        if (!within(element)) continue;
        append(element);
        ++count;
      }
    }
    // CollectionSerializer.getSliceFromSerialized: nothing selected is null
    // for a non-frozen collection, an empty one for a frozen collection.
    if (count == 0 && !type_->frozen()) return std::nullopt;
    Bytes header;
    AppendBE32(header, count);
    out.replace(0, 4, header);
    return out;
  }

 private:
  types::TypePtr type_;
  std::optional<Bytes> from_;
  std::optional<Bytes> to_;
};

class SliceFactory final : public SelectorFactory {
 public:
  SliceFactory(std::string name, SelectorFactoryPtr selected, std::optional<PreparedTerm> from,
               std::optional<PreparedTerm> to)
      : SelectorFactory(std::move(name), selected->type(), selected->is_aggregate()),
        selected_(std::move(selected)),
        from_(std::move(from)),
        to_(std::move(to)) {}
  std::unique_ptr<Selector> NewSelector(const SelectorContext& context) const override {
    auto bind = [&](const std::optional<PreparedTerm>& bound) -> std::optional<Bytes> {
      if (!bound) return std::nullopt;
      const Value value = bound->Bind(context.values);
      if (value.is_null()) {
        ThrowInvalid("Invalid null value for slice selection on " + selected_->column_name());
      }
      if (value.is_unset()) return std::nullopt;  // an unset bound is open
      return Bytes(value.bytes);
    };
    return std::make_unique<SliceSelector>(selected_->NewSelector(context), selected_->type(),
                                           bind(from_), bind(to_));
  }

 private:
  SelectorFactoryPtr selected_;
  std::optional<PreparedTerm> from_;
  std::optional<PreparedTerm> to_;
};

}  // namespace

SelectorFactoryPtr FieldSelectorFactory(std::string column_name, SelectorFactoryPtr selected,
                                        size_t field) {
  return std::make_shared<FieldFactory>(std::move(column_name), std::move(selected), field);
}

SelectorFactoryPtr ElementSelectorFactory(std::string column_name, SelectorFactoryPtr selected,
                                          PreparedTerm key) {
  return std::make_shared<ElementFactory>(std::move(column_name), std::move(selected),
                                          std::move(key));
}

SelectorFactoryPtr SliceSelectorFactory(std::string column_name, SelectorFactoryPtr selected,
                                        std::optional<PreparedTerm> from,
                                        std::optional<PreparedTerm> to) {
  return std::make_shared<SliceFactory>(std::move(column_name), std::move(selected),
                                        std::move(from), std::move(to));
}

}  // namespace sibyl::query
