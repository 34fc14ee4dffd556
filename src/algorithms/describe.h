// Helpers for the descriptors' describe(): the one-line digest of a result
// that reports print ("reached 1.2M of 2M vertices, deepest level 9").
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <span>
#include <vector>

#include "graph/graph.h"

namespace tg::describe {

// 1234 -> "1234", 12345 -> "12.3K", 1.5e6 -> "1.50M", 2e9 -> "2.00G".
inline std::string count(double x) {
  char buf[32];
  if (x >= 1e9) std::snprintf(buf, sizeof buf, "%.2fG", x / 1e9);
  else if (x >= 1e6) std::snprintf(buf, sizeof buf, "%.2fM", x / 1e6);
  else if (x >= 1e4) std::snprintf(buf, sizeof buf, "%.1fK", x / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

// How many values differ from `unreached` (they compare as doubles).
template <typename T>
uint64_t reached(std::span<const T> values, double unreached) {
  uint64_t n = 0;
#pragma omp parallel for reduction(+ : n)
  for (uint64_t v = 0; v < values.size(); ++v) n += static_cast<double>(values[v]) != unreached;
  return n;
}

// "reached R of N vertices"
template <typename T>
std::string reached_of(std::span<const T> values, double unreached) {
  return "reached " + count(static_cast<double>(reached(values, unreached))) + " of " +
         count(static_cast<double>(values.size())) + " vertices";
}

// The file's id of internal vertex v.
inline uint64_t file_id(const AnyGraph& graph, uint64_t v) {
  return v + static_cast<uint64_t>(std::visit([](const auto& g) { return g.id_base; }, graph));
}

// "top vertex 17 with score 0.0123": the vertex of the largest value, in
// the file's numbering.
template <typename T>
std::string top_vertex(const AnyGraph& graph, std::span<const T> values, const char* what) {
  auto top = std::max_element(values.begin(), values.end());
  if (top == values.end()) return "empty graph";
  char buf[96];
  std::snprintf(buf, sizeof buf, "top vertex %llu with %s %.6g",
                static_cast<unsigned long long>(file_id(graph, top - values.begin())), what,
                static_cast<double>(*top));
  return buf;
}

}  // namespace tg::describe
