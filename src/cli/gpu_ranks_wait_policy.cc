#include "cli/gpu_ranks_wait_policy.h"

#include <cstdlib>

namespace tg::cli {

bool drives_several_gpus(const std::vector<std::string>& args) {
  if (args.size() < 2 || (args[1] != "run" && args[1] != "bench")) return false;
  for (size_t i = 2; i < args.size(); ++i) {
    std::string value;
    if (args[i] == "--gpus" && i + 1 < args.size()) value = args[i + 1];
    else if (args[i].rfind("--gpus=", 0) == 0) value = args[i].substr(7);
    else continue;
    char* end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    return end != value.c_str() && *end == '\0' && n > 1;  // a bad value is the parser's to refuse
  }
  return false;
}

std::string wait_policy_to_set(const std::vector<std::string>& args, const char* current) {
  if (current != nullptr) return "";
  return drives_several_gpus(args) ? "passive" : "";
}

}  // namespace tg::cli
