// Rectangular steel rod for the flexible slider-crank: 0.3 m long along x from x = 0
// to x = 0.3, centred on the x axis; same area and same I_z (bending in the x-y plane) as the
// round rod of radius r = 3 mm: h b = pi r^2, b h^3/12 = pi r^4/4, so h = sqrt(3) r (y extent),
// b = pi r/sqrt(3) (z extent). Second-order tetrahedra (C3D10).
// Regenerate with scripts/make_fixtures.py rod.
//
// Meshed like rod_round.geo: the cross-section (triangles around an embedded centre node) is
// extruded along x in two halves of n layers; nodes on the axis at every layer, among them
// (0,0,0), (0.15,0,0) and (0.3,0,0).
L = 0.3;              // length [m]
r = 0.003;            // radius of the round rod it replaces [m]
h = Sqrt(3)*r;        // y extent [m]
b = Pi*r/Sqrt(3);     // z extent [m]
k = 2;                // boundary segments per side
n = 20;               // layers per half length
Point(1) = {0, 0, 0};
Point(2) = {0, -h/2, -b/2};
Point(3) = {0, h/2, -b/2};
Point(4) = {0, h/2, b/2};
Point(5) = {0, -h/2, b/2};
Line(1) = {2, 3};
Line(2) = {3, 4};
Line(3) = {4, 5};
Line(4) = {5, 2};
Transfinite Curve{1:4} = k + 1;
Curve Loop(1) = {1:4};
Plane Surface(1) = {1};
Point{1} In Surface{1};
a[] = Extrude {L/2, 0, 0} { Surface{1}; Layers{n}; };
c[] = Extrude {L/2, 0, 0} { Surface{a[0]}; Layers{n}; };
Physical Surface("END_A") = {1};      // face x = 0
Physical Surface("END_B") = {c[0]};   // face x = L
Physical Volume("ROD") = {a[1], c[1]};
Mesh.MeshSizeMax = 1.5*h/k;           // with the next line: no node inside the cross-section
Mesh.MeshSizeExtendFromBoundary = 0;  // but the centre (8 triangles around it)
Mesh.ElementOrder = 2;
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "rod_rect_gmsh.inp";
