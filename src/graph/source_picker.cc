#include "graph/source_picker.h"

#include <random>
#include <set>

#include "core/error.h"

namespace tg {

std::vector<uint64_t> pick_sources(const AnyGraph& any, int count, uint64_t seed) {
  return std::visit(
      [&](const auto& g) {
        std::vector<uint64_t> out;
        if (g.num_vertices == 0) return out;
        std::mt19937_64 rng(seed);
        std::set<uint64_t> seen;
        // Give up after many tries: a graph may have few vertices with edges.
        for (int tries = 0; static_cast<int>(out.size()) < count && tries < 1000 * count; ++tries) {
          uint64_t v = rng() % g.num_vertices;
          if (g.out.degree(v) == 0 || seen.count(v)) continue;
          seen.insert(v);
          out.push_back(v);
        }
        if (out.empty()) out.push_back(0);
        return out;
      },
      any);
}

uint64_t default_source(const AnyGraph& any) {
  return std::visit(
      [](const auto& g) -> uint64_t {
        if (g.num_vertices == 0) throw input_error("the graph has no vertices, so there is no source");
        for (uint64_t v = 0; v < g.num_vertices; ++v)
          if (g.out.degree(v) > 0) return v;
        return 0;
      },
      any);
}

}  // namespace tg
