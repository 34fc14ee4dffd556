#include "cli/choices.h"

#include <charconv>
#include <cstdint>

#include "cli/sizes.h"
#include "core/error.h"

namespace tg::cli {

CLI::Option* add_edge_cache_choice(CLI::App& command, EdgeCacheMode& target) {
  return add_choice(command, "--edge-cache", target, edge_cache_choices(),
                    "GPU, zero-copy placements: keep part of the edges in the GPU memory the budget (--gpu-mem) "
                    "leaves unused; subgraph and stream: keep each list's first entries there where a run pushes "
                    "them alone (cc's sample) (docs/GPU.md, \"The resident edge cache\")");
}

CLI::Option* add_packed_lists_choice(CLI::App& command, PackedListsMode& target) {
  return add_choice(command, "--packed-lists", target, packed_lists_choices(),
                    "GPU, subgraph and stream: gathers (pagerank) copy the in-lists packed, and the subgraph placement's "
                    "GPU gathers read the out-lists packed (weights as bytes where whole numbers 0..255): fewer bytes "
                    "over the link for a pass at placement (docs/SUBWAY.md, \"Packed lists\")");
}

CLI::Option* add_gather_layout_choice(CLI::App& command, GatherLayout& target) {
  return add_choice(command, "--gather-layout", target, gather_layout_choices(),
                    "GPU, device (and the hybrid engine's GPU side over it): how gathers (pagerank) read the in-edges "
                    "(docs/HYBRID.md, \"Garaph's shards\")");
}

CLI::Option* add_algorithm_argument(CLI::App& command, std::string& target) {
  std::string help = "The algorithm:";
  for (const AlgorithmInfo* a : all_algorithms()) {
    help += "\n  " + a->name();
    if (!a->traits.aliases.empty()) help += " (" + std::string(a->traits.aliases) + ")";
    help += ": " + std::string(a->traits.summary);
  }
  return command.add_option("algorithm", target, help)->required()->check(CLI::IsMember(algorithm_names_and_aliases()));
}

const AlgorithmInfo& algorithm_named(const std::string& name) {
  const AlgorithmInfo* a = find_algorithm(name);
  if (a == nullptr) throw Error("unknown algorithm '" + name + "' (" + algorithm_list() + ")");
  return *a;
}

SizeValidator::SizeValidator() {
  name_ = "SIZE";
  func_ = [](std::string& text) -> std::string {
    try {
      if (parse_size(text, "") == 0) return "must be larger than 0";
    } catch (const Error& e) {
      return std::string(e.what()).substr(2);  // parse_size's message, less its empty option name and ": "
    }
    return std::string();
  };
}

WholeNumberValidator::WholeNumberValidator(const std::string& what) {
  name_ = "N";
  func_ = [what](std::string& text) -> std::string {
    uint64_t x = 0;  // from_chars takes no sign for an unsigned type, and fails on empty text and past 2^64 - 1
    const auto r = std::from_chars(text.data(), text.data() + text.size(), x);
    if (r.ec == std::errc() && r.ptr == text.data() + text.size()) return {};
    return "'" + text + "' is not " + what;
  };
}

FractionValidator::FractionValidator() {
  name_ = "FRACTION";
  func_ = [](std::string& text) -> std::string {
    double x = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), x);
    if (r.ec == std::errc() && r.ptr == text.data() + text.size() && x >= 0 && x <= 1) return {};
    return "'" + text + "' is not a fraction from 0 to 1";
  };
}

}  // namespace tg::cli
