// onednn-layer.cpp - oneDNN's convolution (or resampling) of one
// tf-layers.py layer, timed the way benchmarks/peers/kiln-timer.c times
// Kiln's.
//
//   c++ -O2 -fopenmp onednn-layer.cpp -ldnnl -o onednn-layer
//   onednn-layer conv|convv|dw H W C F K S WARMUP REPEAT DIR
//   onednn-layer resize H W C OH OW 1 WARMUP REPEAT DIR
//
// DIR holds the layer's data as raw little-endian f32: input.bin (NHWC,
// batch 1), weights.bin (TensorFlow's HWIO filter, [K, K, C, F], or
// [K, K, C, 1] for a depthwise convolution) and bias.bin ([F]). The layer is
// the one tf-layers.py builds: SAME padding (VALID for convv), stride S,
// then the bias and a ReLU, here as oneDNN's bias and eltwise post-op.
// Input and output are NHWC; the weights are reordered once, before
// timing, to the layout oneDNN picks (as a runtime does with constant
// weights). A resize is oneDNN's
// linear resampling of the NHWC input to OH x OW: its source coordinate
// (o + 0.5) * in / out - 0.5, clamped to the image, is TensorFlow's
// ResizeBilinear with half_pixel_centers. One thread. Prints
// "times_ms t1 t2 ..." and "impl <name>", and writes DIR/onednn-out.bin.
// Built by tf-layers.py --onednn (Debian's libdnnl-dev, oneDNN 2.x API).

#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::vector<float> readFloats(const std::string &path, size_t count) {
  std::vector<float> data(count);
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f || std::fread(data.data(), sizeof(float), count, f) != count) {
    std::fprintf(stderr, "onednn-layer: cannot read %zu floats from %s\n",
                 count, path.c_str());
    std::exit(1);
  }
  std::fclose(f);
  return data;
}

} // namespace

/// Runs `run` WARMUP untimed and REPEAT timed times and prints the times.
template <typename Run> void timeRuns(Run run, int warmup, int repeat) {
  for (int i = 0; i < warmup; ++i)
    run();
  std::printf("times_ms");
  for (int i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    run();
    std::chrono::duration<double, std::milli> took =
        std::chrono::steady_clock::now() - start;
    std::printf(" %.6f", took.count());
  }
}

/// Writes `output` to DIR/onednn-out.bin; false on failure.
bool writeOutput(const std::string &dir, const std::vector<float> &output) {
  FILE *out = std::fopen((dir + "/onednn-out.bin").c_str(), "wb");
  if (!out ||
      std::fwrite(output.data(), sizeof(float), output.size(), out) !=
          output.size()) {
    std::fprintf(stderr, "onednn-layer: cannot write the output\n");
    return false;
  }
  std::fclose(out);
  return true;
}

/// oneDNN's linear resampling of the H x W x C input in DIR to OH x OW.
int resize(long h, long w, long c, long oh, long ow, int warmup, int repeat,
           const std::string &dir) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  std::vector<float> input = readFloats(dir + "/input_0.bin", h * w * c);
  std::vector<float> output(oh * ow * c);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  dnnl::memory::desc srcDesc({1, c, h, w}, dt::f32, tag::nhwc);
  dnnl::memory::desc dstDesc({1, c, oh, ow}, dt::f32, tag::nhwc);
  dnnl::resampling_forward::desc desc(dnnl::prop_kind::forward_inference,
                                      dnnl::algorithm::resampling_linear,
                                      srcDesc, dstDesc);
  dnnl::resampling_forward::primitive_desc primitive(desc, engine);
  dnnl::memory src(srcDesc, engine, input.data());
  dnnl::memory dst(dstDesc, engine, output.data());
  dnnl::resampling_forward resampling(primitive);
  timeRuns(
      [&] {
        resampling.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        stream.wait();
      },
      warmup, repeat);
  std::printf("\nimpl %s\n", primitive.impl_info_str());
  return writeOutput(dir, output) ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc != 11) {
    std::fprintf(stderr, "usage: onednn-layer conv|convv|dw|resize H W C F "
                         "K S WARMUP REPEAT DIR\n");
    return 2;
  }
  if (std::strcmp(argv[1], "resize") == 0) {
    omp_set_num_threads(1);
    return resize(std::atol(argv[2]), std::atol(argv[3]), std::atol(argv[4]),
                  std::atol(argv[5]), std::atol(argv[6]), std::atoi(argv[8]),
                  std::atoi(argv[9]), argv[10]);
  }
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  bool depthwise = std::strcmp(argv[1], "dw") == 0;
  long h = std::atol(argv[2]), w = std::atol(argv[3]), c = std::atol(argv[4]),
       f = std::atol(argv[5]), k = std::atol(argv[6]), s = std::atol(argv[7]);
  int warmup = std::atoi(argv[8]), repeat = std::atoi(argv[9]);
  std::string dir = argv[10];
  if (depthwise)
    f = c;
  bool valid = std::strcmp(argv[1], "convv") == 0;
  long oh = valid ? (h - k) / s + 1 : (h + s - 1) / s;
  long ow = valid ? (w - k) / s + 1 : (w + s - 1) / s;
  long padH = std::max((oh - 1) * s + k - h, 0L);
  long padW = std::max((ow - 1) * s + k - w, 0L);
  omp_set_num_threads(1);

  std::vector<float> input = readFloats(dir + "/input_0.bin", h * w * c);
  std::vector<float> weights =
      readFloats(dir + "/weights.bin", k * k * c * (depthwise ? 1 : f));
  std::vector<float> bias = readFloats(dir + "/bias.bin", f);
  std::vector<float> output(oh * ow * f);

  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  dnnl::memory::desc srcDesc({1, c, h, w}, dt::f32, tag::nhwc);
  dnnl::memory::desc dstDesc({1, f, oh, ow}, dt::f32, tag::nhwc);
  dnnl::memory::desc biasDesc({f}, dt::f32, tag::x);
  // TensorFlow's filter: HWIO, or for depthwise [K, K, C, 1] = groups
  // innermost with one input and one output channel per group.
  dnnl::memory::dims weightDims =
      depthwise ? dnnl::memory::dims{c, 1, 1, k, k}
                : dnnl::memory::dims{f, c, k, k};
  dnnl::memory::desc tfWeights(weightDims, dt::f32,
                               depthwise ? tag::hwigo : tag::hwio);
  dnnl::memory::desc anyWeights(weightDims, dt::f32, tag::any);
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      srcDesc, anyWeights, biasDesc, dstDesc, {s, s}, {padH / 2, padW / 2},
      {padH - padH / 2, padW - padW / 2});
  dnnl::post_ops ops;
  ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  dnnl::convolution_forward::primitive_desc primitive(desc, attr, engine);

  dnnl::memory src(srcDesc, engine, input.data());
  dnnl::memory tf(tfWeights, engine, weights.data());
  dnnl::memory wts(primitive.weights_desc(), engine);
  dnnl::reorder(tf, wts).execute(stream, tf, wts);
  dnnl::memory b(biasDesc, engine, bias.data());
  dnnl::memory dst(dstDesc, engine, output.data());
  dnnl::convolution_forward conv(primitive);
  auto run = [&] {
    conv.execute(stream, {{DNNL_ARG_SRC, src},
                          {DNNL_ARG_WEIGHTS, wts},
                          {DNNL_ARG_BIAS, b},
                          {DNNL_ARG_DST, dst}});
    stream.wait();
  };
  timeRuns(run, warmup, repeat);
  std::printf("\nimpl %s\n", primitive.impl_info_str());
  return writeOutput(dir, output) ? 0 : 1;
}
