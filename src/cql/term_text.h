#pragma once
// Terms written back as CQL text, the way Cassandra's Term.Raw.getText()
// writes them, for the error messages that quote a term ("Invalid property
// value: ? for property: 'class' ...").

#include <string>

#include "cql/ast_common.h"

namespace sibyl::cql {

[[nodiscard]] std::string TermText(const Term& term);

}  // namespace sibyl::cql
