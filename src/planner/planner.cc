#include "planner/planner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engines/edge_cache_request.h"
#include "graph/packed_lists.h"

namespace tg::planner {

namespace {

constexpr double kLine = 128;   // bytes of a zero-copy request
constexpr double kSector = 32;  // the least a request moves
// Bytes a vertex a round of the subgraph placement's sparse steps pass over
// in GPU memory (streamed_candidate).
constexpr double kRoundBytesPerVertex = 40;
// How much faster than a simpler placement a later candidate must be
// predicted to be chosen (make_plan): CC sampled by pushes from the streamed
// placements' heads cache and zero-copy's from its own were predicted within
// 1% of each other on kron:25 (11.5 and 11.6 ms), the streamed one unmeasured.
constexpr double kChoiceMargin = 0.05;

std::string gb(double bytes) {
  char t[32];
  std::snprintf(t, sizeof t, "%.2f GB", bytes / 1e9);
  return t;
}

bool pulls_on(Placement p) { return !is_streamed(p); }

// CC's sampled form runs on the streamed placements too where the graph is
// symmetric (algorithms/cc.h, since session 44): by pushes
// (pushed_sample_candidate).
bool samples_by_pushes(const RunRequest& request, const GraphFacts& g) {
  return request.algorithm->name() == "cc" && request.options.cc_method == CcMethod::kSampled && !g.directed;
}

struct Shape {
  double entry_bytes;  // per edge entry read
  double edge_bytes;   // all edge bytes placed
  double vertices;
  const GraphFacts* graph;
  double pushed_link_entry_bytes = 0;  // subgraph: a pushed entry's bytes over the link where packed (else entry_bytes)
};

// The share of vertex reads that a cache's worth of the hottest values serves:
// as many as the profile's smallest footprint holds, by the sector (32 bytes),
// not by the value, since the hubs lie apart in a graph not numbered by
// degree; by the value in one numbered hubs first, where they lie side by
// side. The reads follow the degrees (GraphFacts::share_of_top).
double cached_vertex_reads(const Work& w, const Shape& s, const MachineProfile& p) {
  const double footprint = s.vertices * w.value_bytes;
  const double cache_bytes = p.device_random.points.front().first;
  if (footprint <= cache_bytes || w.reads_at_cache_rate) return 1.0;
  const double values = cache_bytes / (s.graph->numbered_by_degree ? w.value_bytes : std::max(w.value_bytes, kSector));
  return w.follows_degrees ? s.graph->share_of_top(values) : values / s.vertices;
}

// Random vertex reads on the GPU, whatever holds the edges: the cached share
// at the smallest footprint's rate, the rest at the rate of the whole
// array's footprint. On a skewed graph most reads are of hubs: kron:25
// PageRank in GPU memory made 60 G vertex reads a second where urand:25 made
// 29.5 (the profile at their footprint: 34). `staged`: the lists lie in GPU
// memory, where a gather serves the reads of its staged values (the hottest,
// Work::staged_values) from shared memory, beside the rest: counted as free
// (kron:24 and kron:25 hubs first on the H100, docs/PERF.md session 51; the
// profile does not say whether its GPU runs clusters: every GPU profiled so
// far, Hopper, does).
double vertex_time(const Work& w, const Shape& s, const MachineProfile& p, bool staged = false) {
  const double probes = w.frontier_probes / p.device_random.at(s.vertices / 8);
  const bool links_measured = !p.device_links.points.empty();
  const double links =
      links_measured
          ? w.forest_links / (kGraphLinksOverCalibrated * p.device_links.at(s.vertices * s.graph->id_bytes))
          : 0;
  const double reads = w.vertex_reads + (links_measured ? 0 : kReadsPerForestLink * w.forest_links);
  const double cache_rate = p.device_random.points.front().second;
  const double cached = w.cache_reads / cache_rate;
  if (reads == 0) return probes + links + cached;
  const double hot = cached_vertex_reads(w, s, p);
  const double from_shared = staged && w.staged_values > 0 ? std::min(hot, s.graph->share_of_top(w.staged_values)) : 0;
  // The colder reads at the rate of their footprint, widened by what is read
  // at random beside them. PageRank's gather reads its values at that rate
  // too since its short lists are summed eight lanes a list (session 34:
  // urand:24 in GPU memory 9.25 ms an iteration, 0.71 of the time its old
  // warp-a-list gather took, when the model read its colder values at the
  // largest footprint's rate, which that gather had matched).
  const double cold_rate = p.device_random.at(s.vertices * w.value_bytes + w.beside_bytes);
  return probes + links + cached + reads * ((hot - from_shared) / cache_rate + (1 - hot) / cold_rate);
}

// Kernels reading `hbm_bytes` of edges from GPU memory and the work's vertex
// values: the two add up, both passing through the L2, whose sector rate
// bounds the kernels (ncu on PageRank in GPU memory, docs/PERF.md).
double on_gpu_time(double hbm_bytes, const Work& w, const Shape& s, const MachineProfile& p, bool staged = false) {
  return hbm_bytes / p.device_read + vertex_time(w, s, p, staged);
}

// The bytes zero-copy moves for `w`: its entries, and at each list's start
// half a line lost for a sparse frontier, a 32-byte sector where lists are
// read in address order (PageRank over zero-copy moved 11% (kron:25) and 22%
// (urand:25) more than its entries, about 32 bytes a list).
double zero_copy_bytes(const Work& w, const Shape& s) {
  return w.entries * s.entry_bytes + w.lists * (w.dense || w.sector_a_list ? kSector : kLine / 2);
}

// At the line rate, each request a line's time: the link is bound by the
// requests in flight, and the lines in order and at random within a small
// footprint ran at the same rate (the H200: 400 and 391 M lines a second).
// A sparse frontier's list starts its own request, whatever part of a line
// it moves (urand:25 SSSP over zero-copy ran at 29.5 GB/s against 51 in
// order on the H100). The random-line rate by footprint would bound lists
// read in random order; the engine's frontiers (bitmaps, sorted queues,
// SubCSRs built in vertex order) visit them nearly in address order, so it
// is not applied. Lists that lie side by side share their lines
// (Work::lists_side_by_side).
double zero_copy_time(const Work& w, const Shape& s, const MachineProfile& p) {
  const double per_list = w.dense || w.sector_a_list ? kSector : w.lists_side_by_side ? kLine / 2 : kLine;
  return (w.entries * s.entry_bytes + w.lists * per_list) / p.zero_copy_lines;
}

Candidate device_candidate(const Work& w, const Shape& s, uint64_t budget, uint64_t room, const MachineProfile& p) {
  Candidate c;
  c.placement = Placement::kDevice;
  if (s.edge_bytes > double(std::min(budget, room))) {
    c.fits = false;
    c.why_not = "the edges (" + gb(s.edge_bytes) + ") exceed the budget (" + gb(double(std::min(budget, room))) + ")";
  }
  c.hbm_bytes = w.entries * s.entry_bytes + w.vertex_pass_bytes;
  c.compute_s = on_gpu_time(c.hbm_bytes, w, s, p, true) + w.steps * p.step_overhead_s;
  c.setup_s = s.edge_bytes / p.pageable_copy;
  c.basis = "edges read from GPU memory; vertex reads at random";
  return c;
}

// The entries of `w` that a resident edge cache (engines/edge_cache_plan.h)
// serves from GPU memory. Cached whole lists serve their share of every read;
// heads serve the first H entries of each list: all of a probe of fixed
// length up to H (CC's sample reads 2), a bottom-up BFS probe, which stops at
// the first parent found, taken to end within the head in H of H + 1 cases
// (kron:25 and urand:25 at H = 3 moved 20-30% of their uncached link bytes,
// docs/PERF.md's cache table), and of a whole-list read its first H entries,
// which the cache's share of all entries counts.
// The share of all entries in the lists the cache holds whole.
double whole_list_share(const EdgeCachePlan& cache) {
  if (cache.total_entries == 0) return 0;
  double in_lists = 0;
  for (const CachedLists& l : cache.lists) in_lists += double(l.entries);
  return std::min(1.0, in_lists / double(cache.total_entries));
}

double cached_entries(const Work& w, const EdgeCachePlan& cache) {
  if (cache.total_entries == 0) return 0;
  const double list_share = whole_list_share(cache);
  const double H = cache.heads;
  // Known: what is read past the heads, outside the lists cached whole, crosses.
  if (w.entries_past_heads >= 0) return w.entries - w.entries_past_heads;
  // The share of a probe's entries past the head.
  const double probe_tail = w.probe_length > 0 ? std::max(0.0, w.probe_length - H) / w.probe_length : 1 / (1 + H);
  const double probes_served = w.probe_entries * (1 - probe_tail * (1 - list_share));
  const double rest_served = (w.entries - w.probe_entries) * cache.cached_fraction();
  return probes_served + rest_served;
}

Candidate zero_copy_candidate(const Work& w, const Shape& s, const MachineProfile& p, const EdgeCachePlan* cache) {
  Candidate c;
  c.placement = Placement::kZeroCopyAligned;
  // What the cache serves moves nothing over the link, and so do the starts
  // of the lists it holds.
  const double served = cache ? std::min(w.entries, cached_entries(w, *cache)) : 0;
  Work over_link = w;
  over_link.entries = w.entries - served;
  if (w.entries_past_heads >= 0 && cache != nullptr && cache->total_entries > 0) {
    // Known: the lists read past the heads and not cached whole.
    over_link.lists = w.lists_past_heads;
  } else if (w.entries > 0) {
    over_link.lists = w.lists * over_link.entries / w.entries;
  }
  c.link_bytes = zero_copy_bytes(over_link, s);
  c.hbm_bytes = served * s.entry_bytes + w.vertex_pass_bytes;  // the passes over the vertices, where the work has them
  // The link's time and the vertex reads' add up: they did not overlap in
  // PageRank over zero-copy (kron:25 and urand:25 within 5% as a sum); the
  // cache's reads overlap the link.
  c.compute_s = std::max(zero_copy_time(over_link, s, p), c.hbm_bytes / p.device_read) + vertex_time(w, s, p) +
                w.steps * p.step_overhead_s;
  c.setup_s = s.edge_bytes / p.host_register;
  c.basis = w.dense ? "the lists over the link in address order" : "the frontier's lists over the link";
  if (cache && cache->bytes > 0) {
    char t[160];
    std::snprintf(t, sizeof t, "; edge cache %s: %d head entries a list, %.1f%% of entries, serves %.0f%% of reads",
                  gb(double(cache->bytes)).c_str(), cache->heads, 100 * cache->cached_fraction(),
                  w.entries > 0 ? 100 * served / w.entries : 0.0);
    c.basis += t;
  }
  return c;
}

// Level-synchronous rounds: BFS's levels where counted apart from its steps.
double rounds_of(const Work& w) { return w.rounds > 0 ? w.rounds : w.steps; }

// The work where the engine narrows the buckets (the subgraph placement).
Work with_narrow_buckets(Work w) {
  w.entries *= w.narrow_entries_share;
  w.lists *= w.narrow_entries_share;
  w.vertex_reads *= w.narrow_entries_share;
  w.cache_reads *= w.narrow_entries_share;
  w.rounds *= w.narrow_rounds_share;
  w.steps *= w.narrow_rounds_share;
  return w;
}

// The light lists' packed bytes over their share of the packed out-lists
// (ids and byte weights): light lists are short, a header a few entries
// (kron:25 at 32: 509 MB for 12.6% of 3.51 GB).
constexpr double kLightListsPackedOverShare = 1.16;

// SSSP on the subgraph placement splits its buckets over light lists where
// their packed bytes fit kLightListsBudgetPercent of the budget, which they
// then take in GPU memory (engines/gpu/placed_graph.cu); the light rounds
// relax them there (kron:25: 44 rounds in 9 ms of 164), and the heavy rounds
// read each list once.
Work with_light_split(Work w, const GraphFacts& g, uint64_t budget, bool* split) {
  *split = false;
  if (w.light_share <= 0 || w.entries <= 0 || g.packed_out_bytes == 0 || !g.byte_weights) return w;
  const double packed = double(g.packed_out_bytes) + double(g.edges);  // the ids, and a byte of weight an entry
  if (kLightListsPackedOverShare * w.light_share * packed > double(budget) * kLightListsBudgetPercent / 100) return w;
  const double scale = w.split_entries / w.entries;
  w.entries *= scale;
  w.lists *= scale;
  w.vertex_reads *= scale;
  w.cache_reads *= scale;
  *split = true;
  return w;
}

// The streamed placements' edge buffers' least size (subgraph_plan.cc: a few buffers of 64 edges).
void refuse_below_buffers(Candidate& c, uint64_t budget, const Shape& s) {
  if (double(budget) < 16 * 64 * s.entry_bytes) {
    c.fits = false;
    c.why_not = "a budget below the edge buffers' minimum";
  }
}

// subgraph and stream: steps that read most lists copy the partitions that
// do not stay resident within the budget, at the copy rate, while the kernels
// work on the ones already there (copies and kernels overlap: the slower of
// the two); sparse steps first gather the active lists (a zero-copy kernel)
// into GPU memory, then read them there. Either way the kernels read GPU memory.
// The edge bytes a streamed placement keeps resident: half the budget.
double resident_bytes(const Shape& s, uint64_t budget) { return std::min(s.edge_bytes, double(budget) / 2); }

Candidate streamed_candidate(Placement placement, const Work& w, const Shape& s, uint64_t budget, const MachineProfile& p) {
  Candidate c;
  c.placement = placement;
  const double resident = resident_bytes(s, budget);
  c.hbm_bytes = w.entries * s.entry_bytes;
  const double on_gpu = on_gpu_time(c.hbm_bytes, w, s, p);
  if (w.dense || placement == Placement::kStream) {
    // Each of the run's passes over the edges copies what is not resident;
    // stream copies every active partition, most of them in a sparse run's middle levels.
    const double passes = w.dense ? std::max(1.0, w.per) : std::max(1.0, rounds_of(w) * w.streamed_share);
    c.link_bytes = passes * (s.edge_bytes - resident);
    c.compute_s = std::max(c.link_bytes / p.link_copy, on_gpu);
    c.basis = "non-resident partitions copied each pass (" + gb(resident) + " resident)";
  } else {
    // The active lists cross the link packed where they pack, then are read plain from GPU memory.
    Shape link = s;
    if (s.pushed_link_entry_bytes > 0) link.entry_bytes = std::min(s.entry_bytes, s.pushed_link_entry_bytes);
    c.link_bytes = zero_copy_bytes(w, link);  // the lists' line starts too (the runs count 128-byte lines)
    // A piece's push runs beside the next piece's load (session 32): the
    // slower of the two. SSSP's heavy rounds moved 43-45 GB/s of their bytes
    // on kron and urand at scales 24 and 25 (session 34's records), the pushes
    // under the loads. Each round also passes over the vertex arrays (the
    // frontier, the buckets, the SubCSR's offsets): 0.40-0.63 ms a round
    // there beside the loads and pushes, about kRoundBytesPerVertex.
    const double round_passes = rounds_of(w) * kRoundBytesPerVertex * s.vertices / p.device_read;
    c.compute_s = std::max(zero_copy_time(w, link, p), on_gpu) + round_passes +
                  rounds_of(w) * 10 * p.step_overhead_s;  // the SubCSR's scans
    c.basis = "active lists gathered each step (SubCSR), then read from GPU memory";
    if (link.entry_bytes < s.entry_bytes)
      c.basis += "; the out-lists packed: " + std::to_string(link.entry_bytes).substr(0, 4) + " bytes an entry of " +
                 std::to_string(s.entry_bytes).substr(0, 4);
  }
  c.compute_s += w.steps * p.step_overhead_s;
  if (w.forest_links > 0 && p.device_links.points.empty())
    c.basis += "; links taken as ten random reads (the profile has no link rate: run tiergraph calibrate again)";
  c.setup_s = s.edge_bytes / p.host_register;
  refuse_below_buffers(c, budget, s);
  return c;
}

// CC sampled by pushes on the streamed placements (algorithms/cc.h,
// samples_by_pushes): the sample pushes each list's first two entries (its
// heads), then the vertices outside the largest component push their lists.
// Both placements read the heads in place, a request a list (kron:25 and
// urand:25 on the H100: 1.09 and 1.12 sectors a list, 3.3 and 3.7 ns a list,
// about a line's time; docs/SUBWAY.md). The lists pushed after are few and
// short: the subgraph placement reads them in place too (a small round),
// where the stream placement streams their partitions, which lie all over a
// graph with small components (kron:25: 11 K vertices outside the largest
// with edges cost a whole pass, 78 ms); where every vertex has edges (urand)
// none are taken to lie outside.
// With `heads` cached (engines/gpu_footprint.h: streamed_heads_cache) the
// sample reads them from GPU memory, the planes in order, and the cache is
// filled once when the graph is placed, a request a list; the edge buffers
// do without its bytes.
constexpr double kSectorsAHead = 1.1;
Candidate pushed_sample_candidate(Placement placement, const Work& w, const Shape& s, uint64_t budget, int heads,
                                  uint64_t heads_bytes, const MachineProfile& p) {
  const GraphFacts& g = *s.graph;
  Candidate c;
  c.placement = placement;
  const double lists = double(g.vertices_with_edges);
  const double head_reads_s = kSectorsAHead * lists * kLine / p.zero_copy_lines;
  if (heads > 0) {
    const double cache = double(heads_bytes);
    c.hbm_bytes = cache;
    c.compute_s = cache / p.device_read;
    c.setup_s = head_reads_s;
    budget -= std::min(budget, heads_bytes);
    c.basis = "CC sampled by pushes: each list's first " + std::to_string(heads) + " entries read from the heads cache (" +
              gb(cache) + ") in GPU memory";
  } else {
    c.link_bytes = kSectorsAHead * lists * kSector;
    c.compute_s = head_reads_s;
    c.basis = "CC sampled by pushes: each list's first entries read in place over the link";
  }
  if (placement == Placement::kStream && g.vertices_with_edges < g.vertices) {
    const double resident = resident_bytes(s, budget);
    c.link_bytes += s.edge_bytes - resident;
    c.compute_s += (s.edge_bytes - resident) / p.link_copy;
    c.basis += ", then a pass over the partitions for the lists outside the largest component";
  }
  // The passes over every vertex, as where it pulls (work_model.cc).
  c.hbm_bytes += w.vertex_pass_bytes;
  c.compute_s += on_gpu_time(w.vertex_pass_bytes, w, s, p) + w.steps * p.step_overhead_s;
  c.setup_s += s.edge_bytes / p.host_register;
  refuse_below_buffers(c, budget, s);
  return c;
}

}  // namespace

const Candidate* Plan::chosen() const {
  for (const Candidate& c : candidates)
    if (c.placement == choice) return &c;
  return nullptr;
}

Plan make_plan(const GraphFacts& g, const RunRequest& request, uint64_t budget, uint64_t room,
               const MachineProfile& profile, const EdgeCachePlan* zero_copy_cache, int streamed_heads) {
  Plan plan;
  plan.algorithm = request.algorithm->name();
  const GpuFootprint footprint = gpu_footprint(g, edge_reads(request), false);
  plan.edge_bytes = footprint.edge_bytes;
  plan.budget_bytes = budget;
  plan.profile = profile.source;
  Shape s;
  s.entry_bytes = double(footprint.entry_bytes);
  s.edge_bytes = double(plan.edge_bytes);
  s.vertices = double(g.vertices);
  s.graph = &g;
  plan.work = estimate_work(request, g, pulls_on(Placement::kDevice));
  plan.cached_vertex_reads = cached_vertex_reads(plan.work, s, profile);
  plan.graph = g;
  plan.streamed_heads = streamed_heads;
  if (zero_copy_cache != nullptr) {
    plan.zero_copy_cache = *zero_copy_cache;
    for (CachedLists& l : plan.zero_copy_cache.lists) l.vertices.clear();
  }
  plan.candidates.push_back(device_candidate(plan.work, s, budget, room, profile));
  // Zero-copy's pulls weigh their link bytes (engines/direction.h), as the
  // engine's do, unless its edge cache holds every list: then its reads are
  // the device placement's, and so is its prediction (the device is chosen).
  const bool zero_copy_over_link = zero_copy_cache == nullptr || zero_copy_cache->cached_fraction() < 1;
  const Work zero_copy_work =
      estimate_work(request, g, pulls_on(Placement::kZeroCopyAligned), zero_copy_over_link,
                    zero_copy_cache != nullptr ? zero_copy_cache->heads : 0,
                    zero_copy_cache != nullptr ? double(zero_copy_cache->lists_cached()) : 0);
  plan.candidates.push_back(zero_copy_candidate(zero_copy_work, s, profile, zero_copy_cache));
  // Its own work where it differs (BFS over the link: the mean of drawn sources).
  if (zero_copy_work.basis != plan.work.basis) plan.candidates.back().basis += "; " + zero_copy_work.basis;
  // A gather's in-lists cross the link packed where they pack (GpuOptions::packed_lists auto).
  const EdgeReads reads = edge_reads(request);
  Shape streamed = s;
  if (reads.out_edges == Need::kNo && footprint.in_edges && !footprint.weights && g.packed_in_bytes > 0)
    streamed.edge_bytes = std::min(s.edge_bytes, double(g.packed_in_bytes));
  // The subgraph placement's pushes gather the out-lists packed where they pack (4-byte ids under 2^27).
  if (reads.out_edges != Need::kNo && g.id_bytes == 4 && g.vertices <= kPackedMaxVertices)
    streamed.pushed_link_entry_bytes = g.packed_out_entry_bytes(footprint.weights);
  for (Placement p : {Placement::kSubgraph, Placement::kStream}) {
    if (samples_by_pushes(request, g)) {
      plan.candidates.push_back(pushed_sample_candidate(p, estimate_work(request, g, true, true, 0), s, budget,
                                                        streamed_heads,
                                                        heads_cache_bytes(g, footprint, streamed_heads), profile));
      continue;
    }
    Work w = estimate_work(request, g, pulls_on(p));
    bool split = false;
    if (p == Placement::kSubgraph) w = with_light_split(with_narrow_buckets(w), g, budget, &split);
    plan.candidates.push_back(streamed_candidate(p, w, streamed, budget, profile));
    if (split) plan.candidates.back().basis += "; buckets split over light lists in GPU memory: each list read once";
    if (streamed.edge_bytes < s.edge_bytes)
      plan.candidates.back().basis += "; the in-lists packed: " + gb(streamed.edge_bytes) + " of " + gb(s.edge_bytes);
  }
  // The candidates come simplest first (device, zero-copy, subgraph,
  // stream: each later one builds or copies more a step); a later one is
  // chosen only where predicted kChoiceMargin faster, since predictions
  // closer than that cannot tell the placements apart.
  const Candidate* best = nullptr;
  for (const Candidate& c : plan.candidates)
    if (c.fits && (best == nullptr || c.compute_s < best->compute_s * (1 - kChoiceMargin))) best = &c;
  plan.choice = best != nullptr ? best->placement : Placement::kZeroCopyAligned;
  const Candidate& dev = plan.candidates.front();
  plan.reason = dev.fits ? "the edges fit the budget" : dev.why_not;
  plan.reason += "; " + std::string(name_of(plan.choice)) + " is predicted fastest";
  return plan;
}

nlohmann::json to_json(const Plan& plan) {
  nlohmann::json cands = nlohmann::json::array();
  for (const Candidate& c : plan.candidates) {
    nlohmann::json j = {{"placement", name_of(c.placement)}, {"fits", c.fits},
                        {"predicted_compute_s", c.compute_s}, {"predicted_setup_s", c.setup_s},
                        {"link_bytes", c.link_bytes},        {"hbm_bytes", c.hbm_bytes},
                        {"basis", c.basis}};
    if (!c.fits) j["why_not"] = c.why_not;
    if (plan.work.per > 1) j["predicted_per_" + std::string(plan.work.per_name) + "_s"] = c.compute_s / plan.work.per;
    cands.push_back(std::move(j));
  }
  const EdgeCachePlan& cache = plan.zero_copy_cache;
  nlohmann::json lists = nlohmann::json::array();
  for (const CachedLists& l : cache.lists) lists.push_back({{"all", l.all}, {"count", l.count}, {"entries", l.entries}});
  nlohmann::json j = {{"choice", name_of(plan.choice)},
                     {"reason", plan.reason},
                     {"algorithm", plan.algorithm},
                     {"edge_bytes", plan.edge_bytes},
                     {"budget_bytes", plan.budget_bytes},
                     {"profile", plan.profile},
                     {"work", {{"entries", plan.work.entries},
                               {"lists", plan.work.lists},
                               {"vertex_reads", plan.work.vertex_reads},
                               {"cache_reads", plan.work.cache_reads},
                               {"forest_links", plan.work.forest_links},
                               {"steps", plan.work.steps},
                               {"cached_vertex_reads", plan.cached_vertex_reads},
                               {"basis", plan.work.basis}}},
                     {"candidates", cands},
                     {"graph", {{"vertices", plan.graph.vertices},
                                {"edges", plan.graph.edges},
                                {"id_bytes", plan.graph.id_bytes},
                                {"directed", plan.graph.directed},
                                {"in_edges", plan.graph.in_edges},
                                {"weighted", plan.graph.weighted},
                                {"vertices_with_edges", plan.graph.vertices_with_edges},
                                {"top_degree_shares", plan.graph.top_degree_shares},
                                {"packed_in_bytes", plan.graph.packed_in_bytes},
                                {"packed_out_bytes", plan.graph.packed_out_bytes},
                                {"byte_weights", plan.graph.byte_weights},
                                {"numbered_by_degree", plan.graph.numbered_by_degree}}},
                     {"streamed_heads", plan.streamed_heads},
                     {"zero_copy_cache", {{"heads", cache.heads},
                                          {"bytes", cache.bytes},
                                          {"cached_entries", cache.cached_entries},
                                          {"total_entries", cache.total_entries},
                                          {"lists", lists}}},
                     {"per_iteration", "subgraph chooses per iteration between its SubCSR and streaming partitions"}};
  if (!plan.profile_note.empty()) j["profile_note"] = plan.profile_note;
  return j;
}

GraphFacts graph_facts_from_json(const nlohmann::json& plan) {
  const nlohmann::json& j = plan.at("graph");
  GraphFacts g;
  g.vertices = j.at("vertices").get<uint64_t>();
  g.edges = j.at("edges").get<uint64_t>();
  g.id_bytes = j.at("id_bytes").get<int>();
  g.directed = j.at("directed").get<bool>();
  g.in_edges = j.at("in_edges").get<bool>();
  g.weighted = j.at("weighted").get<bool>();
  g.vertices_with_edges = j.at("vertices_with_edges").get<uint64_t>();
  g.top_degree_shares = j.at("top_degree_shares").get<std::vector<std::pair<double, double>>>();
  g.packed_in_bytes = j.value("packed_in_bytes", uint64_t{0});  // records before packed lists: unknown
  g.packed_out_bytes = j.value("packed_out_bytes", uint64_t{0});
  g.byte_weights = j.value("byte_weights", false);
  g.numbered_by_degree = j.value("numbered_by_degree", false);  // records before it: GAP's numbering
  return g;
}

int streamed_heads_from_json(const nlohmann::json& plan) { return plan.value("streamed_heads", 0); }

EdgeCachePlan zero_copy_cache_from_json(const nlohmann::json& plan) {
  const nlohmann::json& j = plan.at("zero_copy_cache");
  EdgeCachePlan cache;
  cache.heads = j.at("heads").get<int>();
  cache.bytes = j.at("bytes").get<uint64_t>();
  cache.cached_entries = j.at("cached_entries").get<uint64_t>();
  cache.total_entries = j.at("total_entries").get<uint64_t>();
  for (const nlohmann::json& l : j.at("lists"))
    cache.lists.push_back(CachedLists{.all = l.at("all").get<bool>(), .count = l.at("count").get<uint64_t>(),
                                      .entries = l.at("entries").get<uint64_t>()});
  return cache;
}

std::string describe(const Plan& plan) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "plan       %s: %s (%s)\n", plan.algorithm.c_str(), std::string(name_of(plan.choice)).c_str(),
                plan.reason.c_str());
  out += line;
  std::snprintf(line, sizeof line, "edges      %s placed, budget %s\nwork       %s\nprofile    %s\n", gb(double(plan.edge_bytes)).c_str(),
                gb(double(plan.budget_bytes)).c_str(), plan.work.basis.c_str(), plan.profile.c_str());
  out += line;
  if (!plan.profile_note.empty()) out += "note       " + plan.profile_note + "\n";
  const bool per = plan.work.per > 1;
  std::snprintf(line, sizeof line, "%-18s %12s %14s %10s %10s  %s\n", "placement", "compute ms",
                per ? (std::string("ms/") + plan.work.per_name).c_str() : "", "setup s", "link GB", "basis");
  out += line;
  for (const Candidate& c : plan.candidates) {
    char per_text[32] = "";
    if (per) std::snprintf(per_text, sizeof per_text, "%.1f", c.compute_s * 1e3 / plan.work.per);
    std::snprintf(line, sizeof line, "%-18s %12.1f %14s %10.2f %10.2f  %s%s\n", std::string(name_of(c.placement)).c_str(),
                  c.compute_s * 1e3, per_text, c.setup_s, c.link_bytes / 1e9, c.fits ? "" : ("does not fit: " + c.why_not + "; ").c_str(),
                  c.basis.c_str());
    out += line;
  }
  return out;
}

EdgeCachePlan zero_copy_cache_plan(const AnyGraph& graph, const RunRequest& request, uint64_t budget, uint64_t room,
                                   EdgeCacheMode mode) {
  const uint64_t cache_budget = edge_cache_budget(Placement::kZeroCopyAligned, mode, budget, room);
  if (cache_budget == 0) return {};
  return std::visit(
      [&](const auto& g) {
        const GpuFootprint footprint = gpu_footprint(size_of(g), edge_reads(request), false);
        return plan_edge_cache(edge_cache_request(g, footprint, cache_budget));
      },
      graph);
}

int streamed_heads_cache(const GraphFacts& g, const RunRequest& request, uint64_t budget, uint64_t room,
                         EdgeCacheMode mode) {
  const EdgeReads reads = edge_reads(request);
  return tg::streamed_heads_cache(g, reads, gpu_footprint(g, reads, true), mode, budget, room);
}

// The graph is read again when the engine calls choose_auto, inside the run
// of this graph (the options do not outlive it).
GpuOptions with_planner(const AnyGraph& graph, const RunRequest& request, GpuOptions options,
                        const MachineProfile& profile, const GpuIdentity& gpu, std::shared_ptr<Plan> plan) {
  if (options.placement != Placement::kAuto) return options;
  const GraphFacts facts = facts_of(graph);
  const EdgeCacheMode mode = options.edge_cache;
  const std::string note = profile_note(profile, gpu);
  options.choose_auto = [&graph, facts, request, profile, note, plan, mode](const AutoPlacementContext& context) {
    const EdgeCachePlan cache = zero_copy_cache_plan(graph, request, context.budget_bytes, context.room_bytes, mode);
    *plan = make_plan(facts, request, context.budget_bytes, context.room_bytes, profile, &cache,
                      streamed_heads_cache(facts, request, context.budget_bytes, context.room_bytes, mode));
    plan->profile_note = note;
    return plan->choice;
  };
  return options;
}

}  // namespace tg::planner
