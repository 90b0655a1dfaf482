// The results of a run, column by column: one array of times, one array per channel, the body
// poses and the modal coordinates, appended while the run streams. Plots, the animation and the
// CSV export read it; it holds no Qt and does no I/O.
//
// Plots of long runs ask for a min/max envelope: for each of a few hundred or thousand time
// buckets, the smallest and largest value of a channel among the samples in that bucket. Each
// channel keeps a pyramid of block minima and maxima (blocks of 2^k samples, k = 1, 2, ...) that
// append() keeps current, so an envelope costs O(buckets log n) at any zoom and is exact: every
// bucket's extremes are those of its own samples, never of a resampled curve.
#pragma once

#include "core/run/simulation.h"

#include <cstddef>
#include <span>
#include <vector>

namespace flexim {

class ResultTable {
 public:
  /// Min/max envelope of one channel: bucket b covers the samples with time in
  /// [t0 + b dt, t0 + (b + 1) dt), dt = (t1 - t0) / buckets. Buckets without samples are left
  /// out, so the vectors may be shorter than `buckets`. time[b] is the bucket's first sample time,
  /// first/last the values of its first and last samples (for drawing the line between buckets).
  struct Envelope {
    std::vector<double> time, min, max, first, last;
    std::size_t size() const { return time.size(); }
  };

  /// Starts an empty table for these channels, and the bodies whose poses the samples carry
  /// (Simulation::bodies()).
  void reset(std::vector<Channel> channels, BodyTable bodies = {});
  /// What the samples' times are: the time [s] of a run (the default after reset), or another
  /// abscissa, e.g. the load factor [-] of a static equilibrium's levels.
  void setAbscissa(Channel abscissa) { m_abscissa = std::move(abscissa); }
  const Channel& abscissa() const { return m_abscissa; }
  bool timed() const { return m_abscissa.name == "time"; }
  /// Appends samples in time order (a sample earlier than the last one is a programming error).
  void append(const Sample& s);
  void append(const std::vector<Sample>& samples);

  const std::vector<Channel>& channels() const { return m_channels; }
  /// Which body each pose and each set of modal coordinates of a sample is.
  const BodyTable& bodies() const { return m_bodies; }
  std::size_t size() const { return m_time.size(); }
  bool empty() const { return m_time.empty(); }

  std::span<const double> time() const { return m_time; }
  /// All values of channel c, one per sample.
  std::span<const double> column(std::size_t c) const { return m_columns[c].values; }
  /// Index of a channel by name (without unit), -1 if none.
  int channelIndex(const std::string& name) const;

  /// Sample i put back together (values, poses, modal coordinates), for the animation and the CSV.
  Sample sample(std::size_t i) const;
  /// Index of the last sample with time <= t (0 when t is before the first). Requires !empty().
  std::size_t indexAtTime(double t) const;

  /// The envelope of channel c over [t0, t1] in `buckets` buckets (see Envelope).
  Envelope envelope(std::size_t c, double t0, double t1, int buckets) const;
  /// Smallest and largest value of channel c over samples [begin, end); end > begin.
  std::pair<double, double> range(std::size_t c, std::size_t begin, std::size_t end) const;

 private:
  struct Column {
    std::vector<double> values;
    /// levels[k][j]: min and max over samples [j 2^(k+1), (j + 1) 2^(k+1)) (the last block of a
    /// level may be partial).
    std::vector<std::vector<std::pair<double, double>>> levels;
    void push(double v);
  };

  std::vector<Channel> m_channels;
  Channel m_abscissa{"time", "s"};
  BodyTable m_bodies;
  std::vector<double> m_time;
  std::vector<Column> m_columns;
  // per sample: a fixed count of poses and of modal coordinates per flexible body (the first
  // sample fixes the layout)
  std::vector<BodyPose> m_poses;
  std::vector<double> m_modal;
  std::vector<int> m_modalSizes;
  std::size_t m_posesPerSample = 0, m_modalPerSample = 0;
};

}  // namespace flexim
