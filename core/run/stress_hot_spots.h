// The "hot spots" of a run: the highest von Mises stresses of every flexible body that carries
// stress modes, over the run's output samples, with where and when they occurred. Evaluated on
// the body's surface nodes (where stresses peak) at output samples only, never per step: the
// cost per sample is one (6 k x m) product per body, k surface nodes.
#pragma once

#include "core/system/system.h"

#include <string>
#include <vector>

namespace flexim {

class StressHotSpots {
 public:
  /// Watches every flexible body of `sys` with stress modes; `count` nodes per body are reported.
  explicit StressHotSpots(const System& sys, int count = 5);

  /// The modal coordinates of every flexible body (Sample::modal) at time t.
  void sample(double t, const std::vector<VecX>& modal);

  struct Spot {
    int node_id = 0;
    double von_mises = 0.0;  ///< [Pa], its peak over the samples
    double time = 0.0;       ///< [s] of the peak
  };
  /// The `count` nodes of flexible body i (in System::flexibleBodies order) with the highest peak
  /// von Mises stress, highest first; empty for a body without stress modes or before a sample.
  std::vector<Spot> spots(std::size_t body) const;

  /// One line per watched body, e.g. "hot spots of 'rod' (von Mises at the surface nodes, output
  /// samples): 212.4 MPa at node 6, t = 0.0431 s; 208 MPa at node 37, t = 0.0431 s; ...".
  std::vector<std::string> notes() const;

 private:
  struct Body {
    std::string name;
    std::vector<int> nodes;        ///< node indices watched
    std::vector<int> ids;          ///< their FE ids
    Eigen::MatrixXd stress;        ///< 6k x m rows of the stress modes
    std::vector<double> peak, at;  ///< per watched node
    bool sampled = false;
  };
  std::vector<Body> m_bodies;  ///< one per flexible body (empty `nodes` when not watched)
  int m_count;
};

}  // namespace flexim
