// libFuzzer target: read_binary_graph (.tgb) on arbitrary bytes. Random bytes
// rarely pass the checksums, so unless the last reserved header byte is odd
// the harness first rewrites every checksum it can reach: the fuzzer then
// explores the header and content checks behind them, reading the file or
// mapping it.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "formats/binary_format.h"
#include "formats/checksum.h"
#include "formats/readers.h"
#include "fuzz_common.h"

namespace {

void fix_checksums(std::vector<uint8_t>& bytes) {
  using tg::formats::TgbHeader;
  if (bytes.size() < sizeof(TgbHeader)) return;
  TgbHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (h.reserved[sizeof h.reserved - 1] & 1) return;
  for (auto& s : h.sections) {
    if (s.offset <= bytes.size() && s.bytes <= bytes.size() - s.offset)
      s.checksum = tg::formats::section_checksum(bytes.data() + s.offset, s.bytes);
  }
  h.header_checksum = 0;
  std::memcpy(bytes.data(), &h, sizeof h);
  if (h.header_bytes >= sizeof h && h.header_bytes <= bytes.size()) {
    h.header_checksum = tg::formats::xxh64(bytes.data(), h.header_bytes, 0);
    std::memcpy(bytes.data(), &h, sizeof h);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = tg::fuzz::scratch_file("input.tgb");
  std::vector<uint8_t> bytes(data, data + size);
  fix_checksums(bytes);
  tg::fuzz::write_input(path, bytes.data(), bytes.size());
  try {
    // Odd sizes map the file (--host-mem) where even ones read it.
    tg::fuzz::check_graph(tg::read_binary_graph(path, size % 2 == 1 ? tg::TgbLoad::kMap : tg::TgbLoad::kRead));
  } catch (const tg::Error&) {
  }
  ::unlink(path.c_str());
  return 0;
}
