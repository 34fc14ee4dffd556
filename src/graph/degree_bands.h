// How the degrees of a CSR spread, in bands of powers of two: enough to
// estimate, without a pass over the lists, how many entries a bottom-up step
// reads when each vertex stops within its first `cap` entries
// (engines/direction.h, StepShape::pull_probes).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "graph/graph.h"

namespace tg {

// Vertices of like degree: how many, and their mean degree.
struct DegreeClass {
  double vertices = 0, degree = 0;
};

struct DegreeBands {
  // Band b: the vertices of degree [2^b, 2^(b+1)) and their entries.
  std::array<uint64_t, 64> vertices{};
  std::array<uint64_t, 64> entries{};

  // Sum over the vertices of min(degree, cap), each band at its mean degree.
  uint64_t probes_up_to(uint64_t cap) const;
  // One class a band that holds vertices (engines/direction.h weighs a pull
  // over a link by them).
  std::vector<DegreeClass> classes() const;
};

template <typename V>
DegreeBands degree_bands(const Csr<V>& csr, uint64_t n);

}  // namespace tg
