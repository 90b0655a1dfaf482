// Tied surfaces (CalculiX *TIE): the slave nodes move with the master faces they lie on, as
// linear constraints of the mesh (FeModel::constraints), applied in the eigen solutions by
// linear_constraints.h.
#pragma once

#include "core/fe/fe_model.h"

#include <string>
#include <utility>
#include <vector>

namespace flexim::fe {

/// What tying slave nodes to master faces did.
struct TieResult {
  int tied = 0;             ///< slave nodes tied (3 constraints each)
  int shared = 0;           ///< slave nodes that are master-face nodes too (already connected)
  std::vector<int> outside; ///< slave nodes farther than the tolerance from every master face
  double largest_move = 0;  ///< [m] largest distance a slave node was moved onto its face
  double tolerance = 0;     ///< [m] the position tolerance used
};

/// Ties `slaves` (node indices) to the element faces `master` ((element index, face 1..6), as
/// faceNodes numbers them), as CalculiX's *TIE does: each slave node is projected on the nearest
/// master face within `tolerance` (<= 0: 2.5 % of the mean master-face size) and moved onto it,
/// and its displacement is the face's interpolated one (three LinearConstraints labelled `label`).
/// Moving the node keeps rigid motions exact (a gap would resist rotation).
TieResult tieNodesToFaces(FeModel& mesh, const std::string& label, const std::string& where,
                          const std::vector<int>& slaves, const std::vector<std::pair<int, int>>& master,
                          double tolerance);

}  // namespace flexim::fe
