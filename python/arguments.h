// Arguments as Python gives them, checked by name. pybind11's own conversion
// of an int parameter refuses -1 (into an unsigned) or 2**64 with a TypeError
// that lists the function's whole signature, takes True as 1 (and None as
// False for a bool, True as 1.0 for a double), and casting an object to a
// Graph fails with "Unable to cast Python instance to C++ type"; these raise
// one line naming the argument: a TypeError for a value of the wrong type, a
// ValueError for an integer out of range.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tiergraph/tiergraph.h"

namespace tiergraph_python {

inline std::string type_name(pybind11::handle x) {
  return pybind11::str(pybind11::type::handle_of(x).attr("__name__"));
}

// What a message shows of a wrong value: its repr where short and on one
// line, else its type's name (an array's repr runs over many lines).
inline std::string shown(pybind11::handle x) {
  const std::string r = pybind11::repr(x);
  if (r.size() <= 60 && r.find('\n') == std::string::npos) return r;
  return "a " + type_name(x);
}

// An argument taken as Python gave it and checked in the function's body by
// the helpers below; its caster names in signatures (help(), stubs) the type
// the argument must be, where a plain pybind11::object shows `object`.
template <typename Type>
struct Arg {
  pybind11::object value;
  operator pybind11::handle() const { return value; }
  bool is_none() const { return value.is_none(); }
};
#define TG_PYTHON_ARG_TYPE(Name, text) \
  struct Name##Type {                   \
    static constexpr auto name = pybind11::detail::const_name(text); \
  };                                    \
  using Name = Arg<Name##Type>;
TG_PYTHON_ARG_TYPE(Int, "int")
TG_PYTHON_ARG_TYPE(OptionalInt, "Optional[int]")
TG_PYTHON_ARG_TYPE(IntList, "List[int]")
TG_PYTHON_ARG_TYPE(OptionalIntList, "Optional[List[int]]")
TG_PYTHON_ARG_TYPE(Bool, "bool")
TG_PYTHON_ARG_TYPE(OptionalBool, "Optional[bool]")
TG_PYTHON_ARG_TYPE(Float, "float")
TG_PYTHON_ARG_TYPE(FloatOrAuto, "Union[float, str]")
TG_PYTHON_ARG_TYPE(Str, "str")
TG_PYTHON_ARG_TYPE(OptionalStr, "Optional[str]")
TG_PYTHON_ARG_TYPE(GraphArg, "tiergraph.Graph")
TG_PYTHON_ARG_TYPE(OptionalGraph, "Optional[tiergraph.Graph]")
TG_PYTHON_ARG_TYPE(Path, "Union[str, os.PathLike]")
TG_PYTHON_ARG_TYPE(ArrayLike, "ArrayLike")  // ids, weights, scores, feature rows: what NumPy reads
TG_PYTHON_ARG_TYPE(OptionalArrayLike, "Optional[ArrayLike]")
#undef TG_PYTHON_ARG_TYPE

}  // namespace tiergraph_python

namespace pybind11::detail {
template <typename Type>
struct type_caster<tiergraph_python::Arg<Type>> {
  PYBIND11_TYPE_CASTER(tiergraph_python::Arg<Type>, Type::name);
  bool load(handle src, bool) {
    value.value = reinterpret_borrow<object>(src);
    return true;
  }
};
}  // namespace pybind11::detail

namespace tiergraph_python {

// An int, or anything with __index__ (NumPy's integers), but not a bool.
template <typename T>
T whole(pybind11::handle x, const std::string& name, T lo = std::numeric_limits<T>::min(),
        T hi = std::numeric_limits<T>::max()) {
  if (PyBool_Check(x.ptr()) || !PyIndex_Check(x.ptr()))
    throw pybind11::type_error(name + " must be an integer, not " + type_name(x));
  const auto i = pybind11::reinterpret_steal<pybind11::int_>(PyNumber_Index(x.ptr()));
  if (!i) throw pybind11::error_already_set();
  if (i < pybind11::int_(lo) || i > pybind11::int_(hi))
    throw pybind11::value_error(name + " must be an integer from " + std::to_string(lo) + " to " +
                                std::to_string(hi) + ", not " + std::string(pybind11::repr(i)));
  return i.cast<T>();
}

template <typename T>
std::optional<T> optional_whole(pybind11::handle x, const std::string& name, T lo = std::numeric_limits<T>::min(),
                                T hi = std::numeric_limits<T>::max()) {
  if (x.is_none()) return std::nullopt;
  return whole<T>(x, name, lo, hi);
}

// A real number: a float, an int or anything with __float__ (NumPy's
// floats), but not a bool (pybind11's double took True as 1.0) and not None
// (pybind11 listed the whole signature).
inline double real(pybind11::handle x, const std::string& name) {
  const PyNumberMethods* number = Py_TYPE(x.ptr())->tp_as_number;
  const bool numeric = PyFloat_Check(x.ptr()) || PyIndex_Check(x.ptr()) || (number && number->nb_float);
  if (PyBool_Check(x.ptr()) || type_name(x) == "bool_" || !numeric)
    throw pybind11::type_error(name + " must be a number, not " + shown(x));
  const double value = PyFloat_AsDouble(x.ptr());
  if (value == -1.0 && PyErr_Occurred()) throw pybind11::error_already_set();
  return value;
}

// A str, or None where optional.
inline std::string text(pybind11::handle x, const std::string& name) {
  if (!PyUnicode_Check(x.ptr())) throw pybind11::type_error(name + " must be a str, not " + type_name(x));
  return pybind11::cast<std::string>(x);
}
inline std::optional<std::string> optional_text(pybind11::handle x, const std::string& name) {
  if (x.is_none()) return std::nullopt;
  if (!PyUnicode_Check(x.ptr())) throw pybind11::type_error(name + " must be a str or None, not " + type_name(x));
  return pybind11::cast<std::string>(x);
}

// True or False (NumPy's bool too), nothing else: pybind11's bool took None
// as False and any number by its truth (replace=None sampled without
// replacement, verify=2 verified).
inline bool flag(pybind11::handle x, const std::string& name) {
  if (PyBool_Check(x.ptr())) return x.ptr() == Py_True;
  if (type_name(x) == "bool_" || type_name(x) == "bool") {  // numpy.bool_ (numpy.bool since NumPy 2)
    const int truth = PyObject_IsTrue(x.ptr());
    if (truth < 0) throw pybind11::error_already_set();
    return truth == 1;
  }
  throw pybind11::type_error(name + " must be True or False, not " + shown(x));
}

// A list (or any iterable but a string) of such integers, not empty.
template <typename T>
std::vector<T> whole_list(pybind11::handle x, const std::string& name, T lo = std::numeric_limits<T>::min(),
                          T hi = std::numeric_limits<T>::max()) {
  if (pybind11::isinstance<pybind11::str>(x) || !pybind11::isinstance<pybind11::iterable>(x))
    throw pybind11::type_error(name + " must be a list of integers, not " + type_name(x));
  std::vector<T> list;
  for (const pybind11::handle item : x) list.push_back(whole<T>(item, name + "[" + std::to_string(list.size()) + "]", lo, hi));
  if (list.empty()) throw pybind11::value_error(name + " is empty");
  return list;
}

// The caster of a bound class whose objects only its factories make: an
// object made by Cls.__new__(Cls) alone holds no C++ object, and any method
// or function handed one crashed the interpreter; this caster refuses it.
template <typename T>
class ConstructedOnly : public pybind11::detail::type_caster_base<T> {
 public:
  bool load(pybind11::handle src, bool convert) {
    if (!pybind11::detail::type_caster_base<T>::load(src, convert)) return false;
    if (src.is_none() || !pybind11::isinstance<T>(src)) return true;
    auto* inst = reinterpret_cast<pybind11::detail::instance*>(src.ptr());
    if (!inst->get_value_and_holder(pybind11::detail::get_type_info(typeid(T))).holder_constructed())
      throw pybind11::type_error("this tiergraph." + type_name(src) +
                                 " was made by __new__ alone and holds nothing (make one with its constructor or "
                                 "tiergraph.load / generate / from_edges)");
    return true;
  }
};

}  // namespace tiergraph_python

namespace pybind11::detail {
template <>
class type_caster<tiergraph::Graph> : public tiergraph_python::ConstructedOnly<tiergraph::Graph> {};
template <>
class type_caster<tiergraph::NeighborSampler> : public tiergraph_python::ConstructedOnly<tiergraph::NeighborSampler> {};
}  // namespace pybind11::detail

namespace tiergraph_python {

// graph= of FeatureStore, which also takes None: a string or another object
// is a TypeError naming it.
inline const tiergraph::Graph* optional_graph(pybind11::handle x, const std::string& name = "graph") {
  if (x.is_none()) return nullptr;
  if (!pybind11::isinstance<tiergraph::Graph>(x))
    throw pybind11::type_error(name + " must be a tiergraph.Graph or None, not " + type_name(x));
  return pybind11::cast<const tiergraph::Graph*>(x);
}

// A graph argument: a TypeError naming it for anything else (None included).
// The graph lives as long as the argument's object.
inline const tiergraph::Graph& graph_of(pybind11::handle x, const std::string& name = "graph") {
  if (!pybind11::isinstance<tiergraph::Graph>(x))
    throw pybind11::type_error(name + " must be a tiergraph.Graph, not " + type_name(x));
  return pybind11::cast<const tiergraph::Graph&>(x);
}

}  // namespace tiergraph_python
