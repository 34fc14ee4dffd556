"""examples/graphsage/train.py: GraphSAGE trained with tiergraph's sampler and
feature store learns its generated labels (well above chance), the store and
the CPU-gather baseline train the same model to the same accuracy (same
seeds, same rows), and bad flags end in argparse's error."""

import contextlib
import importlib.util
import io
import pathlib
import unittest

try:
    import torch
except ImportError:
    torch = None

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "graphsage" / "train.py"


def load_example():
    spec = importlib.util.spec_from_file_location("graphsage_train", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@unittest.skipIf(torch is None, "no PyTorch")
class GraphSageExampleTest(unittest.TestCase):
    def run_example(self, *flags):
        args = ["--graph", "kron:11", "--features", "16", "--epochs", "4", "--batch-size", "256", "--device", "cpu",
                *flags]
        with contextlib.redirect_stderr(io.StringIO()):
            return load_example().main(args)

    def test_learns_and_both_gathers_agree(self):
        store = self.run_example("--gather", "store")
        cpu = self.run_example("--gather", "cpu")
        self.assertGreater(store, 0.45, "4 classes: chance is 0.25")
        self.assertEqual(store, cpu)

    def test_bad_flags(self):
        for flags in (["--fanouts", "10,x"], ["--train-fraction", "1.5"], ["--gather", "gpu"], ["--epochs", "0"]):
            with self.assertRaises(SystemExit, msg=str(flags)) as e, contextlib.redirect_stderr(io.StringIO()):
                load_example().main(flags)
            self.assertEqual(e.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
