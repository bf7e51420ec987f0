//===- run-model.mjs - run a TF.js graph model on TF.js's CPU backend ------===//
//
// Kiln's numerical oracle for TensorFlow semantics: runs a TF.js graph model
// (model.json and its weight shards, read from disk, never from the network)
// with TensorFlow.js's CPU backend and writes its inputs and outputs as .npy
// files, so Kiln's compiled code can be compared against them.
//
//   node run-model.mjs <model.json> --out-dir DIR [--seed N]
//        [--input-shapes 1,32,32,3:...] [--inputs a.npy,b.npy]
//        [--float-range LO,HI] [--int-range LO,HI] [--repeat N] [--count N]
//
// TF.js (tfjs-core, tfjs-backend-cpu, tfjs-converter 4.22.0) is loaded from
// the cache install.sh fills: $KILN_TFJS_ORACLE_DIR, else
// ~/.cache/kiln/tfjs-oracle. See `--help` for the inputs, outputs and files.
//
//===----------------------------------------------------------------------===//

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {createRequire} from 'node:module';
import {performance} from 'node:perf_hooks';

const USAGE = `usage: node run-model.mjs <model.json> --out-dir DIR [options]

Runs a TF.js graph model with TensorFlow.js's CPU backend and writes
  DIR/input_<i>.npy   the i-th input fed (signature order)
  DIR/output_<i>.npy  the i-th output fetched (signature order)
  DIR/manifest.json   names, dtypes, shapes, files, seed, model path, timings
(.npy format 1.0, little-endian, C order; float32 '<f4', int32 '<i4',
bool '|b1').

Inputs and outputs: the model's signature (\`signature\`, else
\`userDefinedMetadata.signature\`) in its order; without one, TF.js's own
choice (the Placeholders, and the nodes whose outputs no node reads).

Options:
  --out-dir DIR            where the files go (created; required)
  --seed N                 seed of the input generator (default 0)
  --input-shapes S:S:...   one shape per input, ':'-separated, each a
                           comma-separated list of sizes (empty: a scalar);
                           default: the signature's shapes with -1 -> 1
  --inputs a.npy,b.npy     feed these files instead of generated inputs (one
                           per input, dtype must match the input's)
  --float-range LO,HI      generated float inputs are uniform in [LO,HI)
                           (default 0,1)
  --int-range LO,HI        generated integer inputs are uniform in [LO,HI)
                           (default 0,10); bool inputs are (value & 1)
  --count N                run seeds --seed .. --seed+N-1 with the model
                           loaded once, each seed's files in DIR/<seed>/
                           (generated inputs only)
  --repeat N               after the run that writes the outputs, time N
                           more runs and print their median (benchmarks)
  --help                   this text

Generated inputs: one mulberry32 stream seeded with N draws uint32 values x
for every element of every input, inputs in order, elements in C order:
  mulberry32: a = (a + 0x6D2B79F5) mod 2^32; t = a;
              t = imul(t ^ (t >>> 15), t | 1);
              t ^= t + imul(t ^ (t >>> 7), t | 61);
              x = (t ^ (t >>> 14)) >>> 0
  float32: LO + (HI - LO) * ((x >>> 8) * 2^-24), rounded to float32
  int32:   LO + floor(x * (HI - LO) / 2^32)
kiln-run's --seed generates the same values (runtime/cpu/SeededInputs.h).
`;

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

/// Prints `message` and exits with status 1.
function fail(message) {
  process.stderr.write(`run-model.mjs: ${message}\n`);
  process.exit(1);
}

/// Parses "LO,HI" into two numbers with LO < HI.
function parseRange(text, flag) {
  const parts = text.split(',').map(Number);
  if (parts.length !== 2 || parts.some(Number.isNaN) || !(parts[0] < parts[1]))
    fail(`${flag} expects LO,HI with LO < HI, got '${text}'`);
  return parts;
}

/// Parses "1,32,32,3:..." into arrays of sizes ("" is a scalar).
function parseShapes(text) {
  return text.split(':').map((s) => {
    if (s.trim() === '') return [];
    return s.split(',').map((d) => {
      const n = Number(d);
      if (!Number.isInteger(n) || n < 0)
        fail(`--input-shapes: '${d}' in '${s}' is not a size >= 0`);
      return n;
    });
  });
}

function parseArgs(argv) {
  const args = {seed: 0, floatRange: [0, 1], intRange: [0, 10], repeat: 0};
  const takesValue = new Set(['--out-dir', '--seed', '--input-shapes',
                              '--inputs', '--float-range', '--int-range',
                              '--repeat', '--count']);
  for (let i = 0; i < argv.length; ++i) {
    let arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (!arg.startsWith('--')) {
      if (args.model !== undefined)
        fail(`more than one model given: '${args.model}' and '${arg}'`);
      args.model = arg;
      continue;
    }
    if (!takesValue.has(arg)) fail(`unknown option '${arg}' (see --help)`);
    if (value === undefined) {
      if (i + 1 >= argv.length) fail(`${arg} expects a value`);
      value = argv[++i];
    }
    switch (arg) {
    case '--out-dir': args.outDir = value; break;
    case '--seed':
      args.seed = Number(value);
      if (!Number.isInteger(args.seed) || args.seed < 0 ||
          args.seed > 0xffffffff)
        fail(`--seed expects an integer in [0, 2^32), got '${value}'`);
      break;
    case '--count':
      args.count = Number(value);
      if (!Number.isInteger(args.count) || args.count < 1)
        fail(`--count expects a count >= 1, got '${value}'`);
      break;
    case '--repeat':
      args.repeat = Number(value);
      if (!Number.isInteger(args.repeat) || args.repeat < 0)
        fail(`--repeat expects a count, got '${value}'`);
      break;
    case '--input-shapes': args.inputShapes = parseShapes(value); break;
    case '--inputs': args.inputs = value.split(','); break;
    case '--float-range': args.floatRange = parseRange(value, arg); break;
    case '--int-range':
      args.intRange = parseRange(value, arg);
      if (!args.intRange.every(Number.isInteger))
        fail(`--int-range expects integers, got '${value}'`);
      break;
    }
  }
  if (args.model === undefined) fail('no model.json given (see --help)');
  if (args.outDir === undefined) fail('--out-dir is required');
  if (args.inputs && args.inputShapes)
    fail('--inputs and --input-shapes exclude each other');
  if (args.inputs && args.count !== undefined)
    fail('--count generates inputs; it excludes --inputs');
  return args;
}

//===----------------------------------------------------------------------===//
// .npy files
//===----------------------------------------------------------------------===//
//
// NumPy's format 1.0 (NEP 1): the magic "\x93NUMPY", the version bytes 1 and
// 0, a little-endian uint16 header length, then an ASCII Python dict literal
// {'descr': ..., 'fortran_order': False, 'shape': (...), } padded with spaces
// and ended by '\n' so that the data starts at a multiple of 64 bytes, then
// the elements in C order. Version 2.0 differs only by a uint32 length.

const NPY_DESCR = {float32: '<f4', int32: '<i4', bool: '|b1'};
const NPY_ARRAY = {float32: Float32Array, int32: Int32Array, bool: Uint8Array};

/// Serialises a typed array of `dtype` and `shape` into .npy bytes.
function encodeNpy(dtype, shape, values) {
  const shapeText = shape.length === 1 ? `(${shape[0]},)`
                                       : `(${shape.join(', ')})`;
  let header = `{'descr': '${NPY_DESCR[dtype]}', 'fortran_order': False, ` +
               `'shape': ${shapeText}, }`;
  const unpadded = 6 + 2 + 2 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return Buffer.concat([prefix, Buffer.from(header, 'latin1'), data]);
}

/// Parses .npy bytes (format 1.0 or 2.0, C order, '<f4', '<i4' or '|b1').
function decodeNpy(bytes, file) {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 6) !== '\x93NUMPY')
    fail(`${file}: not a .npy file (no \\x93NUMPY magic)`);
  const major = bytes[6];
  let headerLength, start;
  if (major === 1) {
    headerLength = bytes.readUInt16LE(8);
    start = 10;
  } else if (major === 2 || major === 3) {
    headerLength = bytes.readUInt32LE(8);
    start = 12;
  } else {
    fail(`${file}: unsupported .npy version ${major}.${bytes[7]}`);
  }
  const header = bytes.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']*)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) fail(`${file}: malformed .npy header`);
  if (fortran[1] === 'True') fail(`${file}: Fortran-order arrays unsupported`);
  const dtype = Object.keys(NPY_DESCR).find((k) => NPY_DESCR[k] === descr[1]);
  if (!dtype)
    fail(`${file}: unsupported dtype '${descr[1]}' (want <f4, <i4 or |b1)`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s !== '')
                   .map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const Array = NPY_ARRAY[dtype];
  const dataStart = start + headerLength;
  if (bytes.length - dataStart !== count * Array.BYTES_PER_ELEMENT)
    fail(`${file}: expected ${count} elements of ${descr[1]} after the ` +
         `header, found ${bytes.length - dataStart} bytes`);
  const copy = new Uint8Array(bytes.subarray(dataStart));
  return {dtype, shape: dims, values: new Array(copy.buffer)};
}

//===----------------------------------------------------------------------===//
// Seeded inputs
//===----------------------------------------------------------------------===//

/// mulberry32: a 32-bit state advanced by a Weyl step and mixed; returns the
/// next uint32.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/// Fills a typed array for one input from the shared stream `next`.
function generate(dtype, shape, next, floatRange, intRange) {
  const count = shape.reduce((a, b) => a * b, 1);
  const values = new NPY_ARRAY[dtype](count);
  for (let i = 0; i < count; ++i) {
    const x = next();
    if (dtype === 'float32') {
      values[i] = floatRange[0] +
                  (floatRange[1] - floatRange[0]) * ((x >>> 8) * 2 ** -24);
    } else {
      // x * span < 2^53 for any int32 span, so this is exact.
      const span = intRange[1] - intRange[0];
      const v = intRange[0] + Math.floor((x * span) / 2 ** 32);
      values[i] = dtype === 'bool' ? v & 1 : v;
    }
  }
  return values;
}

//===----------------------------------------------------------------------===//
// TF.js
//===----------------------------------------------------------------------===//

/// Loads TF.js from the oracle cache, with the CPU backend registered.
function loadTFJS() {
  const dir = path.resolve(process.env.KILN_TFJS_ORACLE_DIR ||
                           path.join(os.homedir(), '.cache/kiln/tfjs-oracle'));
  const require = createRequire(path.join(dir, 'package.json'));
  try {
    const tf = require('@tensorflow/tfjs-core');
    require('@tensorflow/tfjs-backend-cpu');
    const converter = require('@tensorflow/tfjs-converter');
    return {tf, converter};
  } catch (e) {
    fail(`TF.js is not installed in ${dir} (run ` +
         `test/e2e/tfjs-oracle/install.sh): ${e.message}`);
  }
}

/// An IOHandler that reads model.json and its weight shards from disk.
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
      const weightData =
          all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        modelInitializer: json.modelInitializer,
        initializerSignature: json.initializerSignature,
        weightSpecs,
        weightData,
      };
    },
  };
}

/// TF.js's dtype names for the ones .npy files carry here.
function checkDtype(dtype, what) {
  if (!(dtype in NPY_DESCR))
    fail(`${what} has dtype '${dtype}'; only float32, int32 and bool are ` +
         `supported`);
  return dtype;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const modelPath = path.resolve(args.model);
  if (!fs.existsSync(modelPath)) fail(`${args.model}: no such file`);
  const {tf, converter} = loadTFJS();
  await tf.setBackend('cpu');
  await tf.ready();

  const loadStart = performance.now();
  let model;
  try {
    model = await converter.loadGraphModel(fileHandler(modelPath));
  } catch (e) {
    fail(`${args.model}: cannot load the graph model: ${e.message}`);
  }
  const loadMs = performance.now() - loadStart;

  // Inputs in signature order; -1 (or an unknown rank) needs --input-shapes.
  const specs = model.inputs;
  if (args.inputShapes && args.inputShapes.length !== specs.length)
    fail(`--input-shapes gives ${args.inputShapes.length} shapes, the model ` +
         `has ${specs.length} inputs`);
  if (args.inputs && args.inputs.length !== specs.length)
    fail(`--inputs gives ${args.inputs.length} files, the model has ` +
         `${specs.length} inputs`);
  if (args.count === undefined) {
    await runSeed(args.seed, args.outDir);
    return;
  }
  for (let k = 0; k < args.count; ++k) {
    const seed = (args.seed + k) >>> 0;
    await runSeed(seed, path.join(args.outDir, String(seed)));
  }

  // One run: the inputs of `seed` (or --inputs), the outputs, the manifest,
  // all in `outDir`.
  async function runSeed(seed, outDir) {
  const next = mulberry32(seed);
  const inputs = specs.map((spec, i) => {
    const what = `input ${i} ('${model.inputNodes[i]}')`;
    const dtype = checkDtype(spec.dtype, what);
    if (args.inputs) {
      const file = args.inputs[i];
      if (!fs.existsSync(file)) fail(`${what}: ${file}: no such file`);
      const array = decodeNpy(fs.readFileSync(file), file);
      if (array.dtype !== dtype)
        fail(`${what}: ${file} holds ${array.dtype}, the input is ${dtype}`);
      return array;
    }
    let shape;
    if (args.inputShapes) {
      shape = args.inputShapes[i];
    } else {
      if (!spec.shape)
        fail(`${what} has an unknown rank; give --input-shapes`);
      shape = spec.shape.map((d) => (d < 0 ? 1 : d));
    }
    return {dtype, shape,
            values: generate(dtype, shape, next, args.floatRange,
                             args.intRange)};
  });

  const feeds = inputs.map((input) =>
      tf.tensor(input.dtype === 'bool' ? Array.from(input.values, Boolean)
                                       : input.values,
                input.shape, input.dtype));
  const outputNames = model.outputNodes;
  let mode = 'execute';
  let results;
  const runStart = performance.now();
  try {
    results = model.execute(feeds, outputNames);
  } catch (e) {
    // Control flow (or other dynamic ops) needs the asynchronous executor.
    if (!/executeAsync/.test(e.message))
      fail(`${args.model}: execution failed: ${e.message}`);
    mode = 'executeAsync';
    try {
      results = await model.executeAsync(feeds, outputNames);
    } catch (e2) {
      fail(`${args.model}: execution failed: ${e2.message}`);
    }
  }
  if (!Array.isArray(results)) results = [results];
  const outputs = [];
  for (let i = 0; i < results.length; ++i) {
    const dtype = checkDtype(results[i].dtype,
                             `output ${i} ('${outputNames[i]}')`);
    const data = await results[i].data();
    const values = dtype === 'bool' ? Uint8Array.from(data)
                                    : new NPY_ARRAY[dtype](data);
    outputs.push({dtype, shape: results[i].shape, values});
  }
  const runMs = performance.now() - runStart;

  // --repeat: time that many more runs (the first one above warms up) and
  // report the median, as kiln-run --repeat does.
  let medianMs = null;
  if (args.repeat > 0) {
    const times = [];
    for (let r = 0; r < args.repeat; ++r) {
      const start = performance.now();
      let again = mode === 'execute' ? model.execute(feeds, outputNames)
                                     : await model.executeAsync(feeds, outputNames);
      if (!Array.isArray(again)) again = [again];
      for (const t of again) {
        await t.data();
        t.dispose();
      }
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    medianMs = times[Math.floor(times.length / 2)];
  }

  fs.mkdirSync(outDir, {recursive: true});
  const describe = (prefix, names) => (array, i) => {
    const file = `${prefix}_${i}.npy`;
    fs.writeFileSync(path.join(outDir, file),
                     encodeNpy(array.dtype, array.shape, array.values));
    return {name: names[i], dtype: array.dtype, shape: array.shape, file};
  };
  const manifest = {
    model: modelPath,
    backend: tf.getBackend(),
    tfjsVersion: tf.version_core,
    seed: args.inputs ? null : seed,
    floatRange: args.floatRange,
    intRange: args.intRange,
    inputFiles: args.inputs ? args.inputs.map((f) => path.resolve(f)) : null,
    mode,
    inputs: inputs.map(describe('input', model.inputNodes)),
    outputs: outputs.map(describe('output', outputNames)),
    timeMs: {load: Number(loadMs.toFixed(1)), run: Number(runMs.toFixed(1)),
             median: medianMs === null ? null : Number(medianMs.toFixed(3)),
             repeat: args.repeat},
  };
  fs.writeFileSync(path.join(outDir, 'manifest.json'),
                   JSON.stringify(manifest, null, 2) + '\n');
  process.stdout.write(
      `${path.basename(modelPath)}: ${inputs.length} inputs, ` +
      `${outputs.length} outputs, ${mode}, load ${loadMs.toFixed(0)} ms, ` +
      `run ${runMs.toFixed(0)} ms` +
      (medianMs === null ? '' :
           `, ${args.repeat} more runs: median ${medianMs.toFixed(3)} ms`) +
      ` -> ${outDir}\n`);
  for (const t of feeds.concat(results)) t.dispose();
  }
}

main().catch((e) => fail(e.stack || String(e)));
