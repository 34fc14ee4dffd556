// A choice with a name and a line of help: the one table from which the
// command line (CLI11 checks and --help), bench and the tests read the
// names of an enum's values, so that a name exists once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tg {

template <typename E>
struct NamedChoice {
  E value;
  std::string_view name;
  std::string_view help;
};

// "device, uvm, ..." for messages.
template <typename E>
std::string names_of(const std::vector<NamedChoice<E>>& choices) {
  std::string out;
  for (const auto& c : choices) out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

}  // namespace tg
