// Shared by the libFuzzer targets: each input is written to a scratch file
// (one per process) and handed to a reader. tg::Error is the expected outcome
// of bad input (of any ErrorKind: the readers throw kInput, allocation limits
// kOther); any other exception, a crash, a sanitizer report or a result
// that breaks the reader's guarantees is a bug.
#pragma once

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>

#include "core/error.h"
#include "formats/text_parse.h"
#include "graph/edge_list.h"
#include "graph/graph.h"

namespace tg::fuzz {

inline std::string scratch_file(const char* name) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/tg_fuzz_" +
                     std::to_string(::getpid()) + "_" + name;
  return path;
}

inline void write_input(const std::string& path, const uint8_t* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

[[noreturn]] inline void broken(const char* what) {
  std::fprintf(stderr, "reader guarantee broken: %s\n", what);
  std::abort();
}

// Varies chunk size and the parallel threshold with the input, so that chunk
// boundaries and multi-block parsing are explored on small inputs too.
inline void vary_text_tuning(size_t size) {
  formats::set_text_chunk_bytes(size % 4 == 0 ? 0 : 1 + size % 61);
  formats::set_text_parallel_min_bytes(size % 3 == 0 ? 0 : 1);
}

inline void check_edge_list(const EdgeList& el) {
  if (el.src.size() != el.dst.size()) broken("src and dst lengths differ");
  if (!el.weights.empty() && el.weights.size() != el.src.size()) broken("weights length");
  for (size_t i = 0; i < el.src.size(); ++i)
    if (el.src[i] >= el.num_vertices || el.dst[i] >= el.num_vertices) broken("edge id >= num_vertices");
  for (weight_t w : el.weights)
    if (std::isnan(w)) broken("NaN weight");
}

template <typename V>
void check_graph(const Graph<V>& g) {
  auto check_csr = [&](const Csr<V>& c) {
    if (c.offsets.size() != g.num_vertices + 1) broken("offsets length");
    if (c.offsets[0] != 0) broken("offsets[0]");
    for (uint64_t v = 0; v < g.num_vertices; ++v)
      if (c.offsets[v + 1] < c.offsets[v]) broken("offsets decrease");
    if (c.offsets[g.num_vertices] != c.neighbors.size()) broken("last offset");
    for (size_t i = 0; i < c.neighbors.size(); ++i)
      if (c.neighbors[i] >= g.num_vertices) broken("neighbor id");
    if (!c.weights.empty() && c.weights.size() != c.neighbors.size()) broken("weights length");
    for (size_t i = 0; i < c.weights.size(); ++i)
      if (std::isnan(c.weights[i])) broken("NaN weight");
  };
  check_csr(g.out);
  if (g.in.built()) check_csr(g.in);
}

inline void check_graph(const AnyGraph& g) {
  std::visit([](const auto& x) { check_graph(x); }, g);
}

}  // namespace tg::fuzz
