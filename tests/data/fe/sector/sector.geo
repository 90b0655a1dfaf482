// Cyclic sector: 30 degrees of an annular disc (inner radius 0.03 m, outer 0.1 m, thickness
// 0.01 m), the kind of part whose decks come in mm/tonne/s. Second-order tetrahedra (C3D10).
// Regenerate with scripts/make_fixtures.py (which also writes the mm/tonne/s copy of the mesh).
SetFactory("OpenCASCADE");
ri = 0.03;      // inner radius [m]
ro = 0.1;       // outer radius [m]
t  = 0.01;      // thickness (z) [m]
a  = Pi / 6;    // sector angle
h  = 0.008;     // element size [m]
Cylinder(1) = {0, 0, 0, 0, 0, t, ro, a};
Cylinder(2) = {0, 0, -t, 0, 0, 3 * t, ri, 2 * Pi};
BooleanDifference(3) = {Volume{1}; Delete;}{Volume{2}; Delete;};
Physical Volume("SECTOR") = {3};
Mesh.MeshSizeMax = h;
Mesh.ElementOrder = 2;
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "mesh.msh";
Save "mesh_gmsh.inp";
