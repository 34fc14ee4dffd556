// What kind of mapping holds an address of this process (/proc/self/maps):
// anonymous memory (the heap, a malloc'd block), a file mapped shared, or a
// file mapped private (copy on write). The GPU side pins host memory in place
// only where that is safe and fast: on the lent H100 a pinned MAP_PRIVATE
// file mapping took minutes (a BFS over a mapped .tgb graph, a feature store
// over np.memmap(mode="c")), where the same bytes copied into pinned memory
// took milliseconds.
#pragma once

#include <cstdint>
#include <cstdio>

namespace tg {

enum class HostMapping { kAnonymous, kSharedFile, kPrivateFile };

// The mapping holding p; kAnonymous where /proc/self/maps cannot be read or
// does not list p.
inline HostMapping host_mapping_at(const void* p) {
  FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) return HostMapping::kAnonymous;
  const auto a = reinterpret_cast<uintptr_t>(p);
  HostMapping kind = HostMapping::kAnonymous;
  char line[4096];
  while (std::fgets(line, sizeof line, maps)) {
    unsigned long long lo = 0, hi = 0, inode = 0;
    char perms[8] = {};
    if (std::sscanf(line, "%llx-%llx %7s %*s %*s %llu", &lo, &hi, perms, &inode) != 4) continue;
    if (a < lo || a >= hi) continue;
    // Inode 0: anonymous memory (also [heap], [stack]); perms "r--s": shared.
    if (inode != 0) kind = perms[3] == 's' ? HostMapping::kSharedFile : HostMapping::kPrivateFile;
    break;
  }
  std::fclose(maps);
  return kind;
}

}  // namespace tg
