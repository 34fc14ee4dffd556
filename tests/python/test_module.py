"""The Python module `tiergraph` (python/tiergraph_module.cc) as a user meets it:
results checked against plain-Python references written here, errors as
exceptions. Run by CTest with build/python on PYTHONPATH."""
import collections
import heapq
import json
import os
import random
import tempfile
import unittest

import numpy as np

import tiergraph


def random_edges(n, m, seed, weights=False):
    rng = random.Random(seed)
    edges = []
    for _ in range(m):
        u, v = rng.randrange(n), rng.randrange(n)
        edges.append((u, v, rng.randint(1, 9)) if weights else (u, v))
    return edges


def write_edge_list(edges):
    weighted = len(edges) > 0 and len(edges[0]) == 3
    f = tempfile.NamedTemporaryFile("w", suffix=".wel" if weighted else ".el", delete=False)
    for e in edges:
        f.write(" ".join(str(x) for x in e) + "\n")
    f.close()
    return f.name


def adjacency(n, edges, undirected):
    adj = [[] for _ in range(n)]
    for e in edges:
        u, v = e[0], e[1]
        w = e[2] if len(e) > 2 else 1
        adj[u].append((v, w))
        if undirected:
            adj[v].append((u, w))
    return adj


class ModuleTest(unittest.TestCase):
    def setUp(self):
        self.files = []

    def tearDown(self):
        for f in self.files:
            os.unlink(f)

    def graph_file(self, edges):
        path = write_edge_list(edges)
        self.files.append(path)
        return path

    def test_push_only_bfs_takes_no_bottom_up_step(self):
        g = tiergraph.generate("kron:11")
        depth, stats = tiergraph.run("bfs", g, source=1, engine="cpu", verify=True, push_only=True)
        self.assertTrue(stats["verified"])
        self.assertEqual(json.loads(stats["json"])["pull_steps"], 0)
        default_depth, default_stats = tiergraph.run("bfs", g, source=1, engine="cpu")
        self.assertGreater(json.loads(default_stats["json"])["pull_steps"], 0)
        self.assertEqual(depth.tolist(), default_depth.tolist())
        with self.assertRaises(TypeError):
            tiergraph.run("bfs", g, source=1, push_only="yes please")

    def test_vertex_order_degree_keeps_the_graphs_numbering(self):
        g = tiergraph.generate("kron:11")
        for algorithm in ("bfs", "cc", "pagerank"):
            kwargs = {"source": 1} if algorithm == "bfs" else {}
            plain, _ = tiergraph.run(algorithm, g, engine="cpu", **kwargs)
            values, stats = tiergraph.run(algorithm, g, engine="cpu", verify=True, vertex_order="degree", **kwargs)
            self.assertTrue(stats["verified"], algorithm)
            self.assertIn("renumber", stats["time_s"])
            if algorithm == "pagerank":
                self.assertLess(float(abs(values - plain).max()), 1e-9)
            else:
                self.assertEqual(values.tolist(), plain.tolist(), algorithm)
        with self.assertRaises(ValueError):
            tiergraph.run("cc", g, vertex_order="shuffled")

    def test_cc_method_and_pr_contributions_by_name(self):
        g = tiergraph.generate("kron:11")
        sampled, _ = tiergraph.run("cc", g, engine="cpu")
        sv, stats = tiergraph.run("cc", g, engine="cpu", verify=True, cc_method="sv")
        self.assertTrue(stats["verified"])
        self.assertEqual(sv.tolist(), sampled.tolist())
        single, s1 = tiergraph.run("pagerank", g, engine="cpu", verify=True, pr_contributions="float")
        double, s2 = tiergraph.run("pagerank", g, engine="cpu", verify=True, pr_contributions="double")
        self.assertTrue(s1["verified"] and s2["verified"])
        self.assertLess(float(abs(single - double).max()), 1e-5)
        with self.assertRaises(ValueError):
            tiergraph.run("cc", g, cc_method="union-find")
        with self.assertRaises(ValueError):
            tiergraph.run("pagerank", g, pr_contributions="half")
        off, _ = tiergraph.run("cc", g, edge_cache="off")  # the GPU's cache: the same labels wherever it runs
        self.assertEqual(off.tolist(), sampled.tolist())
        with self.assertRaises(ValueError):
            tiergraph.run("cc", g, edge_cache="sometimes")
        # profile: read where placement="auto" plans a GPU run (a missing file an InputError naming it); a CPU run
        # plans nothing and reads none, as the command line's --profile.
        missing = os.path.join(tempfile.gettempdir(), "tiergraph-no-such-profile.json")
        _, where = tiergraph.run("cc", g)
        if where["engine"] == "cpu":
            _, on_cpu = tiergraph.run("cc", g, profile=missing)
            self.assertEqual(on_cpu["engine"], "cpu")
        else:
            with self.assertRaises(tiergraph.InputError) as caught:
                tiergraph.run("cc", g, profile=missing)
            self.assertIn(missing, str(caught.exception))
        with self.assertRaises(TypeError):
            tiergraph.run("cc", g, profile=5)
        for threads in (-1, 100000):  # 100000 once crashed making OpenMP's team
            with self.assertRaises(ValueError):
                tiergraph.run("cc", g, engine="cpu", threads=threads)

    def test_bfs_matches_a_python_bfs(self):
        n = 200
        edges = random_edges(n, 500, seed=1)
        g = tiergraph.load(self.graph_file(edges))
        self.assertEqual(g.num_vertices, max(max(e) for e in edges) + 1)
        adj = adjacency(g.num_vertices, edges, undirected=False)
        for source in (0, 7, 123):
            depth, stats = tiergraph.run("bfs", g, source=source, engine="cpu", verify=True)
            self.assertIsInstance(depth, np.ndarray)
            self.assertEqual(depth.dtype, np.int32)
            want = [-1] * g.num_vertices
            want[source] = 0
            queue = collections.deque([source])
            while queue:
                u = queue.popleft()
                for v, _ in adj[u]:
                    if want[v] < 0:
                        want[v] = want[u] + 1
                        queue.append(v)
            self.assertEqual(depth.tolist(), want, f"source {source}")
            self.assertTrue(stats["verified"])
            self.assertEqual(stats["engine"], "cpu")
            self.assertIn("compute", stats["time_s"])

    def test_sssp_matches_dijkstra(self):
        n = 100
        edges = random_edges(n, 400, seed=2, weights=True)
        g = tiergraph.load(self.graph_file(edges))
        self.assertTrue(g.weighted)
        adj = adjacency(g.num_vertices, edges, undirected=False)
        dist, _ = tiergraph.run("sssp", g, source=3, engine="cpu")
        want = [float("inf")] * g.num_vertices
        want[3] = 0.0
        heap = [(0.0, 3)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > want[u]:
                continue
            for v, w in adj[u]:
                if d + w < want[v]:
                    want[v] = d + w
                    heapq.heappush(heap, (want[v], v))
        self.assertEqual(dist.tolist(), want)

    def test_lists_by_weight_keeps_the_distances(self):
        plain = tiergraph.generate("kron:10", weights="1:255")
        ordered = tiergraph.generate("kron:10", weights="1:255", lists_by_weight=True)
        a, _ = tiergraph.run("sssp", plain, source=3, engine="cpu")
        b, stats = tiergraph.run("sssp", ordered, source=3, engine="cpu", verify=True)
        self.assertEqual(a.tolist(), b.tolist())
        self.assertTrue(stats["verified"])
        with self.assertRaises(ValueError) as e:  # a usage error
            tiergraph.generate("kron:8", lists_by_weight=True)
        self.assertIn("needs edge weights", str(e.exception))

    def test_cc_matches_union_find_on_a_generated_graph_s_file(self):
        edges = random_edges(300, 250, seed=3)
        g = tiergraph.load(self.graph_file(edges), undirected=True)
        labels, stats = tiergraph.run("cc", g, engine="cpu", threads=2)
        parent = list(range(g.num_vertices))

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for u, v in edges:
            a, b = find(u), find(v)
            if a != b:
                parent[max(a, b)] = min(a, b)
        self.assertEqual(labels.dtype, np.uint64)
        self.assertEqual(labels.tolist(), [find(v) for v in range(g.num_vertices)])
        self.assertEqual(stats["sources"], [])

    def test_generate_and_pagerank(self):
        g = tiergraph.generate("kron:10")
        self.assertEqual(g.num_vertices, 1024)
        self.assertFalse(g.directed)
        score, stats = tiergraph.run("pagerank", g, engine="cpu", tolerance=1e-9, verify=True)
        self.assertAlmostEqual(float(score.sum()), 1.0, places=6)
        self.assertTrue(stats["verified"])
        self.assertGreater(stats["iterations"], 1)

    def test_values_own_the_result_without_a_copy(self):
        g = tiergraph.generate("kron:8")
        depth, _ = tiergraph.run("bfs", g, source=0, engine="cpu")
        self.assertIsNotNone(depth.base)  # the capsule that owns the library's vector
        self.assertTrue(depth.flags["C_CONTIGUOUS"])
        del g  # the values outlive the graph
        self.assertEqual(int(depth[0]), 0)

    def test_from_edges_in_memory(self):
        edges = random_edges(150, 400, seed=4)
        src = np.array([u for u, _ in edges], dtype=np.int64)
        dst = np.array([v for _, v in edges], dtype=np.int32)
        g = tiergraph.from_edges(src, dst, num_vertices=160, undirected=True)
        self.assertEqual(g.num_vertices, 160)
        self.assertFalse(g.directed)
        from_file = tiergraph.load(self.graph_file(edges), undirected=True)
        for source in (0, 5):
            got, _ = tiergraph.run("bfs", g, source=source, engine="cpu")
            want, _ = tiergraph.run("bfs", from_file, source=source, engine="cpu")
            self.assertEqual(got[: len(want)].tolist(), want.tolist())
            self.assertTrue((got[len(want):] == -1).all())  # the ten vertices past the file's ids
        weighted = tiergraph.from_edges([0, 1, 0], [1, 2, 2], weights=[2.5, 1.0, 4.0])
        dist, _ = tiergraph.run("sssp", weighted, source=0, engine="cpu")
        self.assertEqual(dist.tolist(), [0.0, 2.5, 3.5])

    def test_from_edges_refuses_what_it_cannot_use(self):
        cases = [
            (tiergraph.InputError, lambda: tiergraph.from_edges(np.array([0, -1]), np.array([1, 2]))),
            (tiergraph.InputError, lambda: tiergraph.from_edges([0], [5], num_vertices=3)),
            (ValueError, lambda: tiergraph.from_edges([0, 1], [1])),
            (ValueError, lambda: tiergraph.from_edges([0.5], [1])),
            (ValueError, lambda: tiergraph.from_edges([[0]], [[1]])),
            (ValueError, lambda: tiergraph.from_edges([0], [1], weights=[1, 2])),
            (ValueError, lambda: tiergraph.from_edges([0], [1], weights=[1.0], random_weights="1:5")),
            (ValueError, lambda: tiergraph.from_edges([10**30], [0])),  # NumPy's objects, past 64 bits
            (TypeError, lambda: tiergraph.from_edges(None, None)),
            # an id that asks for more offsets than the machine has: MemoryError, with the numbers
            (MemoryError, lambda: tiergraph.from_edges([0], [2**40], num_vertices=2**40 + 1)),
        ]
        for kind, call in cases:
            with self.assertRaises(kind):
                call()
        empty = tiergraph.from_edges(np.zeros(0, np.int64), np.zeros(0, np.int64))
        with self.assertRaises(ValueError) as e:
            tiergraph.run("bfs", empty, source=0)
        self.assertIn("the graph has no vertices", str(e.exception))

    def test_torch_tensors_cross_without_a_copy(self):
        try:
            import torch
        except ImportError:
            self.skipTest("no torch here")
        edge_index = torch.tensor([[0, 1, 2], [1, 2, 3]])
        g = tiergraph.from_edges(edge_index[0], edge_index[1])
        depth, _ = tiergraph.run("bfs", g, source=0, engine="cpu")
        t = torch.from_numpy(depth)  # shares the array's memory
        self.assertEqual(t.tolist(), [0, 1, 2, 3])
        self.assertEqual(t.data_ptr(), depth.ctypes.data)
        d = torch.from_dlpack(depth)  # DLPack, as GPU tensors will cross
        self.assertEqual(d.data_ptr(), depth.ctypes.data)

    def test_errors_are_exceptions_with_one_line(self):
        g = tiergraph.generate("kron:6")
        cases = [
            (ValueError, lambda: tiergraph.run("no-such-algorithm", g)),
            (ValueError, lambda: tiergraph.run("bfs", g, source=10**9)),
            (ValueError, lambda: tiergraph.run("bfs", g, source=0, sources=[1])),
            (ValueError, lambda: tiergraph.run("bfs", g, engine="tpu")),
            (ValueError, lambda: tiergraph.run("bfs", g, engine="cpu", gpus=2)),  # several GPUs need the GPU engine
            (ValueError, lambda: tiergraph.run("bfs", g, gpus=-1)),
            (tiergraph.InputError, lambda: tiergraph.load("/no/such/file.el")),
            (tiergraph.InputError, lambda: tiergraph.load(self.graph_file([("0", "x")]))),
            (tiergraph.InputError, lambda: tiergraph.run("sssp", g, source=0)),  # no weights
            (ValueError, lambda: tiergraph.generate("kron:-3")),
            (TypeError, lambda: tiergraph.run("bfs", "not a graph")),
            (TypeError, lambda: tiergraph.run("bfs", g, source="zero")),
        ]
        for kind, call in cases:
            with self.assertRaises(kind) as caught:
                call()
            self.assertNotIn("\n", str(caught.exception).strip() if kind is not TypeError else "")
        self.assertTrue(issubclass(tiergraph.InputError, ValueError))

    def test_integer_arguments_are_checked_by_name_in_one_line(self):
        # pybind11's own conversion raised a TypeError listing the whole signature for -1 or 2**64,
        # and took True as 1.
        g = tiergraph.generate("kron:6")
        cases = [
            (ValueError, "source must be an integer from 0 to 18446744073709551615, not -1",
             lambda: tiergraph.run("bfs", g, source=-1)),
            (ValueError, "sources[1] must be an integer from 0", lambda: tiergraph.run("bc", g, sources=[0, -1])),
            (ValueError, "sources is empty", lambda: tiergraph.run("bc", g, sources=[])),
            (ValueError, "source must be an integer from 0 to 18446744073709551615, not 18446744073709551616",
             lambda: tiergraph.run("bfs", g, source=2**64)),
            (TypeError, "source must be an integer, not bool", lambda: tiergraph.run("bfs", g, source=True)),
            (ValueError, "threads must be an integer", lambda: tiergraph.run("bfs", g, threads=2**40)),
            (ValueError, "max_iters must be an integer from 1", lambda: tiergraph.run("pagerank", g, max_iters=0)),
            (ValueError, "gpu_memory_budget must be", lambda: tiergraph.run("bfs", g, gpu_memory_budget=-1)),
            (ValueError, "seed must be an integer from 0", lambda: tiergraph.generate("kron:6", seed=-1)),
            (ValueError, "edge_factor must be an integer from 1 to 1048576",
             lambda: tiergraph.generate("kron:6", edge_factor=10**12)),
            (ValueError, "num_vertices must be", lambda: tiergraph.from_edges([0], [1], num_vertices=-1)),
            (ValueError, "fanouts[0] must be an integer", lambda: tiergraph.sample_neighbors(g, [0], [2**31])),
            (ValueError, "fanouts is empty", lambda: tiergraph.sample_neighbors(g, [0], [])),
            (ValueError, "seed must be", lambda: tiergraph.NeighborSampler(g, [5], seed=-1)),
            (ValueError, "seed must be", lambda: tiergraph.NeighborSampler(g, [5]).sample([0], seed=-1)),
            (ValueError, "iterations must be", lambda: tiergraph.tier_scores(g, iterations=2**40)),
        ]
        for kind, message, call in cases:
            with self.assertRaises(kind) as caught:
                call()
            self.assertIn(message, str(caught.exception))
            self.assertNotIn("\n", str(caught.exception))
        # NumPy's integers are integers.
        _, stats = tiergraph.run("bfs", g, source=np.int64(3), engine="cpu")
        self.assertEqual(stats["sources"], [3])

    def test_switches_take_true_or_false_and_numbers_no_bools(self):
        # pybind11's bool took None as False and a number by its truth: replace=None sampled without replacement.
        g = tiergraph.generate("kron:6")
        name = self.graph_file([("0", "1"), ("1", "2")])
        cases = [
            ("replace must be True or False, not None", lambda: tiergraph.sample_neighbors(g, [0], [2], replace=None)),
            ("replace must be True or False, not 1", lambda: tiergraph.NeighborSampler(g, [2], replace=1)),
            ("zero_copy must be True or False, not 'yes'", lambda: tiergraph.NeighborSampler(g, [2], zero_copy="yes")),
            ("cuda must be True or False, not 0", lambda: tiergraph.NeighborSampler(g, [2]).sample([0], cuda=0)),
            ("verify must be True or False, not 2", lambda: tiergraph.run("bfs", g, source=0, verify=2)),
            ("push_only must be True or False, not None", lambda: tiergraph.run("bfs", g, source=0, push_only=None)),
            ("undirected must be True or False, not 1", lambda: tiergraph.load(name, undirected=1)),
            ("ids64 must be True or False, not 0.0", lambda: tiergraph.generate("kron:6", ids64=0.0)),
            ("simplify must be True or False, not None", lambda: tiergraph.from_edges([0], [1], simplify=None)),
            ("lists_by_weight must be True or False, not []",
             lambda: tiergraph.from_edges([0], [1], lists_by_weight=[])),
        ]
        for message, call in cases:
            with self.assertRaises(TypeError) as caught:
                call()
            self.assertEqual(message, str(caught.exception))
        # Graphs and strings are named too (pybind11 listed the whole signature).
        named = [
            ("graph must be a tiergraph.Graph, not NoneType", lambda: tiergraph.run("bfs", None, source=0)),
            ("graph must be a tiergraph.Graph, not str", lambda: tiergraph.tier_scores("kron:6")),
            ("graph must be a tiergraph.Graph, not list", lambda: tiergraph.NeighborSampler([], [2])),
            ("algorithm must be a str, not NoneType", lambda: tiergraph.run(None, g)),
            ("engine must be a str, not NoneType", lambda: tiergraph.run("bfs", g, source=0, engine=None)),
            ("spec must be a str, not int", lambda: tiergraph.generate(6)),
            ("weights must be a str or None, not int", lambda: tiergraph.generate("kron:6", weights=5)),
        ]
        for message, call in named:
            with self.assertRaises(TypeError) as caught:
                call()
            self.assertEqual(message, str(caught.exception))
        # Numbers are numbers, not bools or None.
        numbers = [
            ("tolerance must be a number, not True", lambda: tiergraph.run("pagerank", g, tolerance=True)),
            ("damping must be a number, not None", lambda: tiergraph.run("pagerank", g, damping=None)),
            ("delta must be a number, not '1'", lambda: tiergraph.run("sssp", g, source=0, delta="1")),
            ("damping must be a number, not False", lambda: tiergraph.tier_scores(g, damping=False)),
            ("gpu_fraction must be a number, not True",
             lambda: tiergraph.FeatureStore(np.zeros((64, 2), np.float32), gpu_fraction=True)),
            ("sm_fraction must be a number, not None",
             lambda: tiergraph.FeatureStore(np.zeros((64, 2), np.float32), sm_fraction=None)),
            ("peer_fraction must be a number, not []",
             lambda: tiergraph.FeatureStore(np.zeros((64, 2), np.float32), peer_fraction=[])),
        ]
        for message, call in numbers:
            with self.assertRaises(TypeError) as caught:
                call()
            self.assertEqual(message, str(caught.exception))
        _, stats = tiergraph.run("pagerank", g, engine="cpu", tolerance=np.float32(1e-3), damping=np.float16(0.5), max_iters=np.int32(50))
        self.assertGreater(stats["iterations"], 0)
        # NumPy's bools are bools.
        self.assertTrue(tiergraph.load(name, undirected=np.bool_(True)).num_edges == 4)
        _, stats = tiergraph.run("bfs", g, source=0, engine="cpu", verify=np.bool_(True))
        self.assertEqual(stats["sources"], [0])

    def test_signatures_name_the_types_arguments_take(self):
        # help() shows what each argument must be (pybind11 showed `object` for those checked in the body).
        for function in [tiergraph.run, tiergraph.load, tiergraph.generate, tiergraph.from_edges,
                         tiergraph.sample_neighbors, tiergraph.tier_scores, tiergraph.relabel,
                         tiergraph.NeighborSampler.__init__, tiergraph.NeighborSampler.sample,
                         tiergraph.FeatureStore.__init__]:
            signature = next(line for line in function.__doc__.splitlines() if line.strip())
            self.assertNotIn(": object", signature)
        self.assertIn("verify: bool = False, tolerance: float = 1e-06, max_iters: int = 100", tiergraph.run.__doc__)
        self.assertIn("source: Optional[int] = None, sources: Optional[List[int]] = None", tiergraph.run.__doc__)
        self.assertIn("use_gpu: Optional[bool] = None", tiergraph.NeighborSampler.__init__.__doc__)

    def test_load_takes_a_path_as_open_does(self):
        import pathlib
        name = self.graph_file([("0", "1"), ("1", "2")])
        self.assertEqual(tiergraph.load(pathlib.Path(name)).num_vertices, 3)
        with self.assertRaisesRegex(ValueError, "embedded null character"):
            tiergraph.load(name + "\0x")
        with self.assertRaisesRegex(TypeError, "path must be a str or os.PathLike"):
            tiergraph.load(b"bytes.el")
        with self.assertRaisesRegex(ValueError, "load: the path is empty"):
            tiergraph.load("")

    def test_objects_made_by_new_alone_are_refused_not_crashed_on(self):
        # Cls.__new__(Cls) makes an object that holds no C++ one: using it crashed the interpreter.
        for make, use in [
            (lambda: tiergraph.Graph.__new__(tiergraph.Graph), lambda x: x.num_vertices),
            (lambda: tiergraph.Graph.__new__(tiergraph.Graph), repr),
            (lambda: tiergraph.Graph.__new__(tiergraph.Graph), lambda x: tiergraph.run("bfs", x, engine="cpu")),
            (lambda: tiergraph.NeighborSampler.__new__(tiergraph.NeighborSampler), lambda x: x.sample([0])),
            (lambda: tiergraph.FeatureStore.__new__(tiergraph.FeatureStore), lambda x: x[[0]]),
            (lambda: tiergraph.FeatureStore.__new__(tiergraph.FeatureStore), repr),
        ]:
            with self.assertRaises(TypeError) as caught:
                use(make())
            self.assertIn("was made by __new__ alone and holds nothing", str(caught.exception))

    def test_values_numpy_would_change_are_refused(self):
        with self.assertRaises(ValueError) as caught:  # NumPy's cast to float32 made it inf
            tiergraph.from_edges([0, 1], [1, 0], weights=[1e40, 1.0])
        self.assertIn("weights[0] = 1e+40 is out of the range of a 4-byte float", str(caught.exception))
        with self.assertRaises(tiergraph.InputError) as caught:  # largest id + 1 wrapped to 0 vertices
            tiergraph.from_edges(np.array([2**64 - 1], np.uint64), np.array([0], np.uint64))
        self.assertIn("vertex id 18446744073709551615 is more than tiergraph supports", str(caught.exception))
        with self.assertRaises(tiergraph.InputError) as caught:  # edges named by their index
            tiergraph.from_edges([0, 1], [1, 0], weights=[float("nan"), 1.0])
        self.assertIn("edges[0] (0 -> 1): the weight is NaN", str(caught.exception))
        with self.assertRaises(ValueError) as caught:  # NaN was ranked hottest
            tiergraph.order_by_score(np.array([1.0, float("nan"), 2.0]))
        self.assertIn("scores[1] is NaN", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
