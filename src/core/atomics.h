// Atomic read-modify-write helpers that compile to CUDA atomics in device code
// and to GCC builtins on the host, so an algorithm's operators are written once.
// Floating-point min/max use the integer order of non-negative IEEE values
// (distances and widths are never negative), which both sides support natively.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/types.h"

namespace tg {

namespace detail {
template <typename To, typename From>
TG_HD To bit_cast(From x) {
  static_assert(sizeof(To) == sizeof(From));
  To y;
  memcpy(&y, &x, sizeof(To));
  return y;
}
template <typename T>
struct SameSizeUnsigned;
template <>
struct SameSizeUnsigned<float> {
  using type = uint32_t;
};
template <>
struct SameSizeUnsigned<double> {
  using type = unsigned long long;
};
template <>
struct SameSizeUnsigned<int32_t> {
  using type = int32_t;
};
template <>
struct SameSizeUnsigned<uint32_t> {
  using type = uint32_t;
};
template <>
struct SameSizeUnsigned<uint64_t> {
  using type = unsigned long long;
};
}  // namespace detail

// Integer atomics on the types CUDA supports directly.
template <typename T>
TG_HD T atomic_load(const T* p) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const volatile T*>(p);
#else
  return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

template <typename T>
TG_HD bool compare_and_swap(T* p, T expected, T desired) {
#if defined(__CUDA_ARCH__)
  using U = typename detail::SameSizeUnsigned<T>::type;
  U old = atomicCAS(reinterpret_cast<U*>(p), detail::bit_cast<U>(expected), detail::bit_cast<U>(desired));
  return old == detail::bit_cast<U>(expected);
#else
  return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#endif
}

// Returns true when *p was lowered to value. On the GPU a plain read comes
// first, and no atomic where it shows that none can lower *p: most
// relaxations improve nothing, and a read may hit in L1 where an atomic
// goes to L2. The callers' values only ever fall while they run (distances,
// labels), so a stale read is at or above the true value: it never skips a
// lowering. atomic_max alike, for values that only rise.
template <typename T>
TG_HD bool atomic_min(T* p, T value) {
  if constexpr (std::is_same_v<T, float>) {
    // non-negative floats order like their bit patterns
    return atomic_min(reinterpret_cast<uint32_t*>(p), detail::bit_cast<uint32_t>(value));
  } else if constexpr (std::is_same_v<T, double>) {
    return atomic_min(reinterpret_cast<uint64_t*>(p), detail::bit_cast<uint64_t>(value));
  } else {
#if defined(__CUDA_ARCH__)
    using U = typename detail::SameSizeUnsigned<T>::type;
    if (!(value < *p)) return false;
    U old = atomicMin(reinterpret_cast<U*>(p), static_cast<U>(value));
    return value < static_cast<T>(old);
#else
    T old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (value < old) {
      if (__atomic_compare_exchange_n(p, &old, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return true;
    }
    return false;
#endif
  }
}

// Returns true when *p was raised to value.
template <typename T>
TG_HD bool atomic_max(T* p, T value) {
  if constexpr (std::is_same_v<T, float>) {
    return atomic_max(reinterpret_cast<uint32_t*>(p), detail::bit_cast<uint32_t>(value));
  } else if constexpr (std::is_same_v<T, double>) {
    return atomic_max(reinterpret_cast<uint64_t*>(p), detail::bit_cast<uint64_t>(value));
  } else {
#if defined(__CUDA_ARCH__)
    using U = typename detail::SameSizeUnsigned<T>::type;
    if (!(value > *p)) return false;
    U old = atomicMax(reinterpret_cast<U*>(p), static_cast<U>(value));
    return value > static_cast<T>(old);
#else
    T old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (value > old) {
      if (__atomic_compare_exchange_n(p, &old, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return true;
    }
    return false;
#endif
  }
}

// Returns the value *p held before the add (accumulative operators compare
// the sum they produced with a threshold).
template <typename T>
TG_HD T atomic_add(T* p, T value) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, uint64_t>) {
    return static_cast<T>(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(value)));
  } else {
    return atomicAdd(p, value);
  }
#else
  if constexpr (std::is_floating_point_v<T>) {
    // GCC has no floating-point fetch_add builtin: loop on the bit pattern
    using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
    U* q = reinterpret_cast<U*>(p);
    U old = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &old, detail::bit_cast<U>(detail::bit_cast<T>(old) + value), true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return detail::bit_cast<T>(old);
  } else {
    return __atomic_fetch_add(p, value, __ATOMIC_RELAXED);
  }
#endif
}

}  // namespace tg
