#pragma once
// Where the shell's input lines come from: the terminal (LineEditor, with
// editing, history and completion), or a stream (piped standard input, -f
// FILE, SOURCE 'file', -e "statements") read plainly.

#include <atomic>
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

// Lines of a file descriptor (not owned; may be standard input) or of a
// string. Reading a descriptor waits in poll() so that `stop` (may be null),
// once set, ends the input even while nothing arrives.
class StreamLineSource : public LineSource {
 public:
  StreamLineSource(int fd, std::string name, const std::atomic<bool>* stop)
      : fd_(fd), name_(std::move(name)), stop_(stop) {}
  StreamLineSource(std::string text, std::string name)
      : buffer_(std::move(text)), name_(std::move(name)), at_end_(true) {}

  InputLine ReadLine(const std::string& prompt) override;
  const std::string& name() const override { return name_; }
  int line_number() const override { return line_number_; }

 private:
  // Appends what the descriptor has to buffer_; false at its end (or stop).
  bool Fill();

  int fd_ = -1;
  std::string buffer_;
  size_t offset_ = 0;
  std::string name_;
  const std::atomic<bool>* stop_ = nullptr;
  bool at_end_ = false;
  int line_number_ = 0;
};

}  // namespace sibyl::tools::shell
