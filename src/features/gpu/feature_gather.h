// Gathering feature rows into GPU memory by id (issue 11, part 1): rows of a
// matrix that stays in host memory, registered in place (whatever allocated
// it) and read by zero-copy, or in device memory. The dissertation's chapter
// 3: one warp per row, starting at the 128-byte line that holds the row's
// first byte and shifted so every load of the warp falls in one line
// (Listing 3.2's circular shift), so a misaligned row costs ceil(bytes/128)+1
// link requests instead of twice that; the naive form (a thread per 4-byte
// word, no shift) is kept as the baseline benchmarks compare against.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "features/tier_place.h"

namespace tg::features {

// Rows of row_bytes bytes, stride_bytes apart, at `rows` (a device pointer:
// device memory, or registered host memory's device alias).
struct RowTable {
  const uint8_t* rows = nullptr;
  uint64_t num_rows = 0;
  uint64_t row_bytes = 0;
  uint64_t stride_bytes = 0;
};

// Host memory registered for zero-copy reads for as long as this lives:
// cudaHostRegister in place (no copy), unregistered at the end unless it was
// pinned by someone else already (cudaHostAlloc, cudaHostRegister: then it is
// read through the owner's mapping, as it is). Tables within a range this
// process registered share that registration, released with the last. A
// range that cannot be registered in place (it shares a page with memory
// registered elsewhere, which CUDA refuses; a read-only mapping where
// read-only registration is unsupported), or that should not be (a private
// file mapping: core/host_mapping.h), is copied once into pinned memory, and
// copied_because() says why.
class RegisteredHostRows {
 public:
  RegisteredHostRows(const void* data, uint64_t num_rows, uint64_t row_bytes, uint64_t stride_bytes);
  ~RegisteredHostRows();
  RegisteredHostRows(const RegisteredHostRows&) = delete;
  RegisteredHostRows& operator=(const RegisteredHostRows&) = delete;
  const RowTable& table() const { return table_; }
  // Empty where the rows are read in place; else why they were copied.
  const std::string& copied_because() const { return copied_because_; }

 private:
  void* host_ = nullptr;
  uint64_t bytes_ = 0;
  bool registered_here_ = false;          // by this process, shared by the tables inside the range
  std::pair<void*, uint64_t> shared_range_;  // the registered range: start, bytes
  void* pinned_copy_ = nullptr;              // where the range could not be registered in place
  std::string copied_because_;
  RowTable table_;
};

enum class GatherKernel { kAligned, kNaive };

// The tiers of a feature store (features/gpu_tiers.h): every row in the
// host table; rows of a device rank (features/tier_place.h) also in GPU
// memory, packed in slot order (host.row_bytes apart), and read from there:
// this GPU's tier from `local`, the peer tier from the peers' memories
// directly (peer access enabled: loads over NVLink, no copy).
struct TieredTable {
  RowTable host;
  const uint32_t* rank_of_row = nullptr;  // device memory, one per host row; null: rank = row id
  TierBounds bounds;
  const uint8_t* local = nullptr;
  const uint8_t* peers[kMaxPeers] = {};  // peer i's tier, in its own GPU's memory
};

// Which rows to gather and where each goes: out row positions[i] (i where
// positions is null) = table row ids[i] (i where ids is null), row_bytes
// each, packed. ids are device memory, int64, each below num_rows (checked by
// the caller: an id out of range here reads out of bounds).
struct GatherRequest {
  const int64_t* ids = nullptr;
  const uint32_t* positions = nullptr;
  uint64_t count = 0;
  uint8_t* out = nullptr;
};

// Ids given in device memory (a CUDA tensor), checked and counted there
// before a gather: how many are outside [0, num_rows) and one of them, and
// how many fall in each tier.
struct IdTally {
  unsigned long long out_of_range = 0;
  long long an_out_of_range_id = 0;
  unsigned long long gpu = 0, peer = 0, host = 0;
};

// Queues the tally of ids[0..count) into *tally (device memory, cleared
// first) on `stream`.
void tally_ids(const TieredTable& table, const int64_t* ids, uint64_t count, IdTally* tally, cudaStream_t stream);

// max_blocks bounds the grid, so a gather can leave SMs to training kernels
// on other streams (0: as many as the work fills).
void gather_rows(const RowTable& table, const GatherRequest& request, GatherKernel kernel, int max_blocks,
                 cudaStream_t stream);

// The aligned kernel over the tiers.
void gather_tiered(const TieredTable& table, const GatherRequest& request, int max_blocks, cudaStream_t stream);

// A request's ids sorted into address order, with each one's place in the
// output. Scattered zero-copy reads of a large host table are bounded by
// address translation, not by the link (PLATFORM.md: 400 M random lines/s
// within 128 MB, 44 M over 8 GB, whatever the line count per warp); rows
// visited in id order share their translations with their neighbours. The
// sort (CUB's radix sort on the bits of num_rows) runs on the gather's
// stream; its memory is kept and grown for the next request.
class AddressOrder {
 public:
  AddressOrder() = default;
  ~AddressOrder();
  AddressOrder(const AddressOrder&) = delete;
  AddressOrder& operator=(const AddressOrder&) = delete;

  // The request with ids[i] replaced by the sorted ids and positions[i] by
  // their places; count below 2^32. Valid until the next call.
  GatherRequest sort(const GatherRequest& request, uint64_t num_rows, cudaStream_t stream);

 private:
  void reserve(uint64_t count, uint64_t num_rows, cudaStream_t stream);
  uint64_t capacity_ = 0;
  int end_bit_ = 0;
  int64_t* ids_ = nullptr;
  uint32_t* order_ = nullptr;      // 0..count-1, then the sorted places
  uint32_t* positions_ = nullptr;
  void* temp_ = nullptr;
  size_t temp_bytes_ = 0;
};

// max_blocks that keeps a gather to about sm_fraction of the current
// device's SMs (as many blocks as fit on that many SMs at once); 0 (no bound)
// for a fraction of 1 or more.
int blocks_for_sm_share(double sm_fraction);

}  // namespace tg::features
