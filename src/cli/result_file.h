// Per-vertex result files: one line per vertex in ascending id order,
// "<id> <value>", ids as in the input file (1-based formats stay 1-based).
#pragma once

#include <string>

#include "algorithms/algorithm.h"

namespace tg::cli {

// Writes to PATH.tmp and renames, so a failed run never leaves a partial file.
void write_results(const std::string& path, const AlgorithmInfo& algorithm, const VertexValues& values, int id_base);

// Reads a file written by write_results (or by another tool in that form)
// back into the value type of the algorithm; every vertex must appear once.
VertexValues read_results(const std::string& path, const AlgorithmInfo& algorithm, uint64_t num_vertices, int id_base);

}  // namespace tg::cli
