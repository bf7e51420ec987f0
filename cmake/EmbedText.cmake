# cmake -DIN=<file> -DOUT=<file.inc> -DNAME=<identifier> -P EmbedText.cmake
# Writes a C++ raw string literal holding the text of IN, so a data file
# ships inside the library that reads it.
file(READ "${IN}" content)
file(WRITE "${OUT}.tmp"
  "// Generated from ${IN} by cmake/EmbedText.cmake; do not edit.\n"
  "static const char ${NAME}[] = R\"kiln_embed(${content})kiln_embed\";\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
