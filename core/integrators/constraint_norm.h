// The error norm of a constrained state (q, v): tangent components weighted as usual, normal
// components measured by the constraint residual they imply. See
// docs/theory/singular-configurations.md.
//
// Why: the constraints fix the components of q and v normal to the constraint manifold, and
// near a singular configuration (aligned links, dead centre) they fix one of them only with gain
// 1/sigma, sigma the smallest singular value of G. A residual at round-off level then leaves a
// correction r/sigma in that component; a plain weighted norm with an absolute tolerance of 1e-10
// sees it as a large error, rejects every step and stops the run, though the state satisfies its
// constraints to round-off. Measuring the normal part by G x (what it does to the constraints)
// instead of by x itself is the generalisation of the h-scaling of index-2 components (Hairer &
// Wanner, Solving ODEs II, VII.3) to a direction that is only nearly singular. In Newton's
// convergence test the multipliers are measured likewise by what they do: the velocity and
// position changes of their generalized forces over one step.
#pragma once

#include "core/system/system.h"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace flexim {

class ConstraintNorm {
 public:
  /// Relative regularisation of G G^T: directions in which G is weaker than this (relative to
  /// its rows) count as tangent, as they are at the singular instant itself.
  static constexpr double kRegularization = 1e-12;

  /// Rebuilds the projections at position q (call when the iteration matrix is rebuilt).
  /// rows: the constraint rows evaluated at q; dropped: rows left out (empty: none); cj: the
  /// iteration matrix's d(y')/dy (~ 1/h); massDiagonal: |M_ii| (0 for massless dofs).
  void update(const System& sys, const VecX& q, const std::vector<ConstraintRows>& rows,
              const std::vector<char>& dropped, double cj, const VecX& massDiagonal);
  bool ready() const { return m_ready; }

  /// Weighted RMS norm of x = [q (nq), v (nv), lambda (nc), mu (nc)] with weights w (length N
  /// each), over the entries whose mask is non-zero (mask may be null: all entries). Before the
  /// first update(), and for any other length, the plain weighted RMS norm.
  double wrms(const double* x, const double* w, const double* mask, int N) const;

 private:
  /// Up to kDenseRows rows the normal part is one dense product, G^T (G G^T)^-1 (nv x rows);
  /// beyond, a sparse LDL^T solve. Up to kDenseFactorRows, G G^T is factorised dense.
  static constexpr int kDenseRows = 96, kDenseFactorRows = 32;
  struct Projection {
    Eigen::SparseMatrix<double, Eigen::RowMajor> G;  ///< active rows x nv
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> GGt;  ///< beyond kDenseFactorRows
    std::vector<int> outer, inner;                    ///< the pattern GGt was analysed for
    bool analysed = false;
    MatX normalMap;                                   ///< G^T (G G^T)^-1 up to kDenseRows
    bool ok = true;                                   ///< G G^T factorised
    VecX rowNorm2;                                    ///< |G_r|^2
    mutable VecX rowWeight, residual;                 ///< per row, for the weights in use
    bool empty() const { return G.rows() == 0; }
  };
  /// Takes G (active rows x nv) and factorises G G^T + regularisation.
  void build(Eigen::SparseMatrix<double, Eigen::RowMajor> G, Projection& P) const;
  /// A normal displacement a along row r's direction leaves a residual a |G_r|: row r's weight
  /// is that of a displacement a, from the weights wv of the coordinates the row touches.
  void weighRows(const Projection& P, const VecX& wv) const;
  /// Adds to sum the squared weighted constraint residuals G d of d (velocity space), and
  /// returns the normal part of d, G^T (G G^T)^-1 G d, in normal.
  void accumulate(const Projection& P, const VecX& d, double& sum, VecX& normal) const;
  /// Recomputes what depends on the weights alone when w differs from the last call's (IDA keeps
  /// one weight vector for all the Newton iterations and the error test of a step).
  void weigh(const double* w) const;

  const System* m_sys = nullptr;
  int m_nq = 0, m_nv = 0, m_nc = 0;
  Eigen::SparseMatrix<double, Eigen::RowMajor> m_all;  ///< G, all rows (dropped ones zero)
  VecX m_invMass;
  bool m_ready = false;
  double m_cj = 1;
  Projection m_position, m_velocity;
  std::vector<MatX> m_H, m_Hpinv;  ///< per block: dq = H dv at q, and its pseudo-inverse
  mutable VecX m_weights;          ///< the weights the cached quantities are for
  mutable VecX m_dq, m_wqv, m_normal, m_tq, m_force;
};

}  // namespace flexim
