// Sparse saddle-point matrix [H G^T; G D] over the System's velocity unknowns (nv_b per body)
// and constraint rows, with a fixed pattern: the KLU symbolic analysis is done once and every
// later factorisation is numeric only (klu_refactor), which is what makes large chains cheap.
#pragma once

#include "core/system/system.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>


namespace flexim {

class KktMatrix {
 public:
  /// Pattern: nv_b x nv_b body diagonal blocks, body-body blocks of two-body force elements when
  /// couple_forces, constraint Jacobian blocks and their transposes, and the multiplier diagonal.
  KktMatrix(const System& sys, bool couple_forces);
  ~KktMatrix();
  KktMatrix(const KktMatrix&) = delete;
  KktMatrix& operator=(const KktMatrix&) = delete;

  int size() const { return m_n; }
  void setZero();
  /// Adds a block at body rows b1, body columns b2 (nv_b1 x nv_b2, or its top-left 6 x 6 part;
  /// must be in the pattern).
  void addBodyBlock(int b1, int b2, const Eigen::Ref<const MatX>& block);
  /// Writes G (and G^T) from evaluated constraint rows.
  void setConstraints(const std::vector<ConstraintRows>& rows);
  /// Adds `value` to every multiplier diagonal entry (regularisation).
  void setMultiplierDiagonal(double value);
  /// Numeric factorisation (symbolic analysis on first call). False if singular.
  bool factor();
  /// Solves in place with the last factorisation.
  bool solve(VecX& rhs) const;
  /// Reciprocal condition estimate of the last factorisation (cheap).
  double rcond() const;

 private:
  int blockIndex(int row0, int col0, int rows, int cols);
  const System& m_sys;
  int m_n = 0, m_nv = 0;
  std::vector<int> m_Ap, m_Ai;
  std::vector<double> m_Ax;
  std::map<std::pair<int, int>, int> m_bodyBlocks;   ///< (b1,b2) -> offset into m_blockPos (nv_b1 x nv_b2)
  std::vector<int> m_constraintG1, m_constraintG2;   ///< offsets into m_blockPos (-1 ground)
  std::vector<int> m_constraintG1t, m_constraintG2t;
  std::vector<int> m_multiplierDiag;
  std::vector<int> m_blockPos;  ///< value indices of registered blocks, column-major per block
  struct Klu;  ///< KLU's handles (its types are anonymous structs, so kept out of the header)
  std::unique_ptr<Klu> m_klu;
  struct Pending {
    int row0, col0, rows, cols, offset;
  };
  std::vector<Pending> m_pending;
};

}  // namespace flexim
