// Where the tests find the real graphs of ../shared/datasets and the program.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace tg::test {

// TG_DATASETS_DIR in the environment at run time wins over the one built in:
// the GPU machines run binaries built elsewhere, with the graphs carried.
inline std::string dataset(const std::string& file) {
  const char* dir = std::getenv("TG_DATASETS_DIR");
  return (dir != nullptr && *dir != '\0' ? std::string(dir) : std::string(TG_DATASETS_DIR)) + "/" + file;
}

// The real graphs are not in the repository (../shared/datasets beside the
// checkout, or TG_DATASETS_DIR when configuring): a test that reads one is
// skipped, naming the file, on a checkout without them, where the rest of
// the suite still runs. Where they are (CI), it runs.
#define TG_NEED_DATASET(file)                                                   \
  if (!std::filesystem::exists(::tg::test::dataset(file)))                      \
  GTEST_SKIP() << ::tg::test::dataset(file) << " is missing: the real graphs are not in the repository"

// The program the end-to-end tests run: $TG_TIERGRAPH_BIN where set (the
// GPU machines run prebuilt binaries from elsewhere: scripts/gpu-check.sh),
// else the build's.
inline std::string tiergraph_binary() {
  const char* path = std::getenv("TG_TIERGRAPH_BIN");
  return path != nullptr && *path != '\0' ? std::string(path) : std::string(TG_TIERGRAPH_BIN);
}

}  // namespace tg::test
