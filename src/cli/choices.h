// Command-line options over the typed choices of engines/placement.h and the
// algorithm registry, so that a name is checked (and listed in --help) by
// CLI11 from the same table the engines use.
#pragma once

#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <CLI/CLI.hpp>

#include "algorithms/algorithm.h"
#include "engines/placement.h"

namespace tg::cli {

// An option holding one of `choices`, by name; --help lists each name with
// its one-line help, and the option's value when the command starts as the
// default.
template <typename E>
CLI::Option* add_choice(CLI::App& command, const std::string& flags, E& target,
                        const std::vector<NamedChoice<E>>& choices, const std::string& description) {
  std::map<std::string, E> by_name;
  std::string help = description, names, listed, initial;
  for (const auto& c : choices) {
    by_name.emplace(std::string(c.name), c.value);
    help += "\n  " + std::string(c.name) + ": " + std::string(c.help);
    names += (names.empty() ? "" : "|") + std::string(c.name);
    listed += (listed.empty() ? "" : ", ") + std::string(c.name);
    if (c.value == target) initial = c.name;
  }
  // A name and nothing else, handed on as the enum's number (how CLI11 reads
  // an enum). CLI11's CheckedTransformer took the numbers too ("--placement 7"
  // ran stream) and listed them in its error.
  CLI::Validator name_only(
      [by_name, listed](std::string& text) -> std::string {
        const auto it = by_name.find(text);
        if (it == by_name.end()) return "'" + text + "' is not one of " + listed;
        text = std::to_string(static_cast<std::underlying_type_t<E>>(it->second));
        return std::string();
      },
      "");
  return command.add_option(flags, target, help)->transform(name_only)->type_name(names)->default_str(initial);
}

// --edge-cache, for run and bench alike.
CLI::Option* add_edge_cache_choice(CLI::App& command, EdgeCacheMode& target);
CLI::Option* add_packed_lists_choice(CLI::App& command, PackedListsMode& target);
CLI::Option* add_gather_layout_choice(CLI::App& command, GatherLayout& target);

// The positional ALGORITHM argument: any name or alias of the registry.
CLI::Option* add_algorithm_argument(CLI::App& command, std::string& target);

// The registry's entry for a name the option has already checked.
const AlgorithmInfo& algorithm_named(const std::string& name);

// --gpu-mem and other sizes: "4G", "512MiB", "1000000" (bytes), above 0.
class SizeValidator : public CLI::Validator {
 public:
  SizeValidator();
};

// A whole number as typed, 0 to 2^64 - 1 (seeds, vertex ids, thresholds):
// CLI11 reads "-1" into an unsigned as 2^64 - 1 and saturates past it.
// `what` names it in the message ("a vertex id").
class WholeNumberValidator : public CLI::Validator {
 public:
  explicit WholeNumberValidator(const std::string& what = "a whole number from 0 to 18446744073709551615");
};

// A fraction from 0 to 1: CLI::Range lets NaN through (no comparison with
// it is false).
class FractionValidator : public CLI::Validator {
 public:
  FractionValidator();
};

}  // namespace tg::cli
