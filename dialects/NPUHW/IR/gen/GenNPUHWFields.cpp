//===- GenNPUHWFields.cpp - ODS arguments from the runtime field table ----===//
//
// Writes NPUHWFields.td: for every opcode, the attribute arguments of its
// npuhw op, derived from kiln::npu::fieldsOf() through FieldClasses.h, and a
// Markdown table of its fields for the op's documentation. Run by the build
// (dialects/NPUHW/IR/CMakeLists.txt); a field it cannot classify fails the
// build, so the dialect never lags behind the runtime's encoder.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/IR/FieldClasses.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace kiln;
using namespace kiln::npuhw::fields;

namespace {

/// "MAC_CONV" -> "MacConv".
std::string camel(const char *mnemonic) {
  std::string out;
  bool upper = true;
  for (const char *p = mnemonic; *p; ++p) {
    if (*p == '_') {
      upper = true;
      continue;
    }
    out += upper ? *p : static_cast<char>(std::tolower(*p));
    upper = false;
  }
  return out;
}

const char *className(FieldClass c) {
  switch (c) {
  case FieldClass::Flags:
    return "flags (unit attributes and operands)";
  case FieldClass::Semaphore:
    return "optional attribute (absent: none)";
  case FieldClass::Tag:
    return "the op's location (DEBUG section)";
  case FieldClass::View:
    return "feature-map memref operand";
  case FieldClass::Operand:
    return "memref operand";
  case FieldClass::Integer:
    return "optional attribute (absent: 0)";
  case FieldClass::Enum:
    return "enum attribute";
  case FieldClass::Unknown:
    break;
  }
  return "?";
}

/// Writes the definitions of one opcode; false if a field is unclassified.
bool emitOpcode(npu::Opcode opcode, std::ostream &os) {
  std::string name = camel(npu::opcodeName(opcode));
  std::ostringstream args, doc;
  char code[8];
  std::snprintf(code, sizeof code, "0x%02x", static_cast<unsigned>(opcode));
  doc << "Fields of " << npu::opcodeName(opcode) << " (opcode " << code
      << "), from the runtime's field table:\n\n"
      << "| field | bytes | range | in npuhw |\n|---|---|---|---|\n";
  bool first = true;
  auto arg = [&](const std::string &text) {
    args << (first ? "\n    " : ",\n    ") << text;
    first = false;
  };
  for (const npu::FieldInfo &f : npu::fieldsOf(opcode)) {
    FieldClass c = classify(opcode, f.name);
    if (c == FieldClass::Unknown) {
      std::cerr << "GenNPUHWFields: field '" << f.name << "' of "
                << npu::opcodeName(opcode)
                << " is not classified in dialects/NPUHW/IR/FieldClasses.h\n";
      return false;
    }
    doc << "| `" << f.name << "` | " << unsigned(f.offset);
    if (f.size > 1)
      doc << "-" << unsigned(f.offset + f.size - 1);
    doc << " | " << (f.isSigned ? "s" : "u") << 8 * f.size << " | "
        << className(c) << " |\n";
    switch (c) {
    case FieldClass::Semaphore:
      // 0xff is "none", which an absent attribute spells.
      arg("OptionalAttr<NPUHW_FieldAttr<0, " +
          std::to_string(npu::kNoSemaphore - 1) + ">>:$" + f.name);
      break;
    case FieldClass::Integer:
      arg("OptionalAttr<NPUHW_FieldAttr<" + std::to_string(fieldMin(f)) +
          ", " + std::to_string(fieldMax(f)) + ">>:$" + f.name);
      break;
    case FieldClass::Enum:
      arg(std::string(findEnumField(opcode, f.name)->odsAttr) + ":$" + f.name);
      break;
    case FieldClass::Flags:
      for (const FlagBit &bit : kFlagBits) {
        if (bit.opcode != opcode)
          continue;
        doc << "| flag " << unsigned(bit.mask) << " | 1 | bit | ";
        if (bit.attr) {
          arg(std::string("UnitAttr:$") + bit.attr);
          doc << "unit attribute `" << bit.attr << "` |\n";
        } else {
          doc << "implied by " << bit.derivedFrom << " |\n";
        }
      }
      break;
    default:
      break;
    }
  }
  os << "// " << npu::opcodeName(opcode) << " (" << code << ")\n"
     << "defvar NPUHW_" << name << "Fields = (ins" << args.str() << ");\n"
     << "defvar NPUHW_" << name << "FieldDoc = [{\n"
     << doc.str() << "}];\n\n";
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: GenNPUHWFields <output.td>\n";
    return 2;
  }
  std::ostringstream os;
  os << "//===- NPUHWFields.td - generated, do not edit ------*- tablegen "
        "-*-===//\n"
     << "//\n// Generated at build time by dialects/NPUHW/IR/gen from\n"
     << "// kiln::npu::fieldsOf() (runtime/npu/Commands.cpp).\n//\n"
     << "//===-------------------------------------------------------------"
        "---------===//\n\n"
     << "#ifndef KILN_DIALECTS_NPUHW_IR_NPUHWFIELDS_TD\n"
     << "#define KILN_DIALECTS_NPUHW_IR_NPUHWFIELDS_TD\n\n"
     << "include \"dialects/NPUHW/IR/NPUHWAttrs.td\" // NPUHW_FieldAttr\n\n";
  for (npu::Opcode opcode : npu::allOpcodes())
    if (!emitOpcode(opcode, os))
      return 1;
  os << "#endif // KILN_DIALECTS_NPUHW_IR_NPUHWFIELDS_TD\n";
  std::string text = os.str();
  std::ofstream out(argv[1], std::ios::binary);
  out << text;
  return out ? 0 : 1;
}
