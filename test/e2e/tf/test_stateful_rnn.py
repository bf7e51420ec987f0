"""Stateful step-by-step execution (issue 19; docs/savedmodel.md, "Stateful
models: several entries in one object"): a Keras 3 GRU and LSTM with
`stateful=True`, and the same cells as TF1 graphs with the state in resource variables, saved as
SavedModels with an `init` and a `step` signature (kiln_e2e/stateful.py).
`kiln-compile --entries=init,step` makes one object with both entries; a C++
program linked with it (the header's classes `Rnn_init` and `Rnn_step`)
runs init, then step once per sample over STEPS samples, running init again
at step RESET, and prints each output. TensorFlow runs the same sequence
statefully (the Keras model called one sample at a time, with
`reset_state()`; the TF1 graph's init and step in a Session).

Tolerance: 1e-5 of the outputs' largest magnitude plus 1e-6. Measured (the
largest difference relative to that magnitude, printed with -s): 2.0e-7
(Keras GRU), 1.7e-7 (Keras LSTM), 2.5e-7 (TF1 GRU), 1.5e-7 (TF1 LSTM), the
float32 rounding of differently ordered sums; the bound leaves a factor of
40 for the state's rounding to accumulate over longer sequences without
admitting a wrong state (a missed reset changes the outputs by 5e-2 to
3e-1 absolute). Everything lands in <artifacts>/stateful/<test>/."""

import os
import shutil
import subprocess

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import stateful  # noqa: E402

STEPS, RESET = 60, 37
RTOL, ATOL = 1e-5, 1e-6

DRIVER = r"""
#include "rnn.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>

// rnn samples.bin steps reset: init, then one step per sample (init again
// before step `reset`); prints each step's output.
int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  int steps = std::atoi(argv[2]), reset = std::atoi(argv[3]);
  Rnn_init init;
  Rnn_step step;
  size_t sample = step.feed_bytes(0);
  unsigned char *samples = (unsigned char *)std::malloc(sample * steps);
  FILE *f = std::fopen(argv[1], "rb");
  if (!f || std::fread(samples, sample, steps, f) != (size_t)steps)
    return 3;
  std::fclose(f);
  for (int t = 0; t < steps; ++t) {
    if ((t == 0 || t == reset) && !init.Run()) {
      std::fprintf(stderr, "init: %s\n", init.error_msg());
      return 4;
    }
    std::memcpy(step.feed_data(0), samples + t * sample, sample);
    if (!step.Run()) {
      std::fprintf(stderr, "step %d: %s\n", t, step.error_msg());
      return 5;
    }
    const float *y = (const float *)step.fetch_data(0);
    for (int64_t i = 0; i < step.fetch_count(0); ++i)
      std::printf("%.9g ", y[i]);
    std::printf("\n");
  }
  std::free(samples);
  return 0;
}
"""


@pytest.fixture
def work(request, pytestconfig):
    artifacts = os.path.realpath(pytestconfig.getoption("artifacts_dir"))
    path = os.path.join(artifacts, "stateful", request.node.name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path, os.path.realpath(pytestconfig.getoption("kiln_bin_dir"))


def kiln_compile(bin_dir, *args):
    proc = subprocess.run([os.path.join(bin_dir, "kiln-compile"), *args],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=300)
    return proc.returncode, proc.stdout


def step_compiled(path, bin_dir, model, samples):
    """Compiles `model` with both entries, links the driver, runs it."""
    cxx = shutil.which(os.environ.get("CXX", "c++"))
    if not cxx:
        pytest.skip("no C++ compiler to link the model with")
    code, out = kiln_compile(bin_dir, model, "--entries=init,step",
                             "--cpp-class=Rnn", "-o",
                             os.path.join(path, "rnn.o"))
    assert code == 0, out
    header = open(os.path.join(path, "rnn.h")).read()
    for text in ("rnn_init_run(", "rnn_step_run(", "class Rnn_init",
                 "class Rnn_step", "one state per process"):
        assert text in header, f"the header lacks '{text}'"
    with open(os.path.join(path, "driver.cpp"), "w") as f:
        f.write(DRIVER)
    program = os.path.join(path, "driver")
    subprocess.run([cxx, "-std=c++17", "-Wall", "-Werror", "-I", path,
                    os.path.join(path, "driver.cpp"),
                    os.path.join(path, "rnn.o"), "-lm", "-o", program],
                   check=True)
    samples.astype(np.float32).tofile(os.path.join(path, "samples.bin"))
    run = subprocess.run([program, os.path.join(path, "samples.bin"),
                          str(len(samples)), str(RESET)], check=True,
                         stdout=subprocess.PIPE, text=True, timeout=60)
    return np.array([line.split() for line in run.stdout.splitlines()],
                    np.float32)


def check(name, actual, expected):
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    scale = float(np.max(np.abs(expected)))
    error = float(np.max(np.abs(actual - expected)))
    print(f"{name}: {len(expected)} steps, largest difference "
          f"{error / scale:.2e} of the outputs' scale {scale:.3g}")
    bad = np.abs(actual - expected) > RTOL * scale + ATOL
    assert not bad.any(), \
        f"{name}: step {np.argwhere(bad)[0][0]} differs: largest " \
        f"difference {error:.3g} (scale {scale:.3g})"


def samples(seed):
    return np.random.default_rng(seed).standard_normal(
        [STEPS, stateful.FEATURES]).astype(np.float32)


@pytest.mark.parametrize("kind", ["gru", "lstm"])
def test_keras_stateful(work, kind):
    path, bin_dir = work
    model, reference = stateful.keras_model(tf, kind,
                                            os.path.join(path, "model"))
    xs = samples(11)
    expected = reference(xs, {RESET})
    # The reset matters: without it TensorFlow's outputs after RESET differ.
    assert not np.allclose(expected[RESET:], reference(xs, set())[RESET:])
    check(f"keras_{kind}", step_compiled(path, bin_dir, model, xs), expected)


@pytest.mark.parametrize("kind", ["gru", "lstm"])
def test_tf1_stateful(work, kind):
    path, bin_dir = work
    model, reference = stateful.tf1_model(tf, kind,
                                          os.path.join(path, "model"))
    xs = samples(12)
    expected = reference(xs, {RESET})
    assert not np.allclose(expected[RESET:], reference(xs, set())[RESET:])
    check(f"tf1_{kind}", step_compiled(path, bin_dir, model, xs), expected)


def test_entries_errors(work):
    """An unknown signature is named with the ones there are; tfcompile's
    class, whose instances copy their own variable buffers, is refused."""
    path, bin_dir = work
    model, _ = stateful.tf1_model(tf, "gru", os.path.join(path, "model"))
    out_o = os.path.join(path, "x.o")
    code, out = kiln_compile(bin_dir, model, "--entries=init,stepp", "-o",
                             out_o)
    assert code != 0 and "no signature 'stepp'; available: 'init', 'step'" \
        in out, out
    code, out = kiln_compile(bin_dir, model, "--entries=init,step",
                             "--header-api=tfcompile", "-o", out_o)
    assert code != 0 and "tfcompile's class copies its own variable" in out, \
        out
