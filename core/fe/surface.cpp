#include "core/fe/surface.h"

#include "core/fe/element_library.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <numeric>
#include <span>

namespace flexim::fe {

namespace {

/// The face table of one element type (its ElementKind's).
struct Topology {
  std::span<const int[4]> faces;
  std::span<const int[3]> edges;  ///< empty for linear elements
};

/// Corners of a face: 3 or 4.
int corners(const int (&face)[4]) { return face[3] < 0 ? 3 : 4; }

Topology topology(ElementType t) {
  const ElementKind& kind = elementKind(t);
  return {kind.faces, kind.midEdges};
}

/// Local mid-edge node of the edge a-b (either direction), -1 if none.
int midNode(const Topology& topo, int a, int b) {
  for (const auto& e : topo.edges)
    if ((e[0] == a && e[1] == b) || (e[0] == b && e[1] == a)) return e[2];
  return -1;
}

/// Appends the triangles of one face of element `el` with k corners, oriented like the corner
/// order `c` (local node numbers, already reversed to point outward for a positive element).
void triangulateFace(const Element& el, const Topology& topo, const int* c, int k,
                     std::vector<std::array<int, 3>>& out) {
  const auto& n = el.nodes;
  if (topo.edges.empty()) {
    out.push_back({n[c[0]], n[c[1]], n[c[2]]});
    if (k == 4) out.push_back({n[c[0]], n[c[2]], n[c[3]]});
    return;
  }
  int m[4];  // m[i]: global mid node of edge c[i] - c[i+1]
  for (int i = 0; i < k; ++i) m[i] = n[midNode(topo, c[i], c[(i + 1) % k])];
  for (int i = 0; i < k; ++i) out.push_back({n[c[i]], m[i], m[(i + k - 1) % k]});  // corner triangles
  out.push_back({m[0], m[1], m[2]});
  if (k == 4) out.push_back({m[0], m[2], m[3]});
}

struct FaceKey {
  std::array<int, 4> sorted;  ///< sorted corner node indices (triangles: -1 padded)
  int element, face;
};

bool validNodes(const Element& el, int nodeCount) {
  const int nn = fe::nodeCount(el.type);
  for (int i = 0; i < nn; ++i)
    if (el.nodes[i] < 0 || el.nodes[i] >= nodeCount) return false;
  return true;
}

int findRoot(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

std::vector<std::array<int, 3>> outerSurface(const FeModel& mesh) {
  const int nElements = static_cast<int>(mesh.elements.size());
  const int nNodes = mesh.nodeCount();

  // 1. every face once per element, keyed by its sorted corners; a face seen once is outer
  std::vector<FaceKey> keys;
  std::vector<int> firstFace(nElements + 1, 0);  // index of an element's first face in `keys` order
  for (int e = 0; e < nElements; ++e) {
    const Element& el = mesh.elements[e];
    const Topology topo = topology(el.type);
    firstFace[e + 1] = firstFace[e] + static_cast<int>(topo.faces.size());
    if (!validNodes(el, nNodes)) continue;  // importers reject these; never index out of range
    for (int f = 0; f < static_cast<int>(topo.faces.size()); ++f) {
      FaceKey key{{-1, -1, -1, -1}, e, f};
      for (int i = 0; i < corners(topo.faces[f]); ++i) key.sorted[i] = el.nodes[topo.faces[f][i]];
      std::sort(key.sorted.begin(), key.sorted.end());  // the -1 padding of triangles sorts first
      keys.push_back(key);
    }
  }
  std::sort(keys.begin(), keys.end(), [](const FaceKey& a, const FaceKey& b) { return a.sorted < b.sorted; });
  std::vector<char> outer(firstFace[nElements], 0);
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i + 1;
    while (j < keys.size() && keys[j].sorted == keys[i].sorted) ++j;
    if (j - i == 1) outer[firstFace[keys[i].element] + keys[i].face] = 1;
    i = j;
  }

  // 2. triangulate, element by element in mesh order, faces in Abaqus order
  std::vector<std::array<int, 3>> surface, all;
  std::vector<std::pair<std::size_t, std::size_t>> keep;  // ranges of `all` on outer faces
  for (int e = 0; e < nElements; ++e) {
    const Element& el = mesh.elements[e];
    if (!validNodes(el, nNodes)) continue;
    const Topology topo = topology(el.type);
    // All faces of the element form a closed surface; its signed volume (divergence theorem)
    // tells whether the topological orientation is outward. It is negative only for an
    // inverted (mirrored) element, whose faces are then flipped.
    all.clear();
    keep.clear();
    for (int f = 0; f < static_cast<int>(topo.faces.size()); ++f) {
      const int k = corners(topo.faces[f]);
      int c[4];
      c[0] = topo.faces[f][0];
      for (int i = 1; i < k; ++i) c[i] = topo.faces[f][k - i];  // reverse: outward
      const std::size_t begin = all.size();
      triangulateFace(el, topo, c, k, all);
      if (outer[firstFace[e] + f]) keep.emplace_back(begin, all.size());
    }
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    const int nn = fe::nodeCount(el.type);
    for (int i = 0; i < nn; ++i) centroid += mesh.coords[el.nodes[i]];
    centroid /= nn;
    double volume6 = 0.0;
    for (const auto& t : all) {
      const Eigen::Vector3d a = mesh.coords[t[0]] - centroid, b = mesh.coords[t[1]] - centroid,
                            c = mesh.coords[t[2]] - centroid;
      volume6 += a.dot(b.cross(c));
    }
    const bool flip = volume6 < 0.0;
    for (const auto& [begin, end] : keep)
      for (std::size_t i = begin; i < end; ++i) {
        std::array<int, 3> t = all[i];
        if (flip) std::swap(t[1], t[2]);
        surface.push_back(t);
      }
  }
  return surface;
}

std::vector<int> faceNodes(const Element& el, int face) {
  const Topology topo = topology(el.type);
  if (face < 1 || face > static_cast<int>(topo.faces.size())) return {};
  const auto& c = topo.faces[static_cast<std::size_t>(face - 1)];
  const int k = corners(c);
  std::vector<int> nodes;
  for (int i = 0; i < k; ++i) nodes.push_back(el.nodes[static_cast<std::size_t>(c[i])]);
  if (!topo.edges.empty())
    for (int i = 0; i < k; ++i) nodes.push_back(el.nodes[static_cast<std::size_t>(midNode(topo, c[i], c[(i + 1) % k]))]);
  return nodes;
}

std::vector<int> partOfNodes(const FeModel& mesh, int& parts) {
  const int nNodes = mesh.nodeCount();
  std::vector<int> parent(nNodes);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<char> used(nNodes, 0);
  for (const Element& el : mesh.elements) {
    if (!validNodes(el, nNodes)) continue;
    const int nn = fe::nodeCount(el.type);
    const int r0 = findRoot(parent, el.nodes[0]);
    used[el.nodes[0]] = 1;
    for (int i = 1; i < nn; ++i) {
      used[el.nodes[i]] = 1;
      const int r = findRoot(parent, el.nodes[i]);
      if (r != r0) parent[r] = r0;
    }
  }
  for (const LinearConstraint& c : mesh.constraints)  // tied parts are one
    for (const DiscreteTerm& t : c.terms) {
      const int a = findRoot(parent, c.terms.front().node), b = findRoot(parent, t.node);
      if (a != b) parent[b] = a;
    }
  std::vector<int> part(nNodes, -1), label(nNodes, -1);
  parts = 0;
  for (int i = 0; i < nNodes; ++i) {
    if (!used[i]) continue;
    const int r = findRoot(parent, i);
    if (label[r] < 0) label[r] = parts++;
    part[i] = label[r];
  }
  return part;
}

int connectedParts(const FeModel& mesh) {
  int parts = 0;
  partOfNodes(mesh, parts);
  return parts;
}

}  // namespace flexim::fe
