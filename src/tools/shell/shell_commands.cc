// The shell's own commands: Shell's Do* methods (shell.h), with cqlsh 4.1's
// messages (cqlsh.py: SwitchCommand, do_consistency, do_serial,
// do_describe, do_source, do_capture, do_show, do_help).

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "common/version.h"
#include "protocol/request.h"
#include "tools/shell/copy_command.h"
#include "tools/shell/error_text.h"
#include "tools/shell/help_topics.h"
#include "tools/shell/result_table.h"
#include "tools/shell/shell.h"
#include "tools/shell/shell_text.h"
#include "types/cql_identifier.h"

namespace sibyl::tools::shell {
namespace {

// A quoted file name as cqlsh unprotects it ('it''s' -> it's), ~ expanded.
std::string FileName(const std::string& word) {
  std::string name = word;
  if (name.size() >= 2 && name.front() == '\'' && name.back() == '\'') {
    name = name.substr(1, name.size() - 2);
    std::string unquoted;
    for (size_t i = 0; i < name.size(); ++i) {
      unquoted.push_back(name[i]);
      if (name[i] == '\'' && i + 1 < name.size() && name[i + 1] == '\'') ++i;
    }
    name = unquoted;
  }
  if (!name.empty() && name.front() == '~') {
    const char* home = std::getenv("HOME");
    if (home != nullptr) name = std::string(home) + name.substr(1);
  }
  return name;
}

std::optional<protocol::Consistency> ParseConsistency(const std::string& word) {
  const std::string upper = AsciiUpper(word);
  for (uint16_t level = 0; level <= 0x000A; ++level) {
    if (upper == protocol::ConsistencyName(level)) return static_cast<protocol::Consistency>(level);
  }
  return std::nullopt;
}

}  // namespace

void Shell::DoSwitch(const std::vector<std::string>& words) {
  const std::string command = AsciiUpper(words.front());
  const bool paging = command == "PAGING";
  const std::string description = paging ? "Query paging" : "Expanded output";
  bool& state = paging ? paging_ : expand_;
  if (words.size() < 2) {
    if (state) {
      std::cout << description << " is currently enabled. Use " << command << " OFF to disable\n";
    } else {
      std::cout << description << " is currently disabled. Use " << command << " ON to enable.\n";
    }
  } else {
    const std::string value = AsciiUpper(words[1]);
    if (value == "ON") {
      if (state) {
        PrintError(description + " is already enabled. Use " + command + " OFF to disable.");
      } else {
        std::cout << "Now " << description << " is enabled\n";
        state = true;
      }
    } else if (value == "OFF") {
      if (!state) {
        PrintError(description + " is not enabled.");
      } else {
        std::cout << "Disabled " << description << ".\n";
        state = false;
      }
    } else if (paging && !value.empty() &&
               value.find_first_not_of("0123456789") == std::string::npos && value.size() < 10 &&
               std::stoi(value) > 0) {
      state = true;
      page_size_ = std::stoi(value);
    } else {
      PrintError("Improper " + command + " command.");
      return;
    }
  }
  if (paging) {
    if (paging_) {
      std::cout << "Page size: " << page_size_ << "\n";
    } else {
      page_size_ = 100;
    }
  }
}

void Shell::DoConsistency(const std::vector<std::string>& words, bool serial) {
  protocol::Consistency& level = serial ? serial_consistency_ : consistency_;
  const std::string what = serial ? "serial consistency" : "consistency";
  const std::string What = serial ? "Serial consistency" : "Consistency";
  if (words.empty()) {
    std::cout << "Current " << what << " level is "
              << protocol::ConsistencyName(static_cast<uint16_t>(level)) << ".\n";
    return;
  }
  const auto parsed = ParseConsistency(words.front());
  const bool allowed = parsed && (!serial || *parsed == protocol::Consistency::kSerial ||
                                  *parsed == protocol::Consistency::kLocalSerial);
  if (words.size() > 1 || !allowed) {
    PrintError(serial ? "Improper SERIAL CONSISTENCY command." : "Improper CONSISTENCY command.");
    return;
  }
  level = *parsed;
  std::cout << What << " level set to " << protocol::ConsistencyName(static_cast<uint16_t>(level))
            << ".\n";
}

void Shell::DoTracing(const std::vector<std::string>& words) {
  if (words.empty()) {
    std::cout << "Tracing is currently disabled. Use TRACING ON to enable.\n";
    return;
  }
  const std::string value = AsciiUpper(words.front());
  if (value == "ON") {
    PrintError("Tracing is not supported by Sibyl yet: statements run untraced.");
  } else if (value == "OFF") {
    PrintError("Tracing is not enabled.");
  } else {
    PrintError("Improper TRACING command.");
  }
}

void Shell::DoDescribe(const std::string& statement) {
  RequestSettings settings = DefaultSettings();
  settings.consistency = protocol::Consistency::kLocalOne;
  settings.page_size = -1;
  auto reply = Run(statement, settings);
  if (!reply) return;
  if (const auto* error = std::get_if<client::ErrorResponse>(&reply->response)) {
    // cqlsh prints only the server's message here.
    std::string text = error->message;
    if (text.empty()) text = ErrorText(*error);
    PrintError(text);
    PrintWarnings(reply->warnings);
    return;
  }
  if (!CheckReply(reply)) return;
  const auto* rows = std::get_if<client::RowsResult>(&reply->response);
  if (rows == nullptr) return;
  std::ostream& o = out();
  std::vector<std::string> words;
  {
    std::string word;
    for (char c : statement + " ") {
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (!word.empty()) words.push_back(AsciiUpper(word));
        word.clear();
      } else {
        word.push_back(c);
      }
    }
  }
  const std::string what = words.size() > 1 ? words[1] : "";
  if (what == "TABLES" || what == "COLUMNFAMILIES" || what == "TYPES" || what == "FUNCTIONS" ||
      what == "AGGREGATES") {
    std::string keyspace;
    std::vector<std::string> names;
    bool any = false;
    const auto flush = [&] {
      o << '\n'
        << "Keyspace " << keyspace << '\n'
        << "---------" << std::string(keyspace.size(), '-') << '\n';
      Columnize(o, names);
    };
    for (size_t r = 0; r < rows->rows.size(); ++r) {
      const std::string ks = TextCell(*rows, r, "keyspace_name");
      if (any && ks != keyspace) flush();
      if (!any || ks != keyspace) names.clear();
      keyspace = ks;
      any = true;
      names.push_back(types::MaybeQuoteIdentifier(TextCell(*rows, r, "name")));
    }
    if (any) {
      flush();
      o << '\n';
    }
  } else if (what == "KEYSPACES") {
    std::vector<std::string> names;
    for (size_t r = 0; r < rows->rows.size(); ++r) {
      names.push_back(types::MaybeQuoteIdentifier(TextCell(*rows, r, "name")));
    }
    o << '\n';
    Columnize(o, names);
    o << '\n';
  } else if (what == "CLUSTER") {
    for (size_t r = 0; r < rows->rows.size(); ++r) {
      o << "\nCluster: " << TextCell(*rows, r, "cluster") << '\n'
        << "Partitioner: " << TextCell(*rows, r, "partitioner") << '\n'
        << "Snitch: " << TextCell(*rows, r, "snitch") << "\n\n";
    }
  } else {
    for (size_t r = 0; r < rows->rows.size(); ++r) {
      o << '\n' << TextCell(*rows, r, "create_statement") << '\n';
    }
  }
  PrintWarnings(reply->warnings);
}

void Shell::DoSource(const std::vector<std::string>& words) {
  if (words.empty()) {
    PrintError("Improper SOURCE command.");
    return;
  }
  const std::string name = FileName(words.front());
  if (source_depth_ >= 16) {
    PrintError("SOURCE: files nested more than 16 deep");
    return;
  }
  const int fd = open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    PrintError("Could not open '" + name + "': " + std::strerror(errno));
    return;
  }
  // As cqlsh's subshell: not a terminal, so no pauses and plain layout.
  const bool outer_tty = tty_;
  tty_ = false;
  ++source_depth_;
  StreamLineSource source(fd, name, interrupted_);
  RunLines(source, nullptr);
  --source_depth_;
  tty_ = outer_tty;
  close(fd);
}

void Shell::DoCapture(const std::vector<std::string>& words) {
  if (words.empty()) {
    if (capture_) {
      std::cout << "Currently capturing query output to '" << capture_path_ << "'.\n";
    } else {
      std::cout << "Currently not capturing query output.\n";
    }
    return;
  }
  if (AsciiUpper(words.front()) == "OFF") {
    if (!capture_) {
      PrintError("Not currently capturing output.");
      return;
    }
    capture_.reset();
    color_ = capture_shunted_color_;
    std::cout << "Stopped capture. Output saved in '" << capture_path_ << "'.\n";
    return;
  }
  if (capture_) {
    PrintError("Already capturing output to " + capture_path_ + ". Use CAPTURE OFF to disable.");
    return;
  }
  const std::string name = FileName(words.front());
  auto file = std::make_unique<std::ofstream>(name, std::ios::app);
  if (!*file) {
    PrintError("Could not open '" + name + "' for append: " + std::strerror(errno));
    return;
  }
  capture_ = std::move(file);
  capture_path_ = name;
  capture_shunted_color_ = color_;
  color_ = false;
  std::cout << "Now capturing query output to '" << name << "'.\n";
}

void Shell::DoShow(const std::vector<std::string>& words) {
  const std::string what = words.empty() ? "" : AsciiUpper(words.front());
  if (what == "VERSION") {
    std::cout << "[sibyl shell " << kSibylVersion << " | Cassandra " << release_version_
              << " | CQL spec " << cql_version_ << " | Native protocol v"
              << connection_->options().protocol_version << "]\n";
  } else if (what == "HOST") {
    std::cout << "Connected to " << cluster_name_ << " at " << options_.host << ":" << options_.port
              << "\n";
  } else if (what == "SESSION") {
    PrintError("SHOW SESSION: Sibyl does not record query traces yet.");
  } else {
    PrintError("Improper SHOW command.");
  }
}

void Shell::DoHelp(const std::vector<std::string>& words) {
  if (words.empty()) {
    // cmd.Cmd.print_topics: the header, a ruler as long as it (its leading
    // newline counted), the names in columns, a blank line.
    const auto topics = [](const std::string& header, const std::vector<std::string>& names) {
      std::cout << header << '\n' << std::string(header.size(), '=') << '\n';
      Columnize(std::cout, names, 79);
      std::cout << '\n';
    };
    topics("\nDocumented shell commands:", ShellHelpTopics());
    topics("CQL help topics:", CqlHelpTopics());
    return;
  }
  for (const std::string& topic : words) {
    if (const auto text = HelpText(topic)) {
      std::cout << *text << '\n';
    } else {
      PrintError("*** No help on " + topic);
    }
  }
}

void Shell::DoCopy(const std::string& statement) {
  if (!EnsureConnected()) return;
  CopySettings settings;
  settings.consistency = consistency_;
  settings.keyspace = keyspace_;
  settings.tty = tty_;
  const CopyOutcome outcome =
      RunCopy(statement, connection_->connection(), settings, interrupted_, std::cout, std::cerr);
  if (!outcome.error.empty()) PrintError(outcome.error);
  if (outcome.failed) statement_error_ = true;
}

}  // namespace sibyl::tools::shell
