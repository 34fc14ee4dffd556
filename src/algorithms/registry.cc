// The registry at run time: one AlgorithmInfo per descriptor of registry.h,
// with the descriptor's typed functions wrapped for VertexValues.
#include "algorithms/registry.h"

#include <cmath>
#include <type_traits>

namespace tg {

namespace {

template <typename T>
constexpr ValueType value_type_of() {
  if constexpr (std::is_same_v<T, int32_t>) return ValueType::kInt32;
  else if constexpr (std::is_same_v<T, double>) return ValueType::kDouble;
  else if constexpr (std::is_same_v<T, float>) return ValueType::kFloat;
  else {
    static_assert(std::is_same_v<T, uint64_t>, "a value_t that VertexValues cannot hold");
    return ValueType::kUint64;
  }
}

// Descriptors that need no graph-dependent defaults leave prepare out.
template <typename A>
void prepare_of(const AnyGraph& graph, AlgorithmOptions& options) {
  if constexpr (requires { A::prepare(graph, options); }) A::prepare(graph, options);
}

template <typename A>
Verification verify_of(const AnyGraph& graph, const Sources& sources, const VertexValues& values,
                       const AlgorithmOptions& options) {
  using T = typename A::value_t;
  const auto* typed = std::get_if<ResultVector<T>>(&values);
  if (typed == nullptr)
    return {false, "the " + std::string(A::traits.name) + " result does not hold " + value_type_name(value_type_of<T>()) +
                       " values"};
  if (A::traits.sources != SourceUse::kNone && sources.empty())
    return {false, "the " + std::string(A::traits.name) + " result needs its source to be checked"};
  if (A::traits.sources == SourceUse::kOne && sources.size() > 1)
    return {false, std::string(A::traits.name) + " takes one source, not " + std::to_string(sources.size())};
  return A::verify(graph, sources, *typed, options);
}

template <typename A>
std::string describe_of(const AnyGraph& graph, const VertexValues& values) {
  const auto* typed = std::get_if<ResultVector<typename A::value_t>>(&values);
  return typed != nullptr ? A::describe(graph, *typed) : std::string("(values of another type)");
}

template <typename A>
AlgorithmInfo make_info() {
  AlgorithmInfo info;
  info.traits = A::traits;
  info.value_type = value_type_of<typename A::value_t>();
  info.reads = &A::reads;
  info.prepare = &prepare_of<A>;
  info.verify = &verify_of<A>;
  info.describe = &describe_of<A>;
  if constexpr (requires { A::checkpoint_options(AlgorithmOptions{}, Sources{}); })
    info.checkpoint_options = &A::checkpoint_options;
  return info;
}

std::vector<std::string_view> aliases_of(const AlgorithmInfo& info) {
  std::vector<std::string_view> out;
  std::string_view rest = info.traits.aliases;
  while (!rest.empty()) {
    size_t end = rest.find(' ');
    out.push_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  return out;
}

const std::vector<AlgorithmInfo>& infos() {
  static const std::vector<AlgorithmInfo> all = [] {
    std::vector<AlgorithmInfo> v;
    for_each_algorithm([&]<typename A>() { v.push_back(make_info<A>()); });
    return v;
  }();
  return all;
}

}  // namespace

const std::vector<NamedChoice<CcMethod>>& cc_method_choices() {
  static const std::vector<NamedChoice<CcMethod>> all = {
      {CcMethod::kSampled, "sampled", "link two neighbours of every vertex, then only the edges outside the largest component (after Afforest)"},
      {CcMethod::kShiloachVishkin, "sv", "hook every edge, round after round (Shiloach-Vishkin)"},
  };
  return all;
}

const std::vector<NamedChoice<Contributions>>& contributions_choices() {
  static const std::vector<NamedChoice<Contributions>> all = {
      {Contributions::kAuto, "auto", "float where --tolerance is 1e-6 or coarser, else double"},
      {Contributions::kFloat, "float", "single precision: half the bytes read at random (GAP's choice)"},
      {Contributions::kDouble, "double", "double precision"},
  };
  return all;
}

const char* value_type_name(ValueType t) {
  switch (t) {
    case ValueType::kInt32: return "int32";
    case ValueType::kDouble: return "double";
    case ValueType::kFloat: return "float";
    case ValueType::kUint64: return "uint64";
  }
  return "?";
}

bool AlgorithmInfo::reached(const VertexValues& values, uint64_t v) const {
  if (!traits.unreached_marks_reach) return true;
  return std::visit([&](const auto& vec) { return static_cast<double>(vec[v]) != traits.unreached; }, values);
}

const std::vector<const AlgorithmInfo*>& all_algorithms() {
  static const std::vector<const AlgorithmInfo*> all = [] {
    std::vector<const AlgorithmInfo*> v;
    for (const AlgorithmInfo& info : infos()) v.push_back(&info);
    return v;
  }();
  return all;
}

const AlgorithmInfo* find_algorithm(std::string_view name) {
  for (const AlgorithmInfo* info : all_algorithms()) {
    if (info->traits.name == name) return info;
    for (std::string_view alias : aliases_of(*info))
      if (alias == name) return info;
  }
  return nullptr;
}

std::string algorithm_list() {
  std::string out;
  for (const AlgorithmInfo* info : all_algorithms()) out += (out.empty() ? "" : ", ") + info->name();
  return out;
}

std::vector<std::string> algorithm_names_and_aliases() {
  std::vector<std::string> out;
  for (const AlgorithmInfo* info : all_algorithms()) {
    out.push_back(info->name());
    for (std::string_view alias : aliases_of(*info)) out.emplace_back(alias);
  }
  return out;
}

}  // namespace tg
