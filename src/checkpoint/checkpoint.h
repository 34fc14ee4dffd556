// Checkpoints of a run's vertex data (issue 12, part 4): an iterative
// algorithm saves its state every N iterations into DIR/checkpoint.tgc, and
// a run started with --resume DIR continues from the last one, with exactly
// the results of an uninterrupted run. The file is written beside the old
// one and renamed over it (a kill mid-write leaves the previous checkpoint),
// carries an XXH64 checksum of everything before it, and names what it
// belongs to: the algorithm, its options and the graph (vertex and edge
// counts and a hash of its edges), so a checkpoint of another run is
// refused in one line instead of resumed. Algorithms save and restore
// through the helpers of checkpoint/vertex_state.h.
//
// Format (little-endian): "TGCKPT1\0", u64 header bytes, then the key's
// strings (u64 length + bytes) and numbers, u64 iteration, u64 scalar count
// + f64 scalars, u64 state bytes + state, u64 checksum.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace tg {

// What a checkpoint belongs to.
struct CheckpointKey {
  std::string algorithm;
  std::string options;  // the options that change the result, as text
  uint64_t num_vertices = 0;
  uint64_t num_edges = 0;
  uint64_t graph_hash = 0;  // of the out-CSR: offsets, neighbours, and the weights where the run reads them
};

// weights: the run reads edge weights, so a graph with other weights is another graph.
CheckpointKey checkpoint_key(const AnyGraph& graph, const std::string& algorithm, const std::string& options,
                             bool weights = false);

struct SavedState {
  int iteration = 0;
  std::vector<double> scalars;  // what the algorithm keeps beside the vertex data (a sum, the last change)
  std::vector<uint8_t> state;   // the vertex data, as the algorithm's arrays hold it
};

class Checkpointer {
 public:
  // dir: where to write (created if missing); every: iterations between
  // checkpoints (> 0); resume: whether load() reads what dir holds.
  Checkpointer(std::string dir, int every, bool resume, CheckpointKey key);

  bool due(int iteration) const { return iteration > 0 && iteration % every_ == 0; }
  int every() const { return every_; }
  // Writes the state atomically (tmp, fsync, rename, fsync of the folder).
  void save(int iteration, const std::vector<double>& scalars, std::span<const uint8_t> state) const;
  // With resume: the saved state, checked against the key and the expected
  // state size; a file of another run, a torn or corrupt file, or none at
  // all is an error naming the file and what differs. Without: nothing.
  // kAnySize takes a state of any size (the caller checks it).
  static constexpr uint64_t kAnySize = ~uint64_t{0};
  std::optional<SavedState> load(uint64_t state_bytes) const;
  const std::string& path() const { return path_; }
  // The same checkpointer, saving only (a run that starts an attempt over
  // within itself: sssp's double distances after float's).
  Checkpointer without_resume() const {
    Checkpointer c = *this;
    c.resume_ = false;
    return c;
  }
  // Keeps other processes out of the folder while this checkpointer (or a
  // copy) lives: a second run given the same folder is refused at its start
  // ("... is in use by another run"), where both wrote one checkpoint file.
  // The program takes it for a run; a file system without locks is not
  // guarded.
  void lock_folder();

 private:
  std::shared_ptr<void> folder_lock_;  // the folder's descriptor, flock'ed; closed with the last copy
  std::string dir_, path_;
  int every_;
  bool resume_;
  CheckpointKey key_;
};

}  // namespace tg
