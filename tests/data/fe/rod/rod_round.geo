// Round steel rod for the flexible slider-crank: diameter 6 mm, 0.3 m long along x
// from x = 0 to x = 0.3, centred on the x axis. Second-order tetrahedra (gmsh type 11 / C3D10).
// Regenerate with scripts/make_fixtures.py rod (scripts/make_fixtures.py rod-mesh for bigger meshes).
//
// The cross-section (a disk meshed with triangles around an embedded node at its centre) is
// extruded along x in two halves of n layers each; every extruded prism is split into 3
// tetrahedra. So there are nodes on the axis at every layer, among them (0,0,0), (0.15,0,0)
// and (0.3,0,0) (AXIS_A, AXIS_MID, AXIS_B; the script finds them and adds the node sets).
// Node count = (4 n + 1) (V + E) for a cross-section mesh of V nodes and E edges.
L = 0.3;     // length [m]
r = 0.003;   // radius [m]
k = 2;       // boundary segments per quarter circle
n = 20;      // layers per half length
Point(1) = {0, 0, 0};
Point(2) = {0, r, 0};
Point(3) = {0, 0, r};
Point(4) = {0, -r, 0};
Point(5) = {0, 0, -r};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Transfinite Curve{1:4} = k + 1;
Curve Loop(1) = {1:4};
Plane Surface(1) = {1};
Point{1} In Surface{1};
a[] = Extrude {L/2, 0, 0} { Surface{1}; Layers{n}; };
b[] = Extrude {L/2, 0, 0} { Surface{a[0]}; Layers{n}; };
Physical Surface("END_A") = {1};      // face x = 0
Physical Surface("END_B") = {b[0]};   // face x = L
Physical Volume("ROD") = {a[1], b[1]};
Mesh.MeshSizeMax = Pi*r/(2*k);        // interior of the cross-section: about the boundary spacing
Mesh.ElementOrder = 2;
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "rod_round_gmsh.inp";
