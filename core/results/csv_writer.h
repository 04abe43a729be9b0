// Results as CSV tables for spreadsheets and pandas (fabriclab-cli --csv DIR):
//   links.csv      one row per link direction: id,link,direction,from,to,kind,uplink,
//                  downlink,bytes,payload_bytes,packets,busy_ns,utilization
//   link_bins.csv  long format, non-zero bins only: link_id,from,to,bin,start_ns,bytes
//   switches.csv   one row per switch: id,packets_forwarded,multicast_replicas,reductions,
//                  reduction_contributions,evictions,peak_reduction_entries,
//                  peak_reduction_bytes,max_buffer_flits
//   phases.csv     name,start_ns,end_ns
//   follow.csv     with run.follow only, one row per hop of the followed packets:
//                  start_ns,end_ns,arrive_ns,from,to,link,direction,op,piece,tag,contributions,
//                  selector (which of run.follow's selectors the hop belongs to, from 0)
// Sweeps: one subdirectory per point (point-000, point-001, ...) plus points.csv with
// each point's directory, settings and key figures: point,directory,settings,
// makespan_ns,events,payload_efficiency,algbw_GBps,busbw_GBps,latency_mean_ns,
// latency_p99_ns,accepted_fraction, then every other sweep figure (results/
// sweep_metrics.h) some point has, e.g. al_tlb_hit_rate, reduction_buffer_hit_rate. The directory is created when
// missing; the files are written atomically, as one set. Errors: fl::InputError with key path "--csv".
#pragma once
#include <string>
#include <vector>

#include "results/atomic_file.h"
#include "results/results.h"
#include "sim/run.h"

namespace fl {

void writeCsvDirectory(const std::string& dir, const Results& results);

// One point without settings writes straight into `dir`, like writeCsvDirectory.
void writeCsvSweep(const std::string& dir, const std::vector<SweepPoint>& points);
// The same, staged into `files` with a run's other outputs (the caller commits them all
// at once; directories are created now).
void stageCsvDirectory(OutputFiles& files, const std::string& dir, const Results& results);
void stageCsvSweep(OutputFiles& files, const std::string& dir, const std::vector<SweepPoint>& points);

// The individual tables, as text (exposed for tests and the GUI's export).
std::string linksCsv(const Results& results);
std::string linkBinsCsv(const Results& results);
std::string switchesCsv(const Results& results);
std::string phasesCsv(const Results& results);
std::string followCsv(const Results& results);

// Throws InputError("--csv") when `dir` could not be created or written into; creates
// nothing. Lets the CLI fail before a long run.
void checkCsvDirectory(const std::string& dir);

}  // namespace fl
