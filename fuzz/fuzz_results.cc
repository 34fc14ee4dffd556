// libFuzzer target: read_results (tiergraph verify --results) on arbitrary
// bytes. The input's first byte picks the value type and meaning the
// algorithm would have (depths, distances, float scores, labels or counts)
// and the id base, its second the vertex count (0 to 63); the rest is the
// file. A file that reads must give exactly one value per vertex.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <variant>

#include "algorithms/algorithm.h"
#include "cli/result_file.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  static const std::string path = tg::fuzz::scratch_file("results.txt");
  tg::AlgorithmInfo algorithm;
  constexpr tg::ValueType kTypes[] = {tg::ValueType::kInt32, tg::ValueType::kDouble, tg::ValueType::kFloat,
                                      tg::ValueType::kUint64};
  algorithm.value_type = kTypes[data[0] % 4];
  algorithm.traits.meaning = (data[0] >> 2) % 3 == 0   ? tg::ValueMeaning::kNumber
                             : (data[0] >> 2) % 3 == 1 ? tg::ValueMeaning::kCount
                                                       : tg::ValueMeaning::kVertexId;
  const int id_base = (data[0] >> 4) & 1;
  const uint64_t n = data[1] % 64;
  tg::fuzz::write_input(path, data + 2, size - 2);
  try {
    const tg::VertexValues values = tg::cli::read_results(path, algorithm, n, id_base);
    std::visit([&](const auto& v) { if (v.size() != n) tg::fuzz::broken("not one value per vertex"); }, values);
  } catch (const tg::Error&) {
  }
  ::unlink(path.c_str());
  return 0;
}
