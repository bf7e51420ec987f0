//===- StreamSync.h - Semaphores for a dependency-ordered stream *- C++ -*-===//
//
// The dialect-independent core of `npuhw-assign-semaphores`: given the
// commands of an NPU-v1 stream in stream order (engine and dependencies),
// choose the waits and signals (and, as a last resort, NOP fences) that make
// every dependency hold on the hardware of docs/npu-isa.md §4, within a
// number of semaphores and two waits and two signals per command; and an
// independent checker of such an assignment. No MLIR: the pass maps ops to
// these structures and back, and the unit tests drive them directly.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_ANALYSIS_STREAMSYNC_H
#define KILN_DIALECTS_NPUHW_ANALYSIS_STREAMSYNC_H

#include "runtime/npu/Commands.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npuhw {

/// One command of a stream as the synchronisation analyses see it.
struct SyncCommand {
  /// The engine that runs it; CTRL commands (NOP, END) are fences.
  npu::Engine engine = npu::Engine::CTRL;
  /// Stream indices of the commands it depends on: each must have completed
  /// (all its writes visible) before this one starts.
  std::vector<unsigned> deps;
};

/// The waits and signals of one command (semaphore ids, at most two each; a
/// repeated id counts twice, as on the hardware).
struct SyncIds {
  std::vector<uint8_t> waits, signals;
  /// For each wait, the stream index of the command whose signal it takes
  /// (FIFO pairing): the command's dependencies as the hardware sees them.
  std::vector<unsigned> producers;
};

/// How semaphores are shared.
enum class SemaphoreScheme {
  /// One semaphore per ordered (producer engine, consumer engine) pair.
  PerEnginePair,
  /// One semaphore per producer engine, shared by every consumer engine
  /// (used when the pairs need more semaphores than the target has).
  PerProducer,
};

/// The result of assignSemaphores.
struct SyncAssignment {
  /// Per input command.
  std::vector<SyncIds> commands;
  /// Input commands before which a NOP fence is inserted, ascending.
  std::vector<unsigned> fencesBefore;
  /// Semaphores used: ids 0 .. semaphoresUsed - 1.
  unsigned semaphoresUsed = 0;
  SemaphoreScheme scheme = SemaphoreScheme::PerEnginePair;
  /// Waits assigned (every other dependency was implied).
  unsigned waitsRealised = 0;
  /// Waits moved to a later producer than the dependency named, to stay
  /// within two waits or two signals per command.
  unsigned waitsPromoted = 0;

  /// Why the assignment failed, if it did.
  enum class Error { None, ForwardDependency, TooManySemaphores };
  Error error = Error::None;
  /// ForwardDependency: the command and the later command it depends on.
  unsigned errorCommand = 0, errorDep = 0;
  /// TooManySemaphores: the fewest semaphores this stream needs (one per
  /// producing engine).
  unsigned semaphoresNeeded = 0;
};

/// Assigns waits and signals to \p commands (in stream order) using at most
/// \p semaphores semaphores. Dependencies on earlier commands of the same
/// engine, on CTRL commands and those implied transitively by other waits
/// need no semaphore. See StreamSync.cpp for the algorithm and the proof that
/// the FIFO pairing of waits and signals is exact.
SyncAssignment assignSemaphores(const std::vector<SyncCommand> &commands,
                                unsigned semaphores);

/// Checks \p assignment against \p commands independently of how it was
/// made: at most two waits and two signals per command, ids below
/// \p semaphores, every semaphore signalled by one engine only, as many
/// signals as waits, the stream rule of docs/npu-isa.md §4, and every
/// dependency a happens-before edge under FIFO pairing, engine order and
/// fences. Returns an empty string when it holds, else what is wrong.
std::string checkAssignment(const std::vector<SyncCommand> &commands,
                            const SyncAssignment &assignment,
                            unsigned semaphores);

/// A vector clock over engines: entry e is the number of commands of engine
/// e known to have completed (engines run in order, so the first n have).
using EngineClock = std::array<uint32_t, npu::kNumEngines>;

/// For each command of \p commands, the clock known at its start when only
/// its dependencies (transitively), engine order and fences order it: the
/// happens-before relation the dependencies alone guarantee. Entry
/// ordinals are 1-based per engine (see engineOrdinals).
std::vector<EngineClock>
dependencyClocks(const std::vector<SyncCommand> &commands);

/// The 1-based position of each command among the commands of its engine.
std::vector<uint32_t> engineOrdinals(const std::vector<SyncCommand> &commands);

} // namespace kiln::npuhw

#endif // KILN_DIALECTS_NPUHW_ANALYSIS_STREAMSYNC_H
