// libFuzzer target: the same bytes read as a GAP .sg and as a .wsg file.
#include <cstddef>
#include <cstdint>

#include "formats/readers.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = tg::fuzz::scratch_file("input.sg");
  tg::fuzz::write_input(path, data, size);
  for (bool weighted : {false, true}) {
    try {
      tg::fuzz::check_graph(tg::read_gap_graph(path, weighted));
    } catch (const tg::Error&) {
    }
  }
  ::unlink(path.c_str());
  return 0;
}
