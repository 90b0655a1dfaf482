// Evaluation of TimeFunctionSpec: value and analytic first/second derivatives.
#pragma once

#include "core/model/model.h"

#include <string>

namespace flexim {

struct TimeValue {
  double f = 0.0, df = 0.0, ddf = 0.0;
};

/// Precomputed evaluator (a table builds its cubic spline once).
class TimeFunction {
 public:
  TimeFunction() = default;
  explicit TimeFunction(const TimeFunctionSpec& spec);
  TimeValue operator()(double t) const;
  /// Empty when the parameters are valid, else the reason (e.g. "times must increase").
  static std::string check(const TimeFunctionSpec& spec);

 private:
  TimeFunctionSpec m_spec;
  std::vector<double> m_second;  ///< spline second derivatives at the table knots
};

}  // namespace flexim
