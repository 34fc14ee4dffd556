// The Python module `tiergraph` (docs/PYTHON.md): the library's public API
// (include/tiergraph/) for Debian's /usr/bin/python3, built with Debian's
// pybind11. Values come back as NumPy arrays that own the library's result
// vectors (no copy); errors as Python exceptions with the library's one-line
// message: a usage error (unknown algorithm, source out of range) is a
// ValueError, unfit input (a missing or malformed file, sssp without
// weights) a tiergraph.InputError (also a ValueError), GPU memory too short
// for a feature tier or a sampler a MemoryError (the numbers in its message),
// anything else (no usable GPU) a RuntimeError. Arguments of the wrong type
// are a TypeError; integers out of their range a ValueError (arguments.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arguments.h"
#include "tiergraph/tiergraph.h"
#include "use_gpu.h"

namespace py = pybind11;
using tiergraph_python::ArrayLike;
using tiergraph_python::Bool;
using tiergraph_python::flag;
using tiergraph_python::Float;
using tiergraph_python::graph_of;
using tiergraph_python::GraphArg;
using tiergraph_python::Int;
using tiergraph_python::IntList;
using tiergraph_python::optional_text;
using tiergraph_python::optional_whole;
using tiergraph_python::OptionalArrayLike;
using tiergraph_python::OptionalBool;
using tiergraph_python::OptionalInt;
using tiergraph_python::OptionalIntList;
using tiergraph_python::OptionalStr;
using tiergraph_python::real;
using tiergraph_python::Str;
using tiergraph_python::text;
using tiergraph_python::whole;
using tiergraph_python::whole_list;

namespace tiergraph_python {
void bind_feature_store(py::module_& m);  // feature_store.cc
}

namespace {

// A NumPy array over the vector's own memory: the vector moves into a heap
// object that the array's base (a capsule) frees with the array.
template <typename T>
py::array_t<T> to_numpy(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({owned->size()}, {sizeof(T)}, owned->data(), free_when_done);
}

py::dict stats_of(const tiergraph::Result& r) {
  py::dict stats;
  stats["algorithm"] = r.algorithm;
  stats["engine"] = r.engine;
  stats["placement"] = r.placement;
  if (!r.engine_note.empty()) stats["engine_note"] = r.engine_note;
  stats["sources"] = r.sources;
  py::dict seconds;
  for (const auto& [phase, s] : r.time_s) seconds[py::str(phase)] = s;
  stats["time_s"] = seconds;
  stats["iterations"] = r.iterations;
  stats["edges_traversed"] = r.edges_traversed;
  stats["bytes_moved"] = r.bytes_moved;
  stats["bytes_needed"] = r.bytes_needed;
  stats["summary"] = r.summary;
  if (r.verified) {
    stats["verified"] = *r.verified;
    stats["verification"] = r.verification;
  }
  stats["json"] = r.json;
  return stats;
}

tiergraph::LoadOptions load_options(bool undirected, bool simplify, const std::optional<std::string>& weights,
                                    bool ids64, int edge_factor, uint64_t seed, bool lists_by_weight) {
  tiergraph::LoadOptions o;
  o.lists_by_weight = lists_by_weight;
  o.undirected = undirected;
  o.simplify = simplify;
  if (weights) o.random_weights = *weights;
  o.ids64 = ids64;
  o.edge_factor = edge_factor;
  o.seed = seed;
  return o;
}

// Vertex ids from anything NumPy takes (lists, arrays, CPU tensors), without
// a copy where they are unsigned 64-bit already: one-dimensional integers,
// none negative.
py::array_t<uint64_t, py::array::c_style | py::array::forcecast> vertex_ids(py::object given, const char* what) {
  if (given.is_none()) throw py::type_error(std::string(what) + " must be vertex ids (an array or a list), not None");
  py::array a = py::module_::import("numpy").attr("asarray")(given);
  if (a.ndim() != 1) throw tiergraph::Error(std::string(what) + " must be one-dimensional", tiergraph::ErrorKind::kUsage);
  const char kind = a.dtype().kind();
  if (kind == 'O' && a.size() > 0)  // what NumPy keeps as Python objects: ints past 64 bits, or mixed types
    throw tiergraph::Error(std::string(what) + " must hold integers below 2^64, not objects (" +
                               std::string(py::repr(a[py::int_(0)])) + ", ...)",
                           tiergraph::ErrorKind::kUsage);
  if (kind != 'i' && kind != 'u' && a.size() > 0)
    throw tiergraph::Error(std::string(what) + " must hold integers, not " + std::string(py::str(a.dtype())),
                           tiergraph::ErrorKind::kUsage);
  if (kind == 'i' && a.size() > 0 && py::cast<int64_t>(a.attr("min")()) < 0)
    throw tiergraph::Error(std::string(what) + " holds a negative vertex id", tiergraph::ErrorKind::kInput);
  return py::array_t<uint64_t, py::array::c_style | py::array::forcecast>::ensure(a);
}

// Ids as int64 (what torch indexes with), sharing the vector's memory: every
// id is below 2^63.
py::object as_int64(std::vector<uint64_t>&& ids) { return to_numpy(std::move(ids)).attr("view")("int64"); }

py::dict hop_dict(tiergraph::SampledHop&& hop) {
  py::dict d;
  const size_t edges = hop.edge_src.size();
  // Rows of a C-ordered 2 x E array: two straight copies (ids are below 2^63).
  py::array_t<int64_t> edge_index({size_t{2}, edges});
  int64_t* rows = edge_index.mutable_data();
  std::copy(hop.edge_src.begin(), hop.edge_src.end(), rows);
  std::copy(hop.edge_dst.begin(), hop.edge_dst.end(), rows + edges);
  d["dst_nodes"] = as_int64(std::move(hop.dst_nodes));
  d["src_nodes"] = as_int64(std::move(hop.src_nodes));
  d["edge_index"] = edge_index;
  return d;
}

// The hops in arrays that make(words) creates (an object and its memory),
// which sample(allocate) fills in sample_into's order: the seeds' copy, then
// per hop its edge index and its sources, so arrays[2h + 1] and [2h + 2] are
// hop h's and hop h + 1's dst_nodes are hop h's src_nodes. sample runs with
// the GIL released; a Python error in make (out of memory) leaves as a
// tiergraph::Error, its message taken while the GIL is held.
template <typename Make, typename Sample>
py::list hops_in_arrays(const char* who, const Make& make, const Sample& sample) {
  std::vector<py::object> arrays;
  const std::function<void*(uint64_t)> allocate = [&](uint64_t bytes) -> void* {
    py::gil_scoped_acquire held;
    try {
      auto [array, data] = make(bytes / sizeof(int64_t));
      arrays.push_back(std::move(array));
      return data;
    } catch (py::error_already_set& e) {
      const bool memory =
          e.matches(PyExc_MemoryError) || std::string(e.what()).find("out of memory") != std::string::npos;
      throw tiergraph::Error(std::string(who) + ": could not allocate " + std::to_string(bytes) + " bytes: " + e.what(),
                             memory ? tiergraph::ErrorKind::kOutOfMemory : tiergraph::ErrorKind::kOther);
    }
  };
  std::vector<tiergraph::HopArrays> hops;
  {
    py::gil_scoped_release release;
    hops = sample(allocate);
  }
  py::list out;
  for (size_t h = 0; h < hops.size(); ++h) {
    py::dict d;
    d["dst_nodes"] = arrays[h == 0 ? 0 : 2 * h];
    d["src_nodes"] = arrays[2 * h + 2];
    d["edge_index"] = arrays[2 * h + 1].attr("reshape")(2, static_cast<int64_t>(hops[h].num_edges));
    out.append(d);
  }
  return out;
}

// sampler.sample(seeds, cuda=True): the hops in CUDA tensors from torch's
// caching allocator on the sampler's GPU, written in order on torch's current
// stream there.
py::list cuda_hop_dicts(tiergraph::NeighborSampler& s, const py::array_t<uint64_t>& seeds,
                        std::optional<uint64_t> seed) {
  if (!s.on_gpu()) throw tiergraph::Error("cuda=True needs a sampler on a GPU; this one runs on the CPU",
                                          tiergraph::ErrorKind::kUsage);
  py::module_ torch;
  try {
    torch = py::module_::import("torch");
  } catch (const py::error_already_set&) {
    throw tiergraph::Error("cuda=True needs torch, which does not import here", tiergraph::ErrorKind::kUsage);
  }
  const int device = s.options().device;
  const py::object int64 = torch.attr("int64");
  const std::string where = "cuda:" + std::to_string(device);
  const uintptr_t stream = tiergraph_python::current_stream(torch, device);
  return hops_in_arrays(
      "sample(cuda=True)",
      [&](uint64_t words) {
        py::object t = torch.attr("empty")(words, py::arg("dtype") = int64, py::arg("device") = where);
        return std::pair<py::object, void*>(t, tiergraph_python::data_of(t));
      },
      [&](const tiergraph::DeviceAllocator& allocate) {
        return s.sample_into(seeds.data(), static_cast<size_t>(seeds.size()), allocate, stream, seed);
      });
}

// sampler.sample(seeds): the hops in NumPy arrays, written there once (from
// the GPU sampler's pinned staging, or from the CPU sampler's vectors).
py::list numpy_hop_dicts(tiergraph::NeighborSampler& s, const py::array_t<uint64_t>& seeds,
                         std::optional<uint64_t> seed) {
  return hops_in_arrays(
      "sample",
      [](uint64_t words) {
        py::array_t<int64_t> a(static_cast<py::ssize_t>(words));
        return std::pair<py::object, void*>(a, a.mutable_data());
      },
      [&](const tiergraph::HostAllocator& allocate) {
        return s.sample_to_host(seeds.data(), static_cast<size_t>(seeds.size()), allocate, seed);
      });
}

// One dict per hop, from the seeds outwards.
py::list hop_dicts(std::vector<tiergraph::SampledHop>&& hops) {
  py::list out;
  for (tiergraph::SampledHop& h : hops) out.append(hop_dict(std::move(h)));
  return out;
}

}  // namespace

PYBIND11_MODULE(tiergraph, m) {
  m.doc() = "tiergraph: graph analytics on the CPU and on GPUs for graphs larger than GPU memory";
  m.attr("__version__") = tiergraph::version();

  static py::exception<tiergraph::Error> input_error(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tiergraph::Error& e) {
      switch (e.kind()) {
        case tiergraph::ErrorKind::kUsage: PyErr_SetString(PyExc_ValueError, e.what()); return;
        case tiergraph::ErrorKind::kInput: input_error(e.what()); return;
        case tiergraph::ErrorKind::kOutOfMemory: PyErr_SetString(PyExc_MemoryError, e.what()); return;
        default: PyErr_SetString(PyExc_RuntimeError, e.what()); return;
      }
    }
  });

  py::class_<tiergraph::Graph>(m, "Graph", "A loaded or generated graph (tiergraph.load, tiergraph.generate)")
      .def_property_readonly("num_vertices", &tiergraph::Graph::num_vertices)
      .def_property_readonly("num_edges", &tiergraph::Graph::num_edges,
                             "stored directed edges: an undirected edge counts twice")
      .def_property_readonly("directed", &tiergraph::Graph::directed)
      .def_property_readonly("weighted", &tiergraph::Graph::weighted)
      .def_property_readonly("id_base", &tiergraph::Graph::id_base,
                             "the file's first vertex id: values[i] belongs to vertex id_base + i")
      .def_property_readonly("vertex_id_bytes", &tiergraph::Graph::vertex_id_bytes)
      .def_property_readonly("name", &tiergraph::Graph::name)
      .def("__repr__", [](const tiergraph::Graph& g) {
        return "<tiergraph.Graph " + g.name() + ": " + std::to_string(g.num_vertices()) + " vertices, " +
               std::to_string(g.num_edges()) + " edges>";
      });

  m.def(
      "load",
      [](tiergraph_python::Path path_arg, Bool undirected, Bool simplify, OptionalStr weights, Bool ids64,
         Bool lists_by_weight) {
        const py::object path_in = path_arg.value;
        // A str or os.PathLike (pathlib.Path), as open() takes; a NUL would cut the name short.
        const py::object fspath = py::module_::import("os").attr("fspath");
        const py::object given = py::isinstance<py::str>(path_in) ? path_in : fspath(path_in);
        if (!py::isinstance<py::str>(given))
          throw py::type_error("path must be a str or os.PathLike naming a file, not " +
                               tiergraph_python::type_name(path_in));
        const std::string path = given.cast<std::string>();
        if (path.find('\0') != std::string::npos) throw py::value_error("path: embedded null character");
        const tiergraph::LoadOptions o =
            load_options(flag(undirected, "undirected"), flag(simplify, "simplify"), optional_text(weights, "weights"),
                         flag(ids64, "ids64"), 16, 27491095, flag(lists_by_weight, "lists_by_weight"));
        py::gil_scoped_release release;
        return tiergraph::load(path, o);
      },
      py::arg("path"), py::kw_only(), py::arg("undirected") = false, py::arg("simplify") = false,
      py::arg("weights") = py::none(), py::arg("ids64") = false, py::arg("lists_by_weight") = false,
      "Loads a graph file (edge list, .mtx, .gr, GAP .sg/.wsg, .tgb; compressed too). weights='LOW:HIGH' adds "
      "seeded random integer weights; lists_by_weight=True orders every list by weight (sssp on the GPU reads "
      "light and heavy edges apart).");

  m.def(
      "generate",
      [](Str spec, OptionalStr weights, Int edge_factor, Int seed, Bool ids64, Bool lists_by_weight) {
        const std::string name = text(spec, "spec");
        const tiergraph::LoadOptions o = load_options(false, false, optional_text(weights, "weights"),
                                                      flag(ids64, "ids64"),
                                                      whole<int>(edge_factor, "edge_factor", 1, 1 << 20),
                                                      whole<uint64_t>(seed, "seed"),
                                                      flag(lists_by_weight, "lists_by_weight"));
        py::gil_scoped_release release;
        return tiergraph::load(name, o);
      },
      py::arg("spec"), py::kw_only(), py::arg("weights") = py::none(), py::arg("edge_factor") = 16,
      py::arg("seed") = 27491095, py::arg("ids64") = false, py::arg("lists_by_weight") = false,
      "Generates a graph: 'kron:SCALE' (Graph500 Kronecker) or 'urand:SCALE', undirected and simple.");

  m.def(
      "from_edges",
      [](ArrayLike src_in, ArrayLike dst_in, OptionalArrayLike weights_in, Int num_vertices_in, Bool undirected,
         Bool simplify, OptionalStr random_weights, Bool ids64, Bool lists_by_weight) {
        const uint64_t num_vertices = whole<uint64_t>(num_vertices_in, "num_vertices");
        py::object asarray = py::module_::import("numpy").attr("asarray");
        std::optional<py::array> weights;
        if (!weights_in.is_none()) weights = py::array(asarray(weights_in.value));
        auto s = vertex_ids(src_in.value, "src"), d = vertex_ids(dst_in.value, "dst");
        if (s.size() != d.size())
          throw tiergraph::Error("src has " + std::to_string(s.size()) + " ids, dst " + std::to_string(d.size()),
                                 tiergraph::ErrorKind::kUsage);
        py::array_t<float, py::array::c_style | py::array::forcecast> w;
        if (weights) {
          w = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(*weights);
          if (!w || w.ndim() != 1 || w.size() != s.size())
            throw tiergraph::Error("weights must be one number per edge (" + std::to_string(s.size()) + ")",
                                   tiergraph::ErrorKind::kUsage);
          // Only doubles exceed a float's range: NumPy's cast made 1e40 inf (with a warning), where a file's
          // reader refuses it. A float64 array is read in place; nothing else is copied for this.
          if (weights->dtype().kind() == 'f' && weights->dtype().itemsize() == 8) {
            const auto wide = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(*weights);
            for (py::ssize_t i = 0; i < wide.size(); ++i)
              if (std::isfinite(wide.data()[i]) && std::fabs(wide.data()[i]) > std::numeric_limits<float>::max())
                throw tiergraph::Error("weights[" + std::to_string(i) + "] = " +
                                           std::string(py::repr(py::float_(wide.data()[i]))) +
                                           " is out of the range of a 4-byte float",
                                       tiergraph::ErrorKind::kUsage);
          }
        }
        tiergraph::LoadOptions o =
            load_options(flag(undirected, "undirected"), flag(simplify, "simplify"),
                         optional_text(random_weights, "random_weights"), flag(ids64, "ids64"), 16, 27491095,
                         flag(lists_by_weight, "lists_by_weight"));
        const float* wp = weights ? w.data() : nullptr;
        py::gil_scoped_release release;
        return tiergraph::from_edges(s.data(), d.data(), static_cast<size_t>(s.size()), wp, num_vertices, o);
      },
      py::arg("src"), py::arg("dst"), py::kw_only(), py::arg("weights") = py::none(), py::arg("num_vertices") = 0,
      py::arg("undirected") = false, py::arg("simplify") = false, py::arg("random_weights") = py::none(),
      py::arg("ids64") = false, py::arg("lists_by_weight") = false,
      "A graph from edges in memory: src[i] -> dst[i] (NumPy arrays or anything that converts, e.g. a torch "
      "edge_index's two rows), optional float weights; num_vertices 0: the largest id + 1.");

  m.def("algorithms", &tiergraph::algorithms, "The algorithms run() knows.");

  tiergraph_python::bind_feature_store(m);

  m.def(
      "tier_scores",
      [](GraphArg graph_in, Str score_in, OptionalArrayLike train_ids_in, Int iterations_in, Float damping_in) {
        const tiergraph::Graph& graph = graph_of(graph_in);
        const std::string score = text(score_in, "score");
        const int iterations = whole<int>(iterations_in, "iterations", 0, std::numeric_limits<int>::max());
        const double damping = real(damping_in, "damping");
        std::vector<uint64_t> train;
        if (!train_ids_in.is_none()) {
          auto t = vertex_ids(train_ids_in.value, "train_ids");
          train.assign(t.data(), t.data() + t.size());
        }
        std::vector<double> scores;
        {
          py::gil_scoped_release release;
          scores = tiergraph::tier_scores(graph, score, train, iterations, damping);
        }
        return to_numpy(std::move(scores));
      },
      py::arg("graph"), py::kw_only(), py::arg("score") = "degree", py::arg("train_ids") = py::none(),
      py::arg("iterations") = 5, py::arg("damping") = 0.85,
      "One score per vertex (0-based) predicting how often GNN sampling reads its features: 'degree', "
      "'reverse-pagerank' or 'weighted-reverse-pagerank' (train_ids weighted; `iterations` rounds).");

  m.def(
      "order_by_score",
      [](ArrayLike scores_in) {
        // Anything NumPy reads as numbers (lists, arrays, CPU tensors), as float64.
        const py::object as_doubles =
            py::module_::import("numpy").attr("ascontiguousarray")(scores_in.value, py::arg("dtype") = "float64");
        const auto scores = py::array_t<double, py::array::c_style>::ensure(as_doubles);
        if (!scores || scores.ndim() != 1)
          throw tiergraph::Error("scores must be one-dimensional", tiergraph::ErrorKind::kUsage);
        return as_int64(tiergraph::order_by_score(std::vector<double>(scores.data(), scores.data() + scores.size())));
      },
      py::arg("scores"), "Vertex ids by descending score, ties by ascending id (int64): hot rows first.");

  m.def(
      "relabel",
      [](GraphArg graph_in, ArrayLike order_in) {
        const tiergraph::Graph& graph = graph_of(graph_in);
        auto order = vertex_ids(order_in.value, "order");
        py::gil_scoped_release release;
        return tiergraph::relabel(graph, order.data(), static_cast<size_t>(order.size()));
      },
      py::arg("graph"), py::arg("order"),
      "The graph renumbered: new id i is old vertex order[i] (a permutation). Reorder feature rows alike: "
      "features[order].");

  m.def(
      "sample_neighbors",
      [](GraphArg graph_in, ArrayLike seeds_in, IntList fanouts, Bool replace, Int seed) {
        const tiergraph::Graph& graph = graph_of(graph_in);
        auto seeds = vertex_ids(seeds_in.value, "seeds");
        tiergraph::SampleOptions o{whole_list<int>(fanouts, "fanouts"), flag(replace, "replace"),
                                   whole<uint64_t>(seed, "seed")};
        std::vector<tiergraph::SampledHop> hops;
        {
          py::gil_scoped_release release;
          hops = tiergraph::sample_neighbors(graph, seeds.data(), static_cast<size_t>(seeds.size()), o);
        }
        return hop_dicts(std::move(hops));
      },
      py::arg("graph"), py::arg("seeds"), py::arg("fanouts"), py::kw_only(), py::arg("replace") = false,
      py::arg("seed") = 0,
      "Samples up to fanouts[k] in-neighbours per node at hop k from the seeds (0-based ids), uniformly, "
      "deterministic for a seed; -1 takes all. Returns one dict per hop: dst_nodes, src_nodes (dst_nodes first) "
      "and edge_index (2 x E, local ids: row 0 into src_nodes, row 1 into dst_nodes), all int64.");

  // The sampler a training loop keeps (tiergraph::NeighborSampler): on a GPU
  // where there is one, each call a fresh but reproducible draw.
  py::class_<tiergraph::NeighborSampler>(
      m, "NeighborSampler",
      "Samples per-layer blocks for GNN mini-batches: sampler.sample(seeds) returns one dict per hop, as "
      "sample_neighbors does, drawn on a GPU where there is one (the same draws as on the CPU); each call draws "
      "anew, reproducibly for `seed`.")
      .def(py::init([](GraphArg graph_in, IntList fanouts, Bool replace, Int seed, OptionalBool use_gpu,
                       Bool zero_copy, Int device, OptionalIntList edge_devices) {
             const tiergraph::Graph& graph = graph_of(graph_in);
             tiergraph::SamplerOptions o;
             o.fanouts = whole_list<int>(fanouts, "fanouts");
             o.replace = flag(replace, "replace");
             o.seed = whole<uint64_t>(seed, "seed");
             o.where = tiergraph_python::where_from_use_gpu(use_gpu.value);
             o.zero_copy = flag(zero_copy, "zero_copy");
             o.device = whole<int>(device, "device", 0, 1024);
             if (!edge_devices.is_none()) o.edge_devices = whole_list<int>(edge_devices, "edge_devices");
             py::gil_scoped_release release;
             return std::make_unique<tiergraph::NeighborSampler>(graph, o);
           }),
           py::arg("graph"), py::arg("fanouts"), py::kw_only(), py::arg("replace") = false, py::arg("seed") = 0,
           py::arg("use_gpu") = py::none(), py::arg("zero_copy") = false, py::arg("device") = 0,
           py::arg("edge_devices") = py::none(),
           "use_gpu: None (a GPU where usable), True, False. zero_copy: on a GPU, read the graph's in-edges from "
           "host memory in place instead of copying them into GPU memory. edge_devices: on a GPU, split the "
           "in-edges over these GPUs' memories (up to 8, read over the peer link; not with zero_copy).")
      .def(
          "sample",
          [](tiergraph::NeighborSampler& s, ArrayLike seeds_in, OptionalInt seed_in, Bool cuda) {
            const std::optional<uint64_t> seed = optional_whole<uint64_t>(seed_in, "seed");
            auto seeds = vertex_ids(seeds_in.value, "seeds");
            return flag(cuda, "cuda") ? cuda_hop_dicts(s, seeds, seed) : numpy_hop_dicts(s, seeds, seed);
          },
          py::arg("seeds"), py::kw_only(), py::arg("seed") = py::none(), py::arg("cuda") = false,
          "One dict per hop from the seeds outwards: dst_nodes, src_nodes (dst_nodes first), edge_index; "
          "hop k + 1's dst_nodes are hop k's src_nodes, the same array. "
          "cuda=True (a GPU sampler, torch): CUDA int64 tensors from torch's allocator, written in order on "
          "torch's current stream (no copy to host, no wait for the edges).")
      .def_property_readonly("fanouts", [](const tiergraph::NeighborSampler& s) { return s.options().fanouts; })
      .def_property_readonly("on_gpu", &tiergraph::NeighborSampler::on_gpu)
      .def("__repr__", [](const tiergraph::NeighborSampler& s) {
        std::string f;
        for (int x : s.options().fanouts) {  // appended piece by piece (GCC 12's LTO warned of a bogus memcpy bound)
          if (!f.empty()) f += ", ";
          f += std::to_string(x);
        }
        return "NeighborSampler(fanouts=[" + f + "], replace=" + (s.options().replace ? "True" : "False") +
               (s.on_gpu() ? ", on the GPU)" : ", on the CPU)");
      });

  m.def(
      "run",
      [](Str algorithm_in, GraphArg graph_in, OptionalInt source, OptionalIntList sources, Str engine, Str placement,
         Int threads, Bool verify, Float tolerance, Int max_iters, Float damping, Float delta, Int gpu_memory_budget,
         Int device, Int gpus, Bool push_only, Str vertex_order, Str cc_method, Str pr_contributions,
         Str edge_cache, Str profile) {
        const std::string algorithm = text(algorithm_in, "algorithm");
        const tiergraph::Graph& graph = graph_of(graph_in);
        if (!source.is_none() && !sources.is_none())
          throw tiergraph::Error("give source or sources, not both", tiergraph::ErrorKind::kUsage);
        constexpr int kIntMax = std::numeric_limits<int>::max();
        tiergraph::RunOptions o;
        o.engine = text(engine, "engine");
        o.placement = text(placement, "placement");
        o.threads = whole<int>(threads, "threads", 0, kIntMax);
        o.verify = flag(verify, "verify");
        o.tolerance = real(tolerance, "tolerance");
        o.max_iters = whole<int>(max_iters, "max_iters", 1, kIntMax);
        o.damping = real(damping, "damping");
        o.delta = real(delta, "delta");
        o.gpu_memory_budget = whole<uint64_t>(gpu_memory_budget, "gpu_memory_budget");
        o.device = whole<int>(device, "device", 0, 1024);
        o.gpus = whole<int>(gpus, "gpus", 0, 1024);
        o.push_only = flag(push_only, "push_only");
        o.vertex_order = text(vertex_order, "vertex_order");
        o.cc_method = text(cc_method, "cc_method");
        o.pagerank_contributions = text(pr_contributions, "pr_contributions");
        o.edge_cache = text(edge_cache, "edge_cache");
        o.profile = text(profile, "profile");
        if (!source.is_none()) o.sources = {whole<uint64_t>(source, "source")};
        if (!sources.is_none()) o.sources = whole_list<uint64_t>(sources, "sources");
        tiergraph::Result r;
        {
          py::gil_scoped_release release;
          r = tiergraph::run(algorithm, graph, o);
        }
        py::dict stats = stats_of(r);
        py::array values = std::visit([](auto&& v) -> py::array { return to_numpy(std::move(v)); }, std::move(r.values));
        return py::make_tuple(values, stats);
      },
      py::arg("algorithm"), py::arg("graph"), py::kw_only(), py::arg("source") = py::none(),
      py::arg("sources") = py::none(), py::arg("engine") = "auto", py::arg("placement") = "auto",
      py::arg("threads") = 0, py::arg("verify") = false, py::arg("tolerance") = 1e-6, py::arg("max_iters") = 100,
      py::arg("damping") = 0.85, py::arg("delta") = 0.0, py::arg("gpu_memory_budget") = 0, py::arg("device") = 0,
      py::arg("gpus") = 0, py::arg("push_only") = false, py::arg("vertex_order") = "as-loaded",
      py::arg("cc_method") = "sampled", py::arg("pr_contributions") = "auto", py::arg("edge_cache") = "auto",
      py::arg("profile") = "",
      "Runs an algorithm; returns (values, stats): a NumPy array indexed by internal id (vertex id - "
      "graph.id_base) and the run's statistics as a dict. Sources are in the graph's own numbering. "
      "vertex_order='degree' runs on a copy renumbered hubs first (faster gathers and pushes on power-law graphs; "
      "the renumbering is stats['time_s']['renumber']); the values stay in the graph's numbering. "
      "cc_method: 'sampled' (Afforest) or 'sv' (Shiloach-Vishkin); pr_contributions: 'auto', 'float' or 'double' "
      "(the type PageRank's scores travel along edges in), as the command line's --cc-method and --pr-contributions. "
      "edge_cache: 'auto' or 'off', the GPU's resident edge cache (the command line's --edge-cache). "
      "profile: the machine profile placement='auto' plans with (a file of `tiergraph calibrate`, the command line's "
      "--profile); '' for $TG_PROFILE, else ~/.config/tiergraph/profile.json, else built-in figures.");
}
