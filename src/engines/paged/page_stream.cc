#include "engines/paged/page_stream.h"

#include <chrono>
#include <cstdlib>
#include <new>

namespace tg::paged {

namespace {

std::unique_ptr<char, void (*)(void*)> aligned_region(uint64_t bytes) {
  if (bytes == 0) return {nullptr, std::free};
  void* p = std::aligned_alloc(kPageBytes, page_ceil(bytes));
  if (p == nullptr) throw std::bad_alloc();
  return {static_cast<char*>(p), std::free};
}

}  // namespace

PageBuffers::PageBuffers(int depth, uint64_t neighbor_bytes, uint64_t weight_bytes)
    : depth_(depth), neighbor_bytes_(neighbor_bytes), weight_bytes_(weight_bytes) {
  for (int i = 0; i < depth; ++i) {
    regions_.push_back(aligned_region(neighbor_bytes));
    regions_.push_back(aligned_region(weight_bytes));
  }
}

PageStream::PageStream(const EdgeFile& file, PageBuffers& buffers, StepSections sections, const WindowPlan& plan,
                       PagingStats& stats, IdCheck check)
    : file_(file), buffers_(buffers), sections_(sections), plan_(plan), stats_(stats), check_(std::move(check)),
      slots_(buffers.depth()) {
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
      changed_.wait(lock, [&] { return stop_ || k < released_ + depth; });
      if (stop_) return;
    }
    try {
      Slot slot = read_window(k);
      std::lock_guard<std::mutex> lock(mutex_);
      slots_[k % depth] = slot;
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
  const uint64_t depth = static_cast<uint64_t>(buffers_.depth());
  stats_.windows++;
  if (!reader_.joinable()) {
    const auto t0 = std::chrono::steady_clock::now();
    Slot slot = read_window(k);
    stats_.waited++;
    stats_.wait_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return slot;
  }
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
  return slots_[k % depth];
}

void PageStream::release(uint64_t k) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = k + 1;
  }
  changed_.notify_all();
}

Slot PageStream::read_window(uint64_t k) {
  const int slot = static_cast<int>(k % static_cast<uint64_t>(buffers_.depth()));
  const Window& w = plan_.windows[k];
  Slot s;
  s.neighbors = buffers_.neighbors(slot);
  s.neighbors_first = page_floor(w.begin * sections_.id_bytes) / sections_.id_bytes;
  read_section(sections_.neighbors, sections_.id_bytes, w, buffers_.neighbors(slot));
  for (uint64_t r = w.first_run; r < w.last_run; ++r) {
    const EdgeRun& run = plan_.runs[r];
    check_(s.neighbors + (run.begin - s.neighbors_first) * sections_.id_bytes, run.end - run.begin);
  }
  if (sections_.weights >= 0) {
    s.weights = buffers_.weights(slot);
    s.weights_first = page_floor(w.begin * sizeof(weight_t)) / sizeof(weight_t);
    read_section(sections_.weights, sizeof(weight_t), w, buffers_.weights(slot));
  }
  return s;
}

// The pages of the window's runs in one section, adjacent ones in one read.
// The stats are the engine thread's, so the counts go through the lock.
uint64_t PageStream::read_section(int section, uint32_t bytes_per_edge, const Window& w, char* buffer) {
  const uint64_t origin = file_.section_offset(section);
  const uint64_t base = origin + page_floor(w.begin * bytes_per_edge);
  uint64_t bytes = 0, reads = 0;
  uint64_t from = 0, to = 0;  // the pending read, file offsets
  auto flush = [&] {
    if (to > from) {
      bytes += file_.read(buffer + (from - base), from, to);
      reads++;
    }
  };
  for (uint64_t r = w.first_run; r < w.last_run; ++r) {
    const uint64_t b = origin + page_floor(plan_.runs[r].begin * bytes_per_edge);
    const uint64_t e = origin + page_ceil(plan_.runs[r].end * bytes_per_edge);
    if (b <= to && to > from) {
      to = std::max(to, e);
      continue;
    }
    flush();
    from = b;
    to = e;
  }
  flush();
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.disk_bytes += bytes;
  stats_.reads += reads;
  return bytes;
}

}  // namespace tg::paged
