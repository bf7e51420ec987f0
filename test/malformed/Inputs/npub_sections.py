"""Writes malformed variants of a valid, verified .npub stream (the one
`kiln-npu-sim --example` writes): npub_sections.py VALID OUTDIR.

Unlike npub.py, each variant gets a correct CRC (and target hash) after its
change, so that the reader gets past the checksum to the part under test:
the section table, the sections' contents, and the commands (which the
verifier checks). Each variant is named after what is wrong with it."""
import os
import struct
import sys
import zlib

valid = bytearray(open(sys.argv[1], "rb").read())
out = sys.argv[2]
os.makedirs(out, exist_ok=True)

HEADER = 64
COMMANDS, CONST, REGIONS, IO, DEBUG, TARGET, COST = 1, 2, 3, 4, 5, 6, 7


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def table_offset(data):
    return struct.unpack_from("<Q", data, 24)[0]


def sections(data):
    """{type: (entry offset, section offset, size)}"""
    start = table_offset(data)
    count = struct.unpack_from("<I", data, 32)[0]
    result = {}
    for i in range(count):
        entry = start + 32 * i
        kind, _, offset, size, _ = struct.unpack_from("<IIQQQ", data, entry)
        result[kind] = (entry, offset, size)
    return result


def seal(data, fix_hash=True):
    """Recomputes the file size, the target hash and the CRC."""
    data = bytearray(data)
    struct.pack_into("<Q", data, 16, len(data))
    table = table_offset(data)
    count = struct.unpack_from("<I", data, 32)[0]
    if fix_hash and table + 32 * count <= len(data) and TARGET in sections(data):
        _, offset, size = sections(data)[TARGET]
        if offset + size <= len(data):
            struct.pack_into("<Q", data, 40, fnv1a64(data[offset:offset + size]))
    struct.pack_into("<I", data, 36, zlib.crc32(bytes(data[HEADER:])) & 0xFFFFFFFF)
    return bytes(data)


def put(name, data):
    with open(os.path.join(out, name + ".npub"), "wb") as f:
        f.write(data)


def patch(fmt, offset, *values, data=None):
    data = bytearray(valid if data is None else data)
    struct.pack_into(fmt, data, offset, *values)
    return data


def section_patch(kind, fmt, offset_in_section, *values):
    _, offset, _ = sections(valid)[kind]
    return patch(fmt, offset + offset_in_section, *values)


def entry_patch(kind, fmt, offset_in_entry, *values):
    entry, _, _ = sections(valid)[kind]
    return patch(fmt, entry + offset_in_entry, *values)


def replace_section(kind, payload):
    """Appends `payload` at the end of the file and points `kind` at it."""
    data = bytearray(valid)
    entry, _, _ = sections(data)[kind]
    while len(data) % 16:
        data.append(0)
    offset = len(data)
    data += payload
    struct.pack_into("<QQ", data, entry + 8, offset, len(payload))
    return data


def command(index):
    _, offset, _ = sections(valid)[COMMANDS]
    return offset + 64 * index


# Header and integrity.
put("bad-crc", patch("<B", len(valid) - 1, valid[-1] ^ 0xFF))
put("header-flags", seal(patch("<I", 12, 1)))
put("header-reserved", seal(patch("<B", 50, 7)))
put("minor-version-newer", seal(patch("<H", 6, 99)))  # valid: any minor
put("target-hash", seal(patch("<Q", 40, 0x1234), fix_hash=False))
put("file-size-larger", seal(valid)[:16] + struct.pack("<Q", len(valid) + 64) + seal(valid)[24:])
put("trailing-bytes", seal(bytes(valid) + b"\0" * 16))
# Section table.
put("table-outside", seal(patch("<Q", 24, len(valid) + 4096)))
put("table-offset-overflow", seal(patch("<Q", 24, 0xFFFFFFFFFFFFFFF0)))
put("section-count-huge", seal(patch("<I", 32, 0xFFFFFFFF)))
put("section-count-zero", seal(patch("<I", 32, 0)))
put("section-outside", seal(entry_patch(CONST, "<Q", 8, len(valid) + 16)))
put("section-size-outside", seal(entry_patch(CONST, "<Q", 16, len(valid))))
put("section-end-overflow", seal(entry_patch(CONST, "<QQ", 8, 0xFFFFFFFFFFFFFF00, 0x200)))
put("section-overlaps-header", seal(entry_patch(TARGET, "<Q", 8, 0)))
put("duplicate-section", seal(entry_patch(IO, "<I", 0, TARGET)))
put("missing-commands", seal(entry_patch(COMMANDS, "<II", 0, 99, 0)))
put("missing-target", seal(entry_patch(TARGET, "<II", 0, 99, 0)))
put("unknown-required", seal(entry_patch(DEBUG, "<II", 0, 99, 1)))
put("unknown-optional", seal(entry_patch(DEBUG, "<II", 0, 99, 0)))  # valid
put("section-reserved-flags", seal(entry_patch(DEBUG, "<I", 4, 4)))
put("section-reserved", seal(entry_patch(DEBUG, "<Q", 24, 1)))
# COMMANDS.
put("commands-size", seal(entry_patch(COMMANDS, "<Q", 16, sections(valid)[COMMANDS][2] - 8)))
put("commands-empty", seal(entry_patch(COMMANDS, "<Q", 16, 0)))
put("opcode-undefined", seal(patch("<B", command(0), 0x55)))
put("no-end", seal(entry_patch(COMMANDS, "<Q", 16, sections(valid)[COMMANDS][2] - 64)))
put("end-early", seal(patch("<B", command(1), 0x01, data=patch("64s", command(1), b"\0\0\xff\xff\xff\xff"))))
put("command-reserved", seal(patch("<B", command(0) + 34, 1)))
put("semaphore-range", seal(patch("<B", command(0) + 4, 200)))
put("dma-region-undeclared", seal(patch("<B", command(2) + 8, 5)))
put("dma-region-range", seal(patch("<B", command(2) + 8, 250)))
put("dma-lmem-beyond", seal(patch("<I", command(0) + 16, 0xFFFFF0)))
put("dma-dram-beyond", seal(patch("<I", command(2) + 12, 0x7FFFFFFF)))
put("dma-runs-huge", seal(patch("<HHH", command(2) + 28, 0xFFFF, 0xFFFF, 0xFFFF)))
put("conv-kernel-zero", seal(patch("<BB", command(3) + 44, 0, 0)))
put("conv-stride-zero", seal(patch("<BB", command(3) + 46, 0, 0)))
put("conv-view-dtype", seal(patch("<B", command(3) + 8 + 4, 9)))
put("requant-min-max", seal(patch("<hh", command(4) + 50, 100, -100)))
put("flags-undefined", seal(patch("<B", command(3) + 1, 0x80)))
# REGIONS.
put("regions-count", seal(section_patch(REGIONS, "<I", 0, 1000)))
put("regions-kind", seal(section_patch(REGIONS, "<B", 8 + 1, 9)))
put("regions-reserved", seal(section_patch(REGIONS, "<B", 8 + 3, 1)))
put("regions-duplicate", seal(section_patch(REGIONS, "<B", 8 + 16, 0)))
put("regions-number-range", seal(section_patch(REGIONS, "<B", 8 + 16, 200)))
put("regions-const-size", seal(section_patch(REGIONS, "<Q", 8 + 8, 12)))
# IO.
put("io-count", seal(section_patch(IO, "<I", 0, 7)))
put("io-name-length", seal(section_patch(IO, "<H", 8 + 18, 0xFFFF)))
put("io-rank-huge", seal(section_patch(IO, "<B", 8 + 16, 255)))
put("io-rank-zero", seal(section_patch(IO, "<B", 8 + 16, 0)))
put("io-reserved", seal(section_patch(IO, "<B", 8 + 17, 1)))
put("io-dtype", seal(section_patch(IO, "<B", 8 + 2, 17)))
put("io-layout", seal(section_patch(IO, "<B", 8 + 3, 9)))
put("io-offset-beyond", seal(section_patch(IO, "<I", 8 + 4, 0xFFFFFF00)))
put("io-region-undeclared", seal(section_patch(IO, "<B", 8 + 1, 7)))
put("io-dim-huge", seal(section_patch(IO, "<I", 8 + 24, 0xFFFFFFFF)))
put("io-dim-zero", seal(section_patch(IO, "<I", 8 + 24, 0)))
put("io-duplicate-name", seal(patch("<B", sections(valid)[IO][1] + 48, 0,
                                    data=section_patch(IO, "<B", 84, ord("x")))))
put("io-is-output", seal(section_patch(IO, "<B", 8, 2)))
put("io-header-reserved", seal(section_patch(IO, "<I", 4, 1)))
put("debug-reserved", seal(section_patch(DEBUG, "<H", 8 + 6, 1)))
# DEBUG and TARGET.
put("debug-count", seal(section_patch(DEBUG, "<I", 0, 500)))
put("debug-name-length", seal(section_patch(DEBUG, "<H", 8 + 2, 0xFFFF)))
put("debug-tag-zero", seal(section_patch(DEBUG, "<H", 8, 0)))
put("debug-tag-repeated", seal(section_patch(DEBUG, "<H", 8, 2)))
put("target-json", seal(replace_section(TARGET, b'{"mac.rows": 16,')))
put("target-unknown-key", seal(replace_section(TARGET, b'{"mac.bogus": 16}')))
put("target-zero", seal(replace_section(TARGET, b'{"mac.rows": 0}')))
put("target-negative", seal(replace_section(TARGET, b'{"semaphores": -1}')))
put("target-huge", seal(replace_section(TARGET, b'{"lmem.act_kib": 99999999999}')))
put("target-rows-16", seal(replace_section(TARGET, b'{"mac.rows": 17}')))
put("target-nested", seal(replace_section(TARGET, b'[' * 100000)))
put("target-empty", seal(replace_section(TARGET, b'')))
