// --host-mem on the stream placement (docs/HOST-MEM.md): a streamed edge
// array's partitions read from the graph's .tgb file, in chunks, into
// page-aligned host buffers that the partition streamer registers with CUDA
// and copies to the GPU from. So the edges need not be in host memory: only
// the offsets and these buffers are, and whatever of the budget is left
// keeps a span of the edges in host memory once read (the host cache), so
// that later iterations copy it from there instead of reading the disk.
//
// Chunks, not whole partitions: a partition's pages read into one buffer
// took a partition's bytes of --host-mem per staging buffer (kron:25 at
// --gpu-mem 4G: 1.07 GB of a 1.49 GB budget), and its copy to the GPU
// waited for its last page. Chunks of kChunkBytes leave the rest of the
// budget to the cache, and the copy of one chunk runs while the next is read.
//
// The ids read are checked against the vertex count, as the paged CPU
// engine's are: a file changed since the load must not become a GPU write
// out of bounds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/types.h"
#include "engines/paged/edge_file.h"
#include "engines/paged/resident_edges.h"

namespace tg::subgraph {

// A kept span that outlives its reader (FileArrays::kept): the placed graph
// holds one for each streamer's array, so that a batch's later runs (bench's
// trials, a run per source) copy the pages an earlier run read from memory,
// as an in-memory graph is placed once for them. Null: none carried.
struct KeptSpan {
  std::shared_ptr<paged::ResidentEdges> edges;
};

// Where a streamed array's edges are in the file.
struct FileArrays {
  std::shared_ptr<const paged::EdgeFile> file;
  int neighbors_section = -1;  // formats::TgbSection of the neighbours
  int weights_section = -1;    // of the weights, where the steps read them; -1: none
  uint64_t num_vertices = 0;   // every id read must be below it
  std::shared_ptr<KeptSpan> kept;  // null: the reader's kept span is its own
};

class FilePartitions {
 public:
  // A chunk's ids: 64 MiB reads reach the lent machines' disks' whole rate
  // (2.3 GB/s on the H100 machine's, 1.2 at 64 KiB; docs/PERF.md).
  static constexpr uint64_t kChunkBytes = uint64_t{64} << 20;
  // Chunk buffers in turn: one is read while the last one's copy runs.
  static constexpr int kChunkBuffers = 2;

  // For an array of `edges` edges of `id_bytes`-wide ids (and 4-byte weights
  // where the arrays name them), read in ranges of up to `partition_edges`:
  // chunk buffers of the least of kChunkBytes of ids, a partition and the
  // array (in whole granules).
  FilePartitions(FileArrays arrays, uint32_t id_bytes, uint64_t edges, uint64_t partition_edges);

  // Keeps edges [first, first + count) (first rounded down to a whole
  // granule, the span cut at the array's end) in host memory once read.
  // Once, before any read; 0 keeps none. Where the arrays carry a span
  // (FileArrays::kept), the same span is taken over with the pages read into
  // it before, and the span kept is carried on; another is released first.
  void keep(eid_t first, uint64_t count);
  // Releases the carried span unless it is the one keep(first, count) would
  // keep: a run's readers call it before any keeps, so that an earlier run's
  // span holds no memory beside theirs.
  void release_carried_unless(eid_t first, uint64_t count);

  // Edges of a range, in host memory: in chunk buffer `buffer`, or in the
  // kept span (buffer -1), which no later read overwrites.
  struct Piece {
    int buffer = -1;
    const void* neighbors = nullptr;
    const weight_t* weights = nullptr;  // null without weights
    eid_t first = 0;                    // the piece's first edge
    uint64_t count = 0;
  };
  // Edges [begin, end) of the array, in order, as pieces of at most a chunk:
  // before_fill(b) is called before chunk buffer b is read into (the caller
  // waits there for its last copy from it), take(piece) once a piece is in
  // host memory, checked. Throws tg::Error (input) for a read error or an id
  // out of range.
  template <typename BeforeFill, typename Take>
  void read(eid_t begin, eid_t end, BeforeFill&& before_fill, Take&& take) {
    const paged::ResidentRange span = kept_->held(arrays_.neighbors_section);
    for (eid_t at = begin; at < end;) {
      // No piece crosses a chunk's window (whole pages of ids and weights
      // alike) or an edge of the kept span.
      eid_t stop = std::min<eid_t>(end, (at / chunk_edges_ + 1) * chunk_edges_);
      if (at >= span.begin && at < span.end) {
        stop = std::min(stop, span.end);
        take(kept_piece(at, stop));
      } else {
        if (at < span.begin) stop = std::min(stop, span.begin);
        const int b = next_buffer_;
        next_buffer_ = (next_buffer_ + 1) % kChunkBuffers;
        before_fill(b);
        take(chunk_piece(b, at, stop));
      }
      at = stop;
    }
  }

  // Each buffer's memory and the kept span's (page-aligned, whole pages):
  // for cudaHostRegister.
  std::vector<std::pair<void*, uint64_t>> memory();
  uint64_t host_bytes() const;  // the chunk buffers
  uint64_t kept_bytes() const { return kept_->memory_bytes(); }  // the kept span, whole pages
  std::pair<eid_t, eid_t> kept() const {
    const paged::ResidentRange span = kept_->held(arrays_.neighbors_section);
    return {span.begin, span.end};
  }
  uint64_t chunk_edges() const { return chunk_edges_; }
  uint64_t bytes_read() const { return bytes_read_; }  // from the file, since construction
  bool weighted() const { return arrays_.weights_section >= 0; }

  // A granule: whole pages of ids and of weights alike (a chunk's window, the
  // kept span's first edge).
  static constexpr uint64_t kGranuleEdges = paged::kPageBytes / sizeof(weight_t);

 private:
  std::vector<paged::EdgeArray> kept_arrays() const;  // the ids' section, and the weights' where read
  paged::ResidentRange kept_span(eid_t first, uint64_t count) const;  // keep()'s, rounded and cut
  bool carries(const paged::ResidentRange& span) const;  // the arrays carry exactly this span
  Piece chunk_piece(int b, eid_t begin, eid_t end);
  Piece kept_piece(eid_t begin, eid_t end);
  // The section's bytes of kept edges [begin, end), its pages not read yet
  // read from the file first (the ids among them checked where `ids`).
  const char* kept_section(int section, uint32_t bytes_per_edge, eid_t begin, eid_t end, bool ids);
  // Reads `bytes` of `section` from byte `first` of it into `region` (of
  // `region_bytes`, page-aligned); the data's address in it.
  const char* read_section(char* region, uint64_t region_bytes, int section, uint64_t first, uint64_t bytes);
  void check(const void* ids, uint64_t count) const;

  FileArrays arrays_;
  uint32_t id_bytes_;
  uint64_t edges_;
  uint64_t chunk_edges_;  // a multiple of kGranuleEdges
  std::vector<paged::PageMemory> neighbors_, weights_;  // the chunk buffers
  int next_buffer_ = 0;
  // The paged CPU engine's span of edges kept once read, page by page; never
  // null (it holds nothing until keep()).
  std::shared_ptr<paged::ResidentEdges> kept_ = std::make_shared<paged::ResidentEdges>();
  uint64_t bytes_read_ = 0;
};

}  // namespace tg::subgraph
