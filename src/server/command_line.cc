#include "server/command_line.h"

#include <algorithm>

namespace sibyl::server {

StartOptions ParseStartArguments(const std::vector<std::string>& args) {
  // (key, value) pairs in order; the config file is found first.
  std::vector<std::pair<std::string, std::string>> flags;
  std::string config_file;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      throw ConfigError("Unexpected argument '" + arg + "' (see sibyl start --help)");
    }
    std::string name = arg.substr(2);
    std::string value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    } else {
      if (i + 1 >= args.size()) throw ConfigError("Missing value for --" + name);
      value = args[++i];
    }
    std::string key = name;
    std::replace(key.begin(), key.end(), '-', '_');
    if (key == "config") {
      config_file = value;
    } else {
      flags.emplace_back(key, value);
    }
  }
  StartOptions options;
  if (!config_file.empty()) options.warnings = LoadConfigFile(options.config, config_file);
  for (const auto& [key, value] : flags) {
    try {
      SetConfigValue(options.config, key, value);
    } catch (const ConfigError& e) {
      std::string flag = "--" + key;
      std::replace(flag.begin(), flag.end(), '_', '-');
      if (std::string(e.what()).rfind("Unknown configuration key", 0) == 0) {
        throw ConfigError("Unknown option " + flag + " (see sibyl start --help)");
      }
      throw;
    }
  }
  ValidateConfig(options.config);
  return options;
}

std::string StartUsage() {
  return "Usage: sibyl start [--config FILE] [--KEY VALUE ...]\n"
         "\n"
         "Runs a node. Configuration comes from a cassandra.yaml-style file\n"
         "(--config FILE) and from flags named after its keys with '-' for '_';\n"
         "flags override the file. Sizes are written like 16MiB, durations like 10000ms.\n"
         "\n"
         "Options:\n"
         "  --config FILE                                 YAML file with cassandra.yaml key "
         "names\n" +
         DescribeConfigKeys() + "  --help                                        show this help\n";
}

}  // namespace sibyl::server
