// libFuzzer target: Checkpointer::load (--resume DIR) on arbitrary bytes.
// Random bytes rarely match the trailing XXH64, so unless the input's first
// byte is odd the harness rewrites it first: the fuzzer then explores the
// fields behind the checksum. The key is the one the seed was saved with
// (make_seeds writes it), so mutated files get past the key checks too.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "formats/checksum.h"
#include "fuzz_checkpoint_key.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = tg::fuzz::scratch_file("checkpoint");
  static const tg::Checkpointer resuming(dir, 1, true, tg::fuzz::checkpoint_seed_key());
  std::vector<uint8_t> bytes(data, data + size);
  if (size >= 8 && (data[0] & 1) == 0) {
    const uint64_t sum = tg::formats::xxh64(bytes.data(), size - 8);
    for (int i = 0; i < 8; ++i) bytes[size - 8 + i] = static_cast<uint8_t>(sum >> (8 * i));
  }
  tg::fuzz::write_input(resuming.path(), bytes.data(), bytes.size());
  try {
    // Half the inputs with the size a run would expect, half with any size.
    const uint64_t expect = size % 2 == 0 ? tg::Checkpointer::kAnySize : tg::fuzz::kCheckpointSeedStateBytes;
    if (auto s = resuming.load(expect)) {
      if (s->iteration <= 0) tg::fuzz::broken("an iteration below 1");
      if (expect != tg::Checkpointer::kAnySize && s->state.size() != expect) tg::fuzz::broken("state size");
      if (s->scalars.size() > 64) tg::fuzz::broken("scalar count");
    }
  } catch (const tg::Error&) {
  }
  return 0;
}
