// Reading a step's windows (window_plan.h) from the .tgb file, ahead of the
// engine, on a reader thread:
//  - a window inside the resident edges (resident_edges.h) is served from
//    them: the pages of its runs not read yet are read into them, once; the
//    others need no read, and it takes no buffer;
//  - the other windows go through a ring of page buffers: the reader fills
//    buffer t % depth with the t-th of them as soon as the engine has
//    released the (t - depth)-th, so the engine processes one window while
//    the next ones come from the disk. While it processes resident windows,
//    the reader already fills the buffers with the windows after them.
//
// A window's runs are read as whole pages (O_DIRECT's unit), adjacent or
// overlapping pages of its runs in one pread. A buffer holds the window's
// span [begin, end) of edge ids from page_floor(begin): edge e of the span is
// element e - first of the buffer (Slot), whether read or not; the engine
// reads only the edges of its runs.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engines/paged/edge_file.h"
#include "engines/paged/resident_edges.h"
#include "engines/paged/window_plan.h"
#include "engines/run_stats.h"

namespace tg::paged {

// The page buffers: `depth` slots, each a region for neighbour ids and one
// for weights, page-aligned; allocated once per engine.
class PageBuffers {
 public:
  PageBuffers(int depth, uint64_t neighbor_bytes, uint64_t weight_bytes);
  int depth() const { return depth_; }
  uint64_t neighbor_bytes() const { return neighbor_bytes_; }
  uint64_t weight_bytes() const { return weight_bytes_; }
  uint64_t total_bytes() const { return uint64_t(depth_) * (neighbor_bytes_ + weight_bytes_); }
  char* neighbors(int slot) { return regions_[2 * slot].get(); }
  char* weights(int slot) { return regions_[2 * slot + 1].get(); }

 private:
  int depth_;
  uint64_t neighbor_bytes_, weight_bytes_;
  std::vector<PageMemory> regions_;
};

// Where a window's edges are in its buffer: edge e (in the window's span) is
// neighbors[e - neighbors_first], weights[e - weights_first].
struct Slot {
  const char* neighbors = nullptr;
  eid_t neighbors_first = 0;
  const char* weights = nullptr;  // null where the step reads no weights
  eid_t weights_first = 0;
};

// The file sections a step reads: a CSR's neighbours and, if the operator
// needs them, its weights (-1: none).
struct StepSections {
  int neighbors;
  int weights;
  uint32_t id_bytes;
};

// The step's resident edge ids: those held where every section it reads is
// held, none otherwise. The step's plan ends no window across their edges.
inline ResidentRange resident_range(const ResidentEdges& resident, const StepSections& s) {
  const ResidentRange r = resident.held(s.neighbors);
  return s.weights >= 0 && resident.held(s.weights) != r ? ResidentRange{} : r;
}

class PageStream {
 public:
  // Checks the ids of a read run of `count` neighbours (bounds: a file
  // changed since it was loaded must not send the engine out of its arrays):
  // a buffered window's when it is acquired, on the caller's thread; the
  // resident edges' once, by the reader, as they are read.
  using IdCheck = std::function<void(const char* ids, uint64_t count)>;

  // Starts reading the plan's windows (a reader thread where there are
  // several). The plan, file, buffers, resident edges and stats outlive the
  // stream.
  PageStream(const EdgeFile& file, PageBuffers& buffers, ResidentEdges& resident, StepSections sections,
             const WindowPlan& plan, PagingStats& stats, IdCheck check);
  ~PageStream();
  PageStream(const PageStream&) = delete;
  PageStream& operator=(const PageStream&) = delete;

  // Window k's edges, once read and their ids checked; windows are acquired
  // in order, each released before the one `depth` buffers later can be
  // read. Rethrows the reader's error and the check's.
  Slot acquire(uint64_t k);
  void release(uint64_t k);

 private:
  static constexpr uint64_t kResident = ~uint64_t{0};  // turn_ of a resident window

  void read_ahead();
  void read_window(uint64_t k);
  void check_buffer(uint64_t k, const Slot& s);
  int buffer(uint64_t k) const;  // of a window not resident
  Slot slot(uint64_t k);
  void read_into_buffer(int section, uint32_t bytes_per_edge, const Window& w, char* buffer);
  void read_into_resident(int section, uint32_t bytes_per_edge, const Window& w);
  void count(uint64_t bytes, uint64_t reads, bool resident);

  const EdgeFile& file_;
  PageBuffers& buffers_;
  ResidentEdges& resident_;
  StepSections sections_;
  const WindowPlan& plan_;
  PagingStats& stats_;
  IdCheck check_;
  ResidentRange held_;  // resident_range of the sections
  std::vector<uint64_t> turn_;  // by window: its turn among those read into buffers (buffer turn % depth), or kResident

  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t read_ = 0;            // windows read (by the reader thread)
  uint64_t released_turns_ = 0;  // buffered windows the engine is done with
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread reader_;
};

}  // namespace tg::paged
