// Straight steel beam 0.3 m long along x, square section 0.01 x 0.01 m centred on the x axis.
// Second-order tetrahedra (gmsh type 11 / C3D10). Regenerate with scripts/make_fixtures.py.
SetFactory("OpenCASCADE");
L = 0.3;   // length [m]
a = 0.01;  // side of the square section [m]
h = 0.01;  // element size [m]
Box(1) = {0, -a/2, -a/2, L, a, a};
e = 1e-6;
s0() = Surface In BoundingBox{-e, -a, -a, e, a, a};
s1() = Surface In BoundingBox{L-e, -a, -a, L+e, a, a};
Physical Surface("END0") = {s0()};   // face x = 0
Physical Surface("END1") = {s1()};   // face x = L
Physical Volume("BEAM") = {1};
Mesh.MeshSizeMax = h;
Mesh.MeshSizeMin = h;
Mesh.ElementOrder = 2;
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "mesh.msh";
Save "mesh_gmsh.inp";
