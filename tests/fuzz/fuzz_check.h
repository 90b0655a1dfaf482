// Shared checks of the libFuzzer drivers (and of tests/io_fe/nastran_test.cpp): a reader that
// reports success must hand back a model whose indices are all in range (elements, sets, dofs,
// masses and springs, couplings, displacement systems), and a reader that fails must say why.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace flexim::fuzz {

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
  std::abort();
}

inline void checkDiagnostics(bool ok, const Diagnostics& d) {
  if (!ok && !d.hasErrors()) fail("reader failed without an error");
  if (ok && d.hasErrors()) fail("reader succeeded with an error");
  for (const auto& i : d.items())
    if (i.message.empty()) fail("empty diagnostic message");
}

inline void checkModel(const fe::FeModel& m) {
  const int n = m.nodeCount();
  if (m.node_ids.size() != m.coords.size() || m.node_index.size() != m.coords.size()) fail("node arrays differ in size");
  for (int i = 0; i < n; ++i)
    if (m.indexOf(m.node_ids[static_cast<std::size_t>(i)]) != i) fail("node_index inconsistent");
  for (const auto& x : m.coords)
    if (!x.allFinite()) fail("non-finite coordinate");
  for (const auto& e : m.elements) {
    const int c = fe::nodeCount(e.type);
    if (c <= 0 || c > 20) fail("bad element type");
    for (int k = 0; k < c; ++k)
      if (e.nodes[static_cast<std::size_t>(k)] < 0 || e.nodes[static_cast<std::size_t>(k)] >= n) fail("element node out of range");
    if (e.material < -1 || e.material >= static_cast<int>(m.materials.size())) fail("element material out of range");
  }
  for (const auto& [name, s] : m.node_sets)
    for (int i : s)
      if (i < 0 || i >= n) fail("node set member out of range");
  for (const auto& [name, s] : m.element_sets)
    for (int i : s)
      if (i < 0 || i >= static_cast<int>(m.elements.size())) fail("element set member out of range");
  for (const auto& c : m.couplings) {
    if (c.reference_node < 0 || c.reference_node >= n) fail("coupling reference node out of range");
    if (c.nodes.empty()) fail("coupling without nodes");
    for (int i : c.nodes)
      if (i < 0 || i >= n || i == c.reference_node) fail("coupling node out of range or the reference node");
    if (!c.weights.empty() && c.weights.size() != c.nodes.size()) fail("coupling weights vs nodes");
  }
  for (const auto& d : m.dofs)
    if (d.node < 0 || d.node >= n || d.component < 0 || d.component > 2) fail("dof out of range");
  if (m.K.rows() != m.K.cols() || m.M.rows() != m.M.cols()) fail("non-square matrix");
  if (m.modes.cols() > 0 && m.modes.rows() != 3 * static_cast<Eigen::Index>(n)) fail("mode rows != 3 x nodes");
  if (m.modes.cols() != static_cast<Eigen::Index>(m.frequencies_hz.size()) && m.modes.cols() > 0) fail("modes vs frequencies");
  for (const auto& list : {&m.masses, &m.springs})
    for (const auto& d : *list)
      for (const auto& t : d.terms)
        if (t.node < 0 || t.node >= n || t.component < 0 || t.component > 2) fail("discrete term out of range");
  // couplings: reference and attached nodes in range and distinct, one finite positive weight per node
  for (const auto& c : m.couplings) {
    if (c.reference_node < 0 || c.reference_node >= n) fail("coupling reference node out of range");
    if (c.nodes.empty()) fail("coupling without nodes");
    for (int k : c.nodes)
      if (k < 0 || k >= n || k == c.reference_node) fail("coupling node out of range or the reference");
    if (!c.weights.empty() && c.weights.size() != c.nodes.size()) fail("coupling weights vs nodes");
    for (double w : c.weights)
      if (!(w > 0) || !std::isfinite(w)) fail("coupling weight not positive and finite");
    if (c.name.empty() || c.where.empty()) fail("coupling without name or place");
  }
  // displacement systems (CD): none, or one per node with orthonormal finite axes
  if (m.node_cd.size() != m.node_cd_axes.size()) fail("node_cd vs node_cd_axes");
  if (!m.node_cd.empty() && m.node_cd.size() != m.coords.size()) fail("node_cd not one per node");
  for (const auto& A : m.node_cd_axes)
    if (!A.allFinite() || !(A.transpose() * A).isIdentity(1e-9)) fail("CD axes not orthonormal");
}

}  // namespace flexim::fuzz
