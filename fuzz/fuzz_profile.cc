// libFuzzer target: read_profile (the planner's machine profile, JSON) on
// arbitrary bytes. The seeds are calibrate's profiles (fuzz/corpus/profile),
// so the fuzzer starts from files that read and mutates their fields. A
// profile that reads must hold only positive, finite rates and footprints
// that increase: the planner divides by them.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fuzz_common.h"
#include "planner/machine_profile.h"

namespace {

void check_rate(double x) {
  if (!(x > 0) || !std::isfinite(x)) tg::fuzz::broken("a rate that is not positive and finite");
}

void check_footprints(const tg::planner::FootprintRates& r, bool may_be_empty) {
  if (r.points.empty() && !may_be_empty) tg::fuzz::broken("no footprint points");
  for (size_t i = 0; i < r.points.size(); ++i) {
    check_rate(r.points[i].first);
    check_rate(r.points[i].second);
    if (i > 0 && r.points[i].first <= r.points[i - 1].first) tg::fuzz::broken("footprints do not increase");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = tg::fuzz::scratch_file("profile.json");
  tg::fuzz::write_input(path, data, size);
  try {
    const tg::planner::MachineProfile p = tg::planner::read_profile(path);
    for (double x : {p.link_copy, p.pageable_copy, p.host_register, p.zero_copy_lines, p.device_read,
                     p.step_overhead_s, p.cpu_gather})
      check_rate(x);
    check_footprints(p.zero_copy_random, false);
    check_footprints(p.device_random, false);
    check_footprints(p.device_links, true);
    if (p.cpu_threads < 0) tg::fuzz::broken("negative cpu_threads");
  } catch (const tg::Error&) {
  }
  ::unlink(path.c_str());
  return 0;
}
