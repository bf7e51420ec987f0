//===- tfjs-wasm.mjs - time a TF.js graph model on the WebAssembly backend ===//
//
//   node tfjs-wasm.mjs MODEL_JSON THREADS WARMUP REPEAT OUT_DIR \
//        FEED.bin:DTYPE:D0,D1,... [...]
//
// Loads TF.js 4.22.0 with @tensorflow/tfjs-backend-wasm (XNNPACK) from
// $KILN_PEERS_TFJS_DIR (benchmarks/peers/setup.sh installs it), asks for
// THREADS threads (setThreadsCount, before the backend starts; Node may get
// the single-threaded build, and the thread count it reports is printed),
// feeds each raw C-order .bin file (float32 or int32) in the model's input
// order, runs WARMUP untimed and REPEAT timed executions (each one reads its
// outputs back with dataSync, as a caller would), writes the last outputs to
// OUT_DIR/output_<i>.bin and prints one JSON line:
//   {"times_ms": [...], "threads": N, "fetches": [[dtype, shape], ...]}
//
//===----------------------------------------------------------------------===//

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {createRequire} from 'node:module';
import {performance} from 'node:perf_hooks';

function fail(message) {
  process.stderr.write(`tfjs-wasm.mjs: ${message}\n`);
  process.exit(1);
}

/// An IOHandler reading model.json and its weight shards from disk.
function fileHandler(modelPath) {
  return {
    async load() {
      const json = JSON.parse(fs.readFileSync(modelPath, 'utf8'));
      const dir = path.dirname(modelPath);
      const weightSpecs = [];
      const shards = [];
      for (const group of json.weightsManifest || []) {
        weightSpecs.push(...group.weights);
        for (const shard of group.paths)
          shards.push(fs.readFileSync(path.join(dir, shard)));
      }
      const all = Buffer.concat(shards);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        modelInitializer: json.modelInitializer,
        weightSpecs,
        weightData: all.buffer.slice(all.byteOffset,
                                     all.byteOffset + all.byteLength),
      };
    },
  };
}

async function main() {
  const [modelPath, threadsArg, warmupArg, repeatArg, outDir, ...feedArgs] =
      process.argv.slice(2);
  if (!feedArgs.length)
    fail('usage: tfjs-wasm.mjs MODEL_JSON THREADS WARMUP REPEAT OUT_DIR FEED...');
  const threads = Number(threadsArg);
  const warmup = Number(warmupArg);
  const repeat = Number(repeatArg);
  const dir = path.resolve(process.env.KILN_PEERS_TFJS_DIR ||
                           path.join(os.homedir(), '.cache/kiln/peers-tfjs'));
  const require = createRequire(path.join(dir, 'package.json'));
  let tf, wasm, converter;
  try {
    tf = require('@tensorflow/tfjs-core');
    wasm = require('@tensorflow/tfjs-backend-wasm');
    converter = require('@tensorflow/tfjs-converter');
  } catch (e) {
    fail(`TF.js is not installed in ${dir} (run benchmarks/peers/setup.sh): ${e.message}`);
  }
  wasm.setThreadsCount(threads);
  if (!(await tf.setBackend('wasm'))) fail('the wasm backend did not start');
  await tf.ready();
  const model = await converter.loadGraphModel(fileHandler(path.resolve(modelPath)));

  const arrays = {float32: Float32Array, int32: Int32Array};
  const feeds = feedArgs.map((arg) => {
    const [file, dtype, dims] = arg.split(':');
    if (!(dtype in arrays)) fail(`${file}: dtype ${dtype} is not float32 or int32`);
    const bytes = fs.readFileSync(file);
    const values = new arrays[dtype](
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    return tf.tensor(values, dims.split(',').map(Number), dtype);
  });
  const names = model.outputNodes;
  const run = () => {
    let results = model.execute(feeds, names);
    if (!Array.isArray(results)) results = [results];
    const out = results.map((t) => ({dtype: t.dtype, shape: t.shape,
                                     values: t.dataSync()}));
    results.forEach((t) => t.dispose());
    return out;
  };
  let last;
  for (let i = 0; i < warmup; ++i) last = run();
  const times = [];
  for (let i = 0; i < repeat; ++i) {
    const start = performance.now();
    last = run();
    times.push(performance.now() - start);
  }
  fs.mkdirSync(outDir, {recursive: true});
  last.forEach((o, i) =>
      fs.writeFileSync(path.join(outDir, `output_${i}.bin`),
                       Buffer.from(o.values.buffer, o.values.byteOffset,
                                   o.values.byteLength)));
  process.stdout.write(JSON.stringify({
    times_ms: times,
    threads: wasm.getThreadsCount(),
    fetches: last.map((o) => [o.dtype, o.shape]),
  }) + '\n');
}

main().catch((e) => fail(e.stack || String(e)));
