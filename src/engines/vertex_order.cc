#include "engines/vertex_order.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/env_switch.h"
#include "core/error.h"
#include "core/host_memory.h"
#include "graph/relabel.h"

namespace tg {

const std::vector<NamedChoice<VertexOrder>>& vertex_order_choices() {
  static const std::vector<NamedChoice<VertexOrder>> choices{
      {VertexOrder::kAsLoaded, "as-loaded", "the graph's own ids"},
      {VertexOrder::kDegree, "degree", "hubs first, by descending out-degree (ties by id)"},
  };
  return choices;
}

namespace {

// The bytes of a graph's arrays: what its renumbered copy takes beside it.
uint64_t bytes_of(const AnyGraph& graph) {
  return std::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_t;
        uint64_t bytes = 0;
        for (const auto* c : {&g.out, &g.in})
          bytes += c->offsets.size() * sizeof(eid_t) + c->neighbors.size() * sizeof(V) +
                   c->weights.size() * sizeof(weight_t);
        return bytes + 3 * g.num_vertices * sizeof(uint64_t);  // the order both ways and the degrees
      },
      graph);
}

}  // namespace

Renumbering renumber(const AnyGraph& graph, VertexOrder order) {
  const auto t0 = std::chrono::steady_clock::now();
  if (order != VertexOrder::kDegree) throw usage_error("renumber: the graph's own order needs no renumbering");
  // The copy sits beside the graph: refused in one line where it cannot
  // (TG_NO_MEMORY_CHECK=1 skips it, as the builder's check).
  if (const uint64_t need = bytes_of(graph), have = available_memory();
      !env_switch("TG_NO_MEMORY_CHECK") && have > 0 && need > have) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "--vertex-order: the renumbered copy needs about %.1f GB beside the graph, and %.1f GB of memory are "
                  "available (renumber it once with `tiergraph convert IN OUT.tgb --vertex-order degree`)",
                  static_cast<double>(need) / 1e9, static_cast<double>(have) / 1e9);
    throw Error(buf, ErrorKind::kOutOfMemory);
  }
  Renumbering r;
  r.old_of = degree_order(graph);
  r.new_of.resize(r.old_of.size());
  const int64_t n = static_cast<int64_t>(r.old_of.size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) r.new_of[r.old_of[i]] = static_cast<uint64_t>(i);
  r.graph = relabel(graph, r.old_of);
  // The graph's name and numbering base, for reports of the renumbered run.
  std::visit(
      [&](auto& g) {
        std::visit([&](const auto& a) { g.name = a.name, g.id_base = a.id_base; }, graph);
      },
      r.graph);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

RunRequest to_new_ids(RunRequest request, const Renumbering& r) {
  for (uint64_t& s : request.sources) s = r.new_of[s];
  return request;
}

RunRequest to_old_ids(RunRequest request, const Renumbering& r) {
  for (uint64_t& s : request.sources) s = r.old_of[s];
  return request;
}

namespace {

template <typename T>
ResultVector<T> permuted_back(const ResultVector<T>& values, const Renumbering& r) {
  const int64_t n = static_cast<int64_t>(values.size());
  ResultVector<T> out(values.size());
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) out[v] = values[r.new_of[v]];
  return out;
}

// Labels that are vertex ids: each label's smallest old id among the
// vertices carrying it, then every vertex that label.
ResultVector<uint64_t> labels_back(const ResultVector<uint64_t>& label, const Renumbering& r) {
  const int64_t n = static_cast<int64_t>(label.size());
  std::vector<std::atomic<uint64_t>> smallest(label.size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) smallest[i].store(UINT64_MAX, std::memory_order_relaxed);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    std::atomic<uint64_t>& s = smallest[label[i]];
    uint64_t now = s.load(std::memory_order_relaxed);
    while (r.old_of[i] < now && !s.compare_exchange_weak(now, r.old_of[i], std::memory_order_relaxed)) {
    }
  }
  ResultVector<uint64_t> out(label.size());
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) out[v] = smallest[label[r.new_of[v]]].load(std::memory_order_relaxed);
  return out;
}

}  // namespace

void to_old_ids(RunOutput& output, const AlgorithmInfo& algorithm, const Renumbering& r) {
  std::visit(
      [&](auto& values) {
        using T = typename std::decay_t<decltype(values)>::value_type;
        if (values.size() != r.new_of.size()) throw Error("renumbered run: a result of the wrong size");
        if constexpr (std::is_same_v<T, uint64_t>) {
          if (algorithm.traits.meaning == ValueMeaning::kVertexId) {
            for (uint64_t l : values)
              if (l >= values.size()) throw Error("renumbered run: a label that is not a vertex");
            values = labels_back(values, r);
            return;
          }
        }
        values = permuted_back(values, r);
      },
      output.values);
}

}  // namespace tg
