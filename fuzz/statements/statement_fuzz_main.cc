// statement_fuzz: the statement fuzzer without libFuzzer (any build, the
// sanitizer build in CI). Runs corpus files or failures given as arguments,
// then random inputs made from a seed; a failing input is written to a file
// and its transcript printed, with the seed and index that remake it.
//
//   statement_fuzz --seed 1 --runs 300          the same 300 inputs every time
//   statement_fuzz --seconds 60                 a fresh seed (printed) for a minute
//   statement_fuzz fuzz/corpus/statements/*     the corpus, once each
//   statement_fuzz --echo crash-1234            one input, every step shown

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz/statements/statement_harness.h"

namespace {

constexpr const char* kUsage =
    "usage: statement_fuzz [options] [FILE...]\n"
    "  FILE...          inputs to run once each (corpus entries, failures written earlier)\n"
    "  --seed N|fresh   seed of the random inputs (default: fresh, printed)\n"
    "  --runs N         random inputs to run (default: 100; 0 with FILEs)\n"
    "  --seconds S      stop the random inputs after S seconds\n"
    "  --bytes N        size of each random input (default: 1500)\n"
    "  --artifacts DIR  where a failing input is written (default: the current directory)\n"
    "  --echo           print every step as it runs\n";

struct Options {
  std::vector<std::string> files;
  uint64_t seed = 0;
  bool fresh = true;
  long runs = -1;
  double seconds = 0;
  size_t bytes = 1500;
  std::filesystem::path artifacts = ".";
  bool echo = false;
};

[[noreturn]] void Usage(const std::string& problem) {
  std::cerr << "statement_fuzz: " << problem << "\n" << kUsage;
  std::exit(2);
}

Options Parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--seed") {
      const std::string v = value();
      options.fresh = v == "fresh";
      if (!options.fresh) options.seed = std::stoull(v);
    } else if (arg == "--runs") {
      options.runs = std::stol(value());
    } else if (arg == "--seconds") {
      options.seconds = std::stod(value());
    } else if (arg == "--bytes") {
      options.bytes = std::stoul(value());
    } else if (arg == "--artifacts") {
      options.artifacts = value();
    } else if (arg == "--echo") {
      options.echo = true;
    } else if (arg.rfind("--", 0) == 0) {
      Usage("unknown option " + arg);
    } else {
      options.files.push_back(arg);
    }
  }
  if (options.runs < 0) options.runs = options.files.empty() ? 100 : 0;
  return options;
}

// Random input `index` of `seed`: the same bytes on every machine.
std::string RandomInput(uint64_t seed, long index, size_t size) {
  std::mt19937_64 random(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(index));
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(random() & 0xFF);
  return bytes;
}

int Report(const sibyl::fuzz::HarnessOutcome& outcome, const std::string& input,
           const std::string& origin, const Options& options) {
  std::filesystem::create_directories(options.artifacts);
  const auto path = options.artifacts / ("statement-failure-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << input;
  std::cout << "=== statement fuzzer: " << origin << " fails ===\n"
            << outcome.failure << "\n=== transcript (a script that replays it) ===\n"
            << outcome.transcript << "=== the input is in " << path.string()
            << "; run it again with: statement_fuzz --echo " << path.string() << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = Parse(argc, argv);
  const auto directory = std::filesystem::temp_directory_path() /
                         ("sibyl-statement-fuzz-" + std::to_string(::getpid()));
  int status = 0;
  {
    sibyl::fuzz::StatementHarness harness(directory);
    for (const std::string& file : options.files) {
      std::ifstream in(file, std::ios::binary);
      if (!in) Usage("cannot read " + file);
      const std::string input((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      const auto outcome = harness.Run(input, options.echo);
      if (outcome.failed) {
        status = Report(outcome, input, file, options);
        break;
      }
    }
    uint64_t seed = options.seed;
    if (options.fresh) seed = std::random_device{}() | (uint64_t{std::random_device{}()} << 32);
    if (status == 0 && options.runs > 0) {
      std::cout << "statement_fuzz: seed " << seed << " (again: --seed " << seed << ")"
                << std::endl;
      const auto start = std::chrono::steady_clock::now();
      long run = 0;
      for (; run < options.runs; ++run) {
        if (options.seconds > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
                options.seconds) {
          break;
        }
        const std::string input = RandomInput(seed, run, options.bytes);
        const auto outcome = harness.Run(input, options.echo);
        if (outcome.failed) {
          status =
              Report(outcome, input,
                     "input " + std::to_string(run) + " of seed " + std::to_string(seed), options);
          break;
        }
      }
      if (status == 0) {
        std::cout << "statement_fuzz: " << run << " random inputs of seed " << seed << " passed"
                  << std::endl;
      }
    }
    if (status == 0 && !options.files.empty()) {
      std::cout << "statement_fuzz: " << options.files.size() << " inputs passed" << std::endl;
    }
  }
  std::filesystem::remove_all(directory);
  return status;
}
