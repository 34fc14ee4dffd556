// A choice with a name and a line of help: the one table from which the
// command line (CLI11 checks and --help), bench and the tests read the
// names of an enum's values, so that a name exists once.
#pragma once

#include <optional>
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

// The name of `value` among `choices` ("?" where it is none of them).
template <typename E>
std::string_view choice_name(const std::vector<NamedChoice<E>>& choices, E value) {
  for (const auto& c : choices)
    if (c.value == value) return c.name;
  return "?";
}

// The value named `name` among `choices`, or none.
template <typename E>
std::optional<E> choice_value(const std::vector<NamedChoice<E>>& choices, std::string_view name) {
  for (const auto& c : choices)
    if (c.name == name) return c.value;
  return std::nullopt;
}

// "device, uvm, ..." for messages.
template <typename E>
std::string names_of(const std::vector<NamedChoice<E>>& choices) {
  std::string out;
  for (const auto& c : choices) out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

}  // namespace tg
