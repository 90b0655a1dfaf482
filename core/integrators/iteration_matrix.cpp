#include "core/integrators/iteration_matrix.h"

#include <algorithm>

namespace flexim {

void IterationMatrixBlocks::assemble(std::vector<BodyKinematics>& kin, double t, const VecX& lambda, double massScale,
                                     double betap, double gammap, const Add& add) {
  for (int b = 0; b < m_sys.nblocks(); ++b) {
    const Formulation& F = *m_sys.block(b).formulation;
    F.massMatrix(kin[std::size_t(b) + 1], m_M);
    if (massScale != 1.0) m_M *= massScale;
    F.addForceTangent(kin[std::size_t(b) + 1], betap, gammap, m_M);
    add(b, b, m_M);
  }
  addForceTangents(kin, betap, gammap, add);
  if (betap != 0.0) addGeometricStiffness(kin, t, lambda, betap, add);
}

/// beta' K_t + gamma' C_t of every force element, by one-sided differences of the element
/// alone over its blocks' tangent coordinates (cheap: elements touch few blocks).
void IterationMatrixBlocks::addForceTangents(std::vector<BodyKinematics>& kin, double betap, double gammap,
                                             const Add& add) {
  const double eps = 1e-7;
  for (size_t e = 0; e < m_sys.forces().size(); ++e) {
    const auto& blocks = m_sys.forces()[e]->blocks;
    const bool rates = m_sys.forces()[e]->dependsOnVelocity();
    if (m_sys.forces()[e]->tangent(m_sys, kin, 0.0, m_K0, m_D0)) {
      // the element's own tangent: −β' K − γ' D, block by block
      int row = 0;
      for (size_t r = 0; r < blocks.size(); ++r) {
        const int nr = blocks[r] >= 0 ? m_sys.blockNv(blocks[r]) : 0;
        int col = 0;
        for (size_t c = 0; c < blocks.size(); ++c) {
          const int nc = blocks[c] >= 0 ? m_sys.blockNv(blocks[c]) : 0;
          if (blocks[r] >= 0 && blocks[c] >= 0) {
            m_block = -betap * m_K0.block(row, col, nr, nc);
            if (gammap != 0.0 && m_D0.size()) m_block -= gammap * m_D0.block(row, col, nr, nc);
            add(blocks[r], blocks[c], m_block);
          }
          col += nc;
        }
        row += nr;
      }
      continue;
    }
    m_sys.force(static_cast<int>(e), kin, 0.0, m_f0);  // time-only terms cancel in the difference
    for (size_t side = 0; side < blocks.size(); ++side) {
      const int b = blocks[side];
      if (b < 0 || std::find(blocks.begin(), blocks.begin() + side, b) != blocks.begin() + side) continue;
      const int n = m_sys.block(b).nv(), frame = m_sys.block(b).formulation->frameSize();
      const BodyKinematics saved = kin[std::size_t(b) + 1];
      if (m_T.size() < blocks.size()) m_T.resize(blocks.size());
      for (size_t k = 0; k < blocks.size(); ++k) m_T[k].setZero(m_sys.blockNv(blocks[k]), n);
      for (int i = 0; i < n; ++i) {
        for (int kind = 0; kind < 2; ++kind) {
          // perturb along the tangent: [dr global, dtheta body axes, dw] or the velocity [r_dot, omega', w_dot]
          const bool velocity = kind == 1;
          const double scale = velocity ? (rates ? gammap : 0.0) : betap;
          if (scale == 0.0) continue;
          perturbKinematics(saved, frame, i, eps, velocity, kin[std::size_t(b) + 1]);
          m_sys.force(static_cast<int>(e), kin, 0.0, m_f1);
          for (size_t r = 0; r < blocks.size(); ++r) m_T[r].col(i) -= scale * (m_f1.f[r] - m_f0.f[r]) / eps;
        }
      }
      kin[std::size_t(b) + 1] = saved;
      for (size_t r = 0; r < blocks.size(); ++r)
        if (blocks[r] >= 0 && std::find(blocks.begin(), blocks.begin() + r, blocks[r]) == blocks.begin() + r)
          add(blocks[r], b, m_T[r]);
    }
  }
}

/// beta' d(G^T lambda)/dq of every constraint element: without it Newton converges only
/// linearly once the joint forces are large.
void IterationMatrixBlocks::addGeometricStiffness(std::vector<BodyKinematics>& kin, double t, const VecX& lambda,
                                                  double betap, const Add& add) {
  const auto& cons = m_sys.constraints();
  for (size_t c = 0; c < cons.size(); ++c) {
    const ConstraintElement& e = *cons[c];
    const auto lam = lambda.segment(m_sys.constraintOffsets()[c], e.rows());
    if (lam.isZero(0.0)) continue;  // open or unloaded rows
    m_sizes.clear();
    for (int b : e.blocks) m_sizes.push_back(m_sys.blockNv(b));
    m_K.resize(m_sizes);
    e.addGeometricStiffness(m_sys, kin, t, lam, betap, m_K);
    const int n = static_cast<int>(e.blocks.size());
    for (int r = 0; r < n; ++r)
      for (int k = 0; k < n; ++k) {
        const int b1 = e.blocks[std::size_t(r)], b2 = e.blocks[std::size_t(k)];
        if (b1 >= 0 && b2 >= 0 && (b1 == b2 || e.geometricStiffnessCouplesBlocks())) add(b1, b2, m_K.at(r, k));
      }
  }
}

}  // namespace flexim
