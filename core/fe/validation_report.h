// The validation report of an FE import or reduction: plain text lines and concrete warnings
// that the CLI prints (`flexim-cli info`) and the GUI will show. Builds nothing itself: it
// only compares what the importer, the assembly and the eigen solver produced.
#pragma once

#include "core/fe/assembly.h"
#include "core/fe/fe_model.h"
#include "core/fe/modal.h"
#include "core/fe/reduced_body.h"

#include <string>
#include <vector>

namespace flexim::fe {

struct ValidationReport {
  std::vector<std::string> lines;     ///< facts, one per line
  std::vector<std::string> warnings;  ///< concrete problems, e.g. "mesh has 3 disconnected parts"
  std::string str() const;
  void add(std::string line) { lines.push_back(std::move(line)); }
  void warn(std::string w) { warnings.push_back(std::move(w)); }
};

/// Material data given beside the file (AssemblyOptions::override_material, override_density).
struct GivenMaterial {
  const Material* material = nullptr;  ///< of every element, instead of the file's
  double density = 0.0;                ///< > 0: of every material [kg/m^3], E and nu kept
};

/// Mesh facts: nodes, elements by type, sets, materials, disconnected parts, unused nodes. The
/// materials are reported as the modes will use them: `given` replaces what the file says.
void reportMesh(const FeModel& mesh, ValidationReport& r, const GivenMaterial& given = {});

/// Matrix facts: symmetry, mass/centre of mass/inertia from the mass matrix against the
/// element-integrated rho V and the volume centroid.
void reportMatrices(const FeModel& mesh, const AssembledMatrices& mats, ValidationReport& r);

/// Frequency table of our modes; when `reference_hz` is given (the FE program's own table),
/// the relative differences, and when reference mode shapes are given, the diagonal of the MAC.
void reportModes(const ModalResult& modes, const std::vector<double>& reference_hz, const Eigen::MatrixXd& reference_modes,
                 const Eigen::SparseMatrix<double>& M, ValidationReport& r);

/// Summary of a reduced body (nodes, modes by kind, frequencies, mass from the invariants, the
/// effective mass of fixed-interface modes).
void reportReducedBody(const ReducedBody& body, ValidationReport& r);

/// Effective modal mass shares, 3 x m: the fraction of the body's mass that moves with mode i
/// when the body's supports are shaken along x, y, z (body axes),
///   share(d, i) = (sum_k m_k phi_ik,d)^2 / ((sum_k m_k |phi_ik|^2) * sum_k m_k)
/// with the lumped nodal masses m_k. Meaningful for the fixed-interface modes of a
/// Craig–Bampton body (their sum says how much of the mass the kept modes carry); free-free
/// elastic modes carry no net momentum, so theirs is 0 up to the lumped/consistent mismatch.
Eigen::MatrixXd effectiveMassShares(const ReducedBody& body);

}  // namespace flexim::fe
