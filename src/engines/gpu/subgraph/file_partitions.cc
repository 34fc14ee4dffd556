#include "engines/gpu/subgraph/file_partitions.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace tg::subgraph {

namespace {

uint64_t round_up(uint64_t x, uint64_t unit) { return (x + unit - 1) / unit * unit; }

}  // namespace

FilePartitions::FilePartitions(FileArrays arrays, uint32_t id_bytes, uint64_t edges, uint64_t partition_edges)
    : arrays_(std::move(arrays)),
      id_bytes_(id_bytes),
      edges_(edges),
      chunk_edges_(round_up(std::max<uint64_t>(
                                std::min({kChunkBytes / std::max<uint32_t>(id_bytes, 1), partition_edges, edges}), 1),
                            kGranuleEdges)),
      kept_neighbors_(paged::page_memory(0)),
      kept_weights_(paged::page_memory(0)) {
  if (!arrays_.file) throw Error("stream placement: no edge file to read the partitions from");
  if (id_bytes_ != 4 && id_bytes_ != 8) throw Error("stream placement: " + std::to_string(id_bytes_) + "-byte ids");
  for (int b = 0; b < kChunkBuffers; ++b) {
    neighbors_.push_back(paged::page_memory(chunk_edges_ * id_bytes_));
    weights_.push_back(paged::page_memory(weighted() ? chunk_edges_ * sizeof(weight_t) : 0));
  }
}

void FilePartitions::keep(eid_t first, uint64_t count) {
  if (kept_end_ > kept_begin_ || bytes_read_ > 0) throw Error("stream placement: the host cache is set once, before any read");
  kept_begin_ = std::min<eid_t>(first / kGranuleEdges * kGranuleEdges, edges_);
  kept_end_ = kept_begin_ + std::min<uint64_t>(count, edges_ - kept_begin_);
  if (kept_end_ == kept_begin_) {
    kept_begin_ = kept_end_ = 0;
    return;
  }
  const uint64_t span = kept_end_ - kept_begin_;
  kept_neighbors_ = paged::page_memory(round_up(span, kGranuleEdges) * id_bytes_);
  if (weighted()) kept_weights_ = paged::page_memory(round_up(span, kGranuleEdges) * sizeof(weight_t));
  kept_read_.assign((span + kGranuleEdges - 1) / kGranuleEdges, false);
}

const char* FilePartitions::read_section(char* region, uint64_t region_bytes, int section, uint64_t first,
                                         uint64_t bytes) {
  const uint64_t at = arrays_.file->section_offset(section) + first;
  const uint64_t begin = paged::page_floor(at), end = paged::page_ceil(at + bytes);
  if (end - begin > region_bytes) throw Error("stream placement: a read of " + std::to_string(bytes) + " bytes exceeds its buffer");
  bytes_read_ += arrays_.file->read(region, begin, end);
  return region + (at - begin);
}

void FilePartitions::check(const void* ids, uint64_t count) const {
  paged::check_ids_read(*arrays_.file, ids, id_bytes_, count, arrays_.num_vertices);
}

FilePartitions::Piece FilePartitions::chunk_piece(int b, eid_t begin, eid_t end) {
  Piece p;
  p.buffer = b;
  p.first = begin;
  p.count = end - begin;
  p.neighbors = read_section(neighbors_.at(b).get(), chunk_edges_ * id_bytes_, arrays_.neighbors_section,
                             begin * id_bytes_, p.count * id_bytes_);
  check(p.neighbors, p.count);
  if (weighted())
    p.weights = reinterpret_cast<const weight_t*>(read_section(weights_.at(b).get(), chunk_edges_ * sizeof(weight_t),
                                                               arrays_.weights_section, begin * sizeof(weight_t),
                                                               p.count * sizeof(weight_t)));
  return p;
}

FilePartitions::Piece FilePartitions::kept_piece(eid_t begin, eid_t end) {
  // The granules not read yet, in runs, straight into their places in the
  // span (whose first edge starts a granule, so its pages are the file's).
  const uint64_t last = (end - kept_begin_ + kGranuleEdges - 1) / kGranuleEdges;
  for (uint64_t g = (begin - kept_begin_) / kGranuleEdges; g < last;) {
    if (kept_read_[g]) {
      ++g;
      continue;
    }
    uint64_t h = g;
    while (h < last && !kept_read_[h]) ++h;
    const eid_t first = kept_begin_ + g * kGranuleEdges;
    const uint64_t count = std::min<eid_t>(kept_begin_ + h * kGranuleEdges, kept_end_) - first;
    const uint64_t into = g * kGranuleEdges;
    const char* ids = read_section(kept_neighbors_.get() + into * id_bytes_, paged::page_ceil(count * id_bytes_),
                                   arrays_.neighbors_section, first * id_bytes_, count * id_bytes_);
    check(ids, count);
    if (weighted())
      read_section(kept_weights_.get() + into * sizeof(weight_t), paged::page_ceil(count * sizeof(weight_t)),
                   arrays_.weights_section, first * sizeof(weight_t), count * sizeof(weight_t));
    std::fill(kept_read_.begin() + g, kept_read_.begin() + h, true);  // once read and checked
    g = h;
  }
  Piece p;
  p.first = begin;
  p.count = end - begin;
  p.neighbors = kept_neighbors_.get() + (begin - kept_begin_) * id_bytes_;
  if (weighted()) p.weights = reinterpret_cast<const weight_t*>(kept_weights_.get()) + (begin - kept_begin_);
  return p;
}

std::vector<std::pair<void*, uint64_t>> FilePartitions::memory() const {
  std::vector<std::pair<void*, uint64_t>> out;
  for (const paged::PageMemory& m : neighbors_) out.emplace_back(m.get(), chunk_edges_ * id_bytes_);
  if (weighted())
    for (const paged::PageMemory& m : weights_) out.emplace_back(m.get(), chunk_edges_ * sizeof(weight_t));
  const uint64_t span = round_up(kept_end_ - kept_begin_, kGranuleEdges);
  if (kept_neighbors_) out.emplace_back(kept_neighbors_.get(), span * id_bytes_);
  if (kept_weights_) out.emplace_back(kept_weights_.get(), span * sizeof(weight_t));
  return out;
}

uint64_t FilePartitions::host_bytes() const {
  return kChunkBuffers * chunk_edges_ * (id_bytes_ + (weighted() ? sizeof(weight_t) : 0));
}

uint64_t FilePartitions::kept_bytes() const {
  return round_up(kept_end_ - kept_begin_, kGranuleEdges) * (id_bytes_ + (weighted() ? sizeof(weight_t) : 0));
}

}  // namespace tg::subgraph
