// Opening input files with tiergraph's one-line errors, and reading them as a
// stream of bytes that is decompressed on the fly (gzip, zstd, xz), so that a
// compressed graph never has to fit in memory decompressed.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tg::formats {

// The last path component, used as a graph's name and in error messages.
std::string base_name(const std::string& path);

// Opens PATH read-only and returns the descriptor and the file size. Errors:
// "PATH: no such file", "PATH: is a directory, expected WHAT", "PATH:
// permission denied", "PATH: not a regular file", "PATH: cannot open (REASON)".
int open_input_file(const std::string& path, uint64_t* size, const char* what = "a graph file");
// The same checks where the caller reads PATH by itself (a results file, a
// profile, a checkpoint): a directory, or a device or FIFO that never ends
// (/dev/zero), is refused before anything is read.
void check_input_file(const std::string& path, const char* what);

// Closes a descriptor from open_input_file when the reader leaves, by any path.
struct ScopedFd {
  int fd;
  explicit ScopedFd(int descriptor) : fd(descriptor) {}
  ScopedFd(const ScopedFd&) = delete;
  ScopedFd& operator=(const ScopedFd&) = delete;
  ~ScopedFd() { ::close(fd); }
};

// Reads exactly `bytes` at `offset` or throws "PATH: read error (...)" /
// "PATH: unexpected end of file".
void read_exact(int fd, const std::string& path, void* buffer, size_t bytes, uint64_t offset);
// The same without throwing (for parallel loops): 0, an errno, or
// kEarlyEnd for an end of file before `bytes`.
constexpr int kEarlyEnd = -1;
int read_all(int fd, void* buffer, uint64_t bytes, uint64_t offset);
// read_exact's message for what read_all returned (not 0).
std::string read_failure(int code);

enum class Compression { kNone, kGzip, kZstd, kXz };
const char* compression_name(Compression c);

// A file read front to back, decompressed when its first bytes are the magic
// number of gzip, zstd or xz (whatever its extension says). A truncated or
// corrupt compressed stream is reported as "PATH: truncated gzip stream" or
// "PATH: corrupt zstd data (...)".
class ByteStream {
 public:
  static std::unique_ptr<ByteStream> open(const std::string& path);
  virtual ~ByteStream();

  // Fills buffer with up to `bytes` bytes; returns fewer only at the end.
  virtual size_t read(char* buffer, size_t bytes) = 0;

  const std::string& path() const { return path_; }
  Compression compression() const { return compression_; }
  uint64_t file_bytes() const { return file_bytes_; }
  // Bytes of the file read so far (for compressed input, read ahead of the
  // decoder by up to one input buffer).
  uint64_t file_bytes_read() const { return file_bytes_read_; }
  // Bytes of the file behind the data returned so far: what the decoder has
  // consumed. Decompressed bytes per input_position() estimate the total.
  virtual uint64_t input_position() const { return file_bytes_read_; }

 protected:
  ByteStream(std::string path, int fd, uint64_t file_bytes, Compression c);
  // Reads raw file bytes; returns 0 at end of file.
  size_t read_raw(char* buffer, size_t bytes);

  std::string path_;
  int fd_ = -1;
  uint64_t file_bytes_ = 0;
  uint64_t file_bytes_read_ = 0;
  Compression compression_ = Compression::kNone;
};

}  // namespace tg::formats
