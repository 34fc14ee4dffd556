// How the degrees of a CSR spread, in bands of powers of two: enough to
// estimate, without a pass over the lists, how many entries a bottom-up step
// reads when each vertex stops within its first `cap` entries
// (engines/direction.h, StepShape::pull_probes).
#pragma once

#include <array>
#include <cstdint>

#include "graph/graph.h"

namespace tg {

struct DegreeBands {
  // Band b: the vertices of degree [2^b, 2^(b+1)) and their entries.
  std::array<uint64_t, 64> vertices{};
  std::array<uint64_t, 64> entries{};

  // Sum over the vertices of min(degree, cap), each band at its mean degree.
  uint64_t probes_up_to(uint64_t cap) const;
};

template <typename V>
DegreeBands degree_bands(const Csr<V>& csr, uint64_t n);

}  // namespace tg
