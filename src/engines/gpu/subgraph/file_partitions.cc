#include "engines/gpu/subgraph/file_partitions.h"

#include <string>

#include "core/error.h"

namespace tg::subgraph {

namespace {

// A region for `bytes` read from any byte offset: its pages, and one more
// for a start inside a page.
uint64_t region_for(uint64_t bytes) { return paged::page_ceil(bytes) + paged::kPageBytes; }

}  // namespace

FilePartitions::FilePartitions(FileArrays arrays, uint32_t id_bytes, uint64_t partition_edges, int buffers)
    : arrays_(std::move(arrays)), id_bytes_(id_bytes) {
  if (!arrays_.file) throw Error("stream placement: no edge file to read the partitions from");
  if (id_bytes_ != 4 && id_bytes_ != 8) throw Error("stream placement: " + std::to_string(id_bytes_) + "-byte ids");
  region_bytes_[0] = region_for(partition_edges * id_bytes_);
  region_bytes_[1] = weighted() ? region_for(partition_edges * sizeof(weight_t)) : 0;
  for (int b = 0; b < buffers; ++b) {
    neighbors_.push_back(paged::page_memory(region_bytes_[0]));
    weights_.push_back(paged::page_memory(region_bytes_[1]));
  }
}

const char* FilePartitions::read_section(paged::PageMemory& region, int section, uint64_t first, uint64_t bytes) {
  const uint64_t at = arrays_.file->section_offset(section) + first;
  const uint64_t begin = paged::page_floor(at), end = paged::page_ceil(at + bytes);
  bytes_read_ += arrays_.file->read(region.get(), begin, end);
  return region.get() + (at - begin);
}

FilePartitions::Edges FilePartitions::read(int b, eid_t begin, eid_t end) {
  Edges e;
  const uint64_t count = end - begin;
  if (count == 0) return e;
  if (count * id_bytes_ + paged::kPageBytes > region_bytes_[0])
    throw Error("stream placement: a partition of " + std::to_string(count) + " edges exceeds its buffer");
  e.neighbors = read_section(neighbors_.at(b), arrays_.neighbors_section, begin * id_bytes_, count * id_bytes_);
  paged::check_ids_read(*arrays_.file, e.neighbors, id_bytes_, count, arrays_.num_vertices);
  if (weighted())
    e.weights = reinterpret_cast<const weight_t*>(
        read_section(weights_.at(b), arrays_.weights_section, begin * sizeof(weight_t), count * sizeof(weight_t)));
  return e;
}

std::vector<std::pair<void*, uint64_t>> FilePartitions::memory() const {
  std::vector<std::pair<void*, uint64_t>> out;
  for (const paged::PageMemory& m : neighbors_) out.emplace_back(m.get(), region_bytes_[0]);
  for (const paged::PageMemory& m : weights_)
    if (m) out.emplace_back(m.get(), region_bytes_[1]);
  return out;
}

uint64_t FilePartitions::host_bytes() const { return neighbors_.size() * (region_bytes_[0] + region_bytes_[1]); }

}  // namespace tg::subgraph
