// Writes the generated part of the fuzz seed corpus: .tgb and GAP files of
// small graphs, gzip/zstd/xz copies of the committed text seeds, the
// built-in machine profile, and a checkpoint of fuzz_checkpoint's key.
//   make_seeds OUT_DIR COMMITTED_CORPUS_DIR
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "formats/readers.h"
#include "fuzz_checkpoint_key.h"
#include "planner/machine_profile.h"

namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string gz(const std::string& text) {
  uLongf n = compressBound(text.size()) + 64;
  std::string out(n, '\0');
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string zst(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 19));
  return out;
}

std::string xz(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  size_t pos = 0;
  lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, nullptr, reinterpret_cast<const uint8_t*>(text.data()), text.size(),
                          reinterpret_cast<uint8_t*>(out.data()), &pos, out.size());
  out.resize(pos);
  return out;
}

template <typename V>
tg::Csr<V> csr(const std::vector<uint64_t>& offsets, const std::vector<V>& neighbors, const std::vector<float>& weights) {
  tg::Csr<V> c;
  c.offsets = tg::Array<tg::eid_t>::from(offsets);
  c.neighbors = tg::Array<V>::from(neighbors);
  if (!weights.empty()) c.weights = tg::Array<tg::weight_t>::from(weights);
  return c;
}

template <typename T>
void append(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// GAP's serialized layout (see src/formats/gap_reader.cc).
template <typename V>
std::string gap(const tg::Graph<V>& g) {
  std::string out;
  append<bool>(out, g.directed);
  append<int64_t>(out, static_cast<int64_t>(g.num_edges()));
  append<int64_t>(out, static_cast<int64_t>(g.num_vertices));
  auto put = [&](const tg::Csr<V>& c) {
    for (size_t i = 0; i < c.offsets.size(); ++i) append<int64_t>(out, static_cast<int64_t>(c.offsets[i]));
    for (size_t i = 0; i < c.neighbors.size(); ++i) {
      append<int32_t>(out, static_cast<int32_t>(c.neighbors[i]));
      if (g.weighted()) append<int32_t>(out, static_cast<int32_t>(c.weights[i]));
    }
  };
  put(g.out);
  if (g.directed) put(g.in);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_seeds OUT_DIR COMMITTED_CORPUS_DIR\n");
    return 2;
  }
  fs::path out = argv[1], committed = argv[2];

  fs::create_directories(out / "binary");
  // 0->1, 0->2, 1->2, 2->0, 3->3 and its transpose.
  tg::Graph<tg::vid32_t> d;
  d.num_vertices = 4;
  d.name = "seed";
  d.out = csr<tg::vid32_t>({0, 2, 3, 4, 5}, {1, 2, 2, 0, 3}, {1.5f, 2, 3, 4, 5});
  d.in = csr<tg::vid32_t>({0, 1, 2, 4, 5}, {2, 0, 0, 1, 3}, {4, 1.5f, 2, 3, 5});
  tg::write_binary_graph(d, (out / "binary" / "directed_weighted_csc.tgb").string());

  tg::Graph<tg::vid32_t> inf = d;  // inf weights are valid; NaN is one bit flip away
  inf.out.weights = tg::Array<tg::weight_t>::from(std::vector<float>{INFINITY, 2, -INFINITY, 4, 5});
  tg::write_binary_graph(inf, (out / "binary" / "inf_weights.tgb").string());

  tg::Graph<tg::vid64_t> u;  // undirected path 0-1-2, 64-bit ids
  u.num_vertices = 3;
  u.directed = false;
  u.id_base = 1;
  u.out = csr<tg::vid64_t>({0, 1, 3, 4}, {1, 0, 2, 1}, {});
  tg::write_binary_graph(u, (out / "binary" / "undirected64.tgb").string());

  tg::Graph<tg::vid32_t> empty;
  tg::write_binary_graph(empty, (out / "binary" / "empty.tgb").string());

  tg::Graph<tg::vid32_t> plain = d;
  plain.out.weights = {};
  plain.in.weights = {};
  write(out / "gap" / "directed.sg", gap(plain));
  write(out / "gap" / "directed.wsg", gap(d));
  tg::Graph<tg::vid32_t> u32;
  u32.num_vertices = 3;
  u32.directed = false;
  u32.out = csr<tg::vid32_t>({0, 1, 3, 4}, {1, 0, 2, 1}, {7, 7, 9, 9});
  write(out / "gap" / "undirected.wsg", gap(u32));
  u32.out.weights = {};
  write(out / "gap" / "undirected.sg", gap(u32));

  tg::planner::write_profile(tg::planner::builtin_profile(), (out / "profile" / "builtin.json").string());

  const tg::Checkpointer saving((out / "checkpoint").string(), 1, false, tg::fuzz::checkpoint_seed_key());
  saving.save(4, {0.25, 1e-5}, std::vector<uint8_t>(tg::fuzz::kCheckpointSeedStateBytes, 0x3f));

  for (const char* target : {"edge_list", "weighted_edge_list", "matrix_market", "dimacs"}) {
    if (!fs::exists(committed / target)) continue;
    for (const auto& entry : fs::directory_iterator(committed / target)) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::string name = entry.path().filename().string();
      write(out / target / (name + ".gz"), gz(text));
      write(out / target / (name + ".zst"), zst(text));
      write(out / target / (name + ".xz"), xz(text));
    }
  }
  return 0;
}
