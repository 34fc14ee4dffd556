// What the planner knows of the machine: rates measured once by
// `tiergraph calibrate` (planner/calibrate.h) and kept in a JSON profile, or
// the built-in figures of the H100 machine of ../shared/PLATFORM.md where no
// profile was measured. Every rate is in bytes (or accesses) per second.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tg::planner {

// A rate that falls with the footprint of what is read at random (address
// translation, caches): measured at a few footprints, interpolated between
// them in log space, held flat beyond both ends.
struct FootprintRates {
  std::vector<std::pair<double, double>> points;  // (footprint bytes, rate), by footprint
  double at(double footprint) const;
};

struct MachineProfile {
  std::string source;  // "built-in (...)" or the file it was read from
  std::string gpu;     // device name; empty: measured without a GPU
  // The measured GPU's UUID as nvidia-smi prints it ("GPU-..."); empty in
  // profiles made before calibrate recorded it. Two hosts with the same GPU
  // model can differ 2x in scattered zero-copy reads (docs/PERF.md, session
  // 49), so a run on another GPU is told to calibrate (profile_note).
  std::string gpu_uuid;
  uint64_t gpu_memory_bytes = 0;
  int cpu_threads = 0;

  // Host -> GPU.
  double link_copy = 0;        // cudaMemcpy from pinned memory, large
  double pageable_copy = 0;    // cudaMemcpy from ordinary memory (the device placement's transfer)
  double host_register = 0;    // cudaHostRegister in place (zero-copy and subgraph setup)
  double zero_copy_lines = 0;  // warp reads of whole 128-byte lines, in address order
  FootprintRates zero_copy_random;  // random 128-byte lines per second, by host footprint
  // The same over memory pinned as the engine pins a graph's arrays (tg::Array
  // storage, 2 MiB-aligned on huge pages where the kernel gives them,
  // registered in place read-only: gpu/placed_graph.cu), at 1 and 4 GiB.
  // Recorded to tell hosts apart (two lent H100s read scattered zero-copy 2x
  // apart, docs/PERF.md session 49); the model does not read it yet. Empty in
  // profiles made before it and in --quick ones.
  FootprintRates zero_copy_random_in_place;
  // On the GPU.
  double device_read = 0;           // coalesced reads of device memory
  FootprintRates device_random;     // random 4-byte reads per second, by footprint (vertex values)
  double step_overhead_s = 0;       // fixed cost of one engine step (launches, a frontier count)
  // CC's forest links (core/forest.h) a second over lists of random
  // entries, by the parent array's footprint. Empty in profiles made before
  // calibrate measured it: the planner then takes a link for ten random reads.
  FootprintRates device_links;
  // CPU.
  double cpu_gather = 0;  // threads copying scattered lists into one buffer
};

// The H100 machine of ../shared/PLATFORM.md (2026-11-22) and of calibrate's
// first run there: used where no profile is given or found.
MachineProfile builtin_profile();

// Reads a profile; throws tg::Error naming the file and the field for a file
// that is missing, not JSON, of another format, or with a rate that is
// absent, not a number, or not positive.
MachineProfile read_profile(const std::string& path);
void write_profile(const MachineProfile& profile, const std::string& path);
nlohmann::json to_json(const MachineProfile& profile);

// What a run on the GPU named `gpu` (its device name and UUID, as
// gpu_identity gives them) should know of `profile`: that it was measured on
// another GPU, or on another model, and where to calibrate; empty where the
// profile names the same GPU or cannot tell (no UUID recorded, built-in).
struct GpuIdentity {
  std::string name;
  std::string uuid;
};
std::string profile_note(const MachineProfile& profile, const GpuIdentity& gpu);

// The profile a run uses: --profile PATH where given (errors as read_profile),
// else $TG_PROFILE, else the default path where a file exists there, else the
// built-in one.
MachineProfile find_profile(const std::string& path_option);
// $XDG_CONFIG_HOME/tiergraph/profile.json, or ~/.config/tiergraph/profile.json.
std::string default_profile_path();

}  // namespace tg::planner
