// BFS on a small generated graph through the tiergraph library, on the GPU
// when one is usable, else on the CPU. Exits non-zero when anything is off.
#include <tiergraph/tiergraph.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  try {
    tiergraph::LoadOptions load;
    load.undirected = true;
    tiergraph::Graph graph = tiergraph::load("kron:10", load);  // 1024 vertices, Graph500's generator

    tiergraph::RunOptions options;  // engine "auto"; no sources: the default one
    options.verify = true;
    tiergraph::Result result = tiergraph::run("bfs", graph, options);

    const auto& depth = std::get<std::vector<int32_t>>(result.values);
    const uint64_t reached = std::count_if(depth.begin(), depth.end(), [](int32_t d) { return d >= 0; });
    const int32_t max_depth = *std::max_element(depth.begin(), depth.end());
    std::printf("tiergraph %s: bfs on %s (%llu vertices, %llu edges) from %llu on the %s engine\n",
                tiergraph::version(), graph.name().c_str(), static_cast<unsigned long long>(graph.num_vertices()),
                static_cast<unsigned long long>(graph.num_edges()),
                static_cast<unsigned long long>(result.sources.at(0)), result.engine.c_str());
    if (!result.engine_note.empty()) std::printf("note: %s\n", result.engine_note.c_str());
    std::printf("reached %llu vertices, max depth %d, %.6f s; verify: %s\n", static_cast<unsigned long long>(reached),
                max_depth, result.seconds("compute"), result.verification.c_str());

    if (depth.size() != graph.num_vertices() || reached < 2 || max_depth < 1 || !result.verified.value_or(false)) {
      std::fprintf(stderr, "embed: unexpected BFS result\n");
      return 1;
    }
    return 0;
  } catch (const tiergraph::Error& e) {
    std::fprintf(stderr, "embed: %s\n", e.what());
    return 1;
  }
}
