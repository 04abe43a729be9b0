#include "cli/mpi_sweep.h"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <climits>
#include <thread>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "results/results_codec.h"
#include "scenario/input_error.h"
#include "scenario/sweep.h"

namespace fl::cli {

namespace {

constexpr int kTagToRoot = 1;    // worker -> rank 0: [status][index][payload]
constexpr int kTagToWorker = 2;  // rank 0 -> worker: point index, -1 = stop
constexpr std::chrono::microseconds kPollInterval{200};    // a worker waiting for its next point
// Rank 0 between messages: each wake-up (probe, sleep) costs its core ~25 us under load,
// 4 % of it at 0.5 ms and under 1 % at 2 ms, while a worker waits 1 ms a point on average.
constexpr std::chrono::microseconds kServeInterval{2000};
// Rank 0 taking a result whose envelope has arrived: the rest follows as the sender
// progresses it, so poll often (a blocking receive would spin meanwhile).
constexpr std::chrono::microseconds kReceivePollInterval{20};
enum Status : std::uint8_t { kReady = 0, kDone = 1, kInputError = 2, kFailed = 3 };

bool gWorkersServing = false;  // rank 0: the workers reached `run` and wait for points
bool gWorkersReleased = false;
int gWorkersLeft = 0;  // rank 0: workers not yet told to stop

// MPI_Wait without its busy loop: test, then sleep `interval`, until `request` completes.
void waitPolling(MPI_Request& request, std::chrono::microseconds interval) {
  for (int flag = 0;;) {
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    if (flag) return;
    std::this_thread::sleep_for(interval);
  }
}

// Length-prefixed fields, for errors.
void putString(std::string& out, const std::string& s) {
  const std::uint64_t n = s.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out += s;
}
std::string getString(const std::string& in, std::size_t& at) {
  std::uint64_t n = 0;
  if (in.size() - at < sizeof n) throw std::runtime_error("mpi: truncated message");
  std::memcpy(&n, in.data() + at, sizeof n);
  at += sizeof n;
  if (n > in.size() - at) throw std::runtime_error("mpi: truncated message");
  std::string s = in.substr(at, n);
  at += n;
  return s;
}

void sendToRoot(Status status, std::int64_t index, const std::string& payload) {
  std::string message(1, static_cast<char>(status));
  message.append(reinterpret_cast<const char*>(&index), sizeof index);
  message += payload;
  if (message.size() > static_cast<std::size_t>(INT_MAX))
    throw std::runtime_error("the results of sweep point " + std::to_string(index) +
                             " are larger than one MPI message (2 GiB): use a wider run.bin");
  // Sent without blocking, then polled with short sleeps: a blocking MPI_Send of a large
  // result spins until rank 0 takes it, taking a core from the ranks that compute.
  MPI_Request request;
  MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, kTagToRoot, MPI_COMM_WORLD, &request);
  waitPolling(request, kPollInterval);
}

void assign(int rank, std::int64_t index) {
  MPI_Send(&index, 1, MPI_INT64_T, rank, kTagToWorker, MPI_COMM_WORLD);
  if (index < 0) --gWorkersLeft;
}

struct Message {
  int source = 0;
  Status status = kReady;
  std::int64_t index = -1;
  std::string payload;
};

// The next message to rank 0, if any (or waiting for one when `block`).
std::optional<Message> receive(bool block) {
  // Waiting polls with short sleeps: MPI's blocking calls spin, taking a core from the
  // ranks that compute on the same machine.
  MPI_Status st;
  int flag = 0;
  for (;;) {
    MPI_Iprobe(MPI_ANY_SOURCE, kTagToRoot, MPI_COMM_WORLD, &flag, &st);
    if (flag || !block) break;
    std::this_thread::sleep_for(kPollInterval);
  }
  if (!flag) return std::nullopt;
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  std::string bytes(static_cast<std::size_t>(count), '\0');
  MPI_Request request;
  MPI_Irecv(bytes.data(), count, MPI_BYTE, st.MPI_SOURCE, kTagToRoot, MPI_COMM_WORLD, &request);
  waitPolling(request, kReceivePollInterval);
  if (bytes.size() < 1 + sizeof(std::int64_t)) throw std::runtime_error("mpi: truncated message");
  Message m;
  m.source = st.MPI_SOURCE;
  m.status = static_cast<Status>(bytes[0]);
  std::memcpy(&m.index, bytes.data() + 1, sizeof m.index);
  m.payload = bytes.substr(1 + sizeof m.index);
  return m;
}

// FABRICLAB_MPI_TRACE=1: rank 0 writes a line per point to stderr, when it comes back:
// the rank, when it was handed out and came back (seconds since the first hand-out), the
// point's own run time and the size of its results message. Back - out - run is what MPI
// cost that point (waiting for rank 0, encoding, sending, decoding).
class PointTrace {
 public:
  PointTrace() : on_(std::getenv("FABRICLAB_MPI_TRACE") != nullptr) {}
  void handOut(std::size_t i, int rank) {
    if (!on_) return;
    if (out_.size() <= i) out_.resize(i + 1, {0, 0});
    out_[i] = {rank, seconds()};
  }
  void back(std::size_t i, double run, std::size_t bytes) {
    if (!on_ || i >= out_.size()) return;
    const double now = seconds();
    std::fprintf(stderr, "mpi: point %zu rank %d out %.3f back %.3f run %.3f overhead %.4f s, %zu bytes\n", i,
                 out_[i].first, out_[i].second, now, run, now - out_[i].second - run, bytes);
  }

 private:
  double seconds() {
    const auto now = std::chrono::steady_clock::now();
    if (!started_) start_ = now, started_ = true;
    return std::chrono::duration<double>(now - start_).count();
  }
  bool on_;
  bool started_ = false;
  std::chrono::steady_clock::time_point start_;
  std::vector<std::pair<int, double>> out_;
};

std::exception_ptr decodeError(const Message& m) {
  std::size_t at = 0;
  if (m.status == kInputError) {
    InputLocation where;
    where.file = getString(m.payload, at);
    where.line = std::atoi(getString(m.payload, at).c_str());
    where.column = std::atoi(getString(m.payload, at).c_str());
    const std::string key = getString(m.payload, at), expected = getString(m.payload, at);
    const std::string found = getString(m.payload, at), hint = getString(m.payload, at);
    return std::make_exception_ptr(InputError(where, key, expected, found, hint));
  }
  return std::make_exception_ptr(std::runtime_error(m.payload + " (on MPI rank " + std::to_string(m.source) + ")"));
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  // Launched by mpirun (Open MPI), srun or another PMI launcher: MPI's own variables.
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (!size) size = std::getenv("PMI_SIZE");
  if (!size) size = std::getenv("PMIX_SIZE");
  if (!size && !std::getenv("PMIX_RANK")) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  initialised_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  gWorkersLeft = size_ - 1;
}

MpiSession::~MpiSession() {
  if (!initialised_) return;
  if (rank_ == 0 && size_ > 1) {
    try {
      releaseWorkers();
    } catch (...) {
    }
  }
  MPI_Finalize();
}

void workersServe() { gWorkersServing = true; }

void releaseWorkers() {
  if (!gWorkersServing || gWorkersReleased) return;
  gWorkersReleased = true;
  // Every worker sends one message (ready, or a result) and then waits for an index.
  while (gWorkersLeft > 0)
    if (auto m = receive(true)) assign(m->source, -1);
}

void servePoints(const Scenario* s) {
  sendToRoot(kReady, -1, {});
  for (;;) {
    std::int64_t index = -1;
    MPI_Request request;
    MPI_Irecv(&index, 1, MPI_INT64_T, 0, kTagToWorker, MPI_COMM_WORLD, &request);
    waitPolling(request, kPollInterval);
    if (index < 0 || !s) {
      if (index >= 0) sendToRoot(kFailed, index, "this rank could not read the scenario");
      if (index < 0) return;
      continue;
    }
    const std::size_t i = static_cast<std::size_t>(index);
    try {
      const Scenario point = s->sweep.empty() ? *s : sweepPointScenario(*s, sweepPoint(*s, i));
      sendToRoot(kDone, index, encodeResults(runScenario(point)));
    } catch (const InputError& e) {
      std::string payload;
      for (const std::string& f : {e.where().file, std::to_string(e.where().line), std::to_string(e.where().column),
                                   e.keyPath(), e.expected(), e.found(), e.hint()})
        putString(payload, f);
      sendToRoot(kInputError, index, payload);
    } catch (const std::exception& e) {
      sendToRoot(kFailed, index, e.what());
    }
  }
}

std::vector<SweepPoint> runSweepOverMpi(const Scenario& s, const SweepOptions& o) {
  const std::vector<SweepSettings> settings = sweepPoints(s);
  const std::size_t n = settings.size();
  std::vector<Scenario> scenarios;
  try {
    scenarios = prepareSweepPoints(s);
  } catch (...) {
    releaseWorkers();
    throw;
  }
  PointTrace trace;
  std::mutex mutex;  // guards everything below and serialises the callbacks
  std::vector<std::optional<Results>> results(n);
  std::vector<std::exception_ptr> errors(n);
  std::size_t done = 0, running = 0;
  double ownFraction = 0;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false}, ownFinished{false};
  const auto cancelled = [&] { return o.cancel && o.cancel->load(std::memory_order_relaxed); };
  const auto progress = [&] {  // with the lock held
    if (o.progress) o.progress({done, running, n, (static_cast<double>(done) + ownFraction) / static_cast<double>(n)});
  };
  // The next point for any rank, with the lock held; none once the sweep stops.
  const auto take = [&]() -> std::optional<std::size_t> {
    if (cancelled()) stop = true;
    if (stop || next >= n) return std::nullopt;
    ++running;
    return next++;
  };
  const auto finish = [&](std::size_t i, std::optional<Results>&& r, std::exception_ptr error) {  // with the lock
    --running;
    if (error) {
      errors[i] = namedError(error, i, settings[i]);
      stop = true;
    } else {
      results[i] = std::move(r);
      ++done;
      if (o.pointDone) o.pointDone(i, *results[i]);
    }
    progress();
  };

  // Rank 0's own points run on a thread of their own, so that this (main) thread, the
  // only one calling MPI (MPI_THREAD_FUNNELED), answers the other ranks within
  // kServeInterval: answering between engine batches instead (every 65536 events, up
  // to ~50 ms on NVLS points) kept each worker waiting in its MPI_Send of a result.
  std::thread own([&] {
    for (;;) {
      std::optional<std::size_t> i;
      {
        std::lock_guard lock(mutex);
        i = take();
        if (i) trace.handOut(*i, 0);
      }
      if (!i) break;
      RunControl control;
      control.cancel = &stop;
      control.progress = [&](double f) {
        if (cancelled()) stop = true;
        std::lock_guard lock(mutex);
        ownFraction = f;
        progress();
      };
      std::optional<Results> r;
      std::exception_ptr error;
      try {
        r = runScenario(scenarios[*i], control);
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard lock(mutex);
      ownFraction = 0;
      if (r) trace.back(*i, r->wall_seconds, 0);
      finish(*i, std::move(r), error);
    }
    ownFinished = true;
  });
  try {
    while (!ownFinished || gWorkersLeft > 0) {
      std::optional<Message> m = receive(false);
      if (!m) {
        if (cancelled()) stop = true;
        std::this_thread::sleep_for(kServeInterval);
        continue;
      }
      const bool valid = m->index >= 0 && static_cast<std::size_t>(m->index) < n;
      std::optional<Results> r;
      if (valid && m->status == kDone) r = decodeResults(m->payload);  // outside the lock
      std::lock_guard lock(mutex);
      if (valid) {
        const auto i = static_cast<std::size_t>(m->index);
        if (r) {
          trace.back(i, r->wall_seconds, m->payload.size());
          finish(i, std::move(r), nullptr);
        } else {
          finish(i, std::nullopt, decodeError(*m));
        }
      }
      const std::optional<std::size_t> i = take();
      if (i) trace.handOut(*i, m->source);
      assign(m->source, i ? static_cast<std::int64_t>(*i) : -1);
    }
  } catch (...) {
    stop = true;
    own.join();
    throw;
  }
  own.join();
  gWorkersReleased = true;
  return gatherSweepPoints(s, results, errors, cancelled());
}

}  // namespace fl::cli
