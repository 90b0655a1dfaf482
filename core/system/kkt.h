// Sparse saddle-point matrix [H G^T; G D] over the System's velocity unknowns (nv_b per block)
// and constraint rows. The pattern holds the block diagonal, the block couplings of force
// elements (when asked for), and the Jacobian blocks of the *active* constraint rows; inactive
// rows (open unilateral contacts) keep only their multiplier diagonal (set to 1, so their
// multiplier is solved to zero). Up to kDenseSize unknowns the matrix is factorised dense (LU
// with partial pivoting). Beyond, the KLU symbolic analysis is done once per pattern and every
// later factorisation is numeric only (klu_refactor); the pattern, and with it the analysis, is
// rebuilt only when the active set changes.
//
// A rank-deficient constraint Jacobian (redundant rows such as the out-of-plane rows of a planar
// loop in 3-D, or rows that become dependent for an instant, as at a four-bar's aligned
// position) makes the matrix singular. The matrix is then factorised with a small negative
// multiplier diagonal -D (D_i = delta * sum_j G_ij^2 / H_jj, the row's own Schur diagonal
// times delta), which is always invertible, and solve() refines the solution against the
// unregularised matrix (proximal-point iterations). For a consistent right-hand side this
// converges to the exact accelerations and to the multipliers of least D-weighted norm, because
// every correction of the multipliers lies in the range of G (docs/theory/redundant-constraints.md).
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
  /// Symbolic analyses done so far (one per pattern; a dense matrix counts as analysed too).
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
  /// Solves in place with the last factorisation, refined when it was regularised (a Newton
  /// iteration, which corrects its own residual, can do without: refine = false).
  bool solve(VecX& rhs, bool refine = true) const;
  /// y = A x with the matrix as it is now (which may differ from the one factorised).
  void multiply(const VecX& x, VecX& y) const;
  /// Reciprocal condition estimate of the last factorisation (cheap).
  double rcond() const;

  /// When the multiplier diagonal is regularised: from the first time the plain matrix proves
  /// singular on (default), or always (a model known to have dependent rows).
  enum class Regularization { WhenSingular, Always };
  void setRegularization(Regularization r);
  Regularization regularization() const { return m_regularization; }
  /// Whether the last factorisation was regularised, and how many were.
  bool regularized() const { return m_regularized; }
  long regularizedFactorizations() const { return m_regularizedCount; }

 private:
  void buildPattern();
  void scaleRows();  ///< m_Sx = the values with the rows scaled by m_rowScale
  void scaleRowsAfresh();  ///< m_rowScale = 1 / each row's largest entry, then scaleRows()
  void freeFactors();
  bool factorNumeric(bool regularize);
  bool factorDense(bool regularize, double minRcond);
  /// Up to this size the matrix is factorised dense (SmallLu): small models' KKT matrices are a
  /// fifth to a half full, where a plain dense LU costs at most what KLU's refactorisation does
  /// (an 8-mode pendulum's 43 x 43 matrix, 56 % full: half the instructions, 12 % of the run).
  static constexpr int kDenseSize = 64;
  bool m_dense = false;     ///< the dense factors are valid
  bool m_analysed = false;  ///< the current pattern was analysed (KLU) or counted (dense)
  double m_rcond = 0;       ///< min/max pivot of the last factorisation
  void regularizationDiagonal();  ///< m_D from the current values
  const System& m_sys;
  Regularization m_regularization = Regularization::WhenSingular;
  bool m_regularized = false;
  long m_regularizedCount = 0;
  std::vector<double> m_D;  ///< regularisation of each multiplier diagonal (0 for inactive rows)
  mutable VecX m_residual, m_correction;  ///< scratch of the refinement
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
