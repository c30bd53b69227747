#pragma once
// FUZZ_CHECK(cond): an invariant of a fuzzer. When it fails the fuzzer prints
// it and aborts, so libFuzzer keeps the input as a crash.

#include <cstdlib>

#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      __builtin_printf("FUZZ_CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)
