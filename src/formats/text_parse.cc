#include "formats/text_parse.h"

#include <atomic>

namespace tg::formats {
namespace {
constexpr size_t kDefaultChunkBytes = size_t{64} << 20;
constexpr size_t kDefaultParallelMinBytes = size_t{1} << 20;
std::atomic<size_t> g_chunk_bytes{kDefaultChunkBytes};
std::atomic<size_t> g_parallel_min_bytes{kDefaultParallelMinBytes};
}  // namespace

size_t text_chunk_bytes() { return g_chunk_bytes.load(); }
void set_text_chunk_bytes(size_t bytes) { g_chunk_bytes.store(bytes == 0 ? kDefaultChunkBytes : bytes); }
size_t text_parallel_min_bytes() { return g_parallel_min_bytes.load(); }
void set_text_parallel_min_bytes(size_t bytes) {
  g_parallel_min_bytes.store(bytes == 0 ? kDefaultParallelMinBytes : bytes);
}

std::string quote_token(const char* begin, const char* end) {
  std::string out = "'";
  size_t n = 0;
  for (const char* p = begin; p < end; ++p, ++n) {
    if (n == 40) {
      out += "...";
      break;
    }
    unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  out += "'";
  return out;
}

std::string describe_id_error(Num status, const char* b, const char* e, const char* field) {
  std::string f(field);
  switch (status) {
    case Num::kMissing: return "missing the " + f + " (expected a non-negative integer)";
    case Num::kNegative: return "negative " + f + " " + quote_token(b, e) + " (ids are non-negative)";
    case Num::kTooLarge: return f + " " + quote_token(b, e) + " is too large (ids must be below 2^63)";
    default: return "expected the " + f + " (a non-negative integer), got " + quote_token(b, e);
  }
}

std::string describe_weight_error(Num status, const char* b, const char* e, const char* field) {
  std::string f(field);
  switch (status) {
    case Num::kMissing: return "missing the " + f + " (expected a number)";
    case Num::kTooLarge: return f + " " + quote_token(b, e) + " is out of the range of a 4-byte float";
    default: return "expected the " + f + " (a finite number), got " + quote_token(b, e);
  }
}

namespace detail {

void ChunkBuffer::reserve(size_t bytes) {
  if (bytes <= capacity) return;
  std::unique_ptr<char[]> bigger(new char[bytes]);
  if (len > 0) std::memcpy(bigger.get(), data.get(), len);
  data = std::move(bigger);
  capacity = bytes;
}

void fill_chunk(ByteStream& stream, ChunkBuffer& buf, const char* carry, size_t carry_len, size_t chunk) {
  buf.len = 0;
  buf.reserve(carry_len + chunk);
  if (carry_len > 0) std::memcpy(buf.data.get(), carry, carry_len);
  size_t got = stream.read(buf.data.get() + carry_len, chunk);
  buf.len = carry_len + got;
  buf.eof = got < chunk;
}

void extend_chunk(ByteStream& stream, ChunkBuffer& buf, size_t chunk) {
  buf.reserve(buf.len + chunk);
  size_t got = stream.read(buf.data.get() + buf.len, chunk);
  buf.len += got;
  buf.eof = got < chunk;
}

void gather_edges(std::vector<EdgeBuffer>& local, const std::vector<Segment>& segments, uint64_t total, EdgeList& out) {
  bool weighted = false;
  for (const EdgeBuffer& l : local) weighted |= !l.weights.empty();
  bool single = true;
  for (const Segment& s : segments) single &= s.block == 0;
  if (single && local[0].records() == total) {
    out.src = std::move(local[0].src);
    out.dst = std::move(local[0].dst);
    if (weighted) out.weights = std::move(local[0].weights);
    local.clear();
    return;
  }
  out.src.resize(total);
  out.dst.resize(total);
  if (weighted) out.weights.resize(total);
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t i = 0; i < segments.size(); ++i) {
    const Segment& s = segments[i];
    const EdgeBuffer& l = local[s.block];
    std::memcpy(out.src.data() + s.to, l.src.data() + s.from, s.count * sizeof(uint64_t));
    std::memcpy(out.dst.data() + s.to, l.dst.data() + s.from, s.count * sizeof(uint64_t));
    if (weighted) std::memcpy(out.weights.data() + s.to, l.weights.data() + s.from, s.count * sizeof(weight_t));
  }
  local.clear();
}

}  // namespace detail
}  // namespace tg::formats
