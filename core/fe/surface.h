// Display surface of a solid mesh: the outer faces of the volume elements, split into
// triangles that reference FE node indices (so a deformed surface is drawn by moving those
// nodes), and a count of disconnected parts for the import warnings.
#pragma once

#include "core/fe/fe_model.h"

#include <array>
#include <vector>

namespace flexim::fe {

/// Triangles of the outer surface of `mesh`: every element face that belongs to exactly one
/// element (faces are matched by their sorted corner node indices), in the Abaqus face order
/// (C3D4: S1 1-2-3, S2 1-4-2, S3 2-4-3, S4 3-4-1; C3D8: S1 1-2-3-4, S2 5-8-7-6, S3 1-5-6-2,
/// S4 2-6-7-3, S5 3-7-8-4, S6 4-8-5-1; C3D6: S1 1-2-3, S2 4-6-5, S3 1-4-5-2, S4 2-5-6-3,
/// S5 3-6-4-1; pyramids, like the brick collapsed into the apex 5: S1 1-2-3-4, S2 1-5-2,
/// S3 2-5-3, S4 3-5-4, S5 4-5-1; elements in mesh order). A triangle and a quadrangle face of
/// different elements never match, so a mesh must be conforming (a quadrangle between a brick
/// and two tetrahedra stays outer). Every triangle is oriented
/// with its normal (right-hand rule) pointing out of its element. Faces are split as
///   3-node triangle -> 1, 6-node triangle -> 4 (through the mid-edge nodes),
///   4-node quad     -> 2, 8-node quad     -> 6 (4 corner triangles + inner quad as 2).
/// Entries are node indices (into mesh.coords): this is the surface-to-FE-node map.
std::vector<std::array<int, 3>> outerSurface(const FeModel& mesh);

/// Node indices of face `face` of element `el`, numbered as Abaqus/CalculiX number element faces
/// (1 = S1, ..., see outerSurface above): the corners in that order, then for quadratic elements
/// the mid-side nodes (edge corner 1-2, 2-3, ...). Empty if the element type has no such face.
/// For element-face surfaces (*SURFACE, TYPE=ELEMENT).
std::vector<int> faceNodes(const Element& el, int face);

/// Number of disconnected parts: groups of elements connected through shared nodes or linear
/// constraints (nodes that belong to no element are not counted). 0 for a mesh without elements.
int connectedParts(const FeModel& mesh);

/// The part of each node (-1 for a node in no element), parts numbered in the order of their
/// lowest node index; `parts` is their count (connectedParts).
std::vector<int> partOfNodes(const FeModel& mesh, int& parts);

}  // namespace flexim::fe
