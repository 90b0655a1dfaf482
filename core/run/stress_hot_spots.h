// The "hot spots" of a run: the highest von Mises stresses of every flexible body that carries
// stress modes, over the run's output samples, with where and when they occurred. Evaluated on
// the body's surface nodes (where stresses peak) at output samples only, never per step.
//
// Von Mises is a Euclidean norm of a linear map of the stress, sigma_vm = |P sigma| with
// P = diag(sqrt(3/2) (I - 1 1^T / 3), sqrt(3) I) on [normal; shear], so node j's is |V_j q| with
// V_j = P S_j (S_j its 6 x m rows of the stress modes, q the modal coordinates; the modes without
// stress, the rigid ones, are left out). The samples are kept in blocks of kBlock and a block is
// evaluated chunk by chunk of nodes as one matrix product V_chunk Q: V is read once per block,
// not once per sample.
//
// A chunk is skipped for a block when it cannot reach the reported few: |V_j q| <=
// sum_i |q_i| |V_j e_i| <= sum_i max_block |q_i| * max_chunk |V_j e_i|, and when that is not above
// the `count`-th highest peak so far, no node of the chunk has a peak in the block that could be
// reported (the peaks only grow). The nodes are ordered by the size of their V_j so that a chunk
// holds nodes of like stress: the chunks of the quiet regions are skipped. The reported nodes,
// peaks and times are those of evaluating every node at every sample.
#pragma once

#include "core/fe/reduced_body.h"
#include "core/system/system.h"

#include <string>
#include <vector>

namespace flexim {

class StressHotSpots {
 public:
  /// Watches every flexible body of `sys` with stress modes; `count` nodes per body are reported.
  explicit StressHotSpots(const System& sys, int count = 5);
  /// Watches nothing yet; watch() adds the bodies.
  explicit StressHotSpots(int count = 5) : m_count(count) {}
  /// Adds a body (its surface nodes when it has a surface, all nodes otherwise); one without
  /// stress modes is added but not watched.
  void watch(const std::string& name, const fe::ReducedBody& data);

  /// The modal coordinates of every flexible body (Sample::modal) at time t.
  void sample(double t, const std::vector<VecX>& modal);

  struct Spot {
    int node_id = 0;
    double von_mises = 0.0;  ///< [Pa], its peak over the samples
    double time = 0.0;       ///< [s] of the peak (the first sample of that value)
  };
  /// The `count` nodes of flexible body i (in System::flexibleBodies order) with the highest peak
  /// von Mises stress, highest first; empty for a body without stress modes or before a sample.
  std::vector<Spot> spots(std::size_t body) const;

  /// One line per watched body, e.g. "hot spots of 'rod' (von Mises at the surface nodes, output
  /// samples): 212.4 MPa at node 6, t = 0.0431 s; 208 MPa at node 37, t = 0.0431 s; ...".
  std::vector<std::string> notes() const;

  static constexpr int kBlock = 32;  ///< samples evaluated together
  static constexpr int kChunk = 256;  ///< nodes evaluated together (6 x 256 x 32 doubles: 390 kB)

 private:
  struct Body {
    std::string name;
    std::vector<int> nodes;  ///< node indices watched
    std::vector<int> ids;    ///< their FE ids
    std::vector<int> modes;    ///< the modal coordinates with stress (columns of S not zero)
    Eigen::MatrixXd vonMises;  ///< 6k x modes: P S, von Mises of node j = |rows 6j..6j+5 * q|
    Eigen::MatrixXd chunkBound;  ///< modes x chunks: max over the chunk's nodes of |V_j e_i|
    // the peaks so far and the samples not yet evaluated; mutable: a reader evaluates them first
    mutable std::vector<double> peak, at;  ///< per watched node
    mutable Eigen::MatrixXd pending;       ///< modes x kBlock modal coordinates, `pendingCount` used
    mutable std::vector<double> pendingTimes;
    mutable int pendingCount = 0;
    bool sampled = false;
  };
  /// Evaluates b's pending samples.
  void evaluate(const Body& b) const;

  std::vector<Body> m_bodies;  ///< one per flexible body (empty `nodes` when not watched)
  int m_count;
};

}  // namespace flexim
