#include "formats/text_parse.h"

#include <sys/mman.h>

#include <algorithm>
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

Num parse_uint_slow(const char*& p, const char* e, const char* start, uint64_t& out) {
  if (start == e) return Num::kMissing;
  uint64_t v = 0;
  for (p = start; p < e; ++p) {
    unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (d > 9) break;
    if (v > (kMaxFileId - d) / 10) {
      const char* te = token_end(p, e);
      bool digits = true;
      for (const char* q = p; q < te; ++q) digits &= (*q >= '0' && *q <= '9');
      p = te;
      return digits ? Num::kTooLarge : Num::kBad;
    }
    v = v * 10 + d;
  }
  if (p == start || (p < e && !is_blank(*p))) {
    bool negative = *start == '-' && start + 1 < e && start[1] >= '0' && start[1] <= '9';
    p = token_end(start, e);
    return negative ? Num::kNegative : Num::kBad;
  }
  out = v;
  return Num::kOk;
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
    case Num::kNotANumber: return f + " " + quote_token(b, e) + " is NaN (expected a number or inf)";
    default: return "expected the " + f + " (a number or inf), got " + quote_token(b, e);
  }
}

namespace {

// Asks for transparent huge pages on the 2 MiB-aligned interior of a fresh
// allocation: first touches then fault 2 MiB at a time instead of 4 KiB
// (page faults are the largest cost of filling big buffers, more so in VMs).
void advise_huge(const void* p, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t{1} << 21;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

template <typename T>
void reserve_huge(std::vector<T>& v, size_t n) {
  if (n <= v.capacity()) return;
  v.reserve(n);
  advise_huge(v.data(), v.capacity() * sizeof(T));
}

}  // namespace

void EdgeBuffer::reset_for(size_t bytes) {
  src.clear();
  dst.clear();
  weights.clear();
  size_t most = bytes / 4 + 1;
  reserve_huge(src, most);
  reserve_huge(dst, most);
  // Weights only for formats that have them: reserved once the first chunk
  // showed some (the first chunk grows them as needed).
  if (weights.capacity() > 0) reserve_huge(weights, most);
}

namespace detail {

void ChunkBuffer::reserve(size_t bytes) {
  if (bytes <= capacity) return;
  std::unique_ptr<char[]> bigger(new char[bytes]);
  advise_huge(bigger.get(), bytes);
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
  buf.input_position = stream.input_position();
}

void extend_chunk(ByteStream& stream, ChunkBuffer& buf, size_t chunk) {
  buf.reserve(buf.len + chunk);
  size_t got = stream.read(buf.data.get() + buf.len, chunk);
  buf.len += got;
  buf.eof = got < chunk;
  buf.input_position = stream.input_position();
}

void append_blocks(std::vector<EdgeBuffer>& local, int blocks, uint64_t input_position, uint64_t file_bytes, bool last,
                   EdgeList& out) {
  uint64_t add = 0;
  bool weighted = false;
  int nonempty = 0;
  for (int t = 0; t < blocks; ++t) {
    add += local[t].records();
    weighted |= !local[t].weights.empty();
    nonempty += local[t].records() > 0;
  }
  if (add == 0) return;
  if (last && out.src.empty() && nonempty == 1) {
    for (int t = 0; t < blocks; ++t) {
      if (local[t].records() == 0) continue;
      out.src = std::move(local[t].src);
      out.dst = std::move(local[t].dst);
      if (weighted) out.weights = std::move(local[t].weights);
      return;
    }
  }
  const uint64_t old = out.src.size(), need = old + add;
  if (need > out.src.capacity()) {
    // Records so far, scaled by the share of the input consumed, plus 10%;
    // at least 1.5x the current size when the estimate falls short.
    double consumed = static_cast<double>(input_position);
    double total = static_cast<double>(file_bytes);
    uint64_t estimate = need;
    if (consumed > 0 && total > consumed) estimate = static_cast<uint64_t>(static_cast<double>(need) * total / consumed * 1.1);
    estimate = std::max({estimate, need, old + old / 2});
    reserve_huge(out.src, estimate);
    reserve_huge(out.dst, estimate);
    if (weighted) reserve_huge(out.weights, estimate);
  }
  out.src.resize(need);
  out.dst.resize(need);
  if (weighted) out.weights.resize(need);
  std::vector<uint64_t> at(blocks + 1, old);
  for (int t = 0; t < blocks; ++t) at[t + 1] = at[t] + local[t].records();
#pragma omp parallel for schedule(static, 1) num_threads(blocks)
  for (int t = 0; t < blocks; ++t) {
    const EdgeBuffer& l = local[t];
    size_t n = l.records();
    if (n == 0) continue;
    std::memcpy(out.src.data() + at[t], l.src.data(), n * sizeof(uint64_t));
    std::memcpy(out.dst.data() + at[t], l.dst.data(), n * sizeof(uint64_t));
    if (weighted) std::memcpy(out.weights.data() + at[t], l.weights.data(), n * sizeof(weight_t));
  }
}

}  // namespace detail
}  // namespace tg::formats
