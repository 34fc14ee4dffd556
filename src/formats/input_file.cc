#include "formats/input_file.h"

#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "core/error.h"

namespace tg::formats {

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

int open_input_file(const std::string& path, uint64_t* size, const char* what) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw input_error(path, "no such file");
    if (errno == EACCES) throw input_error(path, "permission denied");
    throw input_error(path, std::string("cannot open (") + std::strerror(errno) + ")");
  }
  if (S_ISDIR(st.st_mode)) throw input_error(path, std::string("is a directory, expected ") + what);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == EACCES) throw input_error(path, "permission denied");
    throw input_error(path, std::string("cannot open (") + std::strerror(errno) + ")");
  }
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw input_error(path, "not a regular file");
  }
  *size = static_cast<uint64_t>(st.st_size);
  return fd;
}

void check_input_file(const std::string& path, const char* what) {
  uint64_t size = 0;
  ::close(open_input_file(path, &size, what));
}

int read_all(int fd, void* buffer, uint64_t bytes, uint64_t offset) {
  char* out = static_cast<char*>(buffer);
  while (bytes > 0) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(bytes, uint64_t{1} << 30));
    const ssize_t got = ::pread(fd, out, want, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno;
    if (got == 0) return kEarlyEnd;
    out += got;
    bytes -= static_cast<uint64_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return 0;
}

std::string read_failure(int code) {
  return code == kEarlyEnd ? "unexpected end of file" : std::string("read error (") + std::strerror(code) + ")";
}

void read_exact(int fd, const std::string& path, void* buffer, size_t bytes, uint64_t offset) {
  if (const int code = read_all(fd, buffer, bytes, offset); code != 0) throw input_error(path, read_failure(code));
}

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::kNone: return "plain";
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
    case Compression::kXz: return "xz";
  }
  return "?";
}

ByteStream::ByteStream(std::string path, int fd, uint64_t file_bytes, Compression c)
    : path_(std::move(path)), fd_(fd), file_bytes_(file_bytes), compression_(c) {}

ByteStream::~ByteStream() {
  if (fd_ >= 0) ::close(fd_);
}

size_t ByteStream::read_raw(char* buffer, size_t bytes) {
  size_t done = 0;
  while (done < bytes) {
    ssize_t got = ::read(fd_, buffer + done, bytes - done);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw input_error(path_, std::string("read error (") + std::strerror(errno) + ")");
    }
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  file_bytes_read_ += done;
  return done;
}

namespace {

constexpr size_t kCompressedBufferBytes = size_t{4} << 20;

class PlainStream final : public ByteStream {
 public:
  PlainStream(std::string path, int fd, uint64_t file_bytes)
      : ByteStream(std::move(path), fd, file_bytes, Compression::kNone) {}
  size_t read(char* buffer, size_t bytes) override { return read_raw(buffer, bytes); }
};

// Compressed input goes through a fixed buffer; subclasses decode from it.
class CompressedStream : public ByteStream {
 public:
  CompressedStream(std::string path, int fd, uint64_t file_bytes, Compression c)
      : ByteStream(std::move(path), fd, file_bytes, c),
        in_(static_cast<size_t>(std::min<uint64_t>(kCompressedBufferBytes, file_bytes + 1))) {}
  uint64_t input_position() const override { return file_bytes_read_ - (in_len_ - in_pos_); }

 protected:
  // Refills the input buffer when it is used up; false at end of file.
  bool refill() {
    if (in_pos_ < in_len_) return true;
    if (eof_) return false;
    in_len_ = read_raw(in_.data(), in_.size());
    in_pos_ = 0;
    if (in_len_ == 0) eof_ = true;
    return in_len_ > 0;
  }
  [[noreturn]] void truncated() const {
    throw input_error(path_, std::string("truncated ") + compression_name(compression_) +
                                 " stream (the compressed file ends too early)");
  }
  [[noreturn]] void corrupt(const std::string& detail) const {
    throw input_error(path_, std::string("corrupt ") + compression_name(compression_) + " data (" + detail + ")");
  }

  std::vector<char> in_;
  size_t in_pos_ = 0, in_len_ = 0;
  bool eof_ = false;
};

class GzipStream final : public CompressedStream {
 public:
  GzipStream(std::string path, int fd, uint64_t file_bytes)
      : CompressedStream(std::move(path), fd, file_bytes, Compression::kGzip) {
    std::memset(&z_, 0, sizeof(z_));
    if (inflateInit2(&z_, 15 + 32) != Z_OK) throw input_error(path_, "cannot start the gzip decoder");
  }
  ~GzipStream() override { inflateEnd(&z_); }

  size_t read(char* buffer, size_t bytes) override {
    size_t produced = 0;
    while (produced < bytes) {
      if (!refill()) {
        if (!member_done_) truncated();
        break;
      }
      if (member_done_) {
        // Another gzip member follows (concatenated .gz files are valid).
        inflateReset(&z_);
        member_done_ = false;
      }
      z_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
      z_.avail_in = static_cast<uInt>(in_len_ - in_pos_);
      z_.next_out = reinterpret_cast<Bytef*>(buffer + produced);
      z_.avail_out = static_cast<uInt>(std::min<size_t>(bytes - produced, size_t{1} << 30));
      uInt out_before = z_.avail_out;
      int rc = inflate(&z_, Z_NO_FLUSH);
      in_pos_ = in_len_ - z_.avail_in;
      produced += out_before - z_.avail_out;
      if (rc == Z_STREAM_END) {
        member_done_ = true;
      } else if (rc == Z_BUF_ERROR) {
        // No progress possible: needs more input, handled by refill above.
        if (in_pos_ < in_len_) corrupt("no progress");
      } else if (rc != Z_OK) {
        corrupt(z_.msg != nullptr ? z_.msg : "zlib error " + std::to_string(rc));
      }
    }
    return produced;
  }

 private:
  z_stream z_;
  bool member_done_ = false;
};

class ZstdStream final : public CompressedStream {
 public:
  ZstdStream(std::string path, int fd, uint64_t file_bytes)
      : CompressedStream(std::move(path), fd, file_bytes, Compression::kZstd), d_(ZSTD_createDCtx()) {
    if (d_ == nullptr) throw input_error(path_, "cannot start the zstd decoder");
  }
  ~ZstdStream() override { ZSTD_freeDCtx(d_); }

  size_t read(char* buffer, size_t bytes) override {
    size_t produced = 0;
    while (produced < bytes) {
      bool have_input = refill();
      ZSTD_inBuffer in{in_.data() + in_pos_, in_len_ - in_pos_, 0};
      ZSTD_outBuffer out{buffer + produced, bytes - produced, 0};
      size_t rc = ZSTD_decompressStream(d_, &out, &in);
      if (ZSTD_isError(rc)) corrupt(ZSTD_getErrorName(rc));
      in_pos_ += in.pos;
      produced += out.pos;
      // A call that made no progress says nothing about the frame (at the
      // end it returns the size hint of a next frame, not 0).
      if (in.pos > 0 || out.pos > 0) frame_done_ = rc == 0;
      if (!have_input && out.pos == 0) {
        if (!frame_done_) truncated();
        break;
      }
    }
    return produced;
  }

 private:
  ZSTD_DCtx* d_;
  bool frame_done_ = true;
};

class XzStream final : public CompressedStream {
 public:
  XzStream(std::string path, int fd, uint64_t file_bytes)
      : CompressedStream(std::move(path), fd, file_bytes, Compression::kXz) {
    if (lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw input_error(path_, "cannot start the xz decoder");
  }
  ~XzStream() override { lzma_end(&s_); }

  size_t read(char* buffer, size_t bytes) override {
    size_t produced = 0;
    while (produced < bytes && !done_) {
      bool have_input = refill();
      s_.next_in = reinterpret_cast<const uint8_t*>(in_.data() + in_pos_);
      s_.avail_in = in_len_ - in_pos_;
      s_.next_out = reinterpret_cast<uint8_t*>(buffer + produced);
      s_.avail_out = bytes - produced;
      size_t out_before = s_.avail_out;
      lzma_ret rc = lzma_code(&s_, have_input ? LZMA_RUN : LZMA_FINISH);
      in_pos_ = in_len_ - s_.avail_in;
      produced += out_before - s_.avail_out;
      if (rc == LZMA_STREAM_END) {
        done_ = true;
      } else if (rc == LZMA_BUF_ERROR) {
        truncated();
      } else if (rc != LZMA_OK) {
        switch (rc) {
          case LZMA_FORMAT_ERROR: corrupt("not an xz stream");
          case LZMA_DATA_ERROR: corrupt("compressed data is corrupt");
          case LZMA_OPTIONS_ERROR: corrupt("unsupported options");
          case LZMA_MEM_ERROR: corrupt("out of memory");
          default: corrupt("liblzma error " + std::to_string(static_cast<int>(rc)));
        }
      } else if (!have_input && out_before == s_.avail_out) {
        truncated();
      }
    }
    return produced;
  }

 private:
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<ByteStream> ByteStream::open(const std::string& path) {
  uint64_t size = 0;
  int fd = open_input_file(path, &size);
  unsigned char magic[6] = {0, 0, 0, 0, 0, 0};
  ssize_t got = size >= 6 ? ::pread(fd, magic, 6, 0) : 0;
  if (got < 0) got = 0;
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  // From here the stream object owns fd (its base class closes it).
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return std::make_unique<GzipStream>(path, fd, size);
  if (got >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd)
    return std::make_unique<ZstdStream>(path, fd, size);
  if (got >= 6 && std::memcmp(magic, "\xfd" "7zXZ\0", 6) == 0) return std::make_unique<XzStream>(path, fd, size);
  return std::make_unique<PlainStream>(path, fd, size);
}

}  // namespace tg::formats
