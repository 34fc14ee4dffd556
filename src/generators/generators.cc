// Kronecker (R-MAT) and uniform random edge lists, generated in parallel.
//
// Determinism: the edges are cut into fixed blocks of kBlock edges and block b
// draws from its own stream seeded by (seed, b), so the output depends on the
// seed only, never on the thread count or schedule (GAP reseeds per block the
// same way).
//
// Kronecker follows Graph500: each edge descends `scale` levels of the
// adjacency matrix, picking a quadrant with probabilities A, B, C, D =
// .57, .19, .19, .05; then the ids are permuted so that the hubs (low ids
// before permuting) are not clustered at the start of the id range.

#include "generators/generators.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <new>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/hash.h"
#include "graph/huge_pages.h"

namespace tg {

namespace {

constexpr uint64_t kBlock = uint64_t{1} << 16;
constexpr int kMaxScale = 40;
constexpr int kMaxEdgeFactor = 1 << 20;

// splitmix64: one add and one mix per 64 random bits, plenty for sampling
// quadrants; seeded per block so blocks are independent streams.
class Stream {
 public:
  Stream(uint64_t seed, uint64_t block) : state_(mix64(mix64(seed) ^ (block * 0xd1b54a32d192ed03ULL + 1))) {}
  uint64_t next() { return mix64(state_ += 0x9e3779b97f4a7c15ULL); }

 private:
  uint64_t state_;
};

// Quadrant thresholds as fractions of 2^16, compared with 16 random bits, so
// one 64-bit draw serves four levels. Rounding moves each probability by less
// than 2^-16 (A = .57001, A+B = .76000, A+B+C = .95000).
constexpr uint32_t kA = 37356;    // round(.57 * 2^16)
constexpr uint32_t kAB = 49807;   // round(.76 * 2^16)
constexpr uint32_t kABC = 62259;  // round(.95 * 2^16)
constexpr int kLevelsPerDraw = 4;

// The quadrant 0..3 (A, B, C, D) of every 16-bit draw, looked up: C and D
// set the source bit, B and D the destination bit. Three comparisons a level
// made the descent 100-110 ns an edge at scale 28; the table (64 KB, in every
// core's L2) 56-62 ns, with the same edges (2026-11-27, development VM).
constexpr std::array<uint8_t, 65536> quadrants() {
  std::array<uint8_t, 65536> q{};
  for (uint32_t r = 0; r < 65536; ++r) q[r] = static_cast<uint8_t>((r >= kA) + (r >= kAB) + (r >= kABC));
  return q;
}
constexpr std::array<uint8_t, 65536> kQuadrant = quadrants();

// Rounds of multiply-by-odd (carries low bits upward) and xor-shift-right
// (carries high bits downward), each a bijection modulo 2^scale, with
// seed-derived constants. A bijection keeps the degree sequence exactly; being
// a formula, it needs no 2^scale-entry table and no serial shuffle, so ids
// are permuted in parallel inside the generation loop.
class IdPermutation {
 public:
  IdPermutation(int scale, uint64_t seed)
      : mask_((uint64_t{1} << scale) - 1), shift_(std::max(1, (scale + 1) / 2)) {
    uint64_t key = mix64(seed ^ 0x5851f42d4c957f2dULL);
    for (int round = 0; round < kRounds; ++round) {
      key = mix64(key + 0x9e3779b97f4a7c15ULL);
      multiplier_[round] = key | 1;
      offset_[round] = key >> 17;
    }
  }
  uint64_t operator()(uint64_t id) const {
    uint64_t x = id & mask_;
    for (int round = 0; round < kRounds; ++round) {
      x = (x * multiplier_[round]) & mask_;
      x ^= x >> shift_;
      x = (x + offset_[round]) & mask_;
    }
    return x;
  }

 private:
  static constexpr int kRounds = 4;
  uint64_t mask_;
  int shift_;
  uint64_t multiplier_[kRounds];
  uint64_t offset_[kRounds];
};

// One generated edge from a block's stream: Kronecker descends `scale`
// levels, one 16-bit draw a level; uniform takes the top bits of two draws.
class EdgeMaker {
 public:
  explicit EdgeMaker(const GeneratorSpec& spec)
      : kind_(spec.kind), scale_(spec.scale), permute_(spec.scale, spec.seed) {}

  void operator()(Stream& rng, uint64_t& u, uint64_t& v) const {
    if (kind_ == GeneratorSpec::Kind::kUniform) {
      const int shift = 64 - scale_;  // the top bits of a uniform 64-bit value: uniform over 2^scale ids
      u = rng.next() >> shift;
      v = rng.next() >> shift;
      return;
    }
    uint64_t s = 0, d = 0;
    for (int level = 0; level < scale_; level += kLevelsPerDraw) {  // a draw serves 4 levels
      uint64_t bits = rng.next();
      const int levels = std::min(kLevelsPerDraw, scale_ - level);
      for (int j = 0; j < levels; ++j, bits >>= 16) {
        const uint32_t quadrant = kQuadrant[bits & 0xffff];
        s = (s << 1) | (quadrant >> 1);
        d = (d << 1) | (quadrant & 1);
      }
    }
    u = permute_(s);
    v = permute_(d);
  }

 private:
  GeneratorSpec::Kind kind_;
  int scale_;
  IdPermutation permute_;
};

void check_spec(const GeneratorSpec& spec) {
  if (spec.scale < 1 || spec.scale > kMaxScale || spec.edge_factor < 1 || spec.edge_factor > kMaxEdgeFactor)
    throw usage_error(spec.text + ": scale must be from 1 to " + std::to_string(kMaxScale) + " and edge factor from 1 to " +
                      std::to_string(kMaxEdgeFactor));
}

std::string name_of(const GeneratorSpec& spec) {
  if (!spec.text.empty()) return spec.text;
  return (spec.kind == GeneratorSpec::Kind::kKronecker ? "kron:" : "urand:") + std::to_string(spec.scale);
}

bool parse_uint(std::string_view s, uint64_t& x) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

uint64_t kron_permute(uint64_t id, int scale, uint64_t seed) { return IdPermutation(scale, seed)(id); }

bool is_generator_spec(const std::string& text) {
  return text.rfind("kron:", 0) == 0 || text.rfind("urand:", 0) == 0;
}

GeneratorSpec parse_generator_spec(const std::string& text, int edge_factor, uint64_t seed) {
  GeneratorSpec spec;
  spec.text = text;
  spec.edge_factor = edge_factor;
  spec.seed = seed;
  std::vector<std::string_view> fields;
  std::string_view rest = text;
  for (size_t colon; (colon = rest.find(':')) != std::string_view::npos; rest.remove_prefix(colon + 1))
    fields.push_back(rest.substr(0, colon));
  fields.push_back(rest);

  auto fail = [&](const std::string& why) { return usage_error(text + ": " + why); };
  if (fields[0] == "kron") {
    spec.kind = GeneratorSpec::Kind::kKronecker;
  } else if (fields[0] == "urand") {
    spec.kind = GeneratorSpec::Kind::kUniform;
  } else {
    throw fail("unknown generator '" + std::string(fields[0]) + "' (expected kron:SCALE or urand:SCALE)");
  }
  uint64_t scale = 0;
  if (fields.size() < 2 || !parse_uint(fields[1], scale) || scale < 1 || scale > kMaxScale)
    throw fail("scale must be an integer from 1 to " + std::to_string(kMaxScale));
  spec.scale = static_cast<int>(scale);
  for (size_t i = 2; i < fields.size(); ++i) {
    std::string_view f = fields[i];
    size_t eq = f.find('=');
    std::string_view key = f.substr(0, eq);
    for (size_t j = 2; j < i; ++j)  // ef=4:ef=8 took the last; which was meant is not ours to guess
      if (fields[j].substr(0, fields[j].find('=')) == key) throw fail("'" + std::string(key) + "' is given twice");
    std::string_view value = eq == std::string_view::npos ? std::string_view() : f.substr(eq + 1);
    uint64_t x = 0;
    if (key == "ef") {
      if (!parse_uint(value, x) || x < 1 || x > kMaxEdgeFactor)
        throw fail("ef (edge factor) must be an integer from 1 to " + std::to_string(kMaxEdgeFactor));
      spec.edge_factor = static_cast<int>(x);
    } else if (key == "seed") {
      if (!parse_uint(value, x)) throw fail("seed must be a non-negative 64-bit integer");
      spec.seed = x;
    } else {
      throw fail("unknown option '" + std::string(f) + "' (expected ef=N or seed=N)");
    }
  }
  if (spec.edge_factor < 1 || spec.edge_factor > kMaxEdgeFactor)
    throw fail("edge factor must be an integer from 1 to " + std::to_string(kMaxEdgeFactor));
  return spec;
}

EdgeBlocks generated_edges(const GeneratorSpec& spec) {
  check_spec(spec);
  EdgeBlocks blocks;
  blocks.num_vertices = uint64_t{1} << spec.scale;
  blocks.num_edges = static_cast<uint64_t>(spec.edge_factor) << spec.scale;
  blocks.block_size = kBlock;
  blocks.num_blocks = (blocks.num_edges + kBlock - 1) / kBlock;
  blocks.directed = false;
  blocks.name = name_of(spec);
  const uint64_t m = blocks.num_edges, seed = spec.seed;
  blocks.fill = [m, seed, make = EdgeMaker(spec)](uint64_t b, uint64_t* src, uint64_t* dst) {
    Stream rng(seed, b);
    const uint64_t first = b * kBlock, count = std::min(m, first + kBlock) - first;
    for (uint64_t i = 0; i < count; ++i) make(rng, src[i], dst[i]);
    return count;
  };
  return blocks;
}

EdgeList generate(const GeneratorSpec& spec) {
  const EdgeBlocks blocks = generated_edges(spec);
  try {
    EdgeList el;
    el.num_vertices = blocks.num_vertices;
    el.directed = false;
    el.name = blocks.name;
    resize_huge(el.src, blocks.num_edges);
    resize_huge(el.dst, blocks.num_edges);
#pragma omp parallel for schedule(static)
    for (uint64_t b = 0; b < blocks.num_blocks; ++b)
      blocks.fill(b, el.src.data() + b * blocks.block_size, el.dst.data() + b * blocks.block_size);
    return el;
  } catch (const std::bad_alloc&) {
    throw Error(spec.text + ": out of memory generating " + std::to_string(blocks.num_edges) + " edges");
  }
}

}  // namespace tg
