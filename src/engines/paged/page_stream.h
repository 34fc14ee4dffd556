// Reading a step's windows (window_plan.h) from the .tgb file into a ring of
// page buffers, ahead of the engine: a reader thread fills buffer k % depth
// with window k as soon as the engine has released window k - depth, so the
// engine processes one window while the next ones come from the disk.
//
// A window's runs are read as whole pages (O_DIRECT's unit), adjacent or
// overlapping pages of its runs in one pread. The buffer holds the window's
// span [begin, end) of edge ids from page_floor(begin): edge e of the span is
// element e - first of the buffer (Slot), whether read or not; the engine
// reads only the edges of its runs.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engines/paged/edge_file.h"
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
  std::vector<std::unique_ptr<char, void (*)(void*)>> regions_;
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

class PageStream {
 public:
  // Checks the ids of a read run of `count` neighbours (bounds: a file
  // changed since it was loaded must not send the engine out of its arrays).
  using IdCheck = std::function<void(const char* ids, uint64_t count)>;

  // Starts reading the plan's windows (a reader thread where there are
  // several). The plan, file, buffers and stats outlive the stream.
  PageStream(const EdgeFile& file, PageBuffers& buffers, StepSections sections, const WindowPlan& plan,
             PagingStats& stats, IdCheck check);
  ~PageStream();
  PageStream(const PageStream&) = delete;
  PageStream& operator=(const PageStream&) = delete;

  // Window k's buffer, once read; windows are acquired in order, each
  // released before the one `depth` later can be read. Rethrows the
  // reader's error.
  Slot acquire(uint64_t k);
  void release(uint64_t k);

 private:
  void read_ahead();
  Slot read_window(uint64_t k);
  uint64_t read_section(int section, uint32_t bytes_per_edge, const Window& w, char* buffer);

  const EdgeFile& file_;
  PageBuffers& buffers_;
  StepSections sections_;
  const WindowPlan& plan_;
  PagingStats& stats_;
  IdCheck check_;
  std::vector<Slot> slots_;  // by window k % depth

  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t read_ = 0;      // windows read (by the reader thread)
  uint64_t released_ = 0;  // windows the engine is done with
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread reader_;
};

}  // namespace tg::paged
