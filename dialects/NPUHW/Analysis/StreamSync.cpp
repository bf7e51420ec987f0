//===- StreamSync.cpp - Semaphores for a dependency-ordered stream --------===//
//
// Semaphore assignment for NPU-v1 streams (docs/npu-isa.md §4) and an
// independent checker of the result.
//
// The assignment walks the stream once, in order, and keeps for every command
// c its *start clock*: for each engine E, how many commands of E are known to
// have completed when c starts (engines run their commands in order, so these
// are the first n of E). The clock of c joins
//   - the fence clock: every command before the latest NOP/END fence;
//   - the completion clock of the previous command on c's engine (in order);
//   - the completion clock of the producer of every wait c is given.
// A dependency of c on command j of engine E is implied when j's ordinal on E
// is at most clock[E]; the others are the command's *needs*: per engine, the
// latest needed ordinal.
//
// Needs become waits on semaphores. Each semaphore has one producer engine
// (signals from one engine are raised in stream order, because that engine
// completes its commands in order), and the waits on a semaphore are granted
// in stream order (§4, tickets). A wait of c for a need on engine E appends
// one signal to an E command x (x before c, x at or after the needed command)
// and one wait to c; x is never before the last signaller of the semaphore.
//
// Why the FIFO pairing is exact. Take a semaphore S with producer engine E.
// Signals are appended in the order of the waits they are made for (the walk
// is in stream order), and their producers never go backwards in stream
// order. So the k-th signal raised on S (E completes in order) is the one
// made for the k-th wait in stream order, which is the k-th wait granted:
// each wait takes the token of the producer chosen for it, and c starts only
// after x completed. The stream rule holds too: when the walk reaches the
// k-th wait, the first k signals belong to commands before it (producers
// are nondecreasing and the k-th is before the waiter) and k-1 of them were
// taken, so the counter is at least one.
//
// With one semaphore per (producer engine, consumer engine) pair, the
// "never backwards" condition costs nothing: let c' be the previous command
// on engine C that waited on S, for producer x'. c' precedes c on C, so c's
// clock includes x' completed, and any need of c on E is after x'. Needs on a
// pair are therefore strictly increasing and every wait pairs with exactly
// the command it names. When the target has fewer semaphores than the pairs
// need, a semaphore per producer engine is shared by all consumer engines;
// then a need before the last signaller of S is satisfied by that signaller
// (a later command of the same in-order engine implies the earlier one).
//
// At most two waits and two signals. When a command needs more than two
// engines, or a producer has no signal slot left, the walk looks for one or
// two waits that cover every need: first on the exact producers (one
// producer's clock may imply another need), then also on the latest command
// of each needed engine before c that has a free slot (a later producer
// implies more). If none covers, a NOP fence is inserted before c: every
// earlier command has then completed when c starts, so c needs no wait.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/StreamSync.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace kiln::npuhw {

namespace {

using npu::Engine;
constexpr unsigned kEngines = npu::kNumEngines;

unsigned engineIndex(Engine e) { return static_cast<unsigned>(e); }

void join(EngineClock &into, const EngineClock &other) {
  for (unsigned e = 0; e < kEngines; ++e)
    into[e] = std::max(into[e], other[e]);
}

bool covers(const EngineClock &clock, const EngineClock &need) {
  for (unsigned e = 0; e < kEngines; ++e)
    if (need[e] > clock[e])
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// The assignment walk
//===----------------------------------------------------------------------===//

class Assigner {
public:
  Assigner(const std::vector<SyncCommand> &commands, SemaphoreScheme scheme)
      : cmds(commands), ordinal(engineOrdinals(commands)) {
    result.scheme = scheme;
    result.commands.resize(cmds.size());
    start.resize(cmds.size());
    for (auto &row : pairSem)
      row.fill(-1);
    producerSem.fill(-1);
  }

  /// Walks the stream; the outcome is in `result`.
  void run() {
    for (unsigned c = 0; c < cmds.size(); ++c) {
      for (unsigned dep : cmds[c].deps) {
        if (dep >= c) {
          result.error = SyncAssignment::Error::ForwardDependency;
          result.errorCommand = c;
          result.errorDep = dep;
          return;
        }
      }
      visit(c);
      ++processed[engineIndex(cmds[c].engine)];
      byEngine[engineIndex(cmds[c].engine)].push_back(c);
    }
  }

  SyncAssignment result;

private:
  EngineClock done(unsigned i) const {
    EngineClock clock = start[i];
    clock[engineIndex(cmds[i].engine)] = ordinal[i];
    return clock;
  }

  /// The semaphore for a wait of an engine-C command on engine E, or -1 if
  /// it does not exist yet.
  int &semSlot(unsigned producer, unsigned consumer) {
    if (result.scheme == SemaphoreScheme::PerEnginePair)
      return pairSem[producer][consumer];
    return producerSem[producer];
  }

  /// True if x may carry one more signal on the semaphore of (E, C).
  bool canSignal(unsigned x, unsigned consumer) {
    if (result.commands[x].signals.size() >= 2)
      return false;
    int sem = semSlot(engineIndex(cmds[x].engine), consumer);
    return sem < 0 || static_cast<int>(x) >= lastSignaller[sem];
  }

  void visit(unsigned c) {
    const unsigned self = engineIndex(cmds[c].engine);
    if (cmds[c].engine == Engine::CTRL) {
      // A fence: every earlier command has completed when it executes, and
      // every later command is dispatched after it.
      fence = processed;
      start[c] = processed;
      return;
    }
    EngineClock base = fence;
    if (!byEngine[self].empty())
      join(base, done(byEngine[self].back()));

    EngineClock need{};
    for (unsigned dep : cmds[c].deps) {
      unsigned e = engineIndex(cmds[dep].engine);
      if (cmds[dep].engine == Engine::CTRL || e == self)
        continue; // Implied by the fence or by engine order.
      if (ordinal[dep] > base[e])
        need[e] = std::max(need[e], ordinal[dep]);
    }
    std::vector<unsigned> needed;
    for (unsigned e = 0; e < kEngines; ++e)
      if (need[e])
        needed.push_back(e);
    if (needed.empty()) {
      start[c] = base;
      return;
    }

    // Candidate producers per needed engine: the earliest command at or
    // after the need that can signal, and the latest one before c.
    std::vector<unsigned> exact, late;
    for (unsigned e : needed) {
      // Scan from both ends, so a typical need costs O(1), not the length
      // of the engine's history since it.
      const std::vector<unsigned> &list = byEngine[e];
      size_t lo = need[e] - 1, hi = list.size();
      while (lo < hi && !canSignal(list[lo], self))
        ++lo;
      if (lo == hi)
        continue;
      while (!canSignal(list[hi - 1], self))
        --hi;
      exact.push_back(list[lo]);
      late.push_back(list[hi - 1]);
    }
    auto coversWith = [&](std::initializer_list<unsigned> xs) {
      EngineClock clock = base;
      for (unsigned x : xs)
        join(clock, done(x));
      return covers(clock, need);
    };
    std::vector<unsigned> chosen;
    auto search = [&](const std::vector<unsigned> &cands) {
      for (unsigned x : cands)
        if (coversWith({x})) {
          chosen = {x};
          return true;
        }
      for (size_t i = 0; i < cands.size(); ++i)
        for (size_t j = i + 1; j < cands.size(); ++j)
          if (cmds[cands[i]].engine != cmds[cands[j]].engine &&
              coversWith({cands[i], cands[j]})) {
            chosen = {cands[i], cands[j]};
            return true;
          }
      return false;
    };
    std::vector<unsigned> both = exact;
    both.insert(both.end(), late.begin(), late.end());
    if (!search(exact) && !search(both)) {
      result.fencesBefore.push_back(c);
      fence = processed;
      join(base, fence);
      start[c] = base;
      return;
    }

    for (unsigned x : chosen) {
      unsigned e = engineIndex(cmds[x].engine);
      int &sem = semSlot(e, self);
      if (sem < 0) {
        sem = static_cast<int>(result.semaphoresUsed++);
        lastSignaller.push_back(-1);
      }
      // At most 12 pairs (4 engines signal), so an id always fits a byte.
      result.commands[x].signals.push_back(static_cast<uint8_t>(sem));
      result.commands[c].waits.push_back(static_cast<uint8_t>(sem));
      result.commands[c].producers.push_back(x);
      lastSignaller[sem] = static_cast<int>(x);
      ++result.waitsRealised;
      if (ordinal[x] > need[e])
        ++result.waitsPromoted;
      join(base, done(x));
    }
    start[c] = base;
  }

  const std::vector<SyncCommand> &cmds;
  std::vector<uint32_t> ordinal;
  std::vector<EngineClock> start;
  std::array<std::vector<unsigned>, kEngines> byEngine;
  EngineClock fence{}, processed{};
  std::array<std::array<int, kEngines>, kEngines> pairSem;
  std::array<int, kEngines> producerSem;
  std::vector<int> lastSignaller;
};

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

std::vector<uint32_t> engineOrdinals(const std::vector<SyncCommand> &commands) {
  std::vector<uint32_t> ordinal(commands.size());
  EngineClock count{};
  for (size_t i = 0; i < commands.size(); ++i)
    ordinal[i] = ++count[engineIndex(commands[i].engine)];
  return ordinal;
}

std::vector<EngineClock>
dependencyClocks(const std::vector<SyncCommand> &commands) {
  std::vector<uint32_t> ordinal = engineOrdinals(commands);
  std::vector<EngineClock> start(commands.size());
  auto done = [&](size_t i) {
    EngineClock clock = start[i];
    clock[engineIndex(commands[i].engine)] = ordinal[i];
    return clock;
  };
  EngineClock fence{}, processed{};
  std::array<int, kEngines> last;
  last.fill(-1);
  for (size_t c = 0; c < commands.size(); ++c) {
    unsigned self = engineIndex(commands[c].engine);
    if (commands[c].engine == Engine::CTRL) {
      fence = processed;
      start[c] = processed;
    } else {
      EngineClock clock = fence;
      if (last[self] >= 0)
        join(clock, done(last[self]));
      for (unsigned dep : commands[c].deps)
        if (dep < c && commands[dep].engine != Engine::CTRL)
          join(clock, done(dep));
      start[c] = clock;
    }
    ++processed[self];
    last[self] = static_cast<int>(c);
  }
  return start;
}

SyncAssignment assignSemaphores(const std::vector<SyncCommand> &commands,
                                unsigned semaphores) {
  Assigner pairs(commands, SemaphoreScheme::PerEnginePair);
  pairs.run();
  if (pairs.result.error != SyncAssignment::Error::None ||
      pairs.result.semaphoresUsed <= semaphores)
    return pairs.result;
  Assigner shared(commands, SemaphoreScheme::PerProducer);
  shared.run();
  if (shared.result.semaphoresUsed > semaphores) {
    shared.result.error = SyncAssignment::Error::TooManySemaphores;
    shared.result.semaphoresNeeded = shared.result.semaphoresUsed;
  }
  return shared.result;
}

//===----------------------------------------------------------------------===//
// The checker
//===----------------------------------------------------------------------===//

std::string checkAssignment(const std::vector<SyncCommand> &commands,
                            const SyncAssignment &assignment,
                            unsigned semaphores) {
  std::ostringstream err;
  if (assignment.commands.size() != commands.size())
    return "assignment covers a different number of commands";
  // The stream as the hardware sees it: fences inserted.
  struct Node {
    Engine engine;
    const SyncIds *ids;
    int original; // -1 for an inserted fence.
  };
  static const SyncIds kNone;
  std::vector<Node> stream;
  std::vector<size_t> position(commands.size());
  size_t nextFence = 0;
  for (unsigned i = 0; i < commands.size(); ++i) {
    while (nextFence < assignment.fencesBefore.size() &&
           assignment.fencesBefore[nextFence] == i) {
      stream.push_back({Engine::CTRL, &kNone, -1});
      ++nextFence;
    }
    position[i] = stream.size();
    stream.push_back(
        {commands[i].engine, &assignment.commands[i], static_cast<int>(i)});
  }
  if (nextFence != assignment.fencesBefore.size())
    return "a fence is placed after the last command or out of order";

  std::map<unsigned, Engine> producer;
  std::map<unsigned, std::vector<size_t>> signallers, waiters;
  std::vector<int64_t> counter(256, 0);
  for (size_t n = 0; n < stream.size(); ++n) {
    const SyncIds &ids = *stream[n].ids;
    if (ids.waits.size() > 2 || ids.signals.size() > 2) {
      err << "command " << n << " has more than two waits or signals";
      return err.str();
    }
    for (uint8_t w : ids.waits) {
      if (w >= semaphores) {
        err << "command " << n << " waits on semaphore " << int(w)
            << " of " << semaphores;
        return err.str();
      }
      if (counter[w]-- == 0) {
        err << "command " << n << " breaks the stream rule on semaphore "
            << int(w);
        return err.str();
      }
      waiters[w].push_back(n);
    }
    for (uint8_t s : ids.signals) {
      if (s >= semaphores) {
        err << "command " << n << " signals semaphore " << int(s) << " of "
            << semaphores;
        return err.str();
      }
      auto [it, inserted] = producer.emplace(s, stream[n].engine);
      if (!inserted && it->second != stream[n].engine) {
        err << "semaphore " << int(s)
            << " is signalled by two engines: pairing is not deterministic";
        return err.str();
      }
      ++counter[s];
      signallers[s].push_back(n);
    }
  }
  for (auto &[sem, list] : signallers)
    if (list.size() != waiters[sem].size()) {
      err << "semaphore " << sem << " has " << list.size() << " signals and "
          << waiters[sem].size() << " waits";
      return err.str();
    }

  // Happens-before edges (completion of pred before start of node).
  std::vector<std::vector<size_t>> preds(stream.size());
  std::array<int64_t, kEngines> lastOn;
  lastOn.fill(-1);
  int64_t lastFence = -1;
  for (size_t n = 0; n < stream.size(); ++n) {
    if (stream[n].engine == Engine::CTRL) {
      for (size_t m = 0; m < n; ++m)
        preds[n].push_back(m);
      lastFence = static_cast<int64_t>(n);
      continue;
    }
    unsigned e = engineIndex(stream[n].engine);
    if (lastOn[e] >= 0)
      preds[n].push_back(lastOn[e]);
    if (lastFence >= 0)
      preds[n].push_back(lastFence);
    lastOn[e] = static_cast<int64_t>(n);
  }
  for (auto &[sem, list] : waiters)
    for (size_t k = 0; k < list.size(); ++k)
      preds[list[k]].push_back(signallers[sem][k]);
  // The recorded producers are the ones the FIFO pairing gives.
  std::map<unsigned, size_t> taken;
  for (size_t n = 0; n < stream.size(); ++n) {
    if (stream[n].original < 0)
      continue;
    const SyncIds &ids = *stream[n].ids;
    if (ids.producers.size() != ids.waits.size())
      return "a wait has no recorded producer";
    for (size_t k = 0; k < ids.waits.size(); ++k) {
      size_t paired = signallers[ids.waits[k]][taken[ids.waits[k]]++];
      if (stream[paired].original != static_cast<int>(ids.producers[k])) {
        err << "command " << stream[n].original << " records producer "
            << ids.producers[k] << " for a wait that pairs with command "
            << stream[paired].original;
        return err.str();
      }
    }
  }

  for (unsigned c = 0; c < commands.size(); ++c) {
    std::vector<bool> seen(stream.size(), false);
    std::vector<size_t> work = {position[c]};
    while (!work.empty()) {
      size_t n = work.back();
      work.pop_back();
      for (size_t p : preds[n])
        if (!seen[p]) {
          seen[p] = true;
          work.push_back(p);
        }
    }
    for (unsigned dep : commands[c].deps)
      if (dep >= c || !seen[position[dep]]) {
        err << "command " << c << " may start before command " << dep
            << " completes";
        return err.str();
      }
  }
  return "";
}

} // namespace kiln::npuhw
