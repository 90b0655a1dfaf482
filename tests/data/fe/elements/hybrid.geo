// two blocks 0.04 x 0.02 x 0.01 m side by side: structured bricks (x < 0.04) and tetrahedra
// (x > 0.04); every surface is recombined, so gmsh puts pyramids on the quadrangles the
// tetrahedra meet. Written by scripts/make_element_fixtures.py
SetFactory("OpenCASCADE");
Mesh.MshFileVersion = 4.1;
Mesh.SecondOrderIncomplete = 1;
Box(1) = {0, 0, 0, 0.04, 0.02, 0.01};
Box(2) = {0.04, 0, 0, 0.04, 0.02, 0.01};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2}; Delete; }
Transfinite Curve{:} = 3;
Transfinite Surface{:};
Recombine Surface{:};
Transfinite Volume{1};
Mesh.CharacteristicLengthMax = 0.01;
Physical Volume("SOLID") = {1, 2};
Mesh 3;
Save "hybrid_linear.msh";
SetOrder 2;
Save "hybrid.msh";
