#include "tools/shell/line_source.h"

namespace sibyl::tools::shell {

InputLine StreamLineSource::ReadLine(const std::string& /*prompt*/) {
  InputLine line;
  if (file_ == nullptr) {
    if (text_offset_ >= text_.size()) return line;
    size_t end = text_.find('\n', text_offset_);
    if (end == std::string::npos) end = text_.size();
    line.text = text_.substr(text_offset_, end - text_offset_);
    text_offset_ = end + 1;
  } else {
    int c = 0;
    bool any = false;
    while ((c = std::fgetc(file_)) != EOF) {
      any = true;
      if (c == '\n') break;
      line.text.push_back(static_cast<char>(c));
    }
    if (!any) return line;
  }
  if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
  ++line_number_;
  line.kind = InputLine::Kind::kLine;
  return line;
}

}  // namespace sibyl::tools::shell
