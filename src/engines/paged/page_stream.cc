#include "engines/paged/page_stream.h"

#include <chrono>

namespace tg::paged {

PageBuffers::PageBuffers(int depth, uint64_t neighbor_bytes, uint64_t weight_bytes)
    : depth_(depth), neighbor_bytes_(neighbor_bytes), weight_bytes_(weight_bytes) {
  for (int i = 0; i < depth; ++i) {
    regions_.push_back(page_memory(neighbor_bytes));
    regions_.push_back(page_memory(weight_bytes));
  }
}

PageStream::PageStream(const EdgeFile& file, PageBuffers& buffers, ResidentEdges& resident, StepSections sections,
                       const WindowPlan& plan, PagingStats& stats, IdCheck check)
    : file_(file), buffers_(buffers), resident_(resident), sections_(sections), plan_(plan), stats_(stats),
      check_(std::move(check)), held_(resident_range(resident, sections)), turn_(plan.windows.size()) {
  uint64_t turns = 0;
  for (uint64_t k = 0; k < plan_.windows.size(); ++k) {
    const Window& w = plan_.windows[k];
    // The plan ends no window across held_'s edges (a window of no edges may sit on one).
    turn_[k] = held_.holds(w) ? kResident : turns++;
  }
  // One window: read on the caller's thread when it asks (no thread to start).
  if (plan_.windows.size() > 1) reader_ = std::thread([this] { read_ahead(); });
}

PageStream::~PageStream() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  if (reader_.joinable()) reader_.join();
}

void PageStream::read_ahead() {
  const uint64_t depth = static_cast<uint64_t>(buffers_.depth());
  for (uint64_t k = 0; k < plan_.windows.size(); ++k) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // A resident window waits for no buffer.
      changed_.wait(lock, [&] { return stop_ || turn_[k] == kResident || turn_[k] < released_turns_ + depth; });
      if (stop_) return;
    }
    try {
      read_window(k);
      std::lock_guard<std::mutex> lock(mutex_);
      read_ = k + 1;
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      read_ = plan_.windows.size();
    }
    changed_.notify_all();
    if (error_) return;
  }
}

Slot PageStream::acquire(uint64_t k) {
  if (turn_[k] == kResident) stats_.resident_windows++;
  else stats_.windows++;
  if (!reader_.joinable()) {
    const auto t0 = std::chrono::steady_clock::now();
    read_window(k);
    stats_.waited++;
    stats_.wait_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } else {
    std::unique_lock<std::mutex> lock(mutex_);
    if (k < read_) {
      stats_.prefetched++;
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      changed_.wait(lock, [&] { return k < read_; });
      stats_.waited++;
      stats_.wait_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    if (error_) std::rethrow_exception(error_);
  }
  const Slot s = slot(k);
  if (turn_[k] != kResident) check_buffer(k, s);
  return s;
}

// A buffered window's ids, checked on the engine's thread (by its OpenMP
// threads), not by the reader: the reader goes on to the next read
// meanwhile, where it left the disk idle while it checked (kron:25 on the
// H100 machine: 1.56-1.60 GB/s with the reader checking, 2.10-2.11 without,
// against dd's 2.1-2.2; docs/PERF.md).
void PageStream::check_buffer(uint64_t k, const Slot& s) {
  const Window& w = plan_.windows[k];
  for (uint64_t r = w.first_run; r < w.last_run; ++r) {
    const EdgeRun& run = plan_.runs[r];
    check_(s.neighbors + (run.begin - s.neighbors_first) * sections_.id_bytes, run.end - run.begin);
  }
}

void PageStream::release(uint64_t k) {
  if (turn_[k] == kResident) return;  // it held no buffer
  {
    std::lock_guard<std::mutex> lock(mutex_);
    released_turns_ = turn_[k] + 1;
  }
  changed_.notify_all();
}

int PageStream::buffer(uint64_t k) const {
  return static_cast<int>(turn_[k] % static_cast<uint64_t>(buffers_.depth()));
}

// Where window k's edges are: the resident edges (from the page of their
// first edge), or its buffer (from the page of the window's first edge).
Slot PageStream::slot(uint64_t k) {
  const Window& w = plan_.windows[k];
  Slot s;
  const bool resident = turn_[k] == kResident;
  const int b = resident ? 0 : buffer(k);
  s.neighbors = resident ? resident_.data(sections_.neighbors) : buffers_.neighbors(b);
  s.neighbors_first = (resident ? resident_.base(sections_.neighbors) : page_floor(w.begin * sections_.id_bytes)) /
                      sections_.id_bytes;
  if (sections_.weights >= 0) {
    s.weights = resident ? resident_.data(sections_.weights) : buffers_.weights(b);
    s.weights_first =
        (resident ? resident_.base(sections_.weights) : page_floor(w.begin * sizeof(weight_t))) / sizeof(weight_t);
  }
  return s;
}

void PageStream::read_window(uint64_t k) {
  const Window& w = plan_.windows[k];
  if (turn_[k] == kResident) {
    read_into_resident(sections_.neighbors, sections_.id_bytes, w);
    if (sections_.weights >= 0) read_into_resident(sections_.weights, sizeof(weight_t), w);
    return;
  }
  const int b = buffer(k);
  read_into_buffer(sections_.neighbors, sections_.id_bytes, w, buffers_.neighbors(b));
  if (sections_.weights >= 0) read_into_buffer(sections_.weights, sizeof(weight_t), w, buffers_.weights(b));
}

// The pages of the window's runs, each run of them in one read.
void PageStream::read_into_buffer(int section, uint32_t bytes_per_edge, const Window& w, char* buffer) {
  const uint64_t origin = file_.section_offset(section), base = page_floor(w.begin * bytes_per_edge);
  uint64_t bytes = 0, reads = 0;
  for_each_page_run(plan_, w, bytes_per_edge, file_.read_cost_bytes(), [&](uint64_t from, uint64_t to) {
    bytes += file_.read(buffer + (from - base), origin + from, origin + to);
    reads++;
  });
  count(bytes, reads, false);
}

// The pages of the window's runs not in memory yet, each run of them in one
// read, into the resident edges; the neighbour ids read are checked as a
// buffer's are (those held: the first and last pages may hold others).
void PageStream::read_into_resident(int section, uint32_t bytes_per_edge, const Window& w) {
  const uint64_t origin = file_.section_offset(section), base = resident_.base(section);
  const uint64_t held_from = held_.begin * bytes_per_edge, held_to = held_.end * bytes_per_edge;
  char* memory = resident_.data(section);
  uint64_t bytes = 0, reads = 0;
  for_each_page_run(plan_, w, bytes_per_edge, file_.read_cost_bytes(), [&](uint64_t from, uint64_t to) {
    resident_.read_missing(section, from, to, [&](uint64_t begin, uint64_t end) {
      bytes += file_.read(memory + (begin - base), origin + begin, origin + end);
      reads++;
      const uint64_t a = std::max(begin, held_from), b = std::min(end, held_to);
      if (section == sections_.neighbors && a < b) check_(memory + (a - base), (b - a) / bytes_per_edge);
    });
  });
  count(bytes, reads, true);
}

// The stats are the engine thread's, so the counts go through the lock.
void PageStream::count(uint64_t bytes, uint64_t reads, bool resident) {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.disk_bytes += bytes;
  stats_.reads += reads;
  if (resident) stats_.resident_read_bytes += bytes;
}

}  // namespace tg::paged
