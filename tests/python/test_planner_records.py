"""scripts/planner-records.py: a bench record's cells with what the planner
needs to plan them again (the graph's facts and the zero-copy cache from auto's
plan) and each placement's mean time; SSSP's cells name the bucket width the
bench ran at (its --delta, 0 for the engine's own)."""

import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "planner-records.py"


def bench(command):
    details = {"budget_bytes": 1000, "gpu_free_bytes": 5000, "vertex_bytes_estimate": 200,
               "plan": {"choice": "subgraph", "graph": {"vertices": 16, "edges": 64},
                        "zero_copy_cache": {"heads": 2, "bytes": 0, "lists": []}}}
    runs = [
        {"algorithm": "sssp", "placement": "subgraph", "compute_s": 0.2, "iterations": 5, "details": details},
        {"algorithm": "sssp", "placement": "subgraph", "compute_s": 0.4, "iterations": 5, "details": details},
        {"algorithm": "sssp", "placement": "auto", "compute_s": 0.3, "iterations": 5, "details": details},
        {"algorithm": "bfs", "placement": "auto", "compute_s": 0.01, "iterations": 5, "details": details},
    ]
    return {"command": command, "runs": runs}


class PlannerRecordsTest(unittest.TestCase):
    def cells(self, command):
        with tempfile.TemporaryDirectory() as d:
            b = pathlib.Path(d) / "b.json"
            b.write_text(json.dumps(bench(command)))
            profile = pathlib.Path(d) / "p.json"
            profile.write_text(json.dumps({"format": "tiergraph-profile/1"}))
            out = pathlib.Path(d) / "out.json"
            r = subprocess.run([sys.executable, str(SCRIPT), "unused-tiergraph", str(profile), str(out), str(b)],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue((pathlib.Path(d) / "out.profile.json").exists())
            return {c["algorithm"]: c for c in json.loads(out.read_text())["cells"]}

    def test_cells(self):
        cells = self.cells("tiergraph bench g.tgb -a sssp,bfs -p subgraph,auto")
        sssp = cells["sssp"]
        self.assertAlmostEqual(sssp["measured_ms"]["subgraph"], 300.0)
        self.assertAlmostEqual(sssp["measured_ms"]["auto"], 300.0)
        self.assertEqual(sssp["auto_placement"], "subgraph")
        self.assertEqual(sssp["budget_bytes"], 1000)
        self.assertEqual(sssp["room_bytes"], 4800)
        self.assertEqual(sssp["zero_copy_cache"]["heads"], 2)
        # The engine's own width where the command names none; BFS has no width.
        self.assertEqual(sssp["sssp_delta"], 0.0)
        self.assertNotIn("sssp_delta", cells["bfs"])

    def test_the_width_as_run(self):
        self.assertEqual(self.cells("tiergraph bench g.tgb -a sssp --delta 128 -p auto")["sssp"]["sssp_delta"], 128.0)
        self.assertEqual(self.cells("tiergraph bench g.tgb -a sssp --delta=32 -p auto")["sssp"]["sssp_delta"], 32.0)


class PlannerRecordsBadInputTest(unittest.TestCase):
    def test_a_file_that_is_not_a_bench_record(self):
        with tempfile.TemporaryDirectory() as d:
            profile = pathlib.Path(d) / "p.json"
            profile.write_text("{}")
            for text in ["not json", "{}", '{"runs": []}', '{"runs": [{"compute_s": 1}]}', "[1, 2]"]:
                b = pathlib.Path(d) / "b.json"
                b.write_text(text)
                r = subprocess.run([sys.executable, str(SCRIPT), "tg", str(profile), str(pathlib.Path(d) / "o.json"),
                                    str(b)], capture_output=True, text=True)
                self.assertEqual(r.returncode, 1, text)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn("b.json: not a bench record", r.stderr)
                self.assertFalse((pathlib.Path(d) / "o.json").exists())


if __name__ == "__main__":
    unittest.main()
