"""tiergraph.sample_neighbors from Python: every sampled edge is an edge of the
graph into its destination, counts are min(fanout, in-degree), hops chain,
the same seed gives the same sample, and bad arguments raise ValueError."""

import collections
import unittest

import numpy as np

import tiergraph

try:
    import torch
except ImportError:
    torch = None


class SamplingTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(3)
        self.src = rng.integers(0, 200, 3000)
        self.dst = rng.integers(0, 200, 3000)
        self.g = tiergraph.from_edges(self.src, self.dst, num_vertices=200)
        self.into = collections.defaultdict(collections.Counter)  # dst -> Counter of sources
        for s, d in zip(self.src.tolist(), self.dst.tolist()):
            self.into[d][s] += 1

    def test_edges_are_real_and_counts_right(self):
        seeds = np.array([5, 17, 123, 199])
        hops = tiergraph.sample_neighbors(self.g, seeds, [4, 3], seed=7)
        self.assertEqual(len(hops), 2)
        expected_dst = seeds
        for hop, fanout in zip(hops, [4, 3]):
            dst, src, ei = hop["dst_nodes"], hop["src_nodes"], hop["edge_index"]
            self.assertEqual(dst.dtype, np.int64)
            self.assertEqual(ei.shape[0], 2)
            np.testing.assert_array_equal(dst, expected_dst)
            np.testing.assert_array_equal(src[: len(dst)], dst)
            self.assertEqual(len(set(src.tolist())), len(src))
            taken = collections.defaultdict(collections.Counter)
            for s, d in ei.T.tolist():
                taken[dst[d]][src[s]] += 1
            for v in dst.tolist():
                real = self.into[v]
                for u, m in taken[v].items():
                    self.assertLessEqual(m, real[u], f"{u} -> {v} taken more often than it exists")
                self.assertEqual(sum(taken[v].values()), min(fanout, sum(real.values())))
            expected_dst = src

    def test_deterministic_and_seeded(self):
        a = tiergraph.sample_neighbors(self.g, [1, 2, 3], [5], seed=1)
        b = tiergraph.sample_neighbors(self.g, [1, 2, 3], [5], seed=1)
        c = tiergraph.sample_neighbors(self.g, [1, 2, 3], [5], seed=2)
        np.testing.assert_array_equal(a[0]["edge_index"], b[0]["edge_index"])
        np.testing.assert_array_equal(a[0]["src_nodes"], b[0]["src_nodes"])
        self.assertFalse(np.array_equal(a[0]["src_nodes"], c[0]["src_nodes"]))

    def test_with_replacement_draws_exactly_fanout(self):
        hops = tiergraph.sample_neighbors(self.g, [10], [50], replace=True, seed=3)
        self.assertEqual(hops[0]["edge_index"].shape[1], 50 if self.into[10] else 0)

    def test_sampler_draws_anew_each_call_and_reproducibly(self):
        seeds = [5, 17, 123]
        first = tiergraph.NeighborSampler(self.g, [4, 3], seed=11)
        again = tiergraph.NeighborSampler(self.g, [4, 3], seed=11)
        a1, a2 = first.sample(seeds), first.sample(seeds)
        b1, b2 = again.sample(seeds), again.sample(seeds)
        for x, y in ((a1, b1), (a2, b2)):
            for hx, hy in zip(x, y):
                np.testing.assert_array_equal(hx["edge_index"], hy["edge_index"])
                np.testing.assert_array_equal(hx["src_nodes"], hy["src_nodes"])
        self.assertFalse(np.array_equal(a1[0]["src_nodes"], a2[0]["src_nodes"]))
        explicit = first.sample(seeds, seed=7)
        direct = tiergraph.sample_neighbors(self.g, seeds, [4, 3], seed=7)
        for hx, hy in zip(explicit, direct):
            np.testing.assert_array_equal(hx["edge_index"], hy["edge_index"])
        self.assertEqual(first.fanouts, [4, 3])

    def test_sampler_hops_chain_through_one_array(self):
        # hop k + 1's dst_nodes are hop k's src_nodes, one array; each hop's
        # arrays C-ordered int64 NumPy arrays of their own, equal to
        # sample_neighbors' (on a GPU where there is one, and on the CPU).
        for use_gpu in (None, False):
            sampler = tiergraph.NeighborSampler(self.g, [4, 3, 2], use_gpu=use_gpu)
            hops = sampler.sample([5, 17, 123], seed=8)
            direct = tiergraph.sample_neighbors(self.g, [5, 17, 123], [4, 3, 2], seed=8)
            for k, (hop, want) in enumerate(zip(hops, direct)):
                if k > 0:
                    self.assertIs(hop["dst_nodes"], hops[k - 1]["src_nodes"])
                for key in ("dst_nodes", "src_nodes", "edge_index"):
                    a = hop[key]
                    self.assertIsInstance(a, np.ndarray)
                    self.assertEqual(a.dtype, np.int64)
                    self.assertTrue(a.flags.c_contiguous)
                    np.testing.assert_array_equal(a, want[key], err_msg=f"{key}, hop {k}, use_gpu={use_gpu}")
                self.assertEqual(hop["edge_index"].shape, (2, want["edge_index"].shape[1]))
                self.assertFalse(np.shares_memory(hop["edge_index"], hop["src_nodes"]))

    def test_sampler_refuses_bad_fanouts_when_made(self):
        for fanouts in ([], [0], [-2]):
            with self.assertRaises(ValueError, msg=str(fanouts)):
                tiergraph.NeighborSampler(self.g, fanouts)
        with self.assertRaises(ValueError):
            tiergraph.NeighborSampler(self.g, [2], device=-1)
        with self.assertRaisesRegex(TypeError, "use_gpu must be None, True or False"):
            tiergraph.NeighborSampler(self.g, [2], use_gpu="yes")
        sampler = tiergraph.NeighborSampler(self.g, [2], use_gpu=False)
        self.assertFalse(sampler.on_gpu)
        for seeds in ([200], [-1], [1, 1], [[0, 1]]):
            with self.assertRaises(ValueError, msg=str(seeds)):
                sampler.sample(seeds)

    def test_sampler_on_a_gpu_or_a_clear_refusal(self):
        try:
            sampler = tiergraph.NeighborSampler(self.g, [3, 2], use_gpu=True, seed=4)
        except RuntimeError as e:  # no usable GPU: one line saying so
            self.assertIn("GPU", str(e))
            self.assertNotIn("\n", str(e))
            return
        self.assertTrue(sampler.on_gpu)
        seeds = [5, 17, 123]
        gpu = sampler.sample(seeds, seed=9)
        cpu = tiergraph.sample_neighbors(self.g, seeds, [3, 2], seed=9)
        for hg, hc in zip(gpu, cpu):
            np.testing.assert_array_equal(hg["edge_index"], hc["edge_index"])
            np.testing.assert_array_equal(hg["src_nodes"], hc["src_nodes"])

    def test_in_edges_split_over_gpus_draw_the_same(self):
        # Three pieces on GPU 0 where there is one (the CPU sampler checks the list and ignores it).
        seeds = [5, 17, 123]
        split = tiergraph.NeighborSampler(self.g, [3, 2], seed=4, edge_devices=[0, 0, 0])
        cpu = tiergraph.sample_neighbors(self.g, seeds, [3, 2], seed=9)
        for hs, hc in zip(split.sample(seeds, seed=9), cpu):
            np.testing.assert_array_equal(hs["edge_index"], hc["edge_index"])
            np.testing.assert_array_equal(hs["src_nodes"], hc["src_nodes"])
        for bad, message in (([0, -1], "device -1 is negative"), ([0] * 9, "9 pieces, at most 8")):
            with self.assertRaisesRegex(ValueError, message):
                tiergraph.NeighborSampler(self.g, [2], use_gpu=False, edge_devices=bad)
        with self.assertRaisesRegex(ValueError, "not both"):
            tiergraph.NeighborSampler(self.g, [2], zero_copy=True, edge_devices=[0])
        with self.assertRaisesRegex(TypeError, "edge_devices"):
            tiergraph.NeighborSampler(self.g, [2], edge_devices="01")

    def test_cuda_hops_need_a_gpu_sampler(self):
        sampler = tiergraph.NeighborSampler(self.g, [2], use_gpu=False)
        with self.assertRaisesRegex(ValueError, "cuda=True needs a sampler on a GPU"):
            sampler.sample([1, 2], cuda=True)

    @unittest.skipIf(torch is None or not torch.cuda.is_available(), "no CUDA torch")
    def test_cuda_hops_equal_the_host_hops_on_a_side_stream(self):
        """Hops left in CUDA tensors (torch's allocator, torch's current
        stream) equal the host ones for the same seed, over many calls on a
        side stream with no sync between them, from GPU and from host memory."""
        rng = np.random.default_rng(8)
        for zero_copy in (False, True):
            sampler = tiergraph.NeighborSampler(self.g, [4, -1, 2], use_gpu=True, zero_copy=zero_copy)
            calls = [(rng.choice(200, int(rng.integers(1, 60)), replace=False), int(rng.integers(1 << 40)))
                     for _ in range(30)]
            side = torch.cuda.Stream()
            with torch.cuda.stream(side):
                on_gpu = [sampler.sample(seeds, seed=seed, cuda=True) for seeds, seed in calls]
            side.synchronize()
            for (seeds, seed), hops in zip(calls, on_gpu):
                want = tiergraph.sample_neighbors(self.g, seeds, [4, -1, 2], seed=seed)
                self.assertEqual(len(hops), 3)
                for got, w in zip(hops, want):
                    for key in ("dst_nodes", "src_nodes", "edge_index"):
                        self.assertTrue(got[key].is_cuda)
                        self.assertEqual(got[key].dtype, torch.int64)
                        np.testing.assert_array_equal(got[key].cpu().numpy(), w[key], err_msg=f"{key}, zero_copy {zero_copy}")
            self.assertEqual(len(sampler.sample([], cuda=True)), 3)

    def test_bad_arguments_raise_value_error(self):
        for seeds, fanouts in [([0], []), ([0], [0]), ([0], [-3]), ([200], [2]), ([-1], [2]), ([1, 1], [2]),
                               ([[0, 1]], [2]), ([0.5], [2])]:
            with self.assertRaises(ValueError, msg=f"{seeds} {fanouts}") as e:
                tiergraph.sample_neighbors(self.g, seeds, fanouts)
            self.assertNotIn("\n", str(e.exception))


if __name__ == "__main__":
    unittest.main()
