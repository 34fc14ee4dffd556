// The subgraph / stream placements' records, written out (stream_stats.h).
#include "engines/stream_stats.h"

namespace tg::subgraph {

const char* transfer_name(Transfer t) {
  switch (t) {
    case Transfer::kSubgraphCpuGather: return "subgraph-cpu";
    case Transfer::kSubgraphGpuGather: return "subgraph-gpu";
    case Transfer::kStream: return "stream";
    case Transfer::kZeroCopy: return "zerocopy";
    case Transfer::kResident: return "resident";
  }
  return "?";
}

nlohmann::json to_json(const IterationRecord& r) {
  return nlohmann::json{
      {"iteration", r.iteration},
      {"inner_iterations", r.inner_iterations},
      {"transfer", transfer_name(r.choice.transfer)},
      {"reason", r.choice.reason},
      {"active_vertices", r.shape.active_vertices},
      {"active_edges", r.shape.active_edges},
      {"active_edge_fraction", r.choice.active_edge_fraction},
      {"units", r.units},
      {"bytes_copied", r.bytes_copied},
      {"generate_s", r.generate_s},
      {"gather_s", r.gather_s},
      {"copy_s", r.copy_s},
      {"compute_s", r.compute_s},
      {"push_s", r.push_s},
      {"load_wait_s", r.load_wait_s},
      {"estimate",
       {{"subgraph_cpu_s", r.choice.estimate.subgraph_cpu_s},
        {"subgraph_gpu_s", r.choice.estimate.subgraph_gpu_s},
        {"stream_s", r.choice.estimate.stream_s},
        {"subgraph_bytes", r.choice.estimate.subgraph_bytes},
        {"stream_bytes", r.choice.estimate.stream_bytes}}},
  };
}

nlohmann::json summarize(const std::vector<IterationRecord>& records) {
  uint64_t bytes = 0, inner = 0, units = 0;
  double generate = 0, gather = 0, copy = 0, compute = 0, push = 0, load_wait = 0;
  nlohmann::json by_transfer = nlohmann::json::object();
  nlohmann::json list = nlohmann::json::array();
  for (const IterationRecord& r : records) {
    bytes += r.bytes_copied;
    inner += r.inner_iterations;
    units += r.units;
    generate += r.generate_s;
    gather += r.gather_s;
    copy += r.copy_s;
    compute += r.compute_s;
    push += r.push_s;
    load_wait += r.load_wait_s;
    const char* name = transfer_name(r.choice.transfer);
    by_transfer[name] = by_transfer.value(name, 0) + 1;
    list.push_back(to_json(r));
  }
  return nlohmann::json{{"outer_iterations", records.size()},
                        {"inner_iterations", inner},
                        {"units", units},
                        {"bytes_copied", bytes},
                        {"generate_s", generate},
                        {"gather_s", gather},
                        {"copy_s", copy},
                        {"compute_s", compute},
                        {"push_s", push},
                        {"load_wait_s", load_wait},
                        {"iterations_by_transfer", by_transfer},
                        {"iterations", list}};
}

}  // namespace tg::subgraph

namespace tg {

nlohmann::json to_json(const StreamStats& s) {
  nlohmann::json j{{"subgraph_budget_bytes", s.budget_bytes},
                   {"subgraph_buffer_edges", s.buffer_edges},
                   {"stream_partitions", s.partitions},
                   {"stream_resident_partitions", s.resident_partitions},
                   {"async", s.async},
                   {"stream_copies", s.copies},
                   {"stream_skipped", s.skipped},
                   {"stream_resident_hits", s.resident_hits},
                   {"subgraph", subgraph::summarize(s.iterations)}};
  if (s.mode) j["stream_mode"] = std::string(name_of(*s.mode));
  if (!s.gather_lists.empty()) j["gather_lists"] = s.gather_lists;
  if (s.host_buffer_bytes > 0) {
    j["stream_resident_carried"] = s.resident_carried;
    j["host_mem_buffer_bytes"] = s.host_buffer_bytes;
    j["host_mem_cache_bytes"] = s.host_cache_bytes;
    j["disk_bytes"] = s.disk_bytes;
  }
  if (s.subcsr_max_pieces > 0) {
    j["subcsr_max_edges"] = s.subcsr_max_edges;
    j["subcsr_max_pieces"] = s.subcsr_max_pieces;
    j["subcsr_bytes"] = s.subcsr_bytes;
    j["subgraph_d2h_bytes"] = s.d2h_bytes;
    j["subcsr_packed_pieces"] = s.packed_pieces;
    j["subcsr_plain_pieces"] = s.plain_pieces;
  }
  return j;
}

}  // namespace tg
