//===- Passes.td - npuhw passes ----------------------------*- tablegen -*-===//
//
// Passes on npuhw command streams: from a dependency-ordered stream of
// commands with tokens and unaddressed buffers to one the hardware can run,
// and the check that it can.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_TD
#define KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass, Statistic

def NPUHWAssignSemaphoresPass
    : Pass<"npuhw-assign-semaphores", "::kiln::npuhw::StreamOp"> {
  let summary = "Realise token dependencies as semaphore waits and signals";
  let description = [{
    Input: a stream whose commands depend on earlier commands through
    `!npuhw.token` operands and carry no `wait0`/`wait1`/`signal0`/`signal1`.
    Output: the same commands with those fields set so that every dependency
    holds on the hardware (docs/npu-isa.md §4), and each command's tokens
    reduced to the producers its waits pair with (in wait order), which is
    what the `.npub` importer rebuilds.

    A dependency needs no semaphore when it is implied: on an earlier
    command of the same engine (engines run in order), on a NOP or END
    (fences), or transitively through another wait. The pass keeps, per
    command, a vector clock over engines: how many commands of each engine
    are known to have completed when it starts.

    Semaphores: one per ordered (producer engine, consumer engine) pair, so
    the k-th wait granted on a semaphore pairs with the k-th signal raised
    (producers complete in order, waits are granted in stream order, and the
    needs on a pair are strictly increasing). If the target's `semaphores`
    cannot hold the pairs used, one semaphore per producer engine is shared
    by all consumers; a need then met late by an earlier waiter's producer
    waits on that later producer instead. Fewer semaphores than producing
    engines is an error.

    At most two waits and two signals per command: when more are needed, a
    wait moves to a later command of the needed engine whose own clock
    covers the rest (or which has a free signal); only if nothing covers
    does the pass insert an `npuhw.nop` fence before the command.

    ```mlir
    %l = npuhw.dma_load src(...) dst(...) {...}
    %c = npuhw.mac_conv in(...) weights(...) out(...) after(%l) {...}
    // becomes
    %l = npuhw.dma_load src(...) dst(...) {..., signal0 = 0}
    %c = npuhw.mac_conv in(...) weights(...) out(...) after(%l) {..., wait0 = 0}
    ```

    Errors: a dependency on a command later in the stream (the stream is
    not in dependency order) and a target with too few semaphores.
  }];
  let statistics = [
    Statistic<"numWaits", "waits", "Waits assigned">,
    Statistic<"numPromoted", "promoted-waits",
              "Waits moved to a later producer than the dependency named">,
    Statistic<"numFences", "fences", "NOP fences inserted">,
  ];
}

def NPUHWAllocateLmemPass
    : Pass<"npuhw-allocate-lmem", "::kiln::npuhw::StreamOp"> {
  let summary = "Give every npuhw.alloc an LMEM address, reusing dead space";
  let description = [{
    Replaces every `npuhw.alloc` of a stream by an `npuhw.view` at a
    16-byte-aligned offset in its LMEM region, and every `memref.subview`
    taken from it (directly or through other subviews; static offsets,
    sizes and strides only) by an `npuhw.view` at the subview's position.

    Two buffers of a region may share bytes only when every command that
    accesses the first happens-before every command that accesses the
    second. Happens-before is what the token dependencies guarantee
    (transitively), together with in-order engines and NOP fences: the
    hardware may run any two commands that are not so ordered at the same
    time, whatever their stream order. A buffer whose first access reads it
    keeps bytes of its own (it relies on LMEM starting at zero).

    Buffers are placed first-fit in the order of their first access (larger
    first on ties): each at the lowest aligned offset that overlaps no
    placed buffer it may not share with; an alloc marked `from_top` at the
    highest such offset below the region's end. A region that cannot hold its
    buffers is an error naming the region, its size and the allocation's
    high-water mark.

    ```mlir
    %a = npuhw.alloc : memref<1024xi8, #npuhw.lmem<act>>
    // becomes
    %a = npuhw.view : memref<1024xi8, strided<[1], offset: 2048>, #npuhw.lmem<act>>
    ```
  }];
  let statistics = [
    Statistic<"numBuffers", "buffers", "Buffers placed">,
    Statistic<"numReused", "reused",
              "Buffers placed over bytes of a dead buffer">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NPUHWVerifyStreamPass
    : Pass<"npuhw-verify-stream", "::kiln::npuhw::StreamOp"> {
  let summary = "Check a stream with the runtime's verifier before "
                "serialization";
  let description = [{
    Converts the stream into the runtime's `Program` exactly as
    `--npuhw-to-npub` does and runs the loader's verifier
    (`kiln::npu::verifyProgram`) on it: field ranges, window shapes,
    region bounds and access rights, END placement, and the stream rule of
    `docs/npu-isa.md` §4 (every wait covered by an earlier signal). A stream
    that breaks a rule is a compile error on the op of the offending
    command, naming the field, rather than a load failure or a simulator
    deadlock:

    ```
    error: 'npuhw.nop' op command 1 (NOP): field 'wait0' waits on semaphore 1 with no earlier uncovered signal
    ```

    Errors that belong to no command (IO declarations, the target) are
    reported on the stream.
  }];
}

def NPUHWEstimateLayersPass
    : Pass<"npuhw-estimate-layers", "::mlir::ModuleOp"> {
  let summary = "Per-layer cycle estimates from a replay of each lowered "
                "stream";
  let description = [{
    Predicts when every command of each `npuhw.stream` starts and ends by
    replaying the stream as lowered: its commands in stream order with the
    dependencies its semaphore waits pair with, the cycle table of
    `docs/npu-cycle-model.md`, the fetch unit's one dispatch a cycle into FIFOs of
    `queues.fifo_depth`, NOP and END fences, in-order engines and the shared
    DRAM port (first come, first served). LMEM port stalls are left out.

    A *layer* is the commands that carry one location (what the `.npub`
    exporter gives one DEBUG tag). The layer's estimate becomes its
    predicted span, from its first command's start to its last command's
    end, so that consecutive ops that overlap (`overlap-ops`) are predicted
    the way the report measures them. The pass rewrites the `estimate` of
    the stream's entries in the module's `npu.layer_costs` (written by
    `npu-record-costs`, which predicts each op alone) and merges entries
    whose locations fall in one layer (their lower-bound terms add up). It
    records each stream's predicted cycles (when END executes) in the
    module attribute `npu.stream_estimates`.

    The intermediates `convert-npu-to-npuhw` kept in LMEM (the stream's
    `npu.resident_tensors`: bytes, producer and consumer locations) cross
    no DRAM port: their bytes at `dma.dram_bytes_per_cycle` (rounded down)
    leave the `dram` term of the producer's layer (its store) and of the
    consumer's (its load), and the pass drops the attribute.

    ```mlir
    // npu.layer_costs = {main = [{estimate = 1200 : i64, loc = #a, ...} ] }
    // becomes
    // npu.layer_costs = {main = [{estimate = 1350 : i64, loc = #a, ...} ] },
    // npu.stream_estimates = {main = 2400 : i64}
    ```
  }];
  let statistics = [
    Statistic<"numLayers", "layers", "Layers given a replayed estimate">,
  ];
}

#endif // KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_TD
