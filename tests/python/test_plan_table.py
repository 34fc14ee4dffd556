"""scripts/plan-table.py: from a bench record with fixed placements and auto's
rows, the mean time per placement (PageRank per iteration), auto against the
best fixed placement, and each prediction over the measured time; a file that
is not a bench record ends in one line and a non-zero exit."""

import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "plan-table.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def plan(choice, predicted):
    return {"plan": {"choice": choice, "candidates": [
        {"placement": p, "fits": True, "predicted_compute_s": s, "predicted_per_iteration_s": s / 20}
        for p, s in predicted.items()]}}


class PlanTableTest(unittest.TestCase):
    def test_ratios(self):
        runs = [
            {"algorithm": "bfs", "placement": "zerocopy-aligned", "compute_s": 0.030, "iterations": 7},
            {"algorithm": "bfs", "placement": "zerocopy-aligned", "compute_s": 0.010, "iterations": 7},
            {"algorithm": "bfs", "placement": "subgraph", "compute_s": 0.100, "iterations": 7},
            {"algorithm": "bfs", "placement": "auto", "compute_s": 0.022, "iterations": 7,
             "details": plan("zerocopy-aligned", {"zerocopy-aligned": 0.0165, "subgraph": 0.125})},
            {"algorithm": "pagerank", "placement": "stream", "compute_s": 1.0, "iterations": 10},
            {"algorithm": "pagerank", "placement": "auto", "compute_s": 1.1, "iterations": 10,
             "details": plan("stream", {"stream": 1.76})},
        ]
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "b.json"
            path.write_text(json.dumps({"runs": runs}))
            out = run(str(path), "label")
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertTrue(lines[0].startswith("label:"))
        bfs = next(l for l in lines if l.strip().startswith("bfs"))
        # zerocopy-aligned's mean is 20 ms: auto 22 / 20; auto took it, so its prediction is set against
        # auto's time, 16.5 / 22; subgraph's 125 / 100
        self.assertIn("auto/best 1.10", bfs)
        self.assertIn("zerocopy-aligned(auto) 0.75", bfs)
        self.assertIn("subgraph 1.25", bfs)
        pagerank = next(l for l in lines if l.strip().startswith("pagerank"))
        # per iteration: stream 100 ms measured, auto (stream) 110, 88 predicted (1.76 s over 20)
        self.assertIn("auto/best 1.10", pagerank)
        self.assertIn("stream(auto) 0.80", pagerank)

    def test_not_a_record(self):
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "x.json"
            path.write_text("[1, 2")
            out = run(str(path))
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("not a bench record", out.stderr)
        self.assertEqual(len(out.stderr.strip().splitlines()), 1)
        with tempfile.TemporaryDirectory() as d:  # JSON, but not a bench record
            path = pathlib.Path(d) / "list.json"
            path.write_text("[1, 2]")
            out = run(str(path))
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("not a bench record", out.stderr)
        self.assertEqual(len(out.stderr.strip().splitlines()), 1)
        self.assertNotEqual(run().returncode, 0)


if __name__ == "__main__":
    unittest.main()
