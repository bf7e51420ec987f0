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
