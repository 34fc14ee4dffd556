// tiergraph.FeatureStore (docs/FEATURES.md): the library's FeatureStore over
// a 2-D NumPy array or CPU torch tensor that it reads in place (kept alive by
// the store). store[ids] gives a CUDA torch tensor on a GPU store where torch
// imports (torch's memory, written in order on its current stream), a NumPy
// array otherwise; store.gather(ids, out=...) fills the caller's. Bad arguments are ValueErrors with one line.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arguments.h"
#include "dlpack_capsule.h"
#include "tiergraph/features.h"
#include "use_gpu.h"

namespace py = pybind11;

namespace tiergraph_python {
namespace {

using Int64Ids = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

[[noreturn]] void refuse(const std::string& message) { throw py::value_error(message); }

std::string name_of(const py::dtype& d) { return py::cast<std::string>(d.attr("name")); }

bool is_torch_tensor(const py::handle& o) {
  const std::string module = py::str(py::type::of(o).attr("__module__"));
  return module.rfind("torch", 0) == 0 && py::hasattr(o, "is_cuda");
}

std::optional<py::module_> torch_module() {
  try {
    return py::module_::import("torch");
  } catch (const py::error_already_set&) {
    return std::nullopt;
  }
}

struct PyFeatureStore {
  py::object owner;       // what holds the rows' memory: the caller's array or tensor
  py::array rows;         // a NumPy view of it (int16 stands for bfloat16)
  bool bfloat16 = false;  // rows were a torch.bfloat16 tensor
  int64_t cols = 0;
  std::unique_ptr<tiergraph::FeatureStore> store;

  dlpack::DataType dlpack_type() const {
    const py::dtype d = rows.dtype();
    const auto bits = static_cast<uint8_t>(d.itemsize() * 8);
    if (bfloat16) return {dlpack::kBfloat, 16, 1};
    switch (d.kind()) {
      case 'f': return {dlpack::kFloat, bits, 1};
      case 'i': return {dlpack::kInt, bits, 1};
      default: return {dlpack::kUInt, bits, 1};  // 'u', and bool as uint8
    }
  }
};

}  // namespace
}  // namespace tiergraph_python

namespace pybind11::detail {
template <>
class type_caster<tiergraph_python::PyFeatureStore>
    : public tiergraph_python::ConstructedOnly<tiergraph_python::PyFeatureStore> {};
}  // namespace pybind11::detail

namespace tiergraph_python {
namespace {

// The features as a 2-D, C-contiguous NumPy array of a plain number type
// sharing the caller's memory.
py::array feature_rows(const py::object& features, bool& bfloat16) {
  py::object view = features;
  if (is_torch_tensor(features)) {
    if (py::cast<bool>(features.attr("is_cuda")))
      refuse("features must be in host memory (a CPU tensor), not on " + std::string(py::str(features.attr("device"))));
    if (py::cast<int>(features.attr("dim")()) != 2)
      refuse("features must be 2-D (rows x columns), not " + std::to_string(py::cast<int>(features.attr("dim")())) +
             "-D");
    if (!py::cast<bool>(features.attr("is_contiguous")()))
      refuse("features must be contiguous (row-major): call .contiguous() first");
    py::object t = features.attr("detach")();
    py::module_ torch = py::module_::import("torch");
    if (t.attr("dtype").equal(torch.attr("bfloat16"))) {
      bfloat16 = true;
      t = t.attr("view")(torch.attr("int16"));
    }
    view = t.attr("numpy")();
  }
  py::array a = py::module_::import("numpy").attr("asarray")(view);
  if (a.ndim() != 2) refuse("features must be 2-D (rows x columns), not " + std::to_string(a.ndim()) + "-D");
  if (!(a.flags() & py::array::c_style))
    refuse("features must be C-contiguous (row-major): numpy.ascontiguousarray(features) first");
  const py::dtype d = a.dtype();
  const char kind = d.kind();
  if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b')
    refuse("features must hold numbers (float, int, uint or bool), not " + name_of(d));
  if (d.byteorder() == '>') refuse("features must be in the machine's byte order, not big-endian");
  return a;
}

// ids from a NumPy array, a list, a torch tensor (a CUDA one comes back to
// the host first: device_ids below keeps it on a GPU store's GPU) or one
// integer: 1-D int64, scalar set for one integer.
Int64Ids row_ids(py::object given, bool& scalar) {
  if (is_torch_tensor(given)) given = given.attr("detach")().attr("cpu")().attr("numpy")();
  py::array a = py::module_::import("numpy").attr("asarray")(given);
  scalar = a.ndim() == 0;
  if (scalar) a = a.attr("reshape")(1);
  if (a.ndim() != 1) refuse("ids must be one-dimensional, not " + std::to_string(a.ndim()) + "-D");
  if (a.size() == 0) return Int64Ids(0);
  const char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u') refuse("ids must be integers, not " + name_of(a.dtype()));
  if (kind == 'u' && a.dtype().itemsize() == 8 &&
      py::cast<uint64_t>(a.attr("max")()) > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    refuse("ids hold " + std::string(py::str(a.attr("max")())) + ", out of range");
  return Int64Ids::ensure(a);
}

// ids as a CUDA tensor on a GPU store: kept on the GPU as one-dimensional
// int64 on the store's device (a copy only where the dtype or device
// differs); none where the ids are anything else.
std::optional<py::object> device_ids(const PyFeatureStore& s, const py::object& given, bool& scalar) {
  if (!s.store->on_gpu() || !is_torch_tensor(given) || !py::cast<bool>(given.attr("is_cuda"))) return std::nullopt;
  const py::module_ torch = py::module_::import("torch");
  py::object t = given.attr("detach")();
  if (t.attr("is_floating_point")().cast<bool>() || t.attr("is_complex")().cast<bool>() ||
      t.attr("dtype").equal(torch.attr("bool")))
    refuse("ids must be integers, not " + std::string(py::str(t.attr("dtype"))));
  const int dims = py::cast<int>(t.attr("dim")());
  scalar = dims == 0;
  if (scalar) t = t.attr("reshape")(1);
  else if (dims != 1) refuse("ids must be one-dimensional, not " + std::to_string(dims) + "-D");
  return t.attr("to")(py::arg("device") = "cuda:" + std::to_string(s.store->device()),
                      py::arg("dtype") = torch.attr("int64")).attr("contiguous")();
}

// peers: None (every other GPU the store's can read) or GPU indices.
std::optional<std::vector<int>> peer_list(const py::object& peers) {
  if (peers.is_none()) return std::nullopt;
  const std::string wrong = "peers must be None or a list of GPU indices (ints), not " + shown(peers);
  if (py::isinstance<py::str>(peers) || !py::isinstance<py::iterable>(peers)) refuse(wrong);
  std::vector<int> list;
  for (const py::handle item : peers) {
    // ints and NumPy's integers (they have __index__; floats and strings do not)
    if (py::isinstance<py::bool_>(item) || !py::hasattr(item, "__index__")) refuse(wrong);
    list.push_back(whole<int>(item, "peers[" + std::to_string(list.size()) + "]"));
  }
  return list;
}

// cpu_share: "auto" (balanced: negative in the options) or a number in [0, 1].
double cpu_share_from(const py::object& given) {
  if (py::isinstance<py::str>(given)) {
    if (py::cast<std::string>(given) == "auto") return -1.0;
    refuse("cpu_share " + shown(given) + " is neither a share in [0, 1] nor 'auto'");
  }
  if (py::isinstance<py::bool_>(given) || !(py::isinstance<py::float_>(given) || py::isinstance<py::int_>(given)))
    refuse("cpu_share must be a share in [0, 1] or 'auto', not " + shown(given));
  const double share = real(given, "cpu_share");
  if (!(share >= 0.0 && share <= 1.0)) refuse("cpu_share " + shown(given) + " is outside [0, 1]");
  return share;
}

tiergraph::FeatureStoreOptions store_options(double gpu_fraction, double peer_fraction, const py::object& peers,
                                             const std::string& score, const py::object& device,
                                             const py::object& use_gpu, double sm_fraction,
                                             const py::object& train_ids, const py::object& cpu_share) {
  tiergraph::FeatureStoreOptions o;
  o.gpu_fraction = gpu_fraction;
  o.peer_fraction = peer_fraction;
  o.peers = peer_list(peers);
  o.score = score;
  o.device = whole<int>(device, "device", 0, 1024);
  o.where = where_from_use_gpu(use_gpu);
  o.sm_fraction = sm_fraction;
  o.cpu_share = cpu_share_from(cpu_share);
  if (!train_ids.is_none()) {
    bool scalar = false;
    Int64Ids t = row_ids(train_ids, scalar);
    for (py::ssize_t i = 0; i < t.size(); ++i) {
      if (t.data()[i] < 0) refuse("train_ids hold a negative id");
      o.train_ids.push_back(static_cast<uint64_t>(t.data()[i]));
    }
  }
  return o;
}

// The store's rows as torch names them.
py::object torch_dtype(const PyFeatureStore& s, const py::module_& torch) {
  if (s.bfloat16) return torch.attr("bfloat16");
  return torch.attr("from_numpy")(s.rows.attr("__getitem__")(py::slice(0, 0, 1))).attr("dtype");
}

// Rows into a CUDA tensor of the store's GPU, ordered on torch's current
// stream there (no wait for the GPU): torch's caching allocator supplies the
// memory, and the gather overlaps the host's next steps.
void gather_into_tensor(PyFeatureStore& s, const Int64Ids& ids, const py::object& tensor, const py::module_& torch) {
  const uintptr_t stream = current_stream(torch, s.store->device());
  void* to = data_of(tensor);
  py::gil_scoped_release release;
  s.store->gather_into_device(ids.data(), static_cast<size_t>(ids.size()), to, stream);
}

// Rows of CUDA ids into a CUDA tensor (`out`, or torch's memory), in order on
// torch's current stream: the ids stay on the GPU, checked and counted there.
py::object gather_device_ids(PyFeatureStore& s, const py::object& ids, py::object out) {
  const py::module_ torch = py::module_::import("torch");
  const int device = s.store->device();
  const auto n = py::cast<int64_t>(ids.attr("numel")());
  if (out.is_none())
    out = torch.attr("empty")(py::make_tuple(n, s.cols), py::arg("dtype") = torch_dtype(s, torch),
                              py::arg("device") = "cuda:" + std::to_string(device));
  const uintptr_t stream = current_stream(torch, device);
  const auto* from = static_cast<const int64_t*>(data_of(ids));
  void* to = data_of(out);
  {
    py::gil_scoped_release release;
    s.store->gather_on_device(from, static_cast<size_t>(n), to, stream);
  }
  return out;
}

py::object gather(PyFeatureStore& s, const py::object& ids_in) {
  // torch takes unsigned types of one byte only: wider ones come back as NumPy.
  const bool torch_holds = s.rows.dtype().kind() != 'u' || s.rows.dtype().itemsize() == 1;
  bool scalar = false;
  if (torch_holds)
    if (std::optional<py::object> on_gpu = device_ids(s, ids_in, scalar)) {
      py::object out = gather_device_ids(s, *on_gpu, py::none());
      return scalar ? py::object(out[py::int_(0)]) : out;
    }
  Int64Ids ids = row_ids(ids_in, scalar);
  const auto n = static_cast<size_t>(ids.size());
  py::object out;
  std::optional<py::module_> torch;
  if (s.store->on_gpu() && torch_holds) torch = torch_module();
  if (torch) {
    out = torch->attr("empty")(py::make_tuple(n, s.cols), py::arg("dtype") = torch_dtype(s, *torch),
                               py::arg("device") = "cuda:" + std::to_string(s.store->device()));
    if (n > 0 && s.cols > 0) gather_into_tensor(s, ids, out, *torch);
    else s.store->gather(ids.data(), n, nullptr);  // still checked and counted
  } else {
    py::array a(s.rows.dtype(), std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), s.cols});
    void* to = a.mutable_data();
    {
      py::gil_scoped_release release;
      s.store->gather(ids.data(), n, to);
    }
    out = a;
    if (s.bfloat16) {
      py::module_ t = py::module_::import("torch");
      out = t.attr("from_numpy")(a).attr("view")(t.attr("bfloat16"));
    }
  }
  return scalar ? py::object(out[py::int_(0)]) : out;
}

// store.gather(ids, out=...): the rows written into the caller's array or
// tensor of shape (len(ids), cols) and the store's dtype: a CUDA tensor of
// the store's GPU (ordered on torch's current stream there), or a NumPy
// array or CPU tensor (filled on return).
py::object gather_out(PyFeatureStore& s, const py::object& ids_in, const py::object& out) {
  if (out.is_none()) return gather(s, ids_in);
  bool scalar = false;
  std::optional<py::object> on_gpu = device_ids(s, ids_in, scalar);
  Int64Ids ids = on_gpu ? Int64Ids(0) : row_ids(ids_in, scalar);
  if (scalar) refuse("gather with out= takes one-dimensional ids, not one int");
  const auto n = on_gpu ? py::cast<int64_t>(on_gpu->attr("numel")()) : static_cast<int64_t>(ids.size());
  const std::string want = "(" + std::to_string(n) + ", " + std::to_string(s.cols) + ")";
  const auto check_shape = [&](const py::object& shape) {
    const auto dims = py::cast<std::vector<int64_t>>(shape);
    if (dims != std::vector<int64_t>{n, s.cols})
      refuse("out has shape " + std::string(py::str(py::tuple(shape))) + ", the rows need " + want);
  };
  if (is_torch_tensor(out) && py::cast<bool>(out.attr("is_cuda"))) {
    if (!s.store->on_gpu()) refuse("out is a CUDA tensor, but this store gathers on the CPU: give a NumPy array");
    const py::module_ torch = py::module_::import("torch");
    const int at = py::cast<int>(out.attr("device").attr("index"));
    if (at != s.store->device())
      refuse("out is on cuda:" + std::to_string(at) + ", the store on cuda:" + std::to_string(s.store->device()));
    const py::object dtype = out.attr("dtype");
    if (!dtype.equal(torch_dtype(s, torch)))
      refuse("out holds " + std::string(py::str(dtype)) + ", the store " + std::string(py::str(torch_dtype(s, torch))));
    check_shape(out.attr("shape"));
    if (!py::cast<bool>(out.attr("is_contiguous")())) refuse("out must be contiguous");
    if (on_gpu) return gather_device_ids(s, *on_gpu, out);
    if (n > 0 && s.cols > 0) gather_into_tensor(s, ids, out, torch);
    else s.store->gather(ids.data(), 0, nullptr);
    return out;
  }
  if (on_gpu) ids = row_ids(ids_in, scalar);  // into host memory: the ids go there too
  py::object host = out;
  if (is_torch_tensor(out)) {
    const py::module_ torch = py::module_::import("torch");
    const py::object dtype = out.attr("dtype");
    const bool bf16 = dtype.equal(torch.attr("bfloat16"));
    if (s.bfloat16 != bf16)
      refuse("out holds " + std::string(py::str(dtype)) + ", the store " + std::string(py::str(torch_dtype(s, torch))));
    host = bf16 ? out.attr("view")(torch.attr("int16")).attr("numpy")() : out.attr("numpy")();
  }
  if (!py::isinstance<py::array>(host)) refuse("out must be a NumPy array or a torch tensor, not " + std::string(py::repr(py::type::of(out))));
  py::array a = py::reinterpret_borrow<py::array>(host);
  if (!a.dtype().equal(s.rows.dtype()))
    refuse("out holds " + name_of(a.dtype()) + ", the store " + name_of(s.rows.dtype()));
  check_shape(a.attr("shape"));
  if (!(a.flags() & py::array::c_style)) refuse("out must be C-contiguous");
  if (!a.writeable()) refuse("out is read-only");
  void* to = a.mutable_data();
  {
    py::gil_scoped_release release;
    s.store->gather(ids.data(), static_cast<size_t>(n), to);
  }
  return out;
}

// The gathered rows as a DLPack capsule: CUDA memory on a GPU store, host
// memory otherwise (for CuPy, JAX, or torch without going through store[ids]).
py::capsule gather_dlpack(PyFeatureStore& s, const py::object& ids_in) {
  bool scalar = false;
  Int64Ids ids = row_ids(ids_in, scalar);
  const auto n = static_cast<size_t>(ids.size());
  std::shared_ptr<void> rows;
  {
    py::gil_scoped_release release;
    if (s.store->on_gpu()) {
      rows = s.store->gather_to_device(ids.data(), n);
    } else {
      auto host = std::make_shared<std::vector<uint8_t>>(n * s.store->row_bytes());
      s.store->gather(ids.data(), n, host->data());
      rows = std::shared_ptr<void>(host, host->data());
    }
  }
  return make_dlpack_capsule(std::move(rows), {static_cast<int64_t>(n), s.cols}, s.dlpack_type(), s.store->device());
}

// hit_ratio keeps its meaning from before the peer tier (the share read
// from this GPU's memory); peer_hit_ratio is the peers' share, the rest
// came from host memory.
py::dict stats_dict(const tiergraph::FeatureStore& store) {
  const tiergraph::FeatureStoreStats st = store.stats();
  auto tiers = [](uint64_t gpu, uint64_t peer, uint64_t host) {
    py::dict d;
    d["gpu"] = gpu;
    d["peer"] = peer;
    d["host"] = host;
    return d;
  };
  py::dict d;
  d["on_gpu"] = st.on_gpu;
  d["peers"] = store.peers();
  d["rows"] = tiers(st.gpu_rows, st.peer_rows, st.host_rows);
  d["hits"] = tiers(st.gpu_hits, st.peer_hits, st.host_hits);
  d["bytes"] = tiers(st.gpu_bytes, st.peer_bytes, st.host_bytes);
  const uint64_t hits = st.gpu_hits + st.peer_hits + st.host_hits;
  const auto share = [hits](uint64_t part) {
    return hits > 0 ? static_cast<double>(part) / static_cast<double>(hits) : 0.0;
  };
  d["hit_ratio"] = share(st.gpu_hits);
  d["peer_hit_ratio"] = share(st.peer_hits);
  d["gathers"] = st.gathers;
  return d;
}

}  // namespace

void bind_feature_store(py::module_& m) {
  py::class_<PyFeatureStore>(m, "FeatureStore",
                             "Feature rows gathered by id: in place from host memory (zero-copy on a GPU), the "
                             "hottest gpu_fraction of rows from GPU memory, the next peer_fraction from the peer "
                             "GPUs' memories")
      .def(py::init([](ArrayLike features_arg, OptionalGraph graph, Float gpu_fraction_in, OptionalStr score_in,
                       Int device, OptionalBool use_gpu, Float sm_fraction_in, OptionalArrayLike train_ids,
                       Float peer_fraction_in, OptionalIntList peers, FloatOrAuto cpu_share) {
             const py::object features = features_arg.value;
             const double gpu_fraction = real(gpu_fraction_in, "gpu_fraction");
             const double peer_fraction = real(peer_fraction_in, "peer_fraction");
             const double sm_fraction = real(sm_fraction_in, "sm_fraction");
             auto s = std::make_unique<PyFeatureStore>();
             s->owner = features;
             s->rows = feature_rows(features, s->bfloat16);
             s->cols = static_cast<int64_t>(s->rows.shape(1));
             const tiergraph::Graph* g = optional_graph(graph);
             // A score ranks the graph's vertices: without a graph it was dropped unread.
             if (!score_in.is_none() && g == nullptr)
               refuse("score ranks a graph's vertices: give graph= too (without one the first rows are hot)");
             const std::string score = score_in.is_none() ? "degree" : text(score_in, "score");
             for (auto [name, fraction] : {std::pair{"gpu_fraction", gpu_fraction}, {"peer_fraction", peer_fraction}})
               if (!(fraction >= 0.0 && fraction <= 1.0))
                 refuse(name + (" " + std::string(py::str(py::float_(fraction)))) + " is outside [0, 1]");
             const tiergraph::FeatureStoreOptions o =
                 store_options(gpu_fraction, peer_fraction, peers.value, score, device.value, use_gpu.value,
                               sm_fraction, train_ids.value, cpu_share.value);
             const auto num_rows = static_cast<uint64_t>(s->rows.shape(0));
             const uint64_t row_bytes = static_cast<uint64_t>(s->cols) * s->rows.dtype().itemsize();
             const void* data = s->rows.data();
             {
               py::gil_scoped_release release;
               s->store = std::make_unique<tiergraph::FeatureStore>(data, num_rows, row_bytes, g, o);
             }
             // A copy takes the matrix's size again in host memory and misses
             // later writes to it: say so where it happens, not only in repr(),
             // for matrices large enough for the memory to matter (small arrays
             // beside others on the heap are copied often and cheaply).
             constexpr uint64_t kWarnOfCopiesFrom = uint64_t{64} << 20;
             if (!s->store->host_rows_in_place() && num_rows * row_bytes >= kWarnOfCopiesFrom) {
               const std::string message = "tiergraph.FeatureStore: " + s->store->description();
               if (PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 1) != 0) throw py::error_already_set();
             }
             return s;
           }),
           py::arg("features"), py::arg("graph") = py::none(), py::arg("gpu_fraction") = 0.0,
           py::arg("score") = py::none(), py::arg("device") = 0, py::kw_only(), py::arg("use_gpu") = py::none(),
           py::arg("sm_fraction") = 1.0, py::arg("train_ids") = py::none(), py::arg("peer_fraction") = 0.0,
           py::arg("peers") = py::none(), py::arg("cpu_share") = 0.0,
           "features: 2-D C-contiguous NumPy array or CPU torch tensor (float, int, bfloat16 ...), read in place "
           "and kept alive. graph: one vertex per row, to score rows for the tiers (none: the first rows are "
           "hot). score: 'degree', 'reverse-pagerank' or 'weighted-reverse-pagerank' (train_ids). use_gpu: None "
           "(a GPU where usable), True, False. sm_fraction: share of the SMs the gather kernel may fill. "
           "peer_fraction: the rows after the GPU tier's, interleaved over the peer GPUs' memories and read "
           "directly (gpu_fraction + peer_fraction <= 1). peers: GPU indices, or None for every other GPU that "
           "device can read (none: those rows stay in host memory, as repr() says). cpu_share: share of each "
           "large gather's host rows that CPU threads gather for the copy engine beside the GPU's zero-copy reads "
           "(0 none, a number in [0, 1], or 'auto': balanced from measured rates; meant for rows under about 1 KB, "
           "it gained nothing on the H200, docs/PERF.md).")
      .def("__getitem__", &gather, py::arg("ids"),
           "Rows ids (NumPy array, list, torch tensor or one int): a CUDA torch tensor on a GPU store where torch "
           "imports (from torch's allocator, written in order on its current stream), a NumPy array otherwise.")
      .def("gather", &gather_out, py::arg("ids"), py::kw_only(), py::arg("out") = py::none(),
           "Rows ids into out (shape (len(ids), cols), the store's dtype): a CUDA tensor on the store's GPU, "
           "written in order on torch's current stream there (no wait), or a NumPy array or CPU tensor, filled on "
           "return. Returns out; without out, as store[ids].")
      .def("gather_dlpack", &gather_dlpack, py::arg("ids"),
           "Rows ids as a DLPack capsule: GPU memory on a GPU store, host memory otherwise.")
      .def("stats", [](const PyFeatureStore& s) { return stats_dict(*s.store); },
           "Rows, hits and bytes per tier ('gpu', 'peer', 'host'), the peer GPUs, the share of hits from this GPU "
           "(hit_ratio) and from the peers (peer_hit_ratio), and the number of gathers so far.")
      .def("reset_stats", [](PyFeatureStore& s) { s.store->reset_stats(); })
      .def("__len__", [](const PyFeatureStore& s) { return s.store->num_rows(); })
      .def_property_readonly("shape",
                             [](const PyFeatureStore& s) { return py::make_tuple(s.store->num_rows(), s.cols); })
      .def_property_readonly("dtype", [](const PyFeatureStore& s) -> py::object {
        if (s.bfloat16) return py::module_::import("torch").attr("bfloat16");
        return s.rows.dtype();
      })
      .def_property_readonly("on_gpu", [](const PyFeatureStore& s) { return s.store->on_gpu(); })
      .def_property_readonly("device", [](const PyFeatureStore& s) -> py::object {
        if (!s.store->on_gpu()) return py::none();
        return py::int_(s.store->device());
      })
      .def_property_readonly("peers", [](const PyFeatureStore& s) { return s.store->peers(); })
      .def_property_readonly(
          "host_rows_in_place", [](const PyFeatureStore& s) { return s.store->host_rows_in_place(); },
          "False where a GPU store could not register the features in place (a read-only file mapping where "
          "read-only registration is unsupported; np.memmap(mode='c'), a private mapping that pins far too slowly; "
          "memory sharing a page with memory registered elsewhere) and "
          "copied them once into pinned memory: twice the host memory, later writes unseen (repr() says why; a "
          "RuntimeWarning at construction from 64 MiB).")
      .def("__repr__", [](const PyFeatureStore& s) {
        return "<tiergraph.FeatureStore " + std::to_string(s.store->num_rows()) + " x " + std::to_string(s.cols) +
               (s.bfloat16 ? std::string(" bfloat16") : " " + name_of(s.rows.dtype())) + ": " +
               s.store->description() + ">";
      });
}

}  // namespace tiergraph_python
