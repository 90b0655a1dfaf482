// The connection graph of a model: bodies are vertices, joints and rigid-flexible attachments
// are edges. Built from the ModelSpec alone, so it is available before (and without) compiling
// a System: the model check, `flexim-cli validate` and the solvers read it.
#pragma once

#include "core/model/model.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace flexim {

enum class VertexKind { Ground, Rigid, Flexible, Virtual, PointMass };

/// What made an edge. New element kinds that tie bodies together get a value here and one
/// addEdge() call in buildTopology().
enum class EdgeKind {
  Joint,      ///< a joint between body1 and body2
  Attachment,  ///< the rigid-flexible joint of a virtual body to its flexible body
  Coupling,    ///< a coupling of two joints' coordinates: an edge between their second bodies
  Beam,        ///< a beam element between its two nodes: a structural member, like a joint
  Force        ///< a force element with two ends (a spring, a bushing) or a contact; only heldByForces() adds these
};

class Topology {
 public:
  struct Vertex {
    std::string name;
    VertexKind kind = VertexKind::Rigid;
    int component = -1;   ///< index into components()
    int parent = -1;      ///< spanning-tree parent vertex (-1 at a component's root)
    int parentEdge = -1;  ///< the edge to the parent (-1 at a root)
    int depth = 0;        ///< edges from the component's root
  };
  struct Edge {
    EdgeKind kind = EdgeKind::Joint;
    std::string name;     ///< a joint's name; "attachment of 'rod_A'"
    int element = 0;      ///< the addEdge() call this edge came from (a hyper-edge gives several)
    int a = 0, b = 0;     ///< vertex indices
    bool tree = false;    ///< in the spanning tree (false: closes a loop)
  };
  struct Component {
    std::vector<int> vertices;  ///< in vertex order; the first is the root of its spanning tree
    bool grounded = false;      ///< contains ground (then ground is its root)
    int depth = 0;              ///< largest vertex depth
  };

  /// Starts with the ground vertex, index 0.
  Topology();

  /// Adds a body; returns its vertex index. A repeated name keeps the first body for lookups.
  int addVertex(VertexKind kind, const std::string& name);
  /// Ties the named bodies together. Two names give one edge; more names (an element touching
  /// several bodies) give a chain of edges between consecutive distinct bodies: k bodies, k - 1
  /// edges. A chain (like a star) joins them without closing a loop of its own, so only real
  /// loops count; the chain keeps each edge between bodies the element lists next to each other
  /// (a beam between consecutive nodes). An element naming an unknown body adds nothing
  /// (validation reports it), nor does one that names a single body only.
  /// Returns the number of edges added. Call analyse() after the last edge.
  int addEdge(EdgeKind kind, const std::string& name, const std::vector<std::string>& bodies);
  /// Finds components, the breadth-first spanning tree of each (from ground; elsewhere from
  /// the component's first body) and the loop-closing edges.
  void analyse();

  const std::vector<Vertex>& vertices() const { return m_vertices; }
  const std::vector<Edge>& edges() const { return m_edges; }
  const std::vector<Component>& components() const { return m_components; }
  /// Vertex index of a body name, -1 if unknown. Ground is 0.
  int vertex(const std::string& name) const;
  /// buildTopology(): body vertex v is the body table's body of pose v - 1 (ground is vertex 0).
  static int poseOf(int vertex) { return vertex - 1; }

  /// Edges outside the spanning tree, in edge order: each closes one independent loop.
  const std::vector<int>& loopClosingEdges() const { return m_loopClosing; }
  /// Cyclomatic number E - V + C. Two edges between the same two bodies close a loop.
  int independentLoops() const;
  bool isTree() const { return m_loopClosing.empty(); }
  /// Bodies with no path to ground, in vertex order.
  std::vector<int> notConnectedToGround() const;
  /// The loop an edge outside the tree closes: vertices from the tree path's top down to one
  /// end of the edge, then from its other end back up (the first vertex is not repeated).
  std::vector<int> loopOf(int edge) const;
  /// Number of elements (addEdge calls that added edges) of a kind.
  int elementCount(EdgeKind kind) const;

 private:
  std::vector<Vertex> m_vertices;
  std::vector<Edge> m_edges;
  std::vector<Component> m_components;
  std::vector<int> m_loopClosing;
  std::unordered_map<std::string, int> m_index;
  int m_elements = 0;
};

/// The topology of a model's bodies, joints and virtual-body attachments. Drivers act on a
/// joint's existing connection and forces do not constrain: neither adds an edge.
Topology buildTopology(const ModelSpec& model);

/// `topology` with an edge for each force element with two ends: the bodies that springs and
/// bushings hold, though no joint does (to tell a body on mounts from one that floats free).
Topology heldByForces(Topology topology, const ModelSpec& model);

/// A few lines for people: counts, components, loops and the spanning tree, summarised so a
/// model of thousands of bodies still gives a short report.
std::string describe(const Topology& topology);

const char* toString(VertexKind kind);
const char* toString(EdgeKind kind);

}  // namespace flexim
