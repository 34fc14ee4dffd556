// The engine shared by the text readers (edge lists, Matrix Market, DIMACS):
// the file is read (and decompressed) in large chunks while the previous
// chunk is parsed; each chunk is cut at line boundaries into one block per
// OpenMP thread, and every thread parses its block with the format's line
// function into its own buffers. Line numbers in errors stay exact: each block
// counts its lines, and the first failing block (in file order) is reported.
#pragma once

#include <omp.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "formats/input_file.h"
#include "formats/progress.h"
#include "graph/edge_list.h"

namespace tg::formats {

// Bytes read per chunk (64 MiB). Tests make it tiny to exercise the chunk
// boundaries; 0 restores the default.
size_t text_chunk_bytes();
void set_text_chunk_bytes(size_t bytes);
// Below this many bytes a chunk is parsed by one thread (1 MiB: thread start
// costs more than parsing less). Tests and fuzzers lower it; 0 restores it.
size_t text_parallel_min_bytes();
void set_text_parallel_min_bytes(size_t bytes);

// A line longer than this is an error rather than a reason to grow without bound.
constexpr size_t kMaxLineBytes = size_t{256} << 20;

// Ids must be below 2^63 (they are held as uint64_t; 2^63 keeps room for
// signed arithmetic in consumers).
constexpr uint64_t kMaxFileId = (uint64_t{1} << 63) - 1;

// ---- Tokens --------------------------------------------------------------

// Field separators: spaces and tabs; '\r' too, so that CRLF files (SNAP's
// are) parse.
inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
inline const char* skip_blanks(const char* p, const char* e) {
  while (p < e && is_blank(*p)) ++p;
  return p;
}
inline const char* token_end(const char* p, const char* e) {
  while (p < e && !is_blank(*p)) ++p;
  return p;
}

enum class Num { kOk, kMissing, kBad, kNegative, kTooLarge, kNotANumber };

// A non-negative decimal integer up to kMaxFileId. Skips leading blanks and
// leaves p after the token (also on failure).
Num parse_uint_slow(const char*& p, const char* e, const char* start, uint64_t& out);
inline Num parse_uint(const char*& p, const char* e, uint64_t& out) {
  p = skip_blanks(p, e);
  const char* start = p;
  // Up to 18 digits cannot overflow (10^18 - 1 < 2^63): no check per digit.
  const char* limit = e - p > 18 ? p + 18 : e;
  uint64_t v = 0;
  while (p < limit) {
    unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (d > 9) break;
    v = v * 10 + d;
    ++p;
  }
  if (p == start || p == limit || !is_blank(*p)) {
    if (p == e && p != start) {
      out = v;
      return Num::kOk;
    }
    return parse_uint_slow(p, e, start, out);
  }
  out = v;
  return Num::kOk;
}

// A decimal number that fits a 4-byte float (optional sign, fraction,
// exponent), or inf / infinity in any case and with a sign: an edge that is
// never taken (SSSP) or unbounded (SSWP). NaN in any spelling is kNotANumber.
// Skips leading blanks and leaves p after the token.
inline Num parse_weight(const char*& p, const char* e, float& out) {
  p = skip_blanks(p, e);
  if (p == e) return Num::kMissing;
  const char* start = p;
  const char* te = token_end(p, e);
  p = te;
  if (*start == '+') ++start;
  if (start == te) return Num::kBad;
  auto [ptr, ec] = std::from_chars(start, te, out);
  if (ec == std::errc::result_out_of_range && ptr == te) return Num::kTooLarge;
  if (ec != std::errc() || ptr != te) return Num::kBad;
  if (std::isnan(out)) return Num::kNotANumber;
  return Num::kOk;
}

// "'TOKEN'" for messages: at most 40 characters, non-printable bytes escaped.
std::string quote_token(const char* begin, const char* end);

// One-line descriptions of a failed field, e.g. "expected the source vertex
// id (a non-negative integer), got 'abc'".
std::string describe_id_error(Num status, const char* token_begin, const char* token_end, const char* field);
std::string describe_weight_error(Num status, const char* token_begin, const char* token_end, const char* field);

// ---- Parsed edges --------------------------------------------------------

// What one block's parser produces; ids are already 0-based. A block's
// buffer is reused by every chunk: its pages are touched once.
struct EdgeBuffer {
  std::vector<uint64_t> src, dst;
  std::vector<weight_t> weights;
  uint64_t max_id = 0;  // over every chunk
  bool any = false;

  void add(uint64_t u, uint64_t v) {
    src.push_back(u);
    dst.push_back(v);
    uint64_t m = u > v ? u : v;
    if (m > max_id) max_id = m;
    any = true;
  }
  void add(uint64_t u, uint64_t v, weight_t w) {
    add(u, v);
    weights.push_back(w);
  }
  uint64_t records() const { return src.size(); }
  // Empties the buffers (keeping max_id) and reserves room for the records
  // that `bytes` of text can hold at most (a record takes at least 4 bytes,
  // "1 2\n"), so that parsing never reallocates. Reserved, untouched pages
  // cost address space only.
  void reset_for(size_t bytes);
};

struct TextSpec {
  std::string path;
  bool progress = false;
  // Called for each line until it returns true ("the header ends with this
  // line"), with the 1-based line number; throws tg::Error for a bad header.
  // Empty: the file has no header.
  std::function<bool(const char* begin, const char* end, uint64_t line)> header;
  // When set, more records than *max_records is an error at the first extra
  // record's line (read after the header, which may be what sets it).
  const uint64_t* max_records = nullptr;
  std::function<std::string()> too_many_records;
};

struct TextResult {
  uint64_t lines = 0;  // lines in the file
  bool header_complete = false;
  uint64_t max_id = 0;  // largest 0-based id of any record
  bool any_records = false;
};

namespace detail {

struct BlockResult {
  uint64_t lines = 0;
  bool failed = false;
  uint64_t fail_line = 0;  // 0-based within the block
  std::string message;
};

// Not a std::vector: a 64 MiB chunk is written by read() at once, and zeroing
// it first would cost as much as reading a small file.
struct ChunkBuffer {
  std::unique_ptr<char[]> data;
  size_t capacity = 0;
  size_t len = 0;
  bool eof = false;
  uint64_t input_position = 0;  // stream.input_position() after the last read into it

  void reserve(size_t bytes);  // keeps the first len bytes
};

// Reads the next chunk into buf behind `carry` (the unfinished last line of
// the previous chunk).
void fill_chunk(ByteStream& stream, ChunkBuffer& buf, const char* carry, size_t carry_len, size_t chunk);
// Reads one more chunk onto the end of buf (a line longer than a chunk).
void extend_chunk(ByteStream& stream, ChunkBuffer& buf, size_t chunk);
// Appends the blocks' records to `out` in block order (in parallel). When
// `out` must grow, it reserves the total estimated from the share of the file
// consumed (input_position of file_bytes, as of the chunk just parsed).
// `last` and a single block: moved, not copied.
void append_blocks(std::vector<EdgeBuffer>& local, int blocks, uint64_t input_position, uint64_t file_bytes, bool last,
                   EdgeList& out);

template <typename LineFn>
BlockResult parse_block(const char* p, const char* e, LineFn& line_fn, EdgeBuffer& out) {
  BlockResult r;
  while (p < e) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(e - p)));
    const char* le = nl != nullptr ? nl : e;
    if (!line_fn(p, le, out, r.message)) {
      r.failed = true;
      r.fail_line = r.lines;
      break;
    }
    ++r.lines;
    p = nl != nullptr ? nl + 1 : e;
  }
  return r;
}

inline const char* find_newline(const char* p, const char* e) {
  return static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(e - p)));
}

}  // namespace detail

// Reads spec.path and appends to out.src/dst/weights (file order) what
// line_fn parses. line_fn(begin, end, EdgeBuffer&, std::string& error) gets
// one line without its '\n' and returns false with `error` set for a bad
// line. Throws tg::Error "PATH:LINE: error" for the first bad line. The
// output is weighted when the line function added weights.
template <typename LineFn>
TextResult parse_text(const TextSpec& spec, LineFn line_fn, EdgeList& out) {
  using namespace detail;
  const std::string& path = spec.path;
  auto stream = ByteStream::open(path);
  const size_t chunk = text_chunk_bytes();
  const int threads = std::max(1, omp_get_max_threads());
  ProgressMeter meter(spec.progress, "reading " + base_name(path), stream->file_bytes());

  std::vector<EdgeBuffer> local(threads);
  TextResult result;
  result.header_complete = !spec.header;
  uint64_t line_base = 0;  // lines before the current chunk's body

  // Small files get small buffers: a plain file is read whole if it is below
  // one chunk; compressed input starts at 1 MiB and doubles up to a chunk.
  size_t want = stream->compression() == Compression::kNone
                    ? static_cast<size_t>(std::min<uint64_t>(chunk, stream->file_bytes() + 1))
                    : std::min(chunk, size_t{1} << 20);
  ChunkBuffer a, b;
  fill_chunk(*stream, a, nullptr, 0, want);
  if (a.len == 0) throw input_error(path, stream->compression() == Compression::kNone ? "empty file" : "empty file (after decompression)");

  for (;;) {
    // Complete lines only; the tail is carried into the next chunk.
    size_t valid = a.len;
    if (!a.eof) {
      const char* last = static_cast<const char*>(memrchr(a.data.get(), '\n', a.len));
      while (last == nullptr && !a.eof) {
        if (a.len >= kMaxLineBytes) throw input_error(path, line_base + 1, "line longer than 256 MiB");
        extend_chunk(*stream, a, want);
        last = static_cast<const char*>(memrchr(a.data.get(), '\n', a.len));
      }
      // At the end of the file everything is complete, the last line too.
      valid = a.eof ? a.len : static_cast<size_t>(last - a.data.get()) + 1;
    }
    // The next chunk is read (and decompressed) while this one is parsed;
    // small chunks are read in place, a thread would cost more.
    std::future<void> next;
    if (!a.eof) {
      want = std::min(chunk, want * 2);
      auto read_next = [&, valid, want] { fill_chunk(*stream, b, a.data.get() + valid, a.len - valid, want); };
      next = std::async(want >= (size_t{1} << 20) ? std::launch::async : std::launch::deferred, read_next);
    }

    const char* pos = a.data.get();
    const char* end = a.data.get() + valid;
    while (!result.header_complete && pos < end) {
      const char* nl = find_newline(pos, end);
      const char* le = nl != nullptr ? nl : end;
      ++line_base;
      result.header_complete = spec.header(pos, le, line_base);
      pos = nl != nullptr ? nl + 1 : end;
    }

    if (pos < end) {
      size_t len = static_cast<size_t>(end - pos);
      int blocks = len >= text_parallel_min_bytes() ? threads : 1;
      std::vector<const char*> bounds(blocks + 1);
      bounds[0] = pos;
      bounds[blocks] = end;
      for (int t = 1; t < blocks; ++t) {
        const char* c = pos + len * t / blocks;
        if (c <= bounds[t - 1]) {
          bounds[t] = bounds[t - 1];
          continue;
        }
        const char* nl = find_newline(c - 1, end);
        bounds[t] = nl != nullptr ? nl + 1 : end;
      }
      std::vector<BlockResult> results(blocks);
#pragma omp parallel for schedule(static, 1) num_threads(blocks)
      for (int t = 0; t < blocks; ++t) {
        local[t].reset_for(static_cast<size_t>(bounds[t + 1] - bounds[t]));
        results[t] = parse_block(bounds[t], bounds[t + 1], line_fn, local[t]);
      }

      const uint64_t max_records = spec.max_records != nullptr ? *spec.max_records : UINT64_MAX;
      uint64_t records = out.src.size();
      for (int t = 0; t < blocks; ++t) {
        const BlockResult& r = results[t];
        if (records + local[t].records() > max_records) {
          // Find the line of the first record past the limit.
          EdgeBuffer scratch;
          std::string error;
          uint64_t line = 0;
          for (const char* p = bounds[t]; p < bounds[t + 1];) {
            const char* nl = find_newline(p, bounds[t + 1]);
            const char* le = nl != nullptr ? nl : bounds[t + 1];
            if (!line_fn(p, le, scratch, error)) throw input_error(path, line_base + line + 1, error);
            ++line;
            if (records + scratch.records() > max_records) throw input_error(path, line_base + line, spec.too_many_records());
            p = nl != nullptr ? nl + 1 : bounds[t + 1];
          }
        }
        if (r.failed) throw input_error(path, line_base + r.fail_line + 1, r.message);
        line_base += r.lines;
        records += local[t].records();
      }
      append_blocks(local, blocks, a.input_position, stream->file_bytes(), a.eof, out);
    }
    meter.update(a.input_position, out.src.size());
    if (a.eof) break;
    next.get();
    std::swap(a, b);
  }
  meter.finish();

  result.lines = line_base;
  for (const EdgeBuffer& l : local) {
    if (l.any) {
      result.any_records = true;
      result.max_id = std::max(result.max_id, l.max_id);
    }
  }
  return result;
}

}  // namespace tg::formats
