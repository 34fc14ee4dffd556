// The hybrid engine's vertex arrays live twice: on the accelerator (the GPU
// engine's device arrays, which algorithms see through data(a)) and in a
// host mirror that the CPU side reads and writes. An operator is a plain
// struct of pointers and scalars made by the algorithm from data(a), so the
// CPU side runs a copy of it whose pointers are moved into the mirrors:
// relocate() rewrites every pointer-sized, pointer-aligned word of the copy
// that points into a registered array. Operators are trivially copyable
// already (they are kernel arguments), so the copy is exact; a scalar would
// have to equal a live device address to be taken for a pointer, which no
// count, id, weight or probability does (a double with those bits is a
// subnormal below 1e-300).
//
// The map also says which arrays an operator can touch: an operator reaches
// vertex data only through its pointers, so only those arrays need to be in
// step before and after it runs on the other side.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace tg::hybrid {

struct Mirror {
  uintptr_t primary = 0;  // the accelerator's array
  uintptr_t host = 0;     // its host mirror; 0 until a split step needs it
  std::shared_ptr<void> buffer;  // the mirror's memory, where the map owns it
  uint64_t bytes = 0;
  uint64_t elem_bytes = 0;
  bool host_fresh = false;  // the mirror equals the accelerator's array
  bool synced = true;       // false for read-only entries (offsets), never copied
};

class MirrorMap {
 public:
  // Returns the entry's id (ids index a vector; a removed entry's slot is
  // reused). `host` may be null: the mirror is then made when first needed.
  int add(const void* primary, void* host, uint64_t elems, uint64_t elem_bytes, bool synced) {
    Mirror m{reinterpret_cast<uintptr_t>(primary), reinterpret_cast<uintptr_t>(host), nullptr, elems * elem_bytes,
             elem_bytes, !synced, synced};
    for (size_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].bytes == 0) {
        entries_[i] = m;
        return static_cast<int>(i);
      }
    entries_.push_back(m);
    return static_cast<int>(entries_.size() - 1);
  }
  void remove(int id) { entries_[static_cast<size_t>(id)] = Mirror{}; }
  Mirror& at(int id) { return entries_[static_cast<size_t>(id)]; }

  // The entry whose accelerator array holds address p, or -1.
  int find(uintptr_t p) const {
    for (size_t i = 0; i < entries_.size(); ++i) {
      const Mirror& m = entries_[i];
      if (m.bytes > 0 && p >= m.primary && p < m.primary + m.bytes) return static_cast<int>(i);
    }
    return -1;
  }

  // The ids of the arrays the operator points into (each once); every
  // synced array for a function the map cannot read (not a plain struct).
  template <typename Op>
  std::vector<int> used_by(const Op& op) const {
    std::vector<int> ids;
    if constexpr (!std::is_trivially_copyable_v<Op>) {
      for (size_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].bytes > 0 && entries_[i].synced) ids.push_back(static_cast<int>(i));
    } else {
      for_each_word(op, [&](uintptr_t w) {
        int id = find(w);
        if (id >= 0 && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        return w;
      });
    }
    return ids;
  }

  // Whether a word of op that no entry holds satisfies `foreign` (points to
  // the accelerator's memory, say).
  template <typename Op, typename Pred>
  bool points_outside(const Op& op, Pred&& foreign) const {
    bool any = false;
    for_each_word(op, [&](uintptr_t w) {
      if (find(w) < 0 && foreign(w)) any = true;
      return w;
    });
    return any;
  }

  // A copy of op whose pointers into accelerator arrays point into the
  // mirrors instead.
  template <typename Op>
  Op relocate(const Op& op) const {
    return for_each_word(op, [&](uintptr_t w) {
      int id = find(w);
      if (id < 0) return w;
      const Mirror& m = entries_[static_cast<size_t>(id)];
      return m.host + (w - m.primary);
    });
  }

 private:
  template <typename Op, typename F>
  static Op for_each_word(const Op& op, F&& f) {
    // Words at pointer alignment: an Op's pointers sit at multiples of 8.
    static_assert(std::is_trivially_copyable_v<Op>, "hybrid engine: operators must be plain structs (kernel arguments)");
    auto bytes = std::bit_cast<std::array<unsigned char, sizeof(Op)>>(op);
    for (size_t at = 0; at + sizeof(uintptr_t) <= sizeof(Op); at += alignof(uintptr_t)) {
      uintptr_t w;
      std::memcpy(&w, bytes.data() + at, sizeof w);
      w = f(w);
      std::memcpy(bytes.data() + at, &w, sizeof w);
    }
    return std::bit_cast<Op>(bytes);
  }

  std::vector<Mirror> entries_;
};

}  // namespace tg::hybrid
