// Handing memory to PyTorch, CuPy or NumPy as a DLPack capsule ("dltensor")
// without a copy: the tensor owns the memory (a shared_ptr) until its
// consumer calls the deleter. The structs are DLPack's stable C ABI (v0.x,
// what torch.utils.dlpack.from_dlpack takes), declared here so that the
// build needs no dlpack.h.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace tiergraph_python {

namespace dlpack {
enum DeviceType : int32_t { kCPU = 1, kCUDA = 2 };
enum TypeCode : uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kBfloat = 4 };
struct Device {
  int32_t device_type;
  int32_t device_id;
};
struct DataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct Tensor {
  void* data;
  Device device;
  int32_t ndim;
  DataType dtype;
  int64_t* shape;
  int64_t* strides;  // null: compact, row-major
  uint64_t byte_offset;
};
struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor* self);
};
}  // namespace dlpack

// What a capsule keeps alive: the memory and the shape the tensor points at.
struct DlpackOwner {
  std::shared_ptr<void> memory;
  std::vector<int64_t> shape;
  dlpack::ManagedTensor managed{};
};

// A capsule over `memory` (device memory of GPU `device`, or host memory for
// device < 0) holding a row-major tensor of `shape` and element type dtype.
inline pybind11::capsule make_dlpack_capsule(std::shared_ptr<void> memory, std::vector<int64_t> shape,
                                             dlpack::DataType dtype, int device) {
  auto* owner = new DlpackOwner{std::move(memory), std::move(shape), {}};
  dlpack::Tensor& t = owner->managed.dl_tensor;
  t.data = owner->memory.get();
  t.device = device >= 0 ? dlpack::Device{dlpack::kCUDA, device} : dlpack::Device{dlpack::kCPU, 0};
  t.ndim = static_cast<int32_t>(owner->shape.size());
  t.dtype = dtype;
  t.shape = owner->shape.data();
  t.strides = nullptr;
  t.byte_offset = 0;
  owner->managed.manager_ctx = owner;
  owner->managed.deleter = [](dlpack::ManagedTensor* self) { delete static_cast<DlpackOwner*>(self->manager_ctx); };
  // A consumer renames the capsule "used_dltensor" and calls the deleter
  // when its tensor dies; a capsule never consumed frees the memory itself.
  PyObject* capsule = PyCapsule_New(&owner->managed, "dltensor", [](PyObject* self) {
    if (PyCapsule_IsValid(self, "dltensor")) {
      auto* m = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(self, "dltensor"));
      m->deleter(m);
    } else {
      PyErr_Clear();
    }
  });
  if (capsule == nullptr) {
    delete owner;
    throw pybind11::error_already_set();
  }
  return pybind11::reinterpret_steal<pybind11::capsule>(capsule);
}

}  // namespace tiergraph_python
