#include "tools/shell/line_editor.h"

#include <histedit.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cwchar>

#include "tools/shell/completion.h"

namespace sibyl::tools::shell {
namespace {

LineEditor* g_editor = nullptr;

// The longest prefix every candidate shares.
std::string CommonPrefix(const std::vector<std::string>& candidates) {
  std::string prefix = candidates.front();
  for (const auto& c : candidates) {
    size_t n = 0;
    while (n < prefix.size() && n < c.size() && prefix[n] == c[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

}  // namespace

LineEditor::LineEditor(std::string history_file, Completer completer,
                       const std::atomic<bool>* interrupted)
    : history_file_(std::move(history_file)),
      completer_(std::move(completer)),
      interrupted_(interrupted) {
  g_editor = this;
  // The terminal's character set (UTF-8 on any current system), so that
  // typed non-ASCII characters decode; only the character type is taken.
  std::setlocale(LC_CTYPE, "");
  el_ = el_init("sibyl", stdin, stdout, stderr);
  history_ = history_init();
  HistEvent event;
  history(history_, &event, H_SETSIZE, 1000);
  history(history_, &event, H_SETUNIQUE, 1);
  if (!history_file_.empty()) history(history_, &event, H_LOAD, history_file_.c_str());
  el_set(el_, EL_HIST, history, history_);
  el_set(el_, EL_EDITOR, "emacs");
  el_set(el_, EL_PROMPT, &LineEditor::PromptCallback);
  // The wide-character call: the narrow one copies the name and help with
  // wcsdup and libedit never frees the copies.
  el_wset(el_, EL_ADDFN, L"sibyl-complete", L"complete a name or keyword",
          &LineEditor::CompleteCallback);
  el_set(el_, EL_BIND, "^I", "sibyl-complete", nullptr);
  el_set(el_, EL_GETCFN, &LineEditor::ReadCharCallback);
  el_source(el_, nullptr);  // ~/.editrc, as other libedit programs
}

LineEditor::~LineEditor() {
  if (el_ != nullptr) el_end(el_);
  if (history_ != nullptr) history_end(history_);
  g_editor = nullptr;
}

char* LineEditor::PromptCallback(editline* /*el*/) {
  return g_editor == nullptr ? const_cast<char*>("") : g_editor->prompt_.data();
}

// libedit's character source. Its own blocks in read(), and a Ctrl-C that
// lands just before that read would be lost; this one polls and ends the
// line (-1, errno EINTR) as soon as the interrupt flag is set.
int LineEditor::ReadCharCallback(editline* /*el*/, wchar_t* out) {
  const auto interrupted = [] {
    return g_editor != nullptr && g_editor->interrupted_ != nullptr &&
           g_editor->interrupted_->load();
  };
  std::mbstate_t state{};
  while (true) {
    if (interrupted()) {
      errno = EINTR;
      return -1;
    }
    pollfd waiting{STDIN_FILENO, POLLIN, 0};
    const int ready = poll(&waiting, 1, 100);
    if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
    // Input and a Ctrl-C that arrive together make poll report the input,
    // and the handler runs as poll returns. The terminal dropped what was
    // typed before the Ctrl-C, so this byte was typed after it: it belongs
    // to the next line, not to the one being abandoned.
    if (interrupted()) continue;
    char byte = 0;
    const ssize_t n = read(STDIN_FILENO, &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) return 0;  // end of input
    const size_t decoded = std::mbrtowc(out, &byte, 1, &state);
    if (decoded == static_cast<size_t>(-2)) continue;  // more bytes of this character
    if (decoded == static_cast<size_t>(-1)) {          // not valid here: take the byte
      state = std::mbstate_t{};
      *out = static_cast<unsigned char>(byte);
    }
    return 1;
  }
}

unsigned char LineEditor::CompleteCallback(editline* /*el*/, int /*key*/) {
  return g_editor == nullptr ? CC_ERROR : g_editor->Complete();
}

unsigned char LineEditor::Complete() {
  const LineInfo* info = el_line(el_);
  const std::string before(info->buffer, info->cursor);
  const std::vector<std::string> candidates = completer_(pending_text_ + before);
  if (candidates.empty()) return CC_REFRESH_BEEP;
  const std::string partial(PartialWord(before));
  const std::string common = CommonPrefix(candidates);
  if (common.size() > partial.size() || candidates.size() == 1) {
    // Replace the partial word by the common prefix (its case may differ).
    el_deletestr(el_, static_cast<int>(partial.size()));
    std::string insert = common;
    if (candidates.size() == 1) insert += ' ';
    el_insertstr(el_, insert.c_str());
    return CC_REFRESH;
  }
  // Ambiguous: list the candidates under the line, then redraw it.
  std::fputc('\n', stdout);
  for (size_t i = 0; i < candidates.size(); ++i) {
    std::fputs(candidates[i].c_str(), stdout);
    std::fputs(i + 1 < candidates.size() ? "  " : "\n", stdout);
  }
  std::fflush(stdout);
  return CC_REDISPLAY;
}

InputLine LineEditor::ReadLine(const std::string& prompt) {
  prompt_ = prompt;
  int count = 0;
  errno = 0;
  const char* text = el_gets(el_, &count);
  InputLine line;
  if (text == nullptr) {
    if (count < 0 && errno == EINTR) {
      line.kind = InputLine::Kind::kInterrupted;
      // The terminal is left where the line was: end it.
      std::fputc('\n', stdout);
      std::fflush(stdout);
      return line;
    }
    return line;  // end of input (Ctrl-D)
  }
  line.kind = InputLine::Kind::kLine;
  line.text = text;
  while (!line.text.empty() && (line.text.back() == '\n' || line.text.back() == '\r')) {
    line.text.pop_back();
  }
  ++line_number_;
  return line;
}

void LineEditor::Remember(const std::string& statement) {
  std::string entry = statement;
  for (char& c : entry) {
    if (c == '\n') c = ' ';
  }
  HistEvent event;
  history(history_, &event, H_ENTER, entry.c_str());
  if (!history_file_.empty()) history(history_, &event, H_SAVE, history_file_.c_str());
}

}  // namespace sibyl::tools::shell
