#include "core/model/topology.h"

#include "core/model/body_table.h"
#include "core/model/description.h"

#include <algorithm>
#include <queue>
#include <sstream>

namespace flexim {

Topology::Topology() { addVertex(VertexKind::Ground, kGroundName); }

int Topology::addVertex(VertexKind kind, const std::string& name) {
  const int v = static_cast<int>(m_vertices.size());
  Vertex vertex;
  vertex.name = name;
  vertex.kind = kind;
  m_vertices.push_back(vertex);
  m_index.emplace(name, v);
  return v;
}

int Topology::vertex(const std::string& name) const {
  const auto it = m_index.find(name);
  return it == m_index.end() ? -1 : it->second;
}

int Topology::addEdge(EdgeKind kind, const std::string& name, const std::vector<std::string>& bodies) {
  std::vector<int> ends;
  for (const auto& body : bodies) {
    const int v = vertex(body);
    if (v < 0) return 0;
    if (std::find(ends.begin(), ends.end(), v) == ends.end()) ends.push_back(v);
  }
  if (ends.size() < 2) return 0;
  for (size_t i = 1; i < ends.size(); ++i) {
    Edge e;
    e.kind = kind;
    e.name = name;
    e.element = m_elements;
    e.a = ends[i - 1];
    e.b = ends[i];
    m_edges.push_back(e);
  }
  ++m_elements;
  return static_cast<int>(ends.size()) - 1;
}

void Topology::analyse() {
  std::vector<std::vector<int>> incident(m_vertices.size());
  for (size_t e = 0; e < m_edges.size(); ++e) {
    m_edges[e].tree = false;
    incident[m_edges[e].a].push_back(static_cast<int>(e));
    incident[m_edges[e].b].push_back(static_cast<int>(e));
  }
  for (auto& v : m_vertices) {
    v.component = -1;
    v.parent = v.parentEdge = -1;
    v.depth = 0;
  }
  m_components.clear();
  // vertex 0 is ground, so the first component is ground's and ground is its root
  for (size_t root = 0; root < m_vertices.size(); ++root) {
    if (m_vertices[root].component >= 0) continue;
    Component c;
    c.grounded = root == 0;
    const int id = static_cast<int>(m_components.size());
    m_vertices[root].component = id;
    std::queue<int> todo;
    todo.push(static_cast<int>(root));
    while (!todo.empty()) {
      const int n = todo.front();
      todo.pop();
      c.vertices.push_back(n);
      c.depth = std::max(c.depth, m_vertices[n].depth);
      for (int e : incident[n]) {
        const int m = m_edges[e].a == n ? m_edges[e].b : m_edges[e].a;
        if (m_vertices[m].component >= 0) continue;
        m_vertices[m].component = id;
        m_vertices[m].parent = n;
        m_vertices[m].parentEdge = e;
        m_vertices[m].depth = m_vertices[n].depth + 1;
        m_edges[e].tree = true;
        todo.push(m);
      }
    }
    std::sort(c.vertices.begin(), c.vertices.end());
    m_components.push_back(std::move(c));
  }
  m_loopClosing.clear();
  for (size_t e = 0; e < m_edges.size(); ++e)
    if (!m_edges[e].tree) m_loopClosing.push_back(static_cast<int>(e));
}

int Topology::independentLoops() const {
  return static_cast<int>(m_edges.size()) - static_cast<int>(m_vertices.size()) +
         static_cast<int>(m_components.size());
}

std::vector<int> Topology::notConnectedToGround() const {
  std::vector<int> out;
  for (size_t v = 1; v < m_vertices.size(); ++v)
    if (m_vertices[v].component != m_vertices[0].component) out.push_back(static_cast<int>(v));
  return out;
}

std::vector<int> Topology::loopOf(int edge) const {
  int u = m_edges[edge].a, v = m_edges[edge].b;
  std::vector<int> down, up;  // root side to u; v up to (not including) the common ancestor
  while (m_vertices[u].depth > m_vertices[v].depth) {
    down.push_back(u);
    u = m_vertices[u].parent;
  }
  while (m_vertices[v].depth > m_vertices[u].depth) {
    up.push_back(v);
    v = m_vertices[v].parent;
  }
  while (u != v) {
    down.push_back(u);
    up.push_back(v);
    u = m_vertices[u].parent;
    v = m_vertices[v].parent;
  }
  down.push_back(u);
  std::reverse(down.begin(), down.end());
  down.insert(down.end(), up.begin(), up.end());
  return down;
}

int Topology::elementCount(EdgeKind kind) const {
  int n = 0;
  for (size_t e = 0; e < m_edges.size(); ++e)
    if (m_edges[e].kind == kind && (e == 0 || m_edges[e - 1].element != m_edges[e].element)) ++n;
  return n;
}

Topology buildTopology(const ModelSpec& model) {
  Topology t;
  const BodyTable bodies(model);
  for (const BodyEntry& body : bodies.entries()) {
    const BodyKindDescription& kind = *body.kind;
    t.addVertex(kind.deformable ? VertexKind::Flexible
                : kind.massless ? VertexKind::Virtual
                : !kind.rotates ? VertexKind::PointMass
                                : VertexKind::Rigid,
                body.name);
  }
  for (const auto& j : model.joints) t.addEdge(EdgeKind::Joint, j.name, {j.body1, j.body2});
  for (const auto& v : model.virtual_bodies) {
    const int f = t.vertex(v.flexible_body);
    if (f >= 0 && t.vertices()[f].kind == VertexKind::Flexible)
      t.addEdge(EdgeKind::Attachment, "attachment of '" + v.name + "'", {v.flexible_body, v.name});
  }
  for (const BeamElementSpec& e : model.beam_elements) t.addEdge(EdgeKind::Beam, e.name, {e.node1, e.node2});
  // a gear or rack-and-pinion pair closes a kinematic loop between the members it couples
  for (const auto& c : model.couplings) {
    const JointSpec* joints[2] = {nullptr, nullptr};
    for (const auto& j : model.joints) {
      if (j.name == c.joint1) joints[0] = &j;
      if (j.name == c.joint2) joints[1] = &j;
    }
    if (joints[0] && joints[1]) t.addEdge(EdgeKind::Coupling, c.name, {joints[0]->body2, joints[1]->body2});
  }
  t.analyse();
  return t;
}

Topology heldByForces(Topology topology, const ModelSpec& model) {
  for (const ForceSpec& f : model.forces)
    if (const ForceKindDescription* kind = findForceKind(f.type.key()); kind && kind->twoEnds)
      topology.addEdge(EdgeKind::Force, f.name, {f.body1, f.body2});
  for (const ContactSpec& c : model.contacts) topology.addEdge(EdgeKind::Force, c.name, {c.body1, c.body2});
  topology.analyse();
  return topology;
}

const char* toString(VertexKind kind) {
  switch (kind) {
    case VertexKind::Ground: return "ground";
    case VertexKind::Rigid: return "rigid";
    case VertexKind::Flexible: return "flexible";
    case VertexKind::Virtual: return "virtual";
    case VertexKind::PointMass: return "point-mass";
  }
  return "?";
}

const char* toString(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::Joint: return "joint";
    case EdgeKind::Attachment: return "attachment";
    case EdgeKind::Coupling: return "coupling";
    case EdgeKind::Beam: return "beam element";
    case EdgeKind::Force: return "force";
  }
  return "?";
}

namespace {

// limits that keep the report short for large models
constexpr int kMaxNames = 8;         // bodies listed by name
constexpr int kMaxLoops = 5;         // loops listed
constexpr int kMaxLoopBodies = 12;   // bodies printed along one loop
constexpr int kMaxTrees = 3;         // components whose tree is printed
constexpr int kMaxBranches = 6;      // branch lines per tree
constexpr int kMaxHops = 8;          // hops printed along one branch

std::string count(int n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

std::string edgeLabel(const Topology::Edge& e) {
  if (e.kind == EdgeKind::Joint) return "joint '" + e.name + "'";
  if (e.kind == EdgeKind::Coupling) return "coupling '" + e.name + "'";
  if (e.kind == EdgeKind::Beam) return "beam element '" + e.name + "'";
  return e.name;
}

/// "a - b - c - a", the middle left out on long loops.
std::string loopText(const Topology& t, const std::vector<int>& loop) {
  const int n = static_cast<int>(loop.size());
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (n > kMaxLoopBodies && i == kMaxLoopBodies / 2 - 1) {
      s += " - ... " + std::to_string(n - kMaxLoopBodies + 2) + " more ...";
      i = n - kMaxLoopBodies / 2 + 1;
    }
    s += (i ? " - " : "") + t.vertices()[loop[i]].name;
  }
  return s + " - " + t.vertices()[loop[0]].name;
}

/// "from -> a (edge) -> b (edge)", the middle left out on long branches.
std::string branchText(const Topology& t, const std::vector<int>& path) {
  const int hops = static_cast<int>(path.size()) - 1;
  std::string s = t.vertices()[path[0]].name;
  for (int i = 1; i <= hops; ++i) {
    if (hops > kMaxHops && i == kMaxHops / 2) {
      s += " -> ... " + std::to_string(hops - kMaxHops + 1) + " more";
      i = hops - kMaxHops / 2 + 1;
    }
    const auto& v = t.vertices()[path[i]];
    s += " -> " + v.name + " (" + t.edges()[v.parentEdge].name + ")";
  }
  return s;
}

/// The spanning tree of a component as root-to-leaf branches in depth-first order; a branch
/// after the first starts at the vertex it leaves the previous ones from.
void describeTree(std::ostringstream& s, const Topology& t, const Topology::Component& c) {
  std::vector<std::vector<int>> children(t.vertices().size());
  for (int v : c.vertices)
    if (t.vertices()[v].parent >= 0) children[t.vertices()[v].parent].push_back(v);
  int leaves = 0;
  for (int v : c.vertices) leaves += children[v].empty() ? 1 : 0;
  s << "\n  tree from " << t.vertices()[c.vertices[0]].name << " (depth " << c.depth << ", "
    << count(leaves, "branch", "branches") << "):";
  // pending branches: (vertex the branch leaves from, its first vertex); deepest on top
  std::vector<std::pair<int, int>> todo{{-1, c.vertices[0]}};
  int printed = 0;
  while (!todo.empty() && printed < kMaxBranches) {
    auto [from, v] = todo.back();
    todo.pop_back();
    std::vector<int> path;
    if (from >= 0) path.push_back(from);
    for (;;) {
      path.push_back(v);
      const auto& next = children[v];
      for (size_t k = next.size(); k-- > 1;) todo.emplace_back(v, next[k]);
      if (next.empty()) break;
      v = next[0];
    }
    s << "\n    " << branchText(t, path);
    ++printed;
  }
  if (leaves > printed) s << "\n    ... " << count(leaves - printed, "more branch", "more branches");
}

}  // namespace

std::string describe(const Topology& t) {
  std::ostringstream s;
  const auto& V = t.vertices();
  int kinds[5] = {0, 0, 0, 0, 0};
  for (const auto& v : V) ++kinds[static_cast<int>(v.kind)];
  s << "topology: " << count(static_cast<int>(V.size()) - 1, "body", "bodies");
  std::string parts;
  for (VertexKind k : {VertexKind::Rigid, VertexKind::Flexible, VertexKind::Virtual, VertexKind::PointMass})
    if (kinds[static_cast<int>(k)])
      parts += (parts.empty() ? "" : ", ") + std::to_string(kinds[static_cast<int>(k)]) + " " + toString(k);
  if (!parts.empty()) s << " (" << parts << ")";
  s << " + ground, " << count(t.elementCount(EdgeKind::Joint), "joint", "joints");
  if (const int a = t.elementCount(EdgeKind::Attachment)) s << ", " << count(a, "attachment", "attachments");
  if (const int c = t.elementCount(EdgeKind::Coupling)) s << ", " << count(c, "coupling", "couplings");
  if (const int b = t.elementCount(EdgeKind::Beam)) s << ", " << count(b, "beam element", "beam elements");

  // components
  const auto& C = t.components();
  if (C.size() == 1) {
    s << "\n  1 component (connected to ground)";
  } else {
    const std::vector<int> loose = t.notConnectedToGround();
    s << "\n  " << C.size() << " components: ground + " << count(static_cast<int>(C[0].vertices.size()) - 1, "body", "bodies")
      << "; " << C.size() - 1 << " not connected to ground ("
      << count(static_cast<int>(loose.size()), "body", "bodies") << ": ";
    for (size_t i = 0; i < loose.size() && i < size_t(kMaxNames); ++i) s << (i ? ", '" : "'") << V[loose[i]].name << "'";
    if (loose.size() > size_t(kMaxNames)) s << ", ... " << loose.size() - kMaxNames << " more";
    s << ")";
  }

  // loops
  const auto& closing = t.loopClosingEdges();
  if (closing.empty()) {
    s << "\n  no loops (a tree)";
  } else if (closing.size() == 1) {
    s << "\n  1 independent loop, closed by " << edgeLabel(t.edges()[closing[0]]) << ": "
      << loopText(t, t.loopOf(closing[0]));
  } else {
    s << "\n  " << t.independentLoops() << " independent loops, closed by:";
    for (size_t i = 0; i < closing.size() && i < size_t(kMaxLoops); ++i)
      s << "\n    " << edgeLabel(t.edges()[closing[i]]) << ": " << loopText(t, t.loopOf(closing[i]));
    if (closing.size() > size_t(kMaxLoops)) s << "\n    ... " << closing.size() - kMaxLoops << " more";
  }

  // spanning trees of the components that have one
  int trees = 0, untold = 0;
  for (const auto& c : C) {
    if (c.vertices.size() < 2) continue;
    if (trees++ < kMaxTrees) describeTree(s, t, c);
    else ++untold;
  }
  if (untold) s << "\n  ... " << count(untold, "more component", "more components") << " with joints";
  return s.str();
}

}  // namespace flexim
