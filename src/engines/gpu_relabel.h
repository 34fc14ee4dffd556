// graph/relabel.h's relabel on the GPU, for runs renumbered before they go to
// the GPU anyway (engines/vertex_order.h, --vertex-order): the new ids
// gathered and each list sorted there (CUB's segmented sort) instead of by
// the CPU's threads (4-8 s for kron:25 on 16 cores).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "graph/graph.h"

namespace tg {

// The same graph relabel(graph, order) makes, array for array: lists by new
// id (then weight), or by weight then new id where `by_weight`. Nullopt, with
// the reason in *why_not, where the GPU build is absent, no GPU is usable, the
// ids are 8 bytes, or the arrays do not fit in the device's free memory; the
// caller then relabels on the CPU. `order` must be a permutation (the caller's
// own degree_order).
std::optional<AnyGraph> relabel_on_gpu(const AnyGraph& graph, std::span<const uint64_t> order, bool by_weight,
                                       int device, std::string* why_not = nullptr);

}  // namespace tg
