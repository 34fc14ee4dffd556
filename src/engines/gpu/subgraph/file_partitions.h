// --host-mem on the stream placement (docs/HOST-MEM.md): a streamed edge
// array's partitions read from the graph's .tgb file, page by page, into
// page-aligned host buffers that the partition streamer registers with CUDA
// and copies to the GPU from. So the edges need not be in host memory: only
// the offsets and these buffers are.
//
// The ids read are checked against the vertex count, as the paged CPU
// engine's are: a file changed since the load must not become a GPU write
// out of bounds.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/types.h"
#include "engines/paged/edge_file.h"

namespace tg::subgraph {

// Where a streamed array's edges are in the file.
struct FileArrays {
  std::shared_ptr<const paged::EdgeFile> file;
  int neighbors_section = -1;  // formats::TgbSection of the neighbours
  int weights_section = -1;    // of the weights, where the steps read them; -1: none
  uint64_t num_vertices = 0;   // every id read must be below it
};

class FilePartitions {
 public:
  // `buffers` buffers, each for up to `partition_edges` edges of
  // `id_bytes`-wide ids (and their 4-byte weights where the arrays name them).
  FilePartitions(FileArrays arrays, uint32_t id_bytes, uint64_t partition_edges, int buffers);

  struct Edges {
    const void* neighbors = nullptr;   // the first edge's id, in buffer b
    const weight_t* weights = nullptr;  // its weight; null without weights
  };
  // Edges [begin, end) of the array into buffer b (whole pages), checked.
  // Throws tg::Error (input) for a read error or an id out of range.
  Edges read(int b, eid_t begin, eid_t end);

  // Each buffer's memory (page-aligned, whole pages): for cudaHostRegister.
  std::vector<std::pair<void*, uint64_t>> memory() const;
  uint64_t host_bytes() const;                   // all buffers
  uint64_t bytes_read() const { return bytes_read_; }  // from the file, since construction
  bool weighted() const { return arrays_.weights_section >= 0; }

 private:
  // Reads `bytes` of `section` from byte `first` into `region`; the data's
  // address in it.
  const char* read_section(paged::PageMemory& region, int section, uint64_t first, uint64_t bytes);

  FileArrays arrays_;
  uint32_t id_bytes_;
  uint64_t region_bytes_[2] = {0, 0};  // a neighbours' region, a weights' region
  std::vector<paged::PageMemory> neighbors_, weights_;
  uint64_t bytes_read_ = 0;
};

}  // namespace tg::subgraph
