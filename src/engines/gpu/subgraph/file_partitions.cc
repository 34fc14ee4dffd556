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
                            kGranuleEdges)) {
  if (!arrays_.file) throw Error("stream placement: no edge file to read the partitions from");
  if (id_bytes_ != 4 && id_bytes_ != 8) throw Error("stream placement: " + std::to_string(id_bytes_) + "-byte ids");
  for (int b = 0; b < kChunkBuffers; ++b) {
    neighbors_.push_back(paged::page_memory(chunk_edges_ * id_bytes_));
    weights_.push_back(paged::page_memory(weighted() ? chunk_edges_ * sizeof(weight_t) : 0));
  }
}

std::vector<paged::EdgeArray> FilePartitions::kept_arrays() const {
  std::vector<paged::EdgeArray> arrays = {{arrays_.neighbors_section, id_bytes_}};
  if (weighted()) arrays.push_back({arrays_.weights_section, static_cast<uint32_t>(sizeof(weight_t))});
  return arrays;
}

paged::ResidentRange FilePartitions::kept_span(eid_t first, uint64_t count) const {
  first = std::min<eid_t>(first / kGranuleEdges * kGranuleEdges, edges_);
  return {first, first + std::min<uint64_t>(count, edges_ - first)};
}

bool FilePartitions::carries(const paged::ResidentRange& span) const {
  return arrays_.kept && arrays_.kept->edges &&
         arrays_.kept->edges->holds(kept_arrays(), span.begin, span.end - span.begin);
}

void FilePartitions::keep(eid_t first, uint64_t count) {
  if (kept_->held(arrays_.neighbors_section) != paged::ResidentRange{} || bytes_read_ > 0)
    throw Error("stream placement: the host cache is set once, before any read");
  const paged::ResidentRange span = kept_span(first, count);
  if (carries(span)) {
    kept_ = arrays_.kept->edges;  // its pages read by an earlier run, their ids checked then
    return;
  }
  if (arrays_.kept) arrays_.kept->edges.reset();  // its memory before the new span's
  kept_ = std::make_shared<paged::ResidentEdges>(kept_arrays(), span.begin, span.end - span.begin);
  if (arrays_.kept && span.end > span.begin) arrays_.kept->edges = kept_;
}

void FilePartitions::release_carried_unless(eid_t first, uint64_t count) {
  if (arrays_.kept && !carries(kept_span(first, count))) arrays_.kept->edges.reset();
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

const char* FilePartitions::kept_section(int section, uint32_t bytes_per_edge, eid_t begin, eid_t end, bool ids) {
  const paged::ResidentRange held = kept_->held(section);
  const uint64_t origin = arrays_.file->section_offset(section), base = kept_->base(section);
  const uint64_t held_from = held.begin * bytes_per_edge, held_to = held.end * bytes_per_edge;
  char* memory = kept_->data(section);
  kept_->read_missing(section, paged::page_floor(begin * bytes_per_edge), paged::page_ceil(end * bytes_per_edge),
                     [&](uint64_t from, uint64_t to) {
                       bytes_read_ += arrays_.file->read(memory + (from - base), origin + from, origin + to);
                       const uint64_t a = std::max(from, held_from), b = std::min(to, held_to);
                       if (ids && a < b) check(memory + (a - base), (b - a) / bytes_per_edge);
                     });
  return memory + (begin * bytes_per_edge - base);
}

FilePartitions::Piece FilePartitions::kept_piece(eid_t begin, eid_t end) {
  Piece p;
  p.first = begin;
  p.count = end - begin;
  p.neighbors = kept_section(arrays_.neighbors_section, id_bytes_, begin, end, true);
  if (weighted())
    p.weights = reinterpret_cast<const weight_t*>(
        kept_section(arrays_.weights_section, sizeof(weight_t), begin, end, false));
  return p;
}

std::vector<std::pair<void*, uint64_t>> FilePartitions::memory() {
  std::vector<std::pair<void*, uint64_t>> out;
  for (const paged::PageMemory& m : neighbors_) out.emplace_back(m.get(), chunk_edges_ * id_bytes_);
  if (weighted())
    for (const paged::PageMemory& m : weights_) out.emplace_back(m.get(), chunk_edges_ * sizeof(weight_t));
  // The kept span's pages, of each section held.
  for (const auto& region : kept_->memory()) out.push_back(region);
  return out;
}

uint64_t FilePartitions::host_bytes() const {
  return kChunkBuffers * chunk_edges_ * (id_bytes_ + (weighted() ? sizeof(weight_t) : 0));
}

}  // namespace tg::subgraph
