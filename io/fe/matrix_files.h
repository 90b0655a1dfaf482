// Matrix files exported by FE programs:
// - CalculiX *FREQUENCY, SOLVER=MATRIXSTORAGE: <stem>.sti (stiffness), <stem>.mas (mass),
//   <stem>.dof (row -> node.direction); see the CalculiX 2.20 user's manual, *FREQUENCY;
// - Abaqus *MATRIX GENERATE / *MATRIX OUTPUT (FORMAT=MATRIX INPUT) and element matrix output:
//   "node, dof, node, dof, value" lines;
// - generic MatrixMarket coordinate files (real/integer, general/symmetric).
//
// Symmetric storage: ccx writes the upper triangle only, Abaqus and MatrixMarket one triangle.
// A file with one triangle is mirrored into a full matrix (both triangles stored, A = U + U^T -
// diag U). A file that holds both triangles must be symmetric (|a_ij - a_ji| <= 1e-12 max(|a_ij|,
// |a_ji|)), otherwise the read fails; a pair given twice in the same triangle is an error.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"

#include <Eigen/SparseCore>

#include <string>
#include <string_view>
#include <vector>

namespace flexim::io {

// ---- CalculiX .sti / .mas / .dof -----------------------------------------------------------

/// Reads <stem>.sti, <stem>.mas and <stem>.dof (stem may also end in one of these extensions)
/// into out.K, out.M (full symmetric) and out.dofs. The .dof file fixes the size n; matrix
/// indices beyond n are errors. DOF nodes must be nodes of out; if out has no nodes at all,
/// nodes are created at the origin with a warning (read the .inp first to get geometry).
/// On failure returns false and leaves out unchanged.
bool readCalculixMatrices(const std::string& stem, fe::FeModel& out, Diagnostics& diag);

/// Same from text held in memory; names are used in messages.
bool readCalculixMatricesFromStrings(std::string_view sti, const std::string& stiName, std::string_view mas,
                                     const std::string& masName, std::string_view dof, const std::string& dofName,
                                     fe::FeModel& out, Diagnostics& diag);

/// One .sti/.mas file: "i j value" (1-based, one triangle) into a full symmetric n x n matrix.
bool readCalculixMatrixText(std::string_view text, const std::string& source, int n,
                            Eigen::SparseMatrix<double>& A, Diagnostics& diag);

/// A .dof file: one "node.direction" per line (direction 1..3, written "%d.%d", so "12.1" is
/// node 12, x). Returns node ids and components (0..2).
bool readCalculixDofText(std::string_view text, const std::string& source, std::vector<int>& node_ids,
                         std::vector<int>& components, Diagnostics& diag);

// ---- MatrixMarket --------------------------------------------------------------------------

/// Reads a MatrixMarket "matrix coordinate real|integer general|symmetric" file. Symmetric
/// files give the full matrix. Duplicate entries of general files are summed (warning).
bool readMatrixMarket(const std::string& path, Eigen::SparseMatrix<double>& A, Diagnostics& diag);
bool readMatrixMarketFromString(std::string_view text, const std::string& source, Eigen::SparseMatrix<double>& A,
                                Diagnostics& diag);

/// Writes A as MatrixMarket coordinate real; symmetric = true writes the lower triangle with
/// the "symmetric" qualifier (A must be symmetric). Values use 17 significant digits.
std::string toMatrixMarket(const Eigen::SparseMatrix<double>& A, bool symmetric);
bool writeMatrixMarket(const std::string& path, const Eigen::SparseMatrix<double>& A, bool symmetric,
                       Diagnostics& diag);

/// True if text starts (after blanks) with the "%%MatrixMarket" banner.
bool looksLikeMatrixMarket(std::string_view text);

// ---- Abaqus .mtx ("node, dof, node, dof, value") ---------------------------------------------

struct AbaqusMatrix {
  Eigen::SparseMatrix<double> A;  ///< full symmetric
  std::vector<int> node_ids;      ///< per row: node id
  std::vector<int> components;    ///< per row: 0 = x, 1 = y, 2 = z
};

/// Reads the lines "row node, row dof, column node, column dof, value" (comments "**" and
/// keyword lines "*..." are skipped). Rows are ordered by node id, then dof. DOFs 4..6
/// (rotations) and others are errors.
bool readAbaqusMtx(const std::string& path, AbaqusMatrix& out, Diagnostics& diag);
bool readAbaqusMtxFromString(std::string_view text, const std::string& source, AbaqusMatrix& out, Diagnostics& diag);

enum class MatrixKind { Stiffness, Mass };

/// Reads an Abaqus .mtx into out.K (Stiffness) or out.M (Mass) and out.dofs. If out already
/// has DOFs and the other matrix, the DOFs must be the same. Nodes as in readCalculixMatrices.
bool readAbaqusMtx(const std::string& path, MatrixKind kind, fe::FeModel& out, Diagnostics& diag);

}  // namespace flexim::io
