#include "checkpoint/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "core/error.h"
#include "formats/checksum.h"
#include "formats/input_file.h"
#include "formats/beside_file.h"
#include "formats/output_file.h"

namespace tg {
namespace {

constexpr char kMagic[8] = {'T', 'G', 'C', 'K', 'P', 'T', '1', '\0'};

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_string(std::vector<uint8_t>& out, const std::string& s) {
  put_u64(out, s.size());
  out.insert(out.end(), s.begin(), s.end());
}

// Reads the fields back in order, up to `end` (the checksum after it is no
// field); any read past it is a torn file.
class Reader {
 public:
  Reader(const std::vector<uint8_t>& bytes, size_t end, const std::string& path)
      : bytes_(bytes), end_(end), path_(path) {}
  uint64_t u64(const char* field) {
    need(8, field);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{bytes_[at_ + i]} << (8 * i);
    at_ += 8;
    return v;
  }
  std::string string(const char* field) {
    const uint64_t n = u64(field);
    need(n, field);
    std::string s(bytes_.begin() + at_, bytes_.begin() + at_ + n);
    at_ += n;
    return s;
  }
  std::vector<uint8_t> bytes(uint64_t n, const char* field) {
    need(n, field);
    std::vector<uint8_t> v(bytes_.begin() + at_, bytes_.begin() + at_ + n);
    at_ += n;
    return v;
  }
  size_t at() const { return at_; }

 private:
  void need(uint64_t n, const char* field) {
    if (n > end_ - at_) throw input_error(path_, std::string("truncated at ") + field);
  }
  const std::vector<uint8_t>& bytes_;
  size_t end_;
  std::string path_;
  size_t at_ = 0;
};

void fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

CheckpointKey checkpoint_key(const AnyGraph& graph, const std::string& algorithm, const std::string& options,
                             bool weights) {
  return std::visit(
      [&](const auto& g) {
        // Section checksums of the arrays (parallel), then one hash of those.
        const auto& csr = g.out;
        uint64_t parts[3] = {formats::section_checksum(csr.offsets.data(), csr.offsets.size() * sizeof(eid_t)),
                             formats::section_checksum(csr.neighbors.data(), csr.neighbors.size() * sizeof(*csr.neighbors.data())),
                             weights ? formats::section_checksum(csr.weights.data(), csr.weights.size() * sizeof(weight_t)) : 0};
        return CheckpointKey{algorithm, options, g.num_vertices, g.num_edges(), formats::xxh64(parts, sizeof parts)};
      },
      graph);
}

Checkpointer::Checkpointer(std::string dir, int every, bool resume, CheckpointKey key)
    : dir_(std::move(dir)), every_(every), resume_(resume), key_(std::move(key)) {
  if (every_ <= 0) throw usage_error("--checkpoint-every " + std::to_string(every_) + ": give 1 or more iterations");
  std::error_code e;
  std::filesystem::create_directories(dir_, e);
  if (e || !std::filesystem::is_directory(dir_))
    throw Error("checkpoint folder " + dir_ + " cannot be made: " + (e ? e.message() : "not a folder"));
  path_ = (std::filesystem::path(dir_) / "checkpoint.tgc").string();
}

void Checkpointer::lock_folder() {
  const int fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // the first save names the problem
  const formats::LockResult lock = formats::try_lock_exclusive(fd).result;
  if (lock != formats::LockResult::kHeld) {
    ::close(fd);
    if (lock == formats::LockResult::kBusy)
      throw Error("checkpoint folder " + dir_ + " is in use by another run (it is locked)");
    return;  // no locks here: unguarded
  }
  folder_lock_ = std::shared_ptr<void>(new int(fd), [](void* p) {
    ::close(*static_cast<int*>(p));
    delete static_cast<int*>(p);
  });
}

void Checkpointer::save(int iteration, const std::vector<double>& scalars, std::span<const uint8_t> state) const {
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  put_string(out, key_.algorithm);
  put_string(out, key_.options);
  put_u64(out, key_.num_vertices);
  put_u64(out, key_.num_edges);
  put_u64(out, key_.graph_hash);
  put_u64(out, static_cast<uint64_t>(iteration));
  put_u64(out, scalars.size());
  for (double s : scalars) {
    uint64_t bits = 0;
    std::memcpy(&bits, &s, 8);
    put_u64(out, bits);
  }
  put_u64(out, state.size());
  out.insert(out.end(), state.begin(), state.end());
  put_u64(out, formats::xxh64(out.data(), out.size()));
  if (formats::is_special_file(path_)) throw Error("checkpoint " + path_ + ": not a regular file");
  // Beside the last one, synced and renamed over it; a second run writing the
  // same folder at once is refused (beside_file.h).
  formats::OutputFile file(path_, out.size(), /*progress=*/false);
  file.put(out.data(), out.size(), 0);
  file.commit(out.size());
  fsync_path(dir_, O_RDONLY | O_DIRECTORY);
}

std::optional<SavedState> Checkpointer::load(uint64_t state_bytes) const {
  if (!resume_) return std::nullopt;
  std::error_code e;
  if (!std::filesystem::exists(path_, e)) return std::nullopt;  // killed before its first checkpoint: start over
  formats::check_input_file(path_, "a checkpoint file");
  std::ifstream f(path_, std::ios::binary);
  if (!f) throw input_error(path_, std::string("cannot open (") + std::strerror(errno) + ")");
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() < 16 || std::memcmp(bytes.data(), kMagic, 8) != 0)
    throw input_error(path_, "not a tiergraph checkpoint");
  uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= uint64_t{bytes[bytes.size() - 8 + i]} << (8 * i);
  if (formats::xxh64(bytes.data(), bytes.size() - 8) != stored)
    throw input_error(path_, "checksum mismatch: the checkpoint is corrupt");
  Reader r(bytes, bytes.size() - 8, path_);
  r.bytes(8, "magic");
  const std::string algorithm = r.string("algorithm"), options = r.string("options");
  const uint64_t n = r.u64("vertices"), m = r.u64("edges"), hash = r.u64("graph hash");
  if (algorithm != key_.algorithm)
    throw input_error(path_, "a checkpoint of " + algorithm + ", not of " + key_.algorithm);
  if (n != key_.num_vertices || m != key_.num_edges || hash != key_.graph_hash)
    throw input_error(path_, "a checkpoint of another graph (" + std::to_string(n) + " vertices, " +
                                 std::to_string(m) + " edges; this one has " + std::to_string(key_.num_vertices) +
                                 " and " + std::to_string(key_.num_edges) + (n == key_.num_vertices && m == key_.num_edges ? ", other edges)" : ")"));
  if (options != key_.options)
    throw input_error(path_, "a checkpoint with other options (" + options + "; this run: " + key_.options + ")");
  SavedState s;
  const uint64_t iteration = r.u64("iteration");
  if (iteration == 0 || iteration > static_cast<uint64_t>(std::numeric_limits<int>::max()))  // saves are at 1 or more
    throw input_error(path_, "iteration " + std::to_string(iteration) + " is not plausible");
  s.iteration = static_cast<int>(iteration);
  const uint64_t count = r.u64("scalar count");
  if (count > 64) throw input_error(path_, "scalar count " + std::to_string(count) + " is not plausible");
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t bits = r.u64("scalar");
    double v = 0;
    std::memcpy(&v, &bits, 8);
    s.scalars.push_back(v);
  }
  const uint64_t size = r.u64("state bytes");
  if (state_bytes != kAnySize && size != state_bytes)
    throw input_error(path_, "state of " + std::to_string(size) + " bytes where this run keeps " +
                                 std::to_string(state_bytes));
  s.state = r.bytes(size, "state");
  if (r.at() != bytes.size() - 8) throw input_error(path_, "bytes after the state");
  return s;
}

}  // namespace tg
