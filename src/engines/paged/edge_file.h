// The edge arrays of a .tgb file (formats/binary_format.h), read in place:
// the paged CPU engine (paged_engine.h) keeps the offsets in memory, and
// reads the neighbours and weights it needs, page by page, from here (into
// its page buffers, or once into its resident edges).
//
// The file is opened with O_DIRECT, so reads go from the disk to our buffer
// without a copy in the page cache (which would otherwise fill host memory
// with the very edges --host-mem keeps out of it). A filesystem that refuses
// O_DIRECT (tmpfs, some overlay mounts) gets ordinary reads, each followed by
// posix_fadvise(DONTNEED) on the range read; direct() says which.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "formats/binary_format.h"

namespace tg::paged {

// O_DIRECT's unit: file offsets, lengths and buffer addresses are multiples.
inline constexpr uint64_t kPageBytes = 4096;

// A read's own cost (a request to the disk, a system call), in bytes of
// transfer: a read of 4 KiB from the development VM's disk with O_DIRECT
// takes about 90 us, in which a long read moves 80-180 KB. Runs of pages
// closer than this are read in one read, the gap with them. (A BFS's pulls
// over only the unreached vertices' lists, kron:22 from disk, made 28,042
// reads of 0.64 GB and waited longer than the whole passes' 853 reads of
// 1.37 GB; across gaps under 128 KiB, 1,761 reads of 1.01 GB.)
inline constexpr uint64_t kReadCostBytes = uint64_t{128} << 10;

inline uint64_t page_floor(uint64_t x) { return x / kPageBytes * kPageBytes; }
inline uint64_t page_ceil(uint64_t x) { return (x + kPageBytes - 1) / kPageBytes * kPageBytes; }

// Memory that O_DIRECT reads can fill: `bytes` rounded up to whole pages,
// page-aligned (null for 0). Its pages are taken from the system as they are
// first written.
using PageMemory = std::unique_ptr<char, void (*)(void*)>;
PageMemory page_memory(uint64_t bytes);

// Whether the .tgb file at `path` is a directed graph stored without its
// in-edges (read from its header; the file is checked when it is loaded).
bool tgb_lacks_in_edges(const std::string& path);

class EdgeFile;

// Throws tg::Error (input, naming the file) where one of the `count`
// `id_bytes`-wide ids at `ids`, read from `file`, is not below n: a file
// changed since it was loaded must not become a write out of bounds (the
// paged CPU engine's buffers, the stream placement's copies to the GPU).
// Large reads are scanned by all of the calling thread's OpenMP threads.
void check_ids_read(const EdgeFile& file, const void* ids, uint32_t id_bytes, uint64_t count, uint64_t n);

class EdgeFile {
 public:
  // Opens `path` and checks that its header describes a graph of n vertices,
  // m edges and `id_bytes`-wide ids (the graph loaded from the same file).
  // try_direct false: ordinary reads even where O_DIRECT works (tests).
  // read_cost_bytes: what one read costs beside its bytes, in bytes
  // (kReadCostBytes; tests set 0 to read only what a step needs).
  EdgeFile(const std::string& path, uint64_t n, uint64_t m, uint32_t id_bytes, bool try_direct = true,
           uint64_t read_cost_bytes = kReadCostBytes);
  ~EdgeFile();
  EdgeFile(const EdgeFile&) = delete;
  EdgeFile& operator=(const EdgeFile&) = delete;

  const std::string& path() const { return path_; }
  bool direct() const { return direct_; }
  uint64_t read_cost_bytes() const { return read_cost_bytes_; }
  bool has_section(int section) const { return header_.sections[section].bytes > 0; }
  // Where a section starts in the file (a multiple of kPageBytes).
  uint64_t section_offset(int section) const { return header_.sections[section].offset; }

  // Reads the file's bytes [begin, end) into `buffer`; begin, end and buffer
  // are page-aligned, end may pass the end of the file (the rest is left as
  // it was). Returns the bytes that came from the file. Throws tg::Error.
  uint64_t read(void* buffer, uint64_t begin, uint64_t end) const;

 private:
  bool direct_read_works() const;

  std::string path_;
  int fd_ = -1;
  bool direct_ = false;
  uint64_t read_cost_bytes_ = 0;
  uint64_t file_bytes_ = 0;
  formats::TgbHeader header_{};
};

}  // namespace tg::paged
