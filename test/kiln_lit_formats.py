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
