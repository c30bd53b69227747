#pragma once
// Cuts what the user types into statements, as cqlsh does
// (cqlhandling.cql_split_statements):
//
//   * a CQL statement ends at a ';' outside strings ('..', $$..$$), quoted
//     names ("..") and comments (-- and // to the end of the line, /* */);
//   * BEGIN ... BATCH holds ';'s inside: the batch ends at the ';' after
//     APPLY BATCH;
//   * a shell command (HELP, EXPAND, PAGING, DESCRIBE, SOURCE, ...: cqlsh's
//     commands_end_with_newline) also ends at the end of its line.
//
// Statements come out without their ';' and without surrounding blank space;
// comments stay inside them (the server skips them). Not thread-safe.

#include <string>
#include <string_view>
#include <vector>

namespace sibyl::tools::shell {

class StatementSplitter {
 public:
  // Adds one line of input (without its '\n') and returns the statements it
  // completes, in order.
  std::vector<std::string> AddLine(std::string_view line);

  // Whether a statement has started and not ended: the prompt shows "...".
  bool in_statement() const;
  // The unfinished statement (what is left at the end of the input).
  std::string pending() const;
  // Drops the unfinished statement (Ctrl-C at the prompt).
  void Reset();

 private:
  enum class State { kCode, kSingleQuoted, kDoubleQuoted, kDollarQuoted, kBlockComment };

  // Ends the current statement: moves it (trimmed) into `out` if not empty.
  void Finish(std::vector<std::string>& out);
  void NoteWord(std::string_view word);

  std::string buffer_;
  State state_ = State::kCode;
  // Words seen in the current statement, upper-cased, first two and last.
  std::string first_word_;
  int words_ = 0;
  bool in_batch_ = false;
  bool saw_apply_ = false;  // the last word was APPLY (inside a batch)
  bool ends_at_newline_ = false;
};

// Whether `word` (any case) starts a shell command that ends at the end of
// its line.
bool IsLineCommand(std::string_view word);

}  // namespace sibyl::tools::shell
