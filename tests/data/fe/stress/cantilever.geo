// Cantilever 0.4 x 0.04 x 0.02 m, C3D10. Written by scripts/make_stress_fixtures.py.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 0.4, 0.04, 0.02};
e = 1e-6;
s0() = Surface In BoundingBox{-e, -e, -e, e, 1, 1};
s1() = Surface In BoundingBox{0.4-e, -e, -e, 0.4+e, 1, 1};
Physical Surface("END0") = {s0()};
Physical Surface("END1") = {s1()};
Physical Volume("BEAM") = {1};
Mesh.MeshSizeMax = 0.04;
Mesh.MeshSizeMin = 0.04;
Mesh.ElementOrder = 2;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "cantilever_gmsh.inp";
