// L-bracket: base plate 0.06 x 0.04 x 0.005 m in the x-y plane with a bolt hole (diameter
// 0.008 m at x = 0.04, y = 0.02), upright plate 0.005 x 0.04 x 0.05 m at x = 0.
// First-order tetrahedra (gmsh type 4 / C3D4). Regenerate with scripts/make_fixtures.py.
SetFactory("OpenCASCADE");
t  = 0.005;  // plate thickness [m]
lb = 0.06;   // base length (x) [m]
b  = 0.04;   // width (y) [m]
hu = 0.05;   // upright height (z) [m]
rh = 0.004;  // bolt hole radius [m]
xh = 0.04;   // bolt hole centre x [m]
h  = 0.004;  // element size [m]
Box(1) = {0, 0, 0, lb, b, t};
Box(2) = {0, 0, 0, t, b, hu};
BooleanUnion(3) = {Volume{1}; Delete;}{Volume{2}; Delete;};
Cylinder(4) = {xh, b/2, -t, 0, 0, 3*t, rh};
BooleanDifference(5) = {Volume{3}; Delete;}{Volume{4}; Delete;};
e = 1e-6;
hole() = Surface In BoundingBox{xh-rh-e, b/2-rh-e, -e, xh+rh+e, b/2+rh+e, t+e};
top() = Surface In BoundingBox{-e, -e, hu-e, t+e, b+e, hu+e};
Physical Surface("HOLE") = {hole()};
Physical Surface("TOP") = {top()};
Physical Volume("BRACKET") = {5};
Mesh.MeshSizeMax = h;
Mesh.ElementOrder = 1;
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "mesh.msh";
Save "mesh_gmsh.inp";
