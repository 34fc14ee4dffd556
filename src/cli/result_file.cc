#include "cli/result_file.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string_view>

#include "core/error.h"
#include "formats/input_file.h"
#include "formats/text_output.h"

namespace tg::cli {

namespace {

constexpr double kExactIntegerLimit = 9007199254740992.0;  // 2^53

char* format_value(char* p, char* end, int32_t x) { return std::to_chars(p, end, x).ptr; }
char* format_value(char* p, char* end, uint64_t x) { return std::to_chars(p, end, x).ptr; }
template <typename F>
char* format_real(char* p, char* end, F x, bool integer_when_exact) {
  if (std::isinf(x)) {
    std::memcpy(p, x > 0 ? "inf" : "-inf", x > 0 ? 3 : 4);
    return p + (x > 0 ? 3 : 4);
  }
  if (integer_when_exact && x >= 0 && x < kExactIntegerLimit && std::floor(x) == x)
    return std::to_chars(p, end, static_cast<uint64_t>(x)).ptr;
  return std::to_chars(p, end, x).ptr;  // shortest text that reads back exactly
}

}  // namespace

void write_results(const std::string& path, const AlgorithmInfo& algorithm, const VertexValues& values, int id_base) {
  formats::TextOutput file(path);  // beside the target, renamed into place (or through /dev/stdout, a pipe)
  std::vector<char> buffer(1 << 20);
  size_t used = 0;
  auto flush = [&]() {
    file.write(std::string_view(buffer.data(), used));
    used = 0;
  };
  const bool counts = algorithm.traits.meaning == ValueMeaning::kCount;
  const bool vertex_ids = algorithm.traits.meaning == ValueMeaning::kVertexId;
  std::visit(
      [&](const auto& vec) {
        using T = typename std::decay_t<decltype(vec)>::value_type;
        for (size_t v = 0; v < vec.size(); ++v) {
          if (used + 64 > buffer.size()) flush();
          char* p = buffer.data() + used;
          char* end = buffer.data() + buffer.size();
          p = std::to_chars(p, end, static_cast<uint64_t>(v) + id_base).ptr;
          *p++ = ' ';
          if constexpr (std::is_same_v<T, uint64_t>) {
            p = format_value(p, end, vec[v] + (vertex_ids ? static_cast<uint64_t>(id_base) : 0));
          } else if constexpr (std::is_floating_point_v<T>) {
            p = format_real(p, end, vec[v], counts);
          } else {
            p = format_value(p, end, vec[v]);
          }
          *p++ = '\n';
          used = p - buffer.data();
        }
      },
      values);
  flush();
  file.commit();
}

VertexValues read_results(const std::string& path, const AlgorithmInfo& algorithm, uint64_t n, int id_base) {
  formats::check_input_file(path, "a results file");
  std::ifstream in(path);
  if (!in) throw input_error(path, std::string("cannot open: ") + std::strerror(errno));
  VertexValues values;
  switch (algorithm.value_type) {
    case ValueType::kInt32: values = ResultVector<int32_t>(n, 0); break;
    case ValueType::kUint64: values = ResultVector<uint64_t>(n, 0); break;
    case ValueType::kFloat: values = ResultVector<float>(n, 0); break;
    case ValueType::kDouble: values = ResultVector<double>(n, 0); break;
  }
  const bool vertex_ids = algorithm.traits.meaning == ValueMeaning::kVertexId;
  std::vector<uint8_t> seen(n, 0);
  std::string line;
  uint64_t line_no = 0, count = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    char* p = line.data();
    char* end = p + line.size();
    uint64_t id = 0;
    auto r = std::from_chars(p, end, id);
    if (r.ec != std::errc() || r.ptr == end || (*r.ptr != ' ' && *r.ptr != '\t'))
      throw input_error(path, line_no, "expected '<vertex id> <value>'");
    if (id < static_cast<uint64_t>(id_base) || id - id_base >= n)
      throw input_error(path, line_no, "vertex id " + std::to_string(id) + " is out of range");
    uint64_t v = id - id_base;
    if (seen[v]) throw input_error(path, line_no, "vertex id " + std::to_string(id) + " appears twice");
    seen[v] = 1;
    ++count;
    p = const_cast<char*>(r.ptr);
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    std::string token(p, end);
    while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
    if (auto* ids = std::get_if<ResultVector<uint64_t>>(&values)) {  // parse them exactly
      const uint64_t base = vertex_ids ? static_cast<uint64_t>(id_base) : 0;
      uint64_t x = 0;
      auto q = std::from_chars(token.data(), token.data() + token.size(), x);
      if (q.ec != std::errc() || q.ptr != token.data() + token.size() || x < base)
        throw input_error(path, line_no,
                          std::string(vertex_ids ? "expected a vertex id as label" : "expected an integer") +
                              ", found '" + token + "'");
      (*ids)[v] = x - base;
      continue;
    }
    if (auto* ints = std::get_if<ResultVector<int32_t>>(&values)) {  // depths: "2.5" or 1e30 is no depth
      int32_t x = 0;
      auto q = std::from_chars(token.data(), token.data() + token.size(), x);
      if (q.ec != std::errc() || q.ptr != token.data() + token.size())
        throw input_error(path, line_no, "expected an integer from -2147483648 to 2147483647, found '" + token + "'");
      (*ints)[v] = x;
      continue;
    }
    double x;
    if (token == "inf") {
      x = INFINITY;
    } else {
      auto q = std::from_chars(token.data(), token.data() + token.size(), x);
      if (q.ec != std::errc() || q.ptr != token.data() + token.size())
        throw input_error(path, line_no, "expected a number, found '" + token + "'");
    }
    std::visit(
        [&](auto& vec) {
          using T = typename std::decay_t<decltype(vec)>::value_type;
          vec[v] = static_cast<T>(x);
        },
        values);
  }
  if (count != n)
    throw input_error(path, "has values for " + std::to_string(count) + " vertices, the graph has " + std::to_string(n));
  return values;
}

}  // namespace tg::cli
