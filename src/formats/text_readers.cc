// The text readers: SNAP-style edge lists, Matrix Market and DIMACS. Each is a
// line function run by parse_text (text_parse.h) plus, for the formats that
// have one, a header function run serially on the first lines.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "core/error.h"
#include "formats/input_file.h"
#include "formats/readers.h"
#include "formats/text_parse.h"

namespace tg {
namespace {

using formats::describe_id_error;
using formats::describe_weight_error;
using formats::EdgeBuffer;
using formats::Num;
using formats::parse_text;
using formats::parse_uint;
using formats::parse_weight;
using formats::quote_token;
using formats::skip_blanks;
using formats::TextResult;
using formats::TextSpec;
using formats::token_end;

std::vector<std::string> split_words(const char* b, const char* e) {
  std::vector<std::string> words;
  const char* p = skip_blanks(b, e);
  while (p < e) {
    const char* t = token_end(p, e);
    words.emplace_back(p, t);
    p = skip_blanks(t, e);
  }
  return words;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Extra columns after the fields a format reads. In edge lists they are
// ignored when numeric (SNAP and KONECT files carry timestamps or weights
// there); anything else means the line is not what we think it is.
bool skip_numeric_columns_slow(const char* p, const char* e, const char* expected, std::string& error) {
  for (;;) {
    const char* t = skip_blanks(p, e);
    if (t == e) return true;
    float x;
    Num s = parse_weight(p, e, x);
    if (s != Num::kOk && s != Num::kTooLarge) {
      error = std::string("expected ") + expected + "; an extra column must be numeric, got " + quote_token(t, p);
      return false;
    }
  }
}

inline bool skip_numeric_columns(const char* p, const char* e, const char* expected, std::string& error) {
  p = skip_blanks(p, e);
  return p == e || skip_numeric_columns_slow(p, e, expected, error);
}

bool no_more_columns(const char* p, const char* e, const char* expected, std::string& error) {
  const char* t = skip_blanks(p, e);
  if (t == e) return true;
  error = std::string("expected ") + expected + ", found an extra column " + quote_token(t, token_end(t, e));
  return false;
}

// ---- Edge lists ----------------------------------------------------------

template <bool kWeighted>
struct EdgeListLine {
  static constexpr const char* kExpected = kWeighted ? "3 fields (src dst weight)" : "2 fields (src dst)";

  bool operator()(const char* b, const char* e, EdgeBuffer& out, std::string& error) const {
    const char* p = skip_blanks(b, e);
    if (p == e || *p == '#' || *p == '%') return true;  // blank or comment
    uint64_t u = 0, v = 0;
    const char* t = p;
    Num s = parse_uint(p, e, u);
    if (s != Num::kOk) {
      error = describe_id_error(s, t, p, "source vertex id");
      return false;
    }
    t = skip_blanks(p, e);
    s = parse_uint(p, e, v);
    if (s != Num::kOk) {
      error = s == Num::kMissing ? std::string("expected ") + kExpected + ", found 1 (missing the destination id)"
                                 : describe_id_error(s, t, p, "destination vertex id");
      return false;
    }
    if constexpr (kWeighted) {
      float w = 0;
      t = skip_blanks(p, e);
      s = parse_weight(p, e, w);
      if (s != Num::kOk) {
        error = s == Num::kMissing ? std::string("expected ") + kExpected + ", found 2 (missing the weight)"
                                   : describe_weight_error(s, t, p, "weight");
        return false;
      }
      if (!skip_numeric_columns(p, e, kExpected, error)) return false;
      out.add(u, v, w);
    } else {
      if (!skip_numeric_columns(p, e, kExpected, error)) return false;
      out.add(u, v);
    }
    return true;
  }
};

// ---- Matrix Market -------------------------------------------------------

struct MtxHeader {
  bool weighted = false;
  bool symmetric = false;
  uint64_t rows = 0, cols = 0, entries = 0;
};

constexpr const char* kMtxBanner = "'%%MatrixMarket matrix coordinate pattern|integer|real general|symmetric'";

bool mtx_header_line(const std::string& path, MtxHeader& h, const char* b, const char* e, uint64_t line) {
  if (line == 1) {
    std::vector<std::string> w = split_words(b, e);
    if (w.empty() || w[0] != "%%MatrixMarket")
      throw input_error(path, 1, std::string("expected the Matrix Market banner ") + kMtxBanner + ", got " + quote_token(b, e));
    if (w.size() != 5)
      throw input_error(path, 1, std::string("the banner must have 5 words: ") + kMtxBanner + ", got " + quote_token(b, e));
    std::string object = lower(w[1]), format = lower(w[2]), field = lower(w[3]), symmetry = lower(w[4]);
    if (object != "matrix") throw input_error(path, 1, "only 'matrix' objects are supported, got '" + w[1] + "'");
    if (format == "array") throw input_error(path, 1, "dense 'array' matrices are not supported (expected 'coordinate')");
    if (format != "coordinate") throw input_error(path, 1, "expected the format 'coordinate', got '" + w[2] + "'");
    if (field == "complex") throw input_error(path, 1, "'complex' matrices are not supported (expected pattern, integer or real)");
    if (field != "pattern" && field != "integer" && field != "real")
      throw input_error(path, 1, "expected the field pattern, integer or real, got '" + w[3] + "'");
    if (symmetry == "hermitian" || symmetry == "skew-symmetric")
      throw input_error(path, 1, "'" + w[4] + "' matrices are not supported (expected general or symmetric)");
    if (symmetry != "general" && symmetry != "symmetric")
      throw input_error(path, 1, "expected the symmetry general or symmetric, got '" + w[4] + "'");
    h.weighted = field != "pattern";
    h.symmetric = symmetry == "symmetric";
    return false;
  }
  const char* p = skip_blanks(b, e);
  if (p == e || *p == '%') return false;
  uint64_t v[3];
  const char* names[3] = {"number of rows", "number of columns", "number of entries"};
  for (int i = 0; i < 3; ++i) {
    const char* t = skip_blanks(p, e);
    Num s = parse_uint(p, e, v[i]);
    if (s != Num::kOk)
      throw input_error(path, line, "size line 'ROWS COLUMNS ENTRIES': " + describe_id_error(s, t, p, names[i]));
  }
  std::string error;
  if (!no_more_columns(p, e, "the size line 'ROWS COLUMNS ENTRIES'", error)) throw input_error(path, line, error);
  h.rows = v[0];
  h.cols = v[1];
  h.entries = v[2];
  return true;
}

// Reads the header through a pointer: the size line is parsed (by the header
// function) before any entry.
struct MtxLine {
  const MtxHeader* h;

  bool operator()(const char* b, const char* e, EdgeBuffer& out, std::string& error) const {
    const char* p = skip_blanks(b, e);
    if (p == e || *p == '%') return true;
    const char* expected = h->weighted ? "3 fields (row column value)" : "2 fields (row column)";
    uint64_t r = 0, c = 0;
    const char* t = p;
    Num s = parse_uint(p, e, r);
    if (s != Num::kOk) {
      error = describe_id_error(s, t, p, "row index");
      return false;
    }
    if (r < 1 || r > h->rows) {
      error = "row index " + std::to_string(r) + " out of range 1.." + std::to_string(h->rows);
      return false;
    }
    t = skip_blanks(p, e);
    s = parse_uint(p, e, c);
    if (s != Num::kOk) {
      error = s == Num::kMissing ? std::string("expected ") + expected + ", found 1 (missing the column index)"
                                 : describe_id_error(s, t, p, "column index");
      return false;
    }
    if (c < 1 || c > h->cols) {
      error = "column index " + std::to_string(c) + " out of range 1.." + std::to_string(h->cols);
      return false;
    }
    if (h->weighted) {
      float w = 0;
      t = skip_blanks(p, e);
      s = parse_weight(p, e, w);
      if (s != Num::kOk) {
        error = s == Num::kMissing ? std::string("expected ") + expected + ", found 2 (missing the value)"
                                   : describe_weight_error(s, t, p, "value");
        return false;
      }
      if (!no_more_columns(p, e, expected, error)) return false;
      out.add(r - 1, c - 1, w);
    } else {
      if (!no_more_columns(p, e, expected, error)) return false;
      out.add(r - 1, c - 1);
    }
    return true;
  }
};

// ---- DIMACS --------------------------------------------------------------

bool starts_word(const char* p, const char* e, char c) { return p < e && *p == c && (p + 1 == e || formats::is_blank(p[1])); }

struct GrHeader {
  uint64_t n = 0, m = 0;
};

bool gr_header_line(const std::string& path, GrHeader& h, const char* b, const char* e, uint64_t line) {
  const char* p = skip_blanks(b, e);
  if (p == e || starts_word(p, e, 'c')) return false;
  if (starts_word(p, e, 'a')) throw input_error(path, line, "arc line before the problem line 'p sp N M'");
  if (!starts_word(p, e, 'p'))
    throw input_error(path, line, "expected a comment 'c ...' or the problem line 'p sp N M', got " + quote_token(p, e));
  p = skip_blanks(p + 1, e);
  const char* t = token_end(p, e);
  if (std::string(p, t) != "sp")
    throw input_error(path, line, "expected the problem line 'p sp N M' (shortest-path format), got " + quote_token(b, e));
  p = t;
  uint64_t v[2];
  const char* names[2] = {"number of nodes N", "number of arcs M"};
  for (int i = 0; i < 2; ++i) {
    t = skip_blanks(p, e);
    Num s = parse_uint(p, e, v[i]);
    if (s != Num::kOk) throw input_error(path, line, "problem line 'p sp N M': " + describe_id_error(s, t, p, names[i]));
  }
  std::string error;
  if (!no_more_columns(p, e, "the problem line 'p sp N M'", error)) throw input_error(path, line, error);
  h.n = v[0];
  h.m = v[1];
  return true;
}

struct GrLine {
  uint64_t n;

  bool operator()(const char* b, const char* e, EdgeBuffer& out, std::string& error) const {
    const char* p = skip_blanks(b, e);
    if (p == e || starts_word(p, e, 'c')) return true;
    if (!starts_word(p, e, 'a')) {
      error = starts_word(p, e, 'p') ? "a second problem line (only one 'p sp N M' line is allowed)"
                                     : "expected an arc 'a U V W' or a comment 'c ...', got " + quote_token(p, e);
      return false;
    }
    ++p;
    uint64_t id[2];
    const char* names[2] = {"tail node id U of 'a U V W'", "head node id V of 'a U V W'"};
    for (int i = 0; i < 2; ++i) {
      const char* t = skip_blanks(p, e);
      Num s = parse_uint(p, e, id[i]);
      if (s != Num::kOk) {
        error = describe_id_error(s, t, p, names[i]);
        return false;
      }
      if (id[i] < 1 || id[i] > n) {
        error = "node id " + std::to_string(id[i]) + " out of range 1.." + std::to_string(n);
        return false;
      }
    }
    float w = 0;
    const char* t = skip_blanks(p, e);
    Num s = parse_weight(p, e, w);
    if (s != Num::kOk) {
      error = s == Num::kMissing ? "expected 'a U V W', missing the weight W" : describe_weight_error(s, t, p, "weight W");
      return false;
    }
    if (!no_more_columns(p, e, "'a U V W'", error)) return false;
    out.add(id[0] - 1, id[1] - 1, w);
    return true;
  }
};

}  // namespace

EdgeList read_edge_list(const std::string& path, bool weighted, bool progress) {
  EdgeList edges;
  TextSpec spec;
  spec.path = path;
  spec.progress = progress;
  TextResult r = weighted ? parse_text(spec, EdgeListLine<true>{}, edges) : parse_text(spec, EdgeListLine<false>{}, edges);
  edges.num_vertices = r.any_records ? r.max_id + 1 : 0;
  edges.directed = true;
  edges.id_base = 0;
  edges.name = formats::base_name(path);
  return edges;
}

EdgeList read_matrix_market(const std::string& path, bool progress) {
  EdgeList edges;
  MtxHeader h;
  TextSpec spec;
  spec.path = path;
  spec.progress = progress;
  spec.header = [&](const char* b, const char* e, uint64_t line) { return mtx_header_line(path, h, b, e, line); };
  spec.max_records = &h.entries;
  spec.too_many_records = [&] {
    return "more entries than the " + std::to_string(h.entries) + " announced on the size line";
  };
  TextResult r = parse_text(spec, MtxLine{&h}, edges);
  if (!r.header_complete)
    throw input_error(path, r.lines, "missing the size line 'ROWS COLUMNS ENTRIES' after the banner");
  if (edges.num_edges() != h.entries)
    throw input_error(path, r.lines,
                      "expected " + std::to_string(h.entries) + " entries (from the size line), found " +
                          std::to_string(edges.num_edges()) + " (truncated file?)");
  edges.num_vertices = std::max(h.rows, h.cols);
  edges.directed = !h.symmetric;
  edges.id_base = 1;
  edges.name = formats::base_name(path);
  return edges;
}

EdgeList read_dimacs(const std::string& path, bool progress) {
  EdgeList edges;
  GrHeader h;
  TextSpec spec;
  spec.path = path;
  spec.progress = progress;
  spec.header = [&](const char* b, const char* e, uint64_t line) { return gr_header_line(path, h, b, e, line); };
  spec.max_records = &h.m;
  spec.too_many_records = [&] { return "more arcs than the " + std::to_string(h.m) + " announced by 'p sp N M'"; };
  // The line function needs N, known only after the header: it reads it
  // through a pointer that the header fills before any arc is parsed.
  struct Line {
    const GrHeader* h;
    bool operator()(const char* b, const char* e, EdgeBuffer& out, std::string& error) const {
      return GrLine{h->n}(b, e, out, error);
    }
  };
  TextResult r = parse_text(spec, Line{&h}, edges);
  if (!r.header_complete) throw input_error(path, r.lines, "missing the problem line 'p sp N M'");
  if (edges.num_edges() != h.m)
    throw input_error(path, r.lines,
                      "expected " + std::to_string(h.m) + " arcs (from 'p sp N M'), found " +
                          std::to_string(edges.num_edges()) + " (truncated file?)");
  edges.num_vertices = h.n;
  edges.directed = true;
  edges.id_base = 1;
  edges.name = formats::base_name(path);
  return edges;
}

}  // namespace tg
