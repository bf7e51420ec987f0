// RUN: kiln-translate --npuhw-to-npub %s -split-input-file -verify-diagnostics -o /dev/null

// The serializer needs fixed addresses: a buffer that npuhw-allocate-lmem
// has not placed yet is an error on the command that uses it.
module {
  npuhw.stream @main {
    %b = npuhw.alloc : memref<64xi8, #npuhw.lmem<acc>>
    // expected-error @+1 {{operand 'dst' is not an npuhw.view; the serializer needs fixed addresses (run npuhw-allocate-lmem first)}}
    %t = npuhw.dma_fill dst(%b : memref<64xi8, #npuhw.lmem<acc>>)
    npuhw.end
  }
}

// -----

// expected-error @+1 {{expects exactly one npuhw.stream in the module, found 2}}
module {
  npuhw.stream @a {
    npuhw.end
  }
  npuhw.stream @b {
    npuhw.end
  }
}
