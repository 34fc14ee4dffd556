// What the library can do here: its algorithms, the GPU, its version.
#include "algorithms/algorithm.h"
#include "api/api_errors.h"
#include "engines/run.h"
#include "tiergraph/tiergraph.h"

namespace tiergraph {

std::vector<std::string> algorithms() {
  try {
    std::vector<std::string> names;
    for (const tg::AlgorithmInfo* a : tg::all_algorithms()) names.push_back(a->name());
    return names;
  } catch (...) {
    rethrow_as_api_error();
  }
}

bool gpu_available(std::string* why) {
  try {
    std::string reason;
    bool usable = tg::gpu_available(&reason);
    if (why != nullptr) *why = usable ? std::string() : reason;
    return usable;
  } catch (...) {
    rethrow_as_api_error();
  }
}

const char* version() { return TIERGRAPH_VERSION; }

}  // namespace tiergraph
