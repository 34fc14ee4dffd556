#include "distributed/in_process_communicator.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tg::dist {

namespace {

enum class Collective { kBarrier, kAllreduce, kBitwiseOr, kAlltoallv, kAllgatherv, kBroadcast };

const char* collective_name(Collective c) {
  constexpr const char* kNames[] = {"barrier", "allreduce", "bitwise_or", "alltoallv", "allgatherv", "broadcast"};
  return kNames[static_cast<int>(c)];
}

// What a rank hands the others for one collective.
struct Posting {
  Collective collective = Collective::kBarrier;
  DataType type = DataType::kUint32;
  ReduceOp op = ReduceOp::kSum;
  int root = 0;
  const void* data = nullptr;
  uint64_t count = 0;                  // elements for reductions, bytes otherwise
  const uint64_t* peer_bytes = nullptr;  // alltoallv: bytes for each rank
};

// Thrown in a rank that waits in, or enters, a collective after another rank
// failed: a consequence, so run_ranks rethrows the cause instead.
class PeerFailed : public Error {
 public:
  using Error::Error;
};

size_t type_bytes(DataType type) {
  return type == DataType::kUint32 || type == DataType::kFloat32 ? 4 : 8;
}

template <typename T>
void combine(T* acc, const T* in, uint64_t n, ReduceOp op, bool bitwise_or) {
  for (uint64_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>) {
      if (bitwise_or) {
        acc[i] |= in[i];
        continue;
      }
    }
    switch (op) {
      case ReduceOp::kSum: acc[i] += in[i]; break;
      case ReduceOp::kMin: acc[i] = std::min(acc[i], in[i]); break;
      case ReduceOp::kMax: acc[i] = std::max(acc[i], in[i]); break;
    }
  }
}

void combine(void* acc, const void* in, uint64_t n, DataType type, ReduceOp op, bool bitwise_or) {
  switch (type) {
    case DataType::kUint32:
      return combine(static_cast<uint32_t*>(acc), static_cast<const uint32_t*>(in), n, op, bitwise_or);
    case DataType::kUint64:
      return combine(static_cast<uint64_t*>(acc), static_cast<const uint64_t*>(in), n, op, bitwise_or);
    case DataType::kFloat32:
      return combine(static_cast<float*>(acc), static_cast<const float*>(in), n, op, false);
    case DataType::kFloat64:
      return combine(static_cast<double*>(acc), static_cast<const double*>(in), n, op, false);
  }
}

// Every rank sees every posting, so every rank finds a mismatch and throws.
void check_matching(const std::vector<Posting>& posted) {
  const Posting& first = posted[0];
  for (size_t r = 1; r < posted.size(); ++r) {
    const Posting& p = posted[r];
    std::string what;
    if (p.collective != first.collective)
      what = std::string(collective_name(p.collective)) + " against rank 0's " + collective_name(first.collective);
    else if ((p.collective == Collective::kAllreduce || p.collective == Collective::kBitwiseOr) &&
             (p.type != first.type || p.op != first.op || p.count != first.count))
      what = collective_name(p.collective) + std::string(" of ") + std::to_string(p.count) +
             " elements or another type or operation than rank 0's " + std::to_string(first.count);
    else if (p.collective == Collective::kBroadcast && (p.root != first.root || p.count != first.count))
      what = "broadcast of " + std::to_string(p.count) + " bytes from rank " + std::to_string(p.root) +
             " against rank 0's " + std::to_string(first.count) + " from rank " + std::to_string(first.root);
    if (!what.empty()) throw Error("collectives differ across ranks: rank " + std::to_string(r) + " called " + what);
  }
}

}  // namespace

class InProcessGroup {
 public:
  explicit InProcessGroup(int size) : size_(size), posted_(size) {}

  int size() const { return size_; }
  Posting& slot(int rank) { return posted_[rank]; }
  const std::vector<Posting>& posted() const { return posted_; }

  // A generation barrier that also wakes on a failed or departed rank.
  void arrive_and_wait(int rank) {
    std::unique_lock<std::mutex> lock(mutex_);
    throw_if_broken(rank);
    const uint64_t generation = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      wake_.notify_all();
      return;
    }
    wake_.wait(lock, [&] { return generation_ != generation || failed_ || departed_ >= 0; });
    if (generation_ != generation) return;
    throw_if_broken(rank);
  }

  // The first cause is kept; every waiting rank wakes.
  void fail(std::exception_ptr cause) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failed_) cause_ = cause;
    failed_ = true;
    wake_.notify_all();
  }

  // A rank's body returned: no collective can complete any more.
  void depart(int rank) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (departed_ < 0) departed_ = rank;
    wake_.notify_all();
  }

  std::exception_ptr cause() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cause_;
  }

 private:
  void throw_if_broken(int rank) const {
    if (failed_) throw PeerFailed("rank " + std::to_string(rank) + " stopped: another rank failed");
    if (departed_ >= 0)
      throw Error("rank " + std::to_string(rank) + " waits in a collective that rank " + std::to_string(departed_) +
                  " will never join: it has returned");
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  const int size_;
  int arrived_ = 0;
  uint64_t generation_ = 0;
  bool failed_ = false;
  int departed_ = -1;
  std::exception_ptr cause_;
  std::vector<Posting> posted_;
};

namespace {

// Post, wait for all, read the others' postings, wait again. A failure while
// reading is rethrown only after the second barrier, so that the other ranks
// never read a buffer this rank's unwinding has freed.
template <typename Read>
void collective(InProcessGroup& group, int rank, const Posting& mine, Read&& read) {
  group.slot(rank) = mine;
  group.arrive_and_wait(rank);
  std::exception_ptr failure;
  try {
    check_matching(group.posted());
    read(group.posted());
  } catch (...) {
    failure = std::current_exception();
  }
  group.arrive_and_wait(rank);
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

InProcessCommunicator::InProcessCommunicator(std::shared_ptr<InProcessGroup> group, int rank)
    : group_(std::move(group)), rank_(rank) {}

int InProcessCommunicator::size() const { return group_->size(); }

void InProcessCommunicator::barrier() {
  collective(*group_, rank_, Posting{}, [](const std::vector<Posting>&) {});
}

void InProcessCommunicator::reduce(void* values, uint64_t count, DataType type, ReduceOp op, bool bitwise_or) {
  const size_t bytes = count * type_bytes(type);
  std::vector<std::byte> result(bytes);
  Posting mine{bitwise_or ? Collective::kBitwiseOr : Collective::kAllreduce, type, op, 0, values, count, nullptr};
  // In rank order on every rank, so float sums agree bit for bit.
  collective(*group_, rank_, mine, [&](const std::vector<Posting>& posted) {
    if (bytes == 0) return;
    std::memcpy(result.data(), posted[0].data, bytes);
    for (size_t r = 1; r < posted.size(); ++r) combine(result.data(), posted[r].data, count, type, op, bitwise_or);
  });
  if (bytes > 0) std::memcpy(values, result.data(), bytes);
}

void InProcessCommunicator::allreduce_raw(void* values, uint64_t count, DataType type, ReduceOp op) {
  reduce(values, count, type, op, false);
}

void InProcessCommunicator::bitwise_or_raw(void* words, uint64_t count, DataType type) {
  reduce(words, count, type, ReduceOp::kMax, true);
}

void InProcessCommunicator::alltoallv_raw(const void* send, std::span<const uint64_t> send_bytes,
                                          const ReceiveBuffer& receive) {
  Posting mine{Collective::kAlltoallv, {}, {}, 0, send, 0, send_bytes.data()};
  collective(*group_, rank_, mine, [&](const std::vector<Posting>& posted) {
    const size_t p = posted.size();
    std::vector<uint64_t> recv_bytes(p), offset_in_sender(p, 0);
    for (size_t q = 0; q < p; ++q) {
      recv_bytes[q] = posted[q].peer_bytes[rank_];
      for (int before = 0; before < rank_; ++before) offset_in_sender[q] += posted[q].peer_bytes[before];
    }
    auto* out = static_cast<std::byte*>(receive(recv_bytes));
    for (size_t q = 0; q < p; ++q) {
      if (recv_bytes[q] > 0)
        std::memcpy(out, static_cast<const std::byte*>(posted[q].data) + offset_in_sender[q], recv_bytes[q]);
      out += recv_bytes[q];
    }
  });
}

void InProcessCommunicator::allgatherv_raw(const void* send, uint64_t bytes, const ReceiveBuffer& receive) {
  Posting mine{Collective::kAllgatherv, {}, {}, 0, send, bytes, nullptr};
  collective(*group_, rank_, mine, [&](const std::vector<Posting>& posted) {
    std::vector<uint64_t> recv_bytes;
    for (const Posting& q : posted) recv_bytes.push_back(q.count);
    auto* out = static_cast<std::byte*>(receive(recv_bytes));
    for (const Posting& q : posted) {
      if (q.count > 0) std::memcpy(out, q.data, q.count);
      out += q.count;
    }
  });
}

void InProcessCommunicator::broadcast_raw(void* data, uint64_t bytes, int root) {
  Posting mine{Collective::kBroadcast, {}, {}, root, data, bytes, nullptr};
  collective(*group_, rank_, mine, [&](const std::vector<Posting>& posted) {
    if (rank_ != root && bytes > 0) std::memcpy(data, posted[root].data, bytes);
  });
}

void run_ranks(int num_ranks, const std::function<void(Communicator&)>& body) {
  if (num_ranks < 1) throw usage_error("the number of ranks must be at least 1, not " + std::to_string(num_ranks));
  auto group = std::make_shared<InProcessGroup>(num_ranks);
  auto run_rank = [&group, &body](int rank) {
    InProcessCommunicator communicator(group, rank);
    try {
      body(communicator);
      group->depart(rank);
    } catch (const PeerFailed&) {
      // The rank that failed first holds the cause.
    } catch (...) {
      group->fail(std::current_exception());
    }
  };
  std::vector<std::thread> threads;
  try {
    for (int r = 0; r < num_ranks; ++r) threads.emplace_back(run_rank, r);
  } catch (...) {
    group->fail(std::current_exception());  // the ranks started would wait for the missing ones
  }
  for (std::thread& t : threads) t.join();
  if (std::exception_ptr cause = group->cause()) std::rethrow_exception(cause);
}

}  // namespace tg::dist
