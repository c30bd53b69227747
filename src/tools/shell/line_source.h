#pragma once
// Where the shell's input lines come from: the terminal (LineEditor, with
// editing, history and completion), or a stream (piped standard input, -f
// FILE, SOURCE 'file', -e "statements") read plainly.

#include <cstdio>
#include <memory>
#include <string>

namespace sibyl::tools::shell {

struct InputLine {
  enum class Kind { kLine, kEnd, kInterrupted };  // kInterrupted: Ctrl-C at the prompt
  Kind kind = Kind::kEnd;
  std::string text;  // without the '\n'
};

class LineSource {
 public:
  virtual ~LineSource() = default;
  // `prompt` is shown only by an interactive source.
  virtual InputLine ReadLine(const std::string& prompt) = 0;
  // What error lines name the input by, as cqlsh: "<stdin>" or the file's path.
  virtual const std::string& name() const = 0;
  // The number of the line read last (1 for the first).
  virtual int line_number() const = 0;
};

// Lines of a FILE (not owned; may be stdin) or of a string.
class StreamLineSource : public LineSource {
 public:
  StreamLineSource(std::FILE* file, std::string name) : file_(file), name_(std::move(name)) {}
  StreamLineSource(std::string text, std::string name)
      : text_(std::move(text)), name_(std::move(name)) {}

  InputLine ReadLine(const std::string& prompt) override;
  const std::string& name() const override { return name_; }
  int line_number() const override { return line_number_; }

 private:
  std::FILE* file_ = nullptr;
  std::string text_;
  size_t text_offset_ = 0;
  std::string name_;
  int line_number_ = 0;
};

}  // namespace sibyl::tools::shell
