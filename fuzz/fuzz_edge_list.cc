// libFuzzer target: read_edge_list(path, false) on arbitrary bytes (plain or compressed).
#include <cstddef>
#include <cstdint>

#include "formats/readers.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = tg::fuzz::scratch_file("input.el");
  tg::fuzz::write_input(path, data, size);
  tg::fuzz::vary_text_tuning(size);
  try {
    tg::EdgeList el = tg::read_edge_list(path, false);
    tg::fuzz::check_edge_list(el);
  } catch (const tg::Error&) {
  }
  ::unlink(path.c_str());
  return 0;
}
