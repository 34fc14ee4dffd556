// The packed lists' encoder on the GPU (graph/packed_lists.h's format, word
// for word what the CPU encoder writes), for the placements that pack lists
// at placement time: the CPU encoder took 0.56-1.27 s on kron:25 on the H200's
// host (16 threads), most of a streamed placement's transfer phase; the GPU
// reads the plain lists it has mapped anyway, twice over the link, and writes
// the packed words into host memory through a mapping (docs/SUBWAY.md,
// "Packed lists"). Exact (its words equal the CPU encoder's) but no faster:
// 0.94-1.34 s against 0.55-0.90 on the H200 (session 28), and with the array
// faulted in by the host's threads before it is registered 0.70 against
// 0.62-0.69 on the H100 (session 55; docs/PERF.md). Off unless TG_GPU_PACK=1.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/array.h"
#include "core/types.h"

namespace tg::gpu {

struct GpuPackedLists {
  std::vector<eid_t> offsets;  // n + 1, as packed_offsets gives
  Array<uint32_t> words;       // offsets[n] words or more, registered (mapped): `mapped` is its device pointer
  uint32_t* mapped = nullptr;
  double build_s = 0;
};

// Packs the n lists of a CSR whose offsets are in GPU memory and whose ids
// (and weights, where with_weights) are mapped host memory. nullopt where a
// list is not sorted (the CPU encoder sorts it) or the array cannot be
// registered; the caller unregisters `words` (cudaHostUnregister) when done.
std::optional<GpuPackedLists> gpu_pack_lists(uint64_t n, const eid_t* offsets_device, const uint32_t* ids_mapped,
                                             const weight_t* weights_mapped, bool with_weights);

// TG_GPU_PACK=1: the placements pack on the GPU (slower where measured: above).
bool gpu_packing_asked();

}  // namespace tg::gpu
