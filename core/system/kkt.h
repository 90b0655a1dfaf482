// Sparse saddle-point matrix [H G^T; G D] over the System's velocity unknowns (nv_b per block)
// and constraint rows. The pattern holds the block diagonal, the block couplings of force
// elements (when asked for), and the Jacobian blocks of the *active* constraint rows; inactive
// rows (open unilateral contacts) keep only their multiplier diagonal (set to 1, so their
// multiplier is solved to zero). The KLU symbolic analysis is done once per pattern and every
// later factorisation is numeric only (klu_refactor); the pattern, and with it the analysis, is
// rebuilt only when the active set changes.
#pragma once

#include "core/system/system.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace flexim {

class KktMatrix {
 public:
  /// All rows active. couple_forces: blocks of block pairs joined by a force element;
  /// couple_constraints: of pairs whose constraint element's geometric stiffness couples them.
  KktMatrix(const System& sys, bool couple_forces, bool couple_constraints = false);
  ~KktMatrix();
  KktMatrix(const KktMatrix&) = delete;
  KktMatrix& operator=(const KktMatrix&) = delete;

  int size() const { return m_n; }
  /// Sets which constraint rows are in the matrix (size nc, non-zero = active). Rebuilds the
  /// pattern only when the set differs from the current one.
  void setActiveRows(const std::vector<char>& active);
  const std::vector<char>& activeRows() const { return m_active; }
  /// Symbolic analyses done so far (one per pattern).
  long analyses() const { return m_analyses; }

  void setZero();
  /// Adds a block at block rows b1, block columns b2 (nv_b1 x nv_b2, or its top-left part;
  /// must be in the pattern: the diagonal, or a pair coupled as asked at construction).
  void addBodyBlock(int b1, int b2, const Eigen::Ref<const MatX>& block);
  /// Writes G (and G^T) of the active rows from evaluated constraint rows; inactive rows get a
  /// unit multiplier diagonal.
  void setConstraints(const std::vector<ConstraintRows>& rows);
  /// Numeric factorisation (symbolic analysis on first call). False if singular.
  bool factor();
  /// Solves in place with the last factorisation.
  bool solve(VecX& rhs) const;
  /// y = A x with the matrix as it is now (which may differ from the one factorised).
  void multiply(const VecX& x, VecX& y) const;
  /// Reciprocal condition estimate of the last factorisation (cheap).
  double rcond() const;

 private:
  void buildPattern();
  void scaleRows();  ///< m_Sx = the values with the rows scaled by m_rowScale
  void freeFactors();
  const System& m_sys;
  bool m_coupleForces, m_coupleConstraints;
  int m_n = 0, m_nv = 0;
  std::vector<char> m_active;
  long m_analyses = 0;
  std::vector<int> m_Ap, m_Ai;
  std::vector<double> m_Ax;
  std::vector<double> m_rowScale, m_Sx;  ///< row scaling of the last full factorisation, scaled values
  std::map<std::pair<int, int>, int> m_bodyBlocks;  ///< (b1,b2) -> offset into m_blockPos (nv_b1 x nv_b2)
  std::vector<int> m_diagonalBlocks;                ///< b -> m_bodyBlocks[(b, b)], without a search
  /// Per constraint element, per touched block: offsets into m_blockPos of G (rows x nv, column
  /// major) and G^T (nv x rows), -1 for ground; entries of inactive rows are -1 in m_blockPos.
  std::vector<std::vector<int>> m_G, m_Gt;
  std::vector<int> m_multiplierDiag;  ///< value index of each multiplier's diagonal entry
  std::vector<int> m_blockPos;        ///< value indices of registered blocks (-1: not in the pattern)
  struct Klu;  ///< KLU's handles (its types are anonymous structs, so kept out of the header)
  std::unique_ptr<Klu> m_klu;
};

}  // namespace flexim
