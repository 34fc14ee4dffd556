// Where the tests find the real graphs of ../shared/datasets and the program.
#pragma once

#include <string>

namespace tg::test {

inline std::string dataset(const std::string& file) { return std::string(TG_DATASETS_DIR) + "/" + file; }
inline std::string tiergraph_binary() { return TG_TIERGRAPH_BIN; }

}  // namespace tg::test
