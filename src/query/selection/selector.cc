#include "query/selection/selector.h"

#include "common/error.h"

namespace sibyl::query {
namespace {

// SimpleSelector: the first row's value until reset.
class ColumnSelector final : public Selector {
 public:
  explicit ColumnSelector(size_t index) : index_(index) {}
  void AddInput(const schema::Row& row) override {
    if (set_) return;
    set_ = true;
    value_ = row[index_];
  }
  // Moves the value out: Output is called once between resets.
  OptBytes Output() override { return std::move(value_); }
  void Reset() override {
    set_ = false;
    value_.reset();
  }

 private:
  size_t index_;
  bool set_ = false;
  OptBytes value_;
};

class ColumnFactory final : public SelectorFactory {
 public:
  ColumnFactory(std::string name, types::TypePtr type, size_t index)
      : SelectorFactory(std::move(name), std::move(type), false), index_(index) {}
  std::unique_ptr<Selector> NewSelector(const SelectorContext&) const override {
    return std::make_unique<ColumnSelector>(index_);
  }

 private:
  size_t index_;
};

class TermSelector final : public Selector {
 public:
  TermSelector(OptBytes value, bool unset) : value_(std::move(value)), unset_(unset) {}
  void AddInput(const schema::Row&) override {}
  OptBytes Output() override { return value_; }
  void Reset() override {}
  bool is_unset() const override { return unset_; }

 private:
  OptBytes value_;
  bool unset_;
};

class TermFactory final : public SelectorFactory {
 public:
  TermFactory(std::string text, PreparedTerm term)
      : SelectorFactory(std::move(text), term.type, false), term_(std::move(term)) {}
  bool is_term() const override { return true; }
  std::unique_ptr<Selector> NewSelector(const SelectorContext& context) const override {
    const Value value = term_.Bind(context.values);
    OptBytes bytes;
    if (value.kind == Value::Kind::kBytes) bytes = Bytes(value.bytes);
    return std::make_unique<TermSelector>(std::move(bytes), value.is_unset());
  }

 private:
  PreparedTerm term_;
};

std::vector<std::unique_ptr<Selector>> NewArguments(
    const std::vector<SelectorFactoryPtr>& factories, const SelectorContext& context) {
  std::vector<std::unique_ptr<Selector>> selectors;
  selectors.reserve(factories.size());
  for (const auto& f : factories) selectors.push_back(f->NewSelector(context));
  return selectors;
}

// Reads the arguments' outputs into `values` (owned) and `views`, resetting
// each argument (AbstractFunctionSelector.setArg + reset).
void CollectArguments(const Function& function, std::vector<std::unique_ptr<Selector>>& arguments,
                      std::vector<OptBytes>& values, std::vector<std::optional<BytesView>>& views) {
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i]->is_unset()) {
      ThrowInvalid("Invalid unset value for argument in call to function " + function.name());
    }
    values[i] = arguments[i]->Output();
    arguments[i]->Reset();
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    views[i] = values[i] ? std::optional<BytesView>(*values[i]) : std::nullopt;
  }
}

class ScalarFunctionSelector final : public Selector {
 public:
  ScalarFunctionSelector(FunctionPtr function, std::vector<std::unique_ptr<Selector>> arguments,
                         FunctionContext& context)
      : function_(std::move(function)),
        arguments_(std::move(arguments)),
        values_(arguments_.size()),
        views_(arguments_.size()),
        context_(context) {}
  void AddInput(const schema::Row& row) override {
    for (auto& a : arguments_) a->AddInput(row);
  }
  OptBytes Output() override {
    CollectArguments(*function_, arguments_, values_, views_);
    return function_->Execute(views_, context_);
  }
  void Reset() override {
    for (auto& a : arguments_) a->Reset();
  }

 private:
  FunctionPtr function_;
  std::vector<std::unique_ptr<Selector>> arguments_;
  std::vector<OptBytes> values_;
  std::vector<std::optional<BytesView>> views_;
  FunctionContext& context_;
};

class AggregateFunctionSelector final : public Selector {
 public:
  AggregateFunctionSelector(FunctionPtr function, std::vector<std::unique_ptr<Selector>> arguments)
      : function_(std::move(function)),
        arguments_(std::move(arguments)),
        values_(arguments_.size()),
        views_(arguments_.size()),
        state_(function_->NewAggregate()) {}
  void AddInput(const schema::Row& row) override {
    for (auto& a : arguments_) a->AddInput(row);
    CollectArguments(*function_, arguments_, values_, views_);
    state_->Add(views_);
  }
  OptBytes Output() override { return state_->Compute(); }
  void Reset() override { state_->Reset(); }

 private:
  FunctionPtr function_;
  std::vector<std::unique_ptr<Selector>> arguments_;
  std::vector<OptBytes> values_;
  std::vector<std::optional<BytesView>> views_;
  std::unique_ptr<AggregateState> state_;
};

class FunctionFactory final : public SelectorFactory {
 public:
  FunctionFactory(FunctionPtr function, std::vector<SelectorFactoryPtr> arguments, std::string name,
                  bool is_aggregate)
      : SelectorFactory(std::move(name), function->return_type(), is_aggregate),
        function_(std::move(function)),
        arguments_(std::move(arguments)) {}
  std::unique_ptr<Selector> NewSelector(const SelectorContext& context) const override {
    auto arguments = NewArguments(arguments_, context);
    if (function_->is_aggregate()) {
      return std::make_unique<AggregateFunctionSelector>(function_, std::move(arguments));
    }
    return std::make_unique<ScalarFunctionSelector>(function_, std::move(arguments),
                                                    context.function_context);
  }

 private:
  FunctionPtr function_;
  std::vector<SelectorFactoryPtr> arguments_;
};

class RenamedFactory final : public SelectorFactory {
 public:
  RenamedFactory(SelectorFactoryPtr selected, std::string name, types::TypePtr type)
      : SelectorFactory(std::move(name), std::move(type), selected->is_aggregate()),
        selected_(std::move(selected)) {}
  std::unique_ptr<Selector> NewSelector(const SelectorContext& context) const override {
    return selected_->NewSelector(context);
  }

 private:
  SelectorFactoryPtr selected_;
};

}  // namespace

SelectorFactoryPtr ColumnSelectorFactory(std::string name, types::TypePtr type,
                                         size_t source_index) {
  return std::make_shared<ColumnFactory>(std::move(name), std::move(type), source_index);
}

SelectorFactoryPtr TermSelectorFactory(std::string text, PreparedTerm term) {
  return std::make_shared<TermFactory>(std::move(text), std::move(term));
}

SelectorFactoryPtr FunctionSelectorFactory(FunctionPtr function,
                                           std::vector<SelectorFactoryPtr> arguments) {
  bool arguments_aggregate = false;
  std::vector<std::string> names;
  names.reserve(arguments.size());
  for (const auto& a : arguments) {
    arguments_aggregate = arguments_aggregate || a->is_aggregate();
    names.push_back(a->column_name());
  }
  if (function->is_aggregate() && arguments_aggregate) {
    ThrowInvalid("aggregate functions cannot be used as arguments of aggregate functions");
  }
  std::string name = function->ColumnName(names);
  const bool is_aggregate = function->is_aggregate() || arguments_aggregate;
  return std::make_shared<FunctionFactory>(std::move(function), std::move(arguments),
                                           std::move(name), is_aggregate);
}

SelectorFactoryPtr RenamedSelectorFactory(SelectorFactoryPtr selected, std::string column_name,
                                          types::TypePtr type) {
  return std::make_shared<RenamedFactory>(std::move(selected), std::move(column_name),
                                          std::move(type));
}

}  // namespace sibyl::query
