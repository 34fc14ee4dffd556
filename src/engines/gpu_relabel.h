// graph/relabel.h's relabel on the GPU, for runs renumbered before they go to
// the GPU anyway (engines/vertex_order.h, --vertex-order): the new ids
// gathered and each list sorted there (CUB's segmented sort) instead of by
// the CPU's threads. kron:25 on the H100 host (16 cores): 3.1-3.6 s against
// the CPU's 6.7, most of it the 4.2 GB each way between pageable host memory
// and the GPU; with weights (twice the bytes, 8-byte sort keys) it took 6.9 s
// against the CPU's 5.0, so weighted graphs stay on the CPU (docs/PERF.md).
// The CPU's relabel has since taken the builder's radix sort (kron:22 on 2
// cores: 3.6-4.0 -> 1.2-2.1 s); the two sides are to be measured again.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "graph/graph.h"

namespace tg {

// The same graph relabel(graph, order) makes, array for array (lists sorted
// by new id). Nullopt, with the reason in *why_not, where the GPU build is
// absent, no GPU is usable, the graph is weighted, its ids are 8 bytes, or
// its arrays do not fit in the device's free memory; the caller then
// relabels on the CPU. `order` must be a permutation (the caller's own
// degree_order).
std::optional<AnyGraph> relabel_on_gpu(const AnyGraph& graph, std::span<const uint64_t> order, int device,
                                       std::string* why_not = nullptr);

}  // namespace tg
