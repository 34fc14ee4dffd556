// PT / PT-Opt budget split and per-iteration schedule (see stream_schedule.h).
#include "engines/gpu/subgraph/stream_schedule.h"

#include "core/error.h"

namespace tg::subgraph {


StreamConfig stream_config(uint64_t budget_bytes, EdgeEntry entry, StreamMode mode, const std::string& what,
                           uint64_t staging_buffers, uint64_t slots) {
  StreamConfig c;
  c.mode = mode;
  c.entry = entry;
  if (mode == StreamMode::kPt) {
    BufferSizing s = size_buffers(budget_bytes, entry, 1, what);
    c.staging_buffers = 1;
    c.partition_edges = s.capacity_edges;
    c.resident_edges = 0;
    return c;
  }
  if (staging_buffers < 1 || staging_buffers > 3)
    throw Error("PT-Opt streaming: " + std::to_string(staging_buffers) + " staging buffers (expected 1 to 3)");
  if (slots < staging_buffers)
    throw Error("PT-Opt streaming: " + std::to_string(slots) + " budget slots cannot hold " +
                std::to_string(staging_buffers) + " staging buffers");
  BufferSizing s = size_buffers(budget_bytes, entry, slots, what);
  c.staging_buffers = staging_buffers;
  c.partition_edges = s.capacity_edges;
  c.resident_edges = (slots - staging_buffers) * s.capacity_edges;
  return c;
}

StreamSchedule::StreamSchedule(std::vector<EdgeRange> partitions, const StreamConfig& config)
    : partitions_(std::move(partitions)), config_(config) {
  if (config_.partition_edges == 0) throw Error("stream schedule: partitions of 0 edges");
  if (config_.staging_buffers == 0) throw Error("stream schedule: no staging buffer");
  eid_t previous_end = 0;
  for (size_t p = 0; p < partitions_.size(); ++p) {
    const EdgeRange& r = partitions_[p];
    if (r.edges() > config_.partition_edges || r.edge_begin != previous_end)
      throw Error("stream schedule: partition " + std::to_string(p) + " does not fit its buffer or leaves a gap");
    previous_end = r.edge_end;
  }
  if (config_.mode == StreamMode::kPtOpt) {
    // The first k partitions that fit stay; they are a prefix of the edge
    // array, so the device holds them in one buffer at their own positions.
    while (resident_count_ < partitions_.size() && partitions_[resident_count_].edge_end <= config_.resident_edges)
      ++resident_count_;
  }
  loaded_.assign(resident_count_, false);
}

void StreamSchedule::reset() { loaded_.assign(resident_count_, false); }

void StreamSchedule::take_loaded(const std::vector<bool>& loaded) {
  if (loaded.size() != resident_count_)
    throw Error("stream schedule: " + std::to_string(loaded.size()) + " loaded flags for " +
                std::to_string(resident_count_) + " resident partitions");
  loaded_ = loaded;
}

StreamIteration StreamSchedule::plan_iteration(std::span<const std::pair<uint64_t, uint64_t>> active) {
  if (active.size() != partitions_.size())
    throw Error("stream schedule: " + std::to_string(active.size()) + " active ranges for " +
                std::to_string(partitions_.size()) + " partitions");
  StreamIteration it;
  uint64_t staging_used = 0;
  auto staging_step = [&](uint64_t p) {
    StreamStep s;
    s.partition = p;
    s.active_lo = active[p].first;
    s.active_hi = active[p].second;
    s.load = StreamStep::Load::kStaging;
    s.staging_buffer = staging_used++ % config_.staging_buffers;
    s.copy_edges = partitions_[p].edges();
    return s;
  };

  if (config_.mode == StreamMode::kPt) {
    for (uint64_t p = 0; p < partitions_.size(); ++p) it.steps.push_back(staging_step(p));
  } else {
    for (uint64_t p = 0; p < resident_count_; ++p) {
      if (active[p].first == active[p].second || !loaded_[p]) continue;
      StreamStep s;
      s.partition = p;
      s.active_lo = active[p].first;
      s.active_hi = active[p].second;
      s.load = StreamStep::Load::kNone;
      it.steps.push_back(s);
      it.resident_hits++;
    }
    for (uint64_t p = 0; p < partitions_.size(); ++p) {
      if (active[p].first == active[p].second) {
        it.skipped++;
        continue;
      }
      if (p < resident_count_) {
        if (loaded_[p]) continue;  // scheduled above
        StreamStep s;
        s.partition = p;
        s.active_lo = active[p].first;
        s.active_hi = active[p].second;
        s.load = StreamStep::Load::kResident;
        s.copy_edges = partitions_[p].edges();
        it.steps.push_back(s);
        loaded_[p] = true;
      } else {
        it.steps.push_back(staging_step(p));
      }
    }
  }
  for (const StreamStep& s : it.steps) {
    it.copied_edges += s.copy_edges;
    if (s.load != StreamStep::Load::kNone) it.copies++;
  }
  return it;
}

}  // namespace tg::subgraph
