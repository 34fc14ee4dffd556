// What the host offers a run beside the graph: the memory the kernel can
// hand out now, and the last-level cache a core's reads share.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace tg {

// MemAvailable of /proc/meminfo in bytes (free memory and the page cache the
// kernel can drop); 0 where it cannot be read.
inline uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

// The last-level cache of the first CPU, as sysfs has it (the share a core
// complex has: 32 MiB on an EPYC VM whose cpuid says 256); else sysconf's,
// else 32 MiB.
inline uint64_t last_level_cache_bytes() {
  for (const char* level : {"index3", "index2"}) {
    std::FILE* f = std::fopen((std::string("/sys/devices/system/cpu/cpu0/cache/") + level + "/size").c_str(), "r");
    if (f == nullptr) continue;
    unsigned long long size = 0;
    char unit = 0;
    const int got = std::fscanf(f, "%llu%c", &size, &unit);
    std::fclose(f);
    if (got >= 1 && size > 0) return size << (unit == 'K' ? 10 : unit == 'M' ? 20 : 0);
  }
  const long bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return bytes > 0 ? static_cast<uint64_t>(bytes) : uint64_t{32} << 20;
}

}  // namespace tg
