// The same beam as beam.geo meshed with a structured grid of 20-node hexahedra
// (gmsh type 17 / C3D20): 1 x 1 element across the section, 20 along the length
// (kept this coarse so that the exported matrices stay small).
// Regenerate with scripts/make_fixtures.py.
L = 0.3;   // length [m]
a = 0.01;  // side of the square section [m]
n = 1;     // elements across the section
nl = 20;   // elements along the length
Point(1) = {0, -a/2, -a/2, a};
l[] = Extrude {0, a, 0} { Point{1}; Layers{n}; Recombine; };
s[] = Extrude {0, 0, a} { Line{l[1]}; Layers{n}; Recombine; };
v[] = Extrude {L, 0, 0} { Surface{s[1]}; Layers{nl}; Recombine; };
Physical Surface("END0") = {s[1]};   // face x = 0
Physical Surface("END1") = {v[0]};   // face x = L
Physical Volume("BEAM") = {v[1]};
Mesh.ElementOrder = 2;
Mesh.SecondOrderIncomplete = 1;
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "mesh_hex.msh";
Save "mesh_hex_gmsh.inp";
