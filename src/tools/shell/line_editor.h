#pragma once
// The interactive prompt, on Debian's libedit: line editing, a history kept
// in a file across sessions, and tab completion from a callback.
//
// Ctrl-C at the prompt abandons the line (kInterrupted), as in cqlsh: the
// editor reads the terminal itself, polling the interrupt flag that the
// shell's SIGINT handler sets. One LineEditor per process (libedit's callbacks
// find it through a static pointer). Not thread-safe.

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "tools/shell/line_source.h"

struct editline;
struct history;

namespace sibyl::tools::shell {

class LineEditor : public LineSource {
 public:
  // Candidates for the partial word ending the text before the cursor.
  using Completer = std::function<std::vector<std::string>(const std::string& text_before_cursor)>;

  // `history_file`: loaded now, saved as lines are added (empty: no history
  // file). `interrupted`: the flag Ctrl-C sets (interrupt_flag.h); reading a
  // line ends with kInterrupted when it is set.
  LineEditor(std::string history_file, Completer completer, const std::atomic<bool>* interrupted);
  ~LineEditor() override;
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  InputLine ReadLine(const std::string& prompt) override;
  const std::string& name() const override { return name_; }
  int line_number() const override { return line_number_; }

  // Adds a finished statement to the history (one entry, on one line).
  void Remember(const std::string& statement);
  // Text that precedes the current line in the statement being typed, so
  // that completion sees the whole statement.
  void SetPendingText(std::string text) { pending_text_ = std::move(text); }

 private:
  static char* PromptCallback(editline* el);
  static unsigned char CompleteCallback(editline* el, int key);
  static int ReadCharCallback(editline* el, wchar_t* out);
  unsigned char Complete();

  editline* el_ = nullptr;
  history* history_ = nullptr;
  std::string history_file_;
  Completer completer_;
  const std::atomic<bool>* interrupted_;
  std::string prompt_;
  std::string pending_text_;
  std::string name_ = "<stdin>";
  int line_number_ = 0;
};

}  // namespace sibyl::tools::shell
