// aot-driver.cpp - runs a kiln-compile'd model through its C++ class.
//
// Built by the e2e model tests the way a C++ user builds a program: the
// model's header, its object file and the standard libraries, nothing else.
//
//   c++ -include model.h -DKILN_MODEL_CLASS=models::Model aot-driver.cpp
//       model.o -o driver
//   driver OUT_DIR input_0.npy [input_1.npy ...]
//
// reads each feed from a .npy file into the class's feed buffer, calls Run()
// and writes OUT_DIR/output_<i>.npy for every fetch. It uses only what the
// generated class offers.
//
// With -DKILN_MODEL_NPU, for an object of kiln-compile --target=npu (linked
// with Kiln's NPU runtime: pkg-config --libs kiln-npu-runtime), a Run() that
// returns false because an NPU segment failed is reported with
// Model::npu_error(); the fetches are still written and the driver exits 3.
// The model's header comes first (-include model.h).

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Model = KILN_MODEL_CLASS;

/// The .npy dtype of a C element type named by the class.
std::string npyDescr(const std::string &cType) {
  static const char *const table[][2] = {
      {"float", "<f4"},    {"double", "<f8"},   {"int32_t", "<i4"},
      {"int64_t", "<i8"},  {"int16_t", "<i2"},  {"uint16_t", "<u2"},
      {"int8_t", "|i1"},   {"uint8_t", "|u1"},  {"bool", "|b1"},
      {"uint32_t", "<u4"}, {"uint64_t", "<u8"}};
  for (const auto &row : table)
    if (cType == row[0])
      return row[1];
  return "";
}

/// Reads feed `i` of `model` from `path`; an error message, or "".
std::string readFeed(Model &model, int i, const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return path + ": cannot open";
  char prologue[10];
  if (!in.read(prologue, 10) || std::memcmp(prologue, "\x93NUMPY\x01\x00", 8))
    return path + ": not a version 1.0 .npy file";
  size_t length = static_cast<unsigned char>(prologue[8]) |
                  static_cast<unsigned char>(prologue[9]) << 8;
  std::string header(length, '\0');
  if (!in.read(&header[0], length))
    return path + ": truncated header";
  std::string descr = npyDescr(Model::feed_type(i));
  if (header.find("'descr': '" + descr + "'") == std::string::npos ||
      header.find("'fortran_order': False") == std::string::npos)
    return path + ": want dtype " + descr + " in C order: " + header;
  size_t open = header.find("'shape': (");
  if (open == std::string::npos)
    return path + ": no shape";
  size_t first = open + 10;
  std::string dims = header.substr(first, header.find(')', first) - first);
  std::vector<int64_t> shape;
  std::stringstream stream(dims);
  for (std::string dim; std::getline(stream, dim, ',');)
    if (dim.find_first_not_of(' ') != std::string::npos)
      shape.push_back(std::stoll(dim));
  if (static_cast<int>(shape.size()) != Model::feed_rank(i))
    return path + ": rank differs from the feed's";
  for (int k = 0; k < Model::feed_rank(i); ++k)
    if (shape[k] != model.feed_shape(i)[k])
      return path + ": shape differs from the feed's";
  if (!in.read(static_cast<char *>(model.feed_data(i)), model.feed_bytes(i)))
    return path + ": fewer elements than the feed has";
  return "";
}

/// Writes fetch `i` of `model` to `path`; an error message, or "".
std::string writeFetch(const Model &model, int i, const std::string &path) {
  std::string shape;
  for (int k = 0; k < Model::fetch_rank(i); ++k)
    shape += (k ? " " : "") + std::to_string(model.fetch_shape(i)[k]) +
             (k + 1 < Model::fetch_rank(i) || k == 0 ? "," : "");
  std::string header = "{'descr': '" + npyDescr(Model::fetch_type(i)) +
                       "', 'fortran_order': False, 'shape': (" + shape +
                       "), }";
  // Spaces and a newline so that the data starts at a multiple of 64.
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  char prologue[10] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0,
                       static_cast<char>(header.size() & 0xff),
                       static_cast<char>(header.size() >> 8)};
  out.write(prologue, 10);
  out << header;
  out.write(static_cast<const char *>(model.fetch_data(i)),
            model.fetch_bytes(i));
  return out ? "" : path + ": cannot write";
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2 + Model::kNumFeeds) {
    std::cerr << "usage: " << argv[0] << " OUT_DIR INPUT.npy... ("
              << Model::kNumFeeds << " inputs)\n";
    return 2;
  }
  Model model;
  for (int i = 0; i < Model::kNumFeeds; ++i)
    if (std::string error = readFeed(model, i, argv[2 + i]); !error.empty()) {
      std::cerr << error << "\n";
      return 1;
    }
  bool npuFailed = false;
  if (!model.Run()) {
#ifdef KILN_MODEL_NPU
    if (const char *why = Model::npu_error()) {
      std::cerr << "NPU failure: " << why << "\n";
      npuFailed = true;
    }
#endif
    if (!npuFailed) {
      std::cerr << "error " << model.status() << ": " << model.error_msg()
                << "\n";
      return 1;
    }
  }
  for (int i = 0; i < Model::kNumFetches; ++i) {
    std::string path =
        std::string(argv[1]) + "/output_" + std::to_string(i) + ".npy";
    if (std::string error = writeFetch(model, i, path); !error.empty()) {
      std::cerr << error << "\n";
      return 1;
    }
  }
  std::cout << "ran " << Model::kNumFeeds
            << " feeds, " << Model::kNumFetches << " fetches\n";
  if (npuFailed) {
    std::cout << "the run had a failed NPU segment; its fetches are written\n";
    return 3;
  }
  return 0;
}
