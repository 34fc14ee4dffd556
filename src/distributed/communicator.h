// The collectives a level-synchronous BFS, CC, PageRank or SSSP needs across
// ranks (Pan, Pearce, Owens, IPDPS 2018, Section V: delegate state reduced
// globally every level, normal-vertex updates sent to their owners), behind
// one interface: in one process (in_process_communicator.h, for tests without
// GPUs) and, later, over NCCL. Every rank calls the same collectives in the
// same order; each is blocking and returns when this rank's part is done.
// Buffers are host memory here; element counts are per rank.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"

namespace tg::dist {

// The element types reductions take: NCCL's uint32, uint64, float32, float64.
enum class DataType { kUint32, kUint64, kFloat32, kFloat64 };
enum class ReduceOp { kSum, kMin, kMax };

template <typename T>
concept ReducibleValue = std::same_as<T, uint32_t> || std::same_as<T, uint64_t> || std::same_as<T, float> ||
                         std::same_as<T, double>;
template <typename T>
concept BitmaskWord = std::same_as<T, uint32_t> || std::same_as<T, uint64_t>;
// Anything copied byte for byte: exchanged elements (ids, (id, value) pairs).
template <typename T>
concept PlainValue = std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>;

template <ReducibleValue T>
constexpr DataType data_type_of() {
  if constexpr (std::same_as<T, uint32_t>) return DataType::kUint32;
  if constexpr (std::same_as<T, uint64_t>) return DataType::kUint64;
  if constexpr (std::same_as<T, float>) return DataType::kFloat32;
  return DataType::kFloat64;
}

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual void barrier() = 0;

  // values[i] becomes the reduction of values[i] over all ranks, the same
  // on every rank: sums are taken in rank order, so floating-point results
  // agree bit for bit. Every rank passes the same count.
  template <ReducibleValue T>
  void allreduce(std::span<T> values, ReduceOp op) {
    allreduce_raw(values.data(), values.size(), data_type_of<T>(), op);
  }
  template <ReducibleValue T>
  T allreduce(T value, ReduceOp op) {
    allreduce(std::span<T>(&value, 1), op);
    return value;
  }

  // words[i] becomes the OR of words[i] over all ranks: the delegate
  // frontier and visited bitmasks (Sections IV-A, V-A). An operation of its
  // own because NCCL has no bitwise reduction: the NCCL backend (to come)
  // will do it either as ncclMax over masks of one byte per bit (0 or 1, so
  // max is OR; 8 times the volume) or as ncclAllGather of the bit masks and
  // a local OR of the p copies (p times the volume). The in-process backend
  // ORs directly.
  template <BitmaskWord T>
  void bitwise_or(std::span<T> words) {
    bitwise_or_raw(words.data(), words.size(), data_type_of<T>());
  }

  // All-to-all with per-peer counts (MPI_Alltoallv): `send` holds the
  // elements for rank 0, then those for rank 1, and so on, send_counts[q] of
  // them for rank q. Returns what every rank sent here, in rank order;
  // recv_counts, when given, gets how many came from each rank.
  template <PlainValue T>
  std::vector<T> alltoallv(std::span<const T> send, std::span<const uint64_t> send_counts,
                           std::vector<uint64_t>* recv_counts = nullptr) {
    check_send_counts(send.size(), send_counts);
    std::vector<uint64_t> send_bytes(send_counts.begin(), send_counts.end());
    for (uint64_t& b : send_bytes) b *= sizeof(T);
    std::vector<T> received;
    alltoallv_raw(send.data(), send_bytes, [&](std::span<const uint64_t> recv_bytes) {
      received.resize(total(recv_bytes) / sizeof(T));
      if (recv_counts != nullptr) recv_counts->assign(recv_bytes.begin(), recv_bytes.end());
      return static_cast<void*>(received.data());
    });
    if (recv_counts != nullptr)
      for (uint64_t& c : *recv_counts) c /= sizeof(T);
    return received;
  }

  // Every rank's `send`, concatenated in rank order (MPI_Allgatherv); counts,
  // when given, gets each rank's element count.
  template <PlainValue T>
  std::vector<T> allgatherv(std::span<const T> send, std::vector<uint64_t>* counts = nullptr) {
    std::vector<T> received;
    allgatherv_raw(send.data(), send.size() * sizeof(T), [&](std::span<const uint64_t> recv_bytes) {
      received.resize(total(recv_bytes) / sizeof(T));
      if (counts != nullptr) counts->assign(recv_bytes.begin(), recv_bytes.end());
      return static_cast<void*>(received.data());
    });
    if (counts != nullptr)
      for (uint64_t& c : *counts) c /= sizeof(T);
    return received;
  }

  // Root's values overwrite every other rank's; every rank passes the same count.
  template <PlainValue T>
  void broadcast(std::span<T> values, int root) {
    if (root < 0 || root >= size()) throw Error("broadcast from rank " + std::to_string(root) + " of " + std::to_string(size()));
    broadcast_raw(values.data(), values.size() * sizeof(T), root);
  }

 protected:
  // Called once the received sizes are known, with the bytes from each rank;
  // returns where the received bytes go, rank after rank.
  using ReceiveBuffer = std::function<void*(std::span<const uint64_t> recv_bytes)>;

  virtual void allreduce_raw(void* values, uint64_t count, DataType type, ReduceOp op) = 0;
  virtual void bitwise_or_raw(void* words, uint64_t count, DataType type) = 0;
  virtual void alltoallv_raw(const void* send, std::span<const uint64_t> send_bytes, const ReceiveBuffer& receive) = 0;
  virtual void allgatherv_raw(const void* send, uint64_t bytes, const ReceiveBuffer& receive) = 0;
  virtual void broadcast_raw(void* data, uint64_t bytes, int root) = 0;

 private:
  static uint64_t total(std::span<const uint64_t> counts) {
    uint64_t sum = 0;
    for (uint64_t c : counts) sum += c;
    return sum;
  }
  void check_send_counts(uint64_t elements, std::span<const uint64_t> send_counts) const {
    if (send_counts.size() != static_cast<size_t>(size()) || total(send_counts) != elements)
      throw Error("alltoallv: " + std::to_string(send_counts.size()) + " counts summing to " +
                  std::to_string(total(send_counts)) + " for " + std::to_string(elements) + " elements and " +
                  std::to_string(size()) + " ranks");
  }
};

}  // namespace tg::dist
