#include "planner/machine_profile.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "core/types.h"
#include "formats/input_file.h"
#include "formats/output_file.h"

namespace tg::planner {

namespace {

constexpr const char* kFormat = "tiergraph-profile/1";

double field_rate(const nlohmann::json& j, const std::string& path, const std::string& name) {
  if (!j.contains(name)) throw Error(path + ": field \"" + name + "\" is missing", ErrorKind::kInput);
  const auto& v = j.at(name);
  if (!v.is_number()) throw Error(path + ": field \"" + name + "\" is not a number", ErrorKind::kInput);
  const double x = v.get<double>();
  if (!(x > 0) || !std::isfinite(x))
    throw Error(path + ": field \"" + name + "\" must be a positive number, not " + v.dump(), ErrorKind::kInput);
  return x;
}

FootprintRates field_footprints(const nlohmann::json& j, const std::string& path, const std::string& name) {
  if (!j.contains(name) || !j.at(name).is_array() || j.at(name).empty())
    throw Error(path + ": field \"" + name + "\" must be a list of [footprint bytes, rate] pairs", ErrorKind::kInput);
  FootprintRates r;
  for (size_t i = 0; i < j.at(name).size(); ++i) {
    const auto& p = j.at(name)[i];
    const std::string where = path + ": field \"" + name + "[" + std::to_string(i) + "]\"";
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
      throw Error(where + " must be a pair [footprint bytes, rate]", ErrorKind::kInput);
    const double f = p[0].get<double>(), rate = p[1].get<double>();
    if (!(f > 0) || !(rate > 0) || !std::isfinite(f) || !std::isfinite(rate))
      throw Error(where + " must hold positive numbers", ErrorKind::kInput);
    if (!r.points.empty() && f <= r.points.back().first)
      throw Error(where + ": footprints must increase", ErrorKind::kInput);
    r.points.emplace_back(f, rate);
  }
  return r;
}

// The descriptive fields (what the profile was measured on) may be absent,
// but a present one has its type: nlohmann's own conversions would wrap -5
// to 2^64 - 5 or end the run with its exception's text.
std::string field_text(const nlohmann::json& j, const std::string& path, const std::string& name) {
  if (!j.contains(name)) return {};
  if (!j.at(name).is_string()) throw Error(path + ": field \"" + name + "\" is not a string", ErrorKind::kInput);
  return j.at(name).get<std::string>();
}

uint64_t field_count(const nlohmann::json& j, const std::string& path, const std::string& name, uint64_t max) {
  if (!j.contains(name)) return 0;
  const auto& v = j.at(name);
  if (!v.is_number_unsigned() || v.get<uint64_t>() > max)
    throw Error(path + ": field \"" + name + "\" must be a whole number from 0 to " + std::to_string(max) + ", not " +
                    v.dump(),
                ErrorKind::kInput);
  return v.get<uint64_t>();
}

}  // namespace

double FootprintRates::at(double footprint) const {
  if (points.empty()) return 0;
  if (footprint <= points.front().first) return points.front().second;
  if (footprint >= points.back().first) return points.back().second;
  for (size_t i = 1; i < points.size(); ++i) {
    const auto& [f1, r1] = points[i];
    if (footprint > f1) continue;
    const auto& [f0, r0] = points[i - 1];
    const double t = std::log(footprint / f0) / std::log(f1 / f0);
    return std::exp(std::log(r0) + t * (std::log(r1) - std::log(r0)));
  }
  return points.back().second;
}

MachineProfile builtin_profile() {
  // As tiergraph calibrate measured it on 2026-11-28
  // (docs/gpu-check/2026-11-28h-planner/profile.json, the profile of
  // tests/planner/data/h100-2026-11-28).
  MachineProfile p;
  p.source = "built-in (the H100 PCIe Gen5 machine of PLATFORM.md, calibrated 2026-11-28; run tiergraph calibrate for this one)";
  p.gpu = "NVIDIA H100 80GB HBM3";
  p.gpu_memory_bytes = 85017493504;
  p.cpu_threads = 16;
  p.link_copy = 55.1e9;
  p.pageable_copy = 9.25e9;
  p.host_register = 48.9e9;
  p.zero_copy_lines = 50.95e9;
  p.zero_copy_random.points = {{16.8e6, 387e6}, {134e6, 386e6}, {1.07e9, 109e6}, {4.29e9, 47.6e6}};
  p.device_read = 2282e9;
  p.device_random.points = {{16.8e6, 122e9}, {268e6, 34.1e9}, {1.07e9, 31.6e9}};
  p.step_overhead_s = 12.4e-6;
  p.cpu_gather = 27.2e9;
  return p;
}

nlohmann::json to_json(const MachineProfile& p) {
  auto points = [](const FootprintRates& r) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& [f, rate] : r.points) a.push_back({f, rate});
    return a;
  };
  nlohmann::json j = {{"format", kFormat},
                      {"source", p.source},
                      {"gpu", p.gpu},
                      {"gpu_memory_bytes", p.gpu_memory_bytes},
                      {"cpu_threads", p.cpu_threads},
                      {"link_copy", p.link_copy},
                      {"pageable_copy", p.pageable_copy},
                      {"host_register", p.host_register},
                      {"zero_copy_lines", p.zero_copy_lines},
                      {"zero_copy_random_lines", points(p.zero_copy_random)},
                      {"device_read", p.device_read},
                      {"device_random_reads", points(p.device_random)},
                      {"step_overhead_s", p.step_overhead_s},
                      {"cpu_gather", p.cpu_gather}};
  if (!p.device_links.points.empty()) j["device_forest_links"] = points(p.device_links);
  if (!p.gpu_uuid.empty()) j["gpu_uuid"] = p.gpu_uuid;
  if (!p.zero_copy_random_in_place.points.empty())
    j["zero_copy_random_lines_in_place"] = points(p.zero_copy_random_in_place);
  return j;
}

MachineProfile read_profile(const std::string& path) {
  std::error_code e;
  if (!std::filesystem::exists(path, e))
    throw Error(path + ": cannot open the profile (run tiergraph calibrate to make one)", ErrorKind::kInput);
  formats::check_input_file(path, "a machine profile");
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the profile (" + std::strerror(errno) + ")", ErrorKind::kInput);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's text starts with its own tag ("[json.exception.parse_error.101] "): the reader needs the rest.
    std::string why = e.what();
    if (why.starts_with("[json.exception.") && why.find("] ") != std::string::npos) why.erase(0, why.find("] ") + 2);
    throw Error(path + ": not a JSON profile (" + why + ")", ErrorKind::kInput);
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    throw Error(path + ": field \"format\" is not \"" + std::string(kFormat) + "\" (a profile of tiergraph calibrate?)",
                ErrorKind::kInput);
  MachineProfile p;
  p.source = path;
  p.gpu = field_text(j, path, "gpu");
  p.gpu_uuid = field_text(j, path, "gpu_uuid");
  p.gpu_memory_bytes = field_count(j, path, "gpu_memory_bytes", std::numeric_limits<uint64_t>::max());
  p.cpu_threads = static_cast<int>(field_count(j, path, "cpu_threads", kMaxThreads));
  p.link_copy = field_rate(j, path, "link_copy");
  p.pageable_copy = field_rate(j, path, "pageable_copy");
  p.host_register = field_rate(j, path, "host_register");
  p.zero_copy_lines = field_rate(j, path, "zero_copy_lines");
  p.zero_copy_random = field_footprints(j, path, "zero_copy_random_lines");
  if (j.contains("zero_copy_random_lines_in_place"))
    p.zero_copy_random_in_place = field_footprints(j, path, "zero_copy_random_lines_in_place");
  p.device_read = field_rate(j, path, "device_read");
  p.device_random = field_footprints(j, path, "device_random_reads");
  p.step_overhead_s = field_rate(j, path, "step_overhead_s");
  if (j.contains("device_forest_links")) p.device_links = field_footprints(j, path, "device_forest_links");
  p.cpu_gather = field_rate(j, path, "cpu_gather");
  return p;
}

void write_profile(const MachineProfile& profile, const std::string& path) {
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (formats::is_special_file(path)) throw Error("cannot write the profile " + path + ": not a regular file");
  const std::string text = to_json(profile).dump(2) + "\n";
  formats::OutputFile file(path, text.size(), /*progress=*/false);  // beside, renamed into place
  file.put(text.data(), text.size(), 0);
  file.commit(text.size());
}

std::string default_profile_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0')
    return std::string(xdg) + "/tiergraph/profile.json";
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : ".") + "/.config/tiergraph/profile.json";
}

std::string profile_note(const MachineProfile& profile, const GpuIdentity& gpu) {
  const bool built_in = profile.source.starts_with("built-in");
  if (built_in || profile.gpu.empty() || gpu.name.empty()) return "";
  std::string other;
  if (profile.gpu != gpu.name) other = profile.gpu + ", this run's GPU is " + gpu.name;
  else if (!profile.gpu_uuid.empty() && !gpu.uuid.empty() && profile.gpu_uuid != gpu.uuid)
    other = profile.gpu_uuid + ", this run's GPU is " + gpu.uuid;
  if (other.empty()) return "";
  return "the profile " + profile.source + " was measured on " + other +
         " (rates differ between hosts of one GPU model, scattered zero-copy reads up to 2x): run tiergraph "
         "calibrate here for this machine's predictions";
}

MachineProfile find_profile(const std::string& path_option) {
  if (!path_option.empty()) return read_profile(path_option);
  if (const char* env = std::getenv("TG_PROFILE"); env != nullptr && *env != '\0') return read_profile(env);
  const std::string fallback = default_profile_path();
  if (std::filesystem::exists(fallback)) return read_profile(fallback);
  return builtin_profile();
}

}  // namespace tg::planner
