// the block 0.1 x 0.02 x 0.01 m: a triangulated x-y rectangle extruded along z in 2 layers
// (Recombine: prisms). Written by scripts/make_element_fixtures.py
SetFactory("Built-in");
Mesh.MshFileVersion = 4.1;
Mesh.SecondOrderIncomplete = 1;
Point(1) = {0, 0, 0, 0.012};
Point(2) = {0.1, 0, 0, 0.012};
Point(3) = {0.1, 0.02, 0, 0.012};
Point(4) = {0, 0.02, 0, 0.012};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 0.01} { Surface{1}; Layers{2}; Recombine; };
Physical Volume("SOLID") = {out[1]};
Mesh 3;
Save "prisms_linear.msh";
Save "prisms_linear_gmsh.inp";
SetOrder 2;
Save "prisms.msh";
Save "prisms_gmsh.inp";
