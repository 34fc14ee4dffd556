// Source-blocked in-edges for dense gathers in GPU memory (issue 13, part 1;
// docs/GPU.md, "Source blocks").
//
// A gather over every in-list (PageRank's) reads one value per edge from a
// per-vertex array at its source: at kron:25 1 G random 4-byte reads over a
// 128 MiB array, four times the H100's L2, so nearly every read costs a
// 32-byte sector from device memory. Cut the sources into B ranges of
// vertices whose values fit in half the L2, and keep a second copy of the
// in-edges ordered block by block: every vertex's entries from block 0, then
// every vertex's from block 1, and so on. The gather then runs B passes, the
// b-th over block b's entries only, adding into a partial sum per vertex;
// within a pass the values it reads span three quarters of the L2, so many
// are read from it. Each pass also costs a pass over every vertex (its
// offsets, its partial sum), which is why few blocks beat many: kron:25 on
// the H100, 20.1 ms an iteration in one pass, 17.16 in 4 blocks, 18.1 in 6
// (docs/PERF.md, session 14). The b-th pass is an ordinary CSR (offsets at
// b * n of one scan of B * n + 1 counts), so the gather's own kernels run it
// unchanged.
//
// Costs: the copy (edges x id bytes) and the offsets ((B n + 1) x 8 bytes) in
// GPU memory, built once per placement at the first gather (a count by binary
// search in each sorted list, a scan, a scatter); B passes over the partial
// sums. Built only for the device placement, only where it fits beside what
// is placed, and only where every in-list is sorted (the builder's promise;
// a file's lists are checked during the scatter, and the copy dropped if one
// is not).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/kernels/step_args.h"
#include "engines/gpu/source_block_rule.h"
#include "engines/run_stats.h"

namespace tg::gpu {

// The blocks of one CSR: pass b reads view(b).
template <typename V>
struct SourceBlockLayout {
  int blocks = 0;
  uint64_t n = 0;
  uint64_t block_vertices = 0;  // sources [b * block_vertices, (b + 1) * block_vertices) in block b
  DeviceArray<eid_t> offsets;   // B * n + 1: block b's offsets at b * n
  DeviceArray<V> neighbors;     // the entries, block by block
  CsrView<V> view(int b) const {
    CsrView<V> v;
    v.offsets = offsets.data() + static_cast<uint64_t>(b) * n;
    v.neighbors = neighbors.data();
    return v;
  }
};

// The layout of one placement's in-edges, built at the first gather that asks
// for it (a placement whose runs never gather builds nothing) and shared by
// every run of a batch. Copies of DeviceGraph share one of these.
template <typename V>
class SourceBlocks {
 public:
  // room: GPU bytes the layout may take beside the placement (its budget less
  // the edges placed).
  SourceBlocks(int requested, uint64_t l2_bytes, uint64_t room) : requested_(requested), l2_bytes_(l2_bytes), room_(room) {}

  // The layout for the in-CSR `in` of n vertices and m entries, or null where
  // there is none (then the gather reads `in` as it is).
  const SourceBlockLayout<V>* layout(const CsrView<V>& in, uint64_t n, uint64_t m, ScratchPool& pool);
  bool tried() const { return tried_; }
  SourceBlockStats stats() const;

 private:
  int requested_;
  uint64_t l2_bytes_, room_;
  bool tried_ = false;
  std::unique_ptr<SourceBlockLayout<V>> layout_;
  SourceBlockStats stats_;
};

}  // namespace tg::gpu
