#include "cli/mpi_sweep.h"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <thread>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include "results/results_codec.h"
#include "scenario/input_error.h"
#include "scenario/sweep.h"

namespace fl::cli {

namespace {

constexpr int kTagToRoot = 1;    // worker -> rank 0: [status][index][payload]
constexpr int kTagToWorker = 2;  // rank 0 -> worker: point index, -1 = stop
constexpr std::chrono::microseconds kPollInterval{200};
enum Status : std::uint8_t { kReady = 0, kDone = 1, kInputError = 2, kFailed = 3 };

bool gWorkersServing = false;  // rank 0: the workers reached `run` and wait for points
bool gWorkersReleased = false;
int gWorkersLeft = 0;  // rank 0: workers not yet told to stop

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
  MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, kTagToRoot, MPI_COMM_WORLD);
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
  MPI_Recv(bytes.data(), count, MPI_BYTE, st.MPI_SOURCE, kTagToRoot, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (bytes.size() < 1 + sizeof(std::int64_t)) throw std::runtime_error("mpi: truncated message");
  Message m;
  m.source = st.MPI_SOURCE;
  m.status = static_cast<Status>(bytes[0]);
  std::memcpy(&m.index, bytes.data() + 1, sizeof m.index);
  m.payload = bytes.substr(1 + sizeof m.index);
  return m;
}

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
    for (int flag = 0;;) {
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
      if (flag) break;
      std::this_thread::sleep_for(kPollInterval);
    }
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
  std::vector<std::optional<Results>> results(n);
  std::vector<std::exception_ptr> errors(n);
  std::size_t next = 0, done = 0, running = 0;
  bool stop = false;
  const auto cancelled = [&] { return o.cancel && o.cancel->load(std::memory_order_relaxed); };
  const auto progress = [&](double own) {
    if (o.progress) o.progress({done, running, n, (static_cast<double>(done) + own) / static_cast<double>(n)});
  };
  const auto handOut = [&](int rank) {
    if (!stop && !cancelled() && next < n) {
      ++running;
      assign(rank, static_cast<std::int64_t>(next++));
    } else {
      assign(rank, -1);
    }
  };
  const auto serve = [&](bool block) {
    while (auto m = receive(block)) {
      if (m->index >= 0 && static_cast<std::size_t>(m->index) < n) {
        const auto i = static_cast<std::size_t>(m->index);
        --running;
        if (m->status == kDone) {
          results[i] = decodeResults(m->payload);
          ++done;
          if (o.pointDone) o.pointDone(i, *results[i]);
        } else {
          errors[i] = namedError(decodeError(*m), i, settings[i]);
          stop = true;
        }
      }
      handOut(m->source);
      progress(0);
      if (block) return;
    }
  };

  // Rank 0 runs points too, answering the others between its engine batches.
  while (!stop && !cancelled() && next < n) {
    const std::size_t i = next++;
    ++running;
    RunControl control;
    control.cancel = o.cancel;
    control.poll = [&] { serve(false); };
    control.progress = [&](double f) { progress(f); };
    try {
      results[i] = runScenario(scenarios[i], control);
      ++done;
      if (o.pointDone) o.pointDone(i, *results[i]);
    } catch (...) {
      errors[i] = namedError(std::current_exception(), i, settings[i]);
      stop = true;
    }
    --running;
    progress(0);
    serve(false);
  }
  while (gWorkersLeft > 0) serve(true);
  gWorkersReleased = true;
  return gatherSweepPoints(s, results, errors, cancelled());
}

}  // namespace fl::cli
