// Actors of the scene's shapes, shared by the files of ModelScene.
#pragma once

#include "render/palette.h"

#include <vtkSmartPointer.h>

#include <string>

class vtkActor;
class vtkPolyData;
class vtkTextActor;

namespace flexim::render {

/// A lit surface actor of one colour.
vtkSmartPointer<vtkActor> makeActor(vtkPolyData* mesh, const Rgb& colour);
/// A 2-D text label in the scene's text colour and font.
vtkSmartPointer<vtkTextActor> makeLabel(const std::string& text, int fontSize);

}  // namespace flexim::render
