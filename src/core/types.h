// Basic types shared by every layer: vertex and edge ids, weights, and the
// macro that lets one function body compile for both the CPU and the GPU.
#pragma once

#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define TG_HD __host__ __device__ __forceinline__
#else
#define TG_HD inline
#endif

namespace tg {

// Edge offsets are always 64-bit: a graph with more than 2^32 edges must load.
using eid_t = uint64_t;

// Vertex ids are 32-bit unless |V| >= 2^31 or 64-bit ids are requested; the
// engines and algorithms are templates over the vertex id type V.
using vid32_t = uint32_t;
using vid64_t = uint64_t;

// Edge weights are 4-byte floats: integer weights up to 2^24 are exact, and
// the edge array stays as small as the papers' (they use 4-byte weights too).
using weight_t = float;

constexpr uint64_t kVid32Limit = uint64_t{1} << 31;

// The most CPU threads a run may ask for (--threads, the library's and the
// Python module's threads): the library took 100000 and the process died
// making OpenMP's team.
constexpr int kMaxThreads = 4096;

}  // namespace tg
