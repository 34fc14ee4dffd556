// Where the tests find the real graphs of ../shared/datasets and the program.
#pragma once

#include <cstdlib>
#include <string>

namespace tg::test {

inline std::string dataset(const std::string& file) { return std::string(TG_DATASETS_DIR) + "/" + file; }
// The program the end-to-end tests run: $TG_TIERGRAPH_BIN where set (the
// GPU machines run prebuilt binaries from elsewhere: scripts/gpu-check.sh),
// else the build's.
inline std::string tiergraph_binary() {
  const char* path = std::getenv("TG_TIERGRAPH_BIN");
  return path != nullptr && *path != '\0' ? std::string(path) : std::string(TG_TIERGRAPH_BIN);
}

}  // namespace tg::test
