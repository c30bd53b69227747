#include "tools/shell/shell_options.h"

#include <charconv>

namespace sibyl::tools::shell {
namespace {

int ParseWhole(const std::string& text, const std::string& what, int min, int max) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < min ||
      value > max) {
    throw ShellUsageError("\"" + text + "\" is not a valid " + what + ".");
  }
  return value;
}

uint16_t ParsePort(const std::string& text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 1 ||
      value > 65535) {
    throw ShellUsageError("'" + text + "' is not a valid port number.");
  }
  return static_cast<uint16_t>(value);
}

}  // namespace

ShellOptions ParseShellArguments(const std::vector<std::string>& args, const char* environment_host,
                                 const char* environment_port) {
  ShellOptions options;
  if (environment_host != nullptr && *environment_host != '\0') options.host = environment_host;
  if (environment_port != nullptr && *environment_port != '\0') {
    options.port = ParsePort(environment_port);
  }
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string value;
    bool has_inline_value = false;
    if (arg.rfind("--", 0) == 0) {
      const size_t equals = arg.find('=');
      if (equals != std::string::npos) {
        value = arg.substr(equals + 1);
        arg = arg.substr(0, equals);
        has_inline_value = true;
      }
    }
    const auto take_value = [&]() -> std::string {
      if (has_inline_value) return value;
      if (i + 1 >= args.size()) throw ShellUsageError(arg + " option requires an argument");
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") {
      options.help = true;
    } else if (arg == "--version") {
      options.version = true;
    } else if (arg == "-C" || arg == "--color") {
      options.color = true;
    } else if (arg == "--no-color") {
      options.color = false;
    } else if (arg == "-t" || arg == "--tty") {
      options.force_tty = true;
    } else if (arg == "-u" || arg == "--username") {
      options.username = take_value();
    } else if (arg == "-p" || arg == "--password") {
      options.password = take_value();
    } else if (arg == "-k" || arg == "--keyspace") {
      options.keyspace = take_value();
    } else if (arg == "-e" || arg == "--execute") {
      options.execute = take_value();
    } else if (arg == "-f" || arg == "--file") {
      options.file = take_value();
    } else if (arg == "--connect-timeout") {
      options.connect_timeout_seconds = ParseWhole(take_value(), "connect timeout", 1, 86400);
    } else if (arg == "--request-timeout") {
      options.request_timeout_seconds = ParseWhole(take_value(), "request timeout", 1, 86400);
    } else if (arg == "--protocol-version") {
      const std::string text = take_value();
      options.protocol_version = ParseWhole(text, "protocol version", 0, 99);
      if (options.protocol_version != 4 && options.protocol_version != 5) {
        throw ShellUsageError("Protocol version " + text +
                              " is not supported: sibyl shell speaks protocol versions 4 and 5.");
      }
    } else if (arg == "--ssl") {
      throw ShellUsageError("--ssl: Sibyl does not serve TLS yet; connect without --ssl.");
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw ShellUsageError("no such option: " + arg);
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() > 2) {
    throw ShellUsageError("too many arguments: expected [host [port]]");
  }
  if (!positional.empty()) options.host = positional[0];
  if (positional.size() > 1) options.port = ParsePort(positional[1]);
  return options;
}

std::string ShellUsage() {
  return "Usage: sibyl shell [options] [host [port]]\n"
         "\n"
         "A CQL shell for Sibyl (and any Cassandra-compatible node), as cqlsh.\n"
         "\n"
         "Options:\n"
         "  -h, --help            show this help message and exit\n"
         "  --version             show the shell's version and exit\n"
         "  -C, --color           always use color output\n"
         "  --no-color            never use color output\n"
         "  -u, --username=NAME   authenticate as user (if the node asks)\n"
         "  -p, --password=PASS   authenticate using password\n"
         "  -k, --keyspace=NAME   use the given keyspace\n"
         "  -f, --file=FILE       execute commands from FILE, then exit\n"
         "  -e, --execute=STMT    execute the statement and quit\n"
         "  --connect-timeout=S   connection timeout in seconds (default: 5)\n"
         "  --request-timeout=S   request timeout in seconds (default: 10)\n"
         "  --protocol-version=N  native protocol version, 4 or 5 (default: the highest)\n"
         "  -t, --tty             force tty mode (command prompt)\n"
         "\n"
         "Connects to 127.0.0.1:9042 by default. These defaults can be changed by\n"
         "setting $CQLSH_HOST and/or $CQLSH_PORT. A host (and port) given on the\n"
         "command line take precedence.\n";
}

}  // namespace sibyl::tools::shell
