#include "engines/paged/edge_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "core/error.h"
#include "formats/input_file.h"

namespace tg::paged {

PageMemory page_memory(uint64_t bytes) {
  if (bytes == 0) return {nullptr, std::free};
  void* p = std::aligned_alloc(kPageBytes, page_ceil(bytes));
  if (p == nullptr) throw std::bad_alloc();
  return {static_cast<char*>(p), std::free};
}

bool tgb_lacks_in_edges(const std::string& path) {
  uint64_t size = 0;
  formats::ScopedFd fd(formats::open_input_file(path, &size));
  formats::TgbHeader header{};
  if (size < sizeof header) return false;  // the load says what is wrong
  formats::read_exact(fd.fd, path, &header, sizeof header, 0);
  return (header.flags & formats::kTgbDirected) != 0 && (header.flags & formats::kTgbInEdges) == 0;
}

EdgeFile::EdgeFile(const std::string& path, uint64_t n, uint64_t m, uint32_t id_bytes, bool try_direct,
                   uint64_t read_cost_bytes)
    : path_(path), read_cost_bytes_(read_cost_bytes) {
  formats::ScopedFd probe(formats::open_input_file(path, &file_bytes_));  // its one-line errors
  formats::read_exact(probe.fd, path, &header_, sizeof header_, 0);
  if (std::memcmp(header_.magic, formats::kTgbMagic, sizeof header_.magic) != 0 ||
      header_.num_vertices != n || header_.num_edges != m || header_.id_bytes != id_bytes)
    throw input_error(path, "changed since it was loaded (the header no longer matches the graph)");
  fd_ = try_direct ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT) : -1;
  direct_ = fd_ >= 0 && direct_read_works();
  if (!direct_) {
    if (fd_ >= 0) ::close(fd_);
    // EINVAL: the filesystem has no direct I/O (tmpfs).
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw input_error(path, std::string("cannot open (") + std::strerror(errno) + ")");
  }
}

// Some filesystems accept O_DIRECT at open and refuse the reads (EINVAL):
// one aligned page read tells.
bool EdgeFile::direct_read_works() const {
  const PageMemory page = page_memory(kPageBytes);
  return ::pread(fd_, page.get(), kPageBytes, 0) >= 0;
}

EdgeFile::~EdgeFile() {
  if (fd_ >= 0) ::close(fd_);
}

uint64_t EdgeFile::read(void* buffer, uint64_t begin, uint64_t end) const {
  end = std::min(end, page_ceil(file_bytes_));
  char* out = static_cast<char*>(buffer);
  uint64_t at = begin;
  // The last page of the file may be short: the read stops at its end (a
  // further O_DIRECT read there would be at an unaligned offset).
  while (at < end && at < file_bytes_) {
    const ssize_t got = ::pread(fd_, out + (at - begin), end - at, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw input_error(path_, std::string("read error (") + std::strerror(errno) + ")");
    if (got == 0) break;  // the end of the file, inside the last page
    at += static_cast<uint64_t>(got);
  }
  if (at < std::min(end, file_bytes_)) throw input_error(path_, "unexpected end of file (truncated since it was loaded?)");
  // Without O_DIRECT the pages just read stay cached; they are not ours to keep.
  if (!direct_) ::posix_fadvise(fd_, static_cast<off_t>(begin), static_cast<off_t>(at - begin), POSIX_FADV_DONTNEED);
  return at - begin;
}

namespace {

constexpr uint64_t kParallelCheckFrom = uint64_t{1} << 20;

// Branch-free over the ids (one OR a read), so the loop vectorizes. A large
// read's ids by all threads: a buffer the disk's DMA just filled is in no
// cache, and one thread alone reads memory at a fraction of its rate.
//
// A small one's stay outside any parallel construct: a region, even one its
// `if` keeps to this thread, cost a list plan's thousands of small runs two
// million futex calls (kron:22's BFS from disk).
template <typename V>
bool any_not_below(const V* ids, uint64_t count, uint64_t n) {
  V bad = 0;
  if (count < kParallelCheckFrom) {
    for (uint64_t i = 0; i < count; ++i) bad |= static_cast<V>(ids[i] >= n);
    return bad != 0;
  }
#pragma omp parallel for schedule(static) reduction(| : bad)
  for (uint64_t i = 0; i < count; ++i) bad |= static_cast<V>(ids[i] >= n);
  return bad != 0;
}

}  // namespace

void check_ids_read(const EdgeFile& file, const void* ids, uint32_t id_bytes, uint64_t count, uint64_t n) {
  const bool bad = id_bytes == 4 ? any_not_below(static_cast<const uint32_t*>(ids), count, n)
                                 : any_not_below(static_cast<const uint64_t*>(ids), count, n);
  if (bad)
    throw input_error(file.path(), "a neighbour id read from the file names a vertex outside the graph's " +
                                       std::to_string(n) + " (changed since it was loaded?)");
}

}  // namespace tg::paged
