// The peer of TFJSImportBenchmark: the time and peak memory TensorFlow.js
// (tfjs-core, -backend-cpu, -converter) takes to load the same graph model
// from disk into a GraphModel: parse model.json, read and decode the
// shards, build the graph. Reads files the way tfjs-node's file:// handler
// does, without needing the native tfjs-node.
//
//   npm install --prefix DIR @tensorflow/tfjs-core@4.22.0 \
//     @tensorflow/tfjs-backend-cpu@4.22.0 @tensorflow/tfjs-converter@4.22.0
//   NODE_PATH=DIR/node_modules node tfjs-load-peer.js path/to/model.json
'use strict';
const fs = require('fs');
const path = require('path');
const tf = require('@tensorflow/tfjs-core');
require('@tensorflow/tfjs-backend-cpu');
const converter = require('@tensorflow/tfjs-converter');

async function main() {
  const file = process.argv[2];
  await tf.setBackend('cpu');
  const baseline = process.memoryUsage().rss;
  const start = process.hrtime.bigint();
  const handler = {
    load: async () => {
      const json = JSON.parse(fs.readFileSync(file, 'utf8'));
      const specs = [];
      const buffers = [];
      for (const group of json.weightsManifest) {
        specs.push(...group.weights);
        for (const shard of group.paths)
          buffers.push(fs.readFileSync(path.join(path.dirname(file), shard)));
      }
      const data = Buffer.concat(buffers);
      return {
        modelTopology: json.modelTopology,
        weightSpecs: specs,
        weightData: data.buffer.slice(data.byteOffset,
                                      data.byteOffset + data.byteLength),
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
      };
    },
  };
  const model = await converter.loadGraphModel(handler);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({
    ms: Math.round(ms),
    nodes: Object.keys(model.executor.graph.nodes).length,
    baseline_MB: Math.round(baseline / 1e6),
    peak_MB: Math.round(peak / 1e6),
  }));
}
main();
