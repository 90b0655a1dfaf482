// a steel disk (radius 0.05 m, 0.01 m thick) from four circle arcs; point 1, the arcs'
// centre, is a geometry point that no element uses. Written by scripts/make_discrete_fixtures.py
SetFactory("Built-in");
Mesh.MshFileVersion = 4.1;
Mesh.ElementOrder = 2;
Mesh.CharacteristicLengthMax = 0.02;
Mesh.SaveAll = 1;
Point(1) = {0, 0, 0};
Point(2) = {0.05, 0, 0};
Point(3) = {0, 0.05, 0};
Point(4) = {-0.05, 0, 0};
Point(5) = {0, -0.05, 0};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Extrude {0, 0, 0.01} { Surface{1}; Layers{2}; }
Mesh 3;
Save "disk.msh";
