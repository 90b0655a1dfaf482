// Connecting rod: big end (bore BORE_BIG at the origin) and small end (bore BORE_SMALL at
// x = 0.12 m) joined by a web, extruded 0.012 m along z. Second-order tetrahedra (C3D10).
// Regenerate with scripts/make_fixtures.py.
SetFactory("OpenCASCADE");
c  = 0.12;   // centre distance of the bores [m]
R1 = 0.022;  // big end: outer radius [m]
r1 = 0.013;  //          bore radius [m]
R2 = 0.012;  // small end: outer radius [m]
r2 = 0.007;  //            bore radius [m]
w  = 0.010;  // width of the web [m]
t  = 0.012;  // thickness [m]
h  = 0.006;  // element size [m]
Disk(1) = {0, 0, 0, R1};
Disk(2) = {c, 0, 0, R2};
Rectangle(3) = {0, -w/2, 0, c, w};
BooleanUnion(4) = {Surface{1}; Delete;}{Surface{2, 3}; Delete;};
Disk(5) = {0, 0, 0, r1};
Disk(6) = {c, 0, 0, r2};
BooleanDifference(7) = {Surface{4}; Delete;}{Surface{5, 6}; Delete;};
v() = Extrude {0, 0, t} { Surface{7}; };
e = 1e-6;
big() = Surface In BoundingBox{-r1-e, -r1-e, -e, r1+e, r1+e, t+e};
small() = Surface In BoundingBox{c-r2-e, -r2-e, -e, c+r2+e, r2+e, t+e};
Physical Surface("BORE_BIG") = {big()};
Physical Surface("BORE_SMALL") = {small()};
Physical Volume("CONROD") = {v(1)};
Mesh.MeshSizeMax = h;
Mesh.ElementOrder = 2;
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "mesh.msh";
Save "mesh_gmsh.inp";
