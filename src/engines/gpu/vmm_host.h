// Host memory from the driver's virtual memory API (cuMemCreate with a host
// location, mapped for the GPU): pinned host pages the driver may map for the
// GPU in larger pages than the 4 KiB of cudaHostAlloc or cudaHostRegister.
// Scattered zero-copy reads are bound by the GPU's address translation, not
// the link, once they span more than a few hundred MB (PLATFORM.md); larger
// pages would push that bound out. benchmarks/engines/host_pages_probe.cu
// measures it; TG_HOST_PAGES=vmm puts a zero-copy placement's edges there
// (placed_graph.cu) while it is measured.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace tg::gpu {

class VmmHostBuffer {
 public:
  // `bytes` rounded up to the driver's recommended granularity, on the host,
  // readable and writable by the current GPU (and by the CPU where the
  // driver grants it). Null, with why in *why, where the driver refuses.
  static std::unique_ptr<VmmHostBuffer> allocate(size_t bytes, bool numa_node_0, std::string* why);
  ~VmmHostBuffer();
  VmmHostBuffer(const VmmHostBuffer&) = delete;
  VmmHostBuffer& operator=(const VmmHostBuffer&) = delete;

  void* data() const { return data_; }   // the GPU's address (and the CPU's where host_access())
  bool host_access() const { return host_access_; }
  size_t granularity() const { return granularity_; }

 private:
  VmmHostBuffer() = default;
  void* data_ = nullptr;
  size_t size_ = 0;
  size_t granularity_ = 0;
  unsigned long long handle_ = 0;
  bool host_access_ = false;
};

}  // namespace tg::gpu
