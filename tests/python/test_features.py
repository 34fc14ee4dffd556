"""tiergraph.FeatureStore (python/feature_store.cc): store[ids] checked against
NumPy's fancy indexing features[ids] (and torch's t[ids]) for many dtypes and
widths, the tiers' counts against NumPy, and every refusal a ValueError.
Without a GPU (CI) the rows come from the CPU gather as NumPy arrays; with
one, from the GPU tiers as CUDA tensors, and the same checks hold."""
import gc
import multiprocessing
import os
import tempfile
import unittest
import warnings

import numpy as np

import tiergraph

try:
    import torch
except ImportError:  # the CPU checks need only NumPy
    torch = None


def as_numpy(rows):
    """store[ids] as NumPy, whichever form it came in."""
    if torch is not None and isinstance(rows, torch.Tensor):
        return rows.cpu().numpy()
    return rows


def gather_in_another_process(task):
    """A training process's store over a shared file mapping: whether it reads the rows in place, and
    the rows of ids (a worker of test_processes_share_one_matrix)."""
    path, shape, ids = task
    mapped = np.memmap(path, dtype=np.float32, mode="r+", shape=shape)
    store = tiergraph.FeatureStore(mapped)
    return store.host_rows_in_place, np.array(as_numpy(store[ids]))


class FeatureStoreGatherTest(unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(41)

    def random_features(self, rows, cols, dtype):
        if dtype == np.bool_:
            return self.rng.integers(0, 2, (rows, cols)).astype(np.bool_)
        if np.issubdtype(dtype, np.integer):
            info = np.iinfo(dtype)
            return self.rng.integers(info.min, info.max, (rows, cols), dtype=dtype, endpoint=True)
        return self.rng.standard_normal((rows, cols)).astype(dtype)

    def ids(self, rows, count):
        ids = self.rng.integers(0, rows, count)
        ids[::5] = rows - 1  # the last row, and repeats
        return ids

    def test_rows_equal_numpy_fancy_indexing(self):
        for dtype in (np.float32, np.float16, np.float64, np.int32, np.int64, np.uint8, np.int8, np.bool_):
            for cols in (1, 3, 37, 128):
                features = self.random_features(200, cols, dtype)
                store = tiergraph.FeatureStore(features)
                self.assertEqual(store.shape, (200, cols))
                self.assertEqual(len(store), 200)
                ids = self.ids(200, 333)
                got = as_numpy(store[ids])
                self.assertEqual(got.shape, (333, cols), (dtype, cols))
                np.testing.assert_array_equal(got, features[ids], err_msg=f"{np.dtype(dtype).name} x {cols}")
                if not store.on_gpu:
                    self.assertEqual(got.dtype, features.dtype)

    def test_ids_in_every_form(self):
        features = self.random_features(50, 3, np.float32)
        store = tiergraph.FeatureStore(features)
        want = features[[4, 4, 0, 49]]
        np.testing.assert_array_equal(as_numpy(store[[4, 4, 0, 49]]), want)
        for dtype in (np.int8, np.int32, np.int64, np.uint16, np.uint64):
            np.testing.assert_array_equal(as_numpy(store[np.array([4, 4, 0, 49], dtype=dtype)]), want)
        np.testing.assert_array_equal(as_numpy(store[7]), features[7])
        np.testing.assert_array_equal(as_numpy(store[np.int64(7)]), features[7])
        self.assertEqual(as_numpy(store[[]]).shape, (0, 3))
        if torch is not None:
            np.testing.assert_array_equal(as_numpy(store[torch.tensor([4, 4, 0, 49])]), want)

    def test_a_matrix_with_no_columns(self):
        store = tiergraph.FeatureStore(np.zeros((5, 0), dtype=np.float32))
        self.assertEqual(as_numpy(store[[1, 2, 3]]).shape, (3, 0))

    def test_the_store_keeps_the_features_alive(self):
        expected = np.arange(40, dtype=np.float64).reshape(10, 4)
        store = tiergraph.FeatureStore(np.arange(40, dtype=np.float64).reshape(10, 4))
        gc.collect()
        np.testing.assert_array_equal(as_numpy(store[[9, 0]]), expected[[9, 0]])

    def test_a_memory_mapped_matrix(self):
        features = self.random_features(300, 37, np.float32)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "features.bin")
            features.tofile(path)
            mapped = np.memmap(path, dtype=np.float32, mode="r", shape=features.shape)
            store = tiergraph.FeatureStore(mapped)
            ids = self.ids(300, 100)
            np.testing.assert_array_equal(as_numpy(store[ids]), features[ids])
            del store, mapped
            gc.collect()

    def test_rows_read_in_place_see_later_writes(self):
        # 4 MiB of its own (malloc maps it apart): read in place on the CPU and on a GPU.
        features = self.random_features(1 << 14, 64, np.float32)
        store = tiergraph.FeatureStore(features)
        self.assertTrue(store.host_rows_in_place, repr(store))
        features[5, 0] = 1234.5
        self.assertEqual(as_numpy(store[[5]])[0, 0], 1234.5)

    def test_file_mappings_say_whether_they_were_copied(self):
        # 64 MiB, a sparse file, mapped read-only ("r": written through the file) and private ("c":
        # written through the array). A GPU store reads "r" in place where read-only registration is
        # supported and copies "c" (a private mapping pins far too slowly); a copy is said (repr,
        # host_rows_in_place, a RuntimeWarning) and does not see later writes, in place they are seen.
        rows, cols = 1 << 16, 256
        for mode in ("r", "c"):
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "features.bin")
                with open(path, "wb") as f:
                    f.truncate(rows * cols * 4)
                mapped = np.memmap(path, dtype=np.float32, mode=mode, shape=(rows, cols))
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    store = tiergraph.FeatureStore(mapped)
                copied = [w for w in caught if issubclass(w.category, RuntimeWarning)]
                in_place = store.host_rows_in_place
                what = f"mode {mode}: {store!r}"
                self.assertEqual(len(copied), 0 if in_place else 1, what)
                self.assertEqual("copied once into pinned memory" in repr(store), not in_place, what)
                if mode == "c" and store.on_gpu:
                    self.assertFalse(in_place, what)
                self.assertEqual(as_numpy(store[[3]])[0, 0], 0.0)
                if mode == "r":
                    with open(path, "r+b") as f:
                        f.seek(3 * cols * 4)
                        f.write(np.float32(7.0).tobytes())
                else:
                    mapped[3, 0] = 7.0
                self.assertEqual(as_numpy(store[[3]])[0, 0], 7.0 if in_place else 0.0, what)
                del store, mapped
                gc.collect()

    def test_processes_share_one_matrix(self):
        # Training processes (one a GPU) each make a store over one shared mapping: each reads it in
        # place, so the host holds the matrix once.
        features = self.random_features(4096, 40, np.float32)
        shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
        with tempfile.TemporaryDirectory(dir=shm) as d:
            path = os.path.join(d, "features.bin")
            features.tofile(path)
            ids = self.ids(4096, 500)
            with multiprocessing.get_context("spawn").Pool(2) as pool:
                results = pool.map(gather_in_another_process, [(path, features.shape, ids)] * 2)
        for in_place, rows in results:
            self.assertTrue(in_place)
            np.testing.assert_array_equal(rows, features[ids])

    @unittest.skipIf(torch is None, "no torch")
    def test_torch_cpu_tensors(self):
        for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.int64):
            for cols in (1, 3, 37):
                t = (torch.randn(120, cols) * 100).to(dtype)
                store = tiergraph.FeatureStore(t)
                ids = self.ids(120, 77)
                got = store[ids]
                if dtype == torch.bfloat16:
                    self.assertIsInstance(got, torch.Tensor)
                    self.assertEqual(got.dtype, torch.bfloat16)
                    self.assertTrue(torch.equal(got.cpu(), t[torch.from_numpy(ids)]), (dtype, cols))
                else:
                    np.testing.assert_array_equal(as_numpy(got), t.numpy()[ids], err_msg=f"{dtype} x {cols}")
        self.assertEqual(tiergraph.FeatureStore(torch.zeros(3, 2, dtype=torch.bfloat16)).dtype, torch.bfloat16)

    @unittest.skipIf(torch is None, "no torch")
    def test_dlpack_capsule(self):
        features = self.random_features(64, 37, np.float32)
        store = tiergraph.FeatureStore(features)
        ids = self.ids(64, 50)
        got = torch.utils.dlpack.from_dlpack(store.gather_dlpack(ids))
        self.assertEqual(got.is_cuda, store.on_gpu)
        np.testing.assert_array_equal(got.cpu().numpy(), features[ids])
        store.gather_dlpack(ids)  # a capsule nobody consumes frees its rows itself
        gc.collect()

    @unittest.skipIf(torch is None or not torch.cuda.is_available(), "no CUDA torch")
    def test_rows_come_as_cuda_tensors_on_a_gpu(self):
        features = self.random_features(100, 37, np.float32)
        store = tiergraph.FeatureStore(features, gpu_fraction=0.3)
        self.assertTrue(store.on_gpu)
        got = store[[1, 99, 50]]
        self.assertTrue(got.is_cuda)
        np.testing.assert_array_equal(got.cpu().numpy(), features[[1, 99, 50]])


class FeatureStoreGatherIntoTest(unittest.TestCase):
    """store.gather(ids, out=...): the rows into the caller's array or tensor."""

    def setUp(self):
        rng = np.random.default_rng(43)
        self.features = rng.standard_normal((150, 37)).astype(np.float32)
        self.ids = rng.integers(0, 150, 90)

    def test_into_a_numpy_array(self):
        store = tiergraph.FeatureStore(self.features)
        out = np.full((90, 37), np.nan, dtype=np.float32)
        self.assertIs(store.gather(self.ids, out=out), out)
        np.testing.assert_array_equal(out, self.features[self.ids])
        np.testing.assert_array_equal(as_numpy(store.gather(self.ids)), self.features[self.ids])
        self.assertEqual(store.gather([], out=np.zeros((0, 37), np.float32)).shape, (0, 37))

    @unittest.skipIf(torch is None, "no torch")
    def test_into_a_cpu_tensor(self):
        t = (torch.randn(40, 9) * 100).to(torch.bfloat16)
        store = tiergraph.FeatureStore(t)
        out = torch.zeros(3, 9, dtype=torch.bfloat16)
        store.gather([5, 39, 5], out=out)
        self.assertTrue(torch.equal(out, t[[5, 39, 5]]))

    def refused(self, call, words):
        with self.assertRaises(ValueError) as caught:
            call()
        self.assertIn(words, str(caught.exception))
        self.assertNotIn("\n", str(caught.exception))

    def test_refusals(self):
        store = tiergraph.FeatureStore(self.features)
        ids = [1, 2, 3]
        self.refused(lambda: store.gather(ids, out=np.zeros((4, 37), np.float32)), "out has shape (4, 37), the rows need (3, 37)")
        self.refused(lambda: store.gather(ids, out=np.zeros((3, 37), np.float64)), "out holds float64, the store float32")
        self.refused(lambda: store.gather(ids, out=np.zeros((37, 3), np.float32).T), "C-contiguous")
        read_only = np.zeros((3, 37), np.float32)
        read_only.setflags(write=False)
        self.refused(lambda: store.gather(ids, out=read_only), "read-only")
        self.refused(lambda: store.gather(7, out=np.zeros((1, 37), np.float32)), "one-dimensional ids")
        self.refused(lambda: store.gather(ids, out=[[0.0] * 37] * 3), "out must be a NumPy array or a torch tensor")
        self.refused(lambda: store.gather([150], out=np.zeros((1, 37), np.float32)), "150")

    @unittest.skipIf(torch is None or not torch.cuda.is_available(), "no CUDA torch")
    def test_into_cuda_tensors_on_a_side_stream(self):
        """Many gathers into memory torch's allocator hands out again at once,
        each consumed on the same non-default stream with no sync between:
        a gather that ran outside the stream's order would corrupt a sum."""
        store = tiergraph.FeatureStore(self.features, gpu_fraction=0.3)
        self.assertTrue(store.on_gpu)
        rng = np.random.default_rng(5)
        batches = [rng.integers(0, 150, int(rng.integers(1, 3000))) for _ in range(40)]
        side = torch.cuda.Stream()
        sums = []
        with torch.cuda.stream(side):
            for ids in batches:
                rows = store[ids] if len(sums) % 2 else store.gather(ids, out=torch.empty(len(ids), 37, device="cuda"))
                sums.append((rows.double() * torch.arange(1, 38, device="cuda", dtype=torch.float64)).sum())
                del rows
        side.synchronize()
        for ids, got in zip(batches, sums):
            want = (self.features[ids].astype(np.float64) * np.arange(1, 38)).sum()
            self.assertAlmostEqual(got.item(), want, delta=1e-6 * max(1.0, abs(want)))
        self.refused(lambda: store.gather([1], out=torch.empty(1, 37, device="cuda", dtype=torch.float16)), "out holds torch.float16")

    @unittest.skipIf(torch is None or not torch.cuda.is_available(), "no CUDA torch")
    def test_gathers_shared_with_cpu_threads(self):
        """Gathers large enough to share (5 MB and more) with part of the host
        rows gathered by CPU threads: the same rows as NumPy's indexing, with
        and without a GPU tier, a fixed share and the balanced one."""
        features = np.random.default_rng(9).standard_normal((40000, 64)).astype(np.float32)
        rng = np.random.default_rng(11)
        for gpu_fraction, share in ((0.0, 0.5), (0.0, "auto"), (0.3, "auto"), (0.3, 1.0)):
            store = tiergraph.FeatureStore(features, gpu_fraction=gpu_fraction, cpu_share=share, sm_fraction=0.1)
            for _ in range(4):
                ids = rng.integers(0, 40000, 25000)
                self.assertTrue(torch.equal(store[ids].cpu(), torch.from_numpy(features[ids])), (gpu_fraction, share))

    @unittest.skipIf(torch is None or not torch.cuda.is_available(), "no CUDA torch")
    def test_cuda_ids_stay_on_the_gpu(self):
        """ids as CUDA tensors (a sampler's output): the same rows and the same
        tier counts as the same ids from host memory; bad ones refused."""
        store = tiergraph.FeatureStore(self.features, gpu_fraction=0.3)
        rng = np.random.default_rng(9)
        for dtype in (torch.int64, torch.int32):
            ids = rng.integers(0, 150, 500)
            store.reset_stats()
            on_host = store[ids].cpu().numpy()
            host_stats = store.stats()
            store.reset_stats()
            got = store[torch.as_tensor(ids, device="cuda", dtype=dtype)]
            self.assertTrue(got.is_cuda)
            np.testing.assert_array_equal(got.cpu().numpy(), self.features[ids])
            np.testing.assert_array_equal(on_host, self.features[ids])
            self.assertEqual(store.stats()["hits"], host_stats["hits"])
            out = torch.empty(500, 37, device="cuda")
            self.assertIs(store.gather(torch.as_tensor(ids, device="cuda"), out=out), out)
            np.testing.assert_array_equal(out.cpu().numpy(), self.features[ids])
        np.testing.assert_array_equal(store[torch.tensor(7, device="cuda")].cpu().numpy(), self.features[7])
        self.assertEqual(tuple(store[torch.empty(0, dtype=torch.int64, device="cuda")].shape), (0, 37))
        into_numpy = np.zeros((2, 37), np.float32)
        store.gather(torch.tensor([3, 4], device="cuda"), out=into_numpy)
        np.testing.assert_array_equal(into_numpy, self.features[[3, 4]])
        self.refused(lambda: store[torch.tensor([1, 150, 2], device="cuda")], "150")
        self.refused(lambda: store[torch.tensor([1, -5], device="cuda")], "negative")
        self.refused(lambda: store[torch.tensor([1.0], device="cuda")], "ids must be integers")
        self.refused(lambda: store[torch.zeros(2, 2, dtype=torch.int64, device="cuda")], "one-dimensional")
        self.refused(lambda: store.gather([1, 2], out=torch.empty(37, 2, device="cuda").T), "contiguous")
        cpu_store = tiergraph.FeatureStore(self.features, use_gpu=False)
        self.refused(lambda: cpu_store.gather([1], out=torch.empty(1, 37, device="cuda")), "gathers on the CPU")


class FeatureStoreTiersTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(43)
        self.n = 400
        self.src = rng.integers(0, self.n, 5000) ** 2 % self.n  # skewed, so scores differ
        self.dst = rng.integers(0, self.n, 5000)
        self.g = tiergraph.from_edges(self.src, self.dst, num_vertices=self.n)
        self.features = rng.standard_normal((self.n, 37)).astype(np.float32)
        self.ids = rng.integers(0, self.n, 3000)

    def check_tiers(self, score, fraction):
        store = tiergraph.FeatureStore(self.features, self.g, gpu_fraction=fraction, score=score)
        for batch in np.split(self.ids, 3):
            np.testing.assert_array_equal(as_numpy(store[batch]), self.features[batch])
        hot_count = int(np.floor(fraction * self.n))
        if fraction in (0.0, 1.0):
            hot = np.arange(hot_count)
        else:
            hot = tiergraph.order_by_score(tiergraph.tier_scores(self.g, score=score))[:hot_count]
        gpu_hits = int(np.isin(self.ids, hot).sum())
        stats = store.stats()
        self.assertEqual(stats["rows"], {"gpu": hot_count, "peer": 0, "host": self.n - hot_count})
        self.assertEqual(stats["hits"], {"gpu": gpu_hits, "peer": 0, "host": len(self.ids) - gpu_hits})
        row_bytes = 37 * 4
        self.assertEqual(stats["bytes"], {"gpu": gpu_hits * row_bytes, "peer": 0,
                                          "host": (len(self.ids) - gpu_hits) * row_bytes})
        self.assertAlmostEqual(stats["hit_ratio"], gpu_hits / len(self.ids))
        self.assertEqual(stats["peer_hit_ratio"], 0.0)
        self.assertEqual(stats["gathers"], 3)
        store.reset_stats()
        self.assertEqual(store.stats()["hits"], {"gpu": 0, "peer": 0, "host": 0})
        return gpu_hits

    def test_hot_rows_by_each_score(self):
        for score in ("degree", "reverse-pagerank", "weighted-reverse-pagerank"):
            for fraction in (0.0, 0.1, 0.3, 1.0):
                self.check_tiers(score, fraction)

    def test_hot_rows_are_hit_more_than_their_share(self):
        # Ids drawn as sampling draws them (sources of edges): degree-hot rows
        # take more than their 10% of the reads.
        self.ids = self.src[:3000]
        self.assertGreater(self.check_tiers("degree", 0.1), 0.1 * 3000)

    def test_without_a_graph_the_first_rows_are_hot(self):
        store = tiergraph.FeatureStore(self.features, gpu_fraction=0.25)
        store[[0, 99, 100, 399]]
        self.assertEqual(store.stats()["hits"], {"gpu": 2, "peer": 0, "host": 2})

    def test_training_nodes_for_the_weighted_score(self):
        store = tiergraph.FeatureStore(self.features, self.g, gpu_fraction=0.1, score="weighted-reverse-pagerank",
                                       train_ids=np.arange(0, self.n, 4))
        self.assertEqual(store.stats()["rows"]["gpu"], 40)


def gpus_that_read_each_other():
    """GPU 1 where torch sees two GPUs and GPU 0 can read it, else None."""
    if torch is None or not torch.cuda.is_available() or torch.cuda.device_count() < 2:
        return None
    return 1 if torch.cuda.can_device_access_peer(0, 1) else None


class FeatureStorePeerTierTest(unittest.TestCase):
    """The peer tier (docs/FEATURES.md): the rows after the GPU tier's, dealt
    round-robin over the peer GPUs. On the CPU (use_gpu=False) the tiers are
    planned with the peers given and counted; on one GPU a peer fraction
    without peers leaves its rows in host memory; on two, the rows come from
    the peer's memory. Every gather equals features[ids]."""

    def setUp(self):
        rng = np.random.default_rng(47)
        self.n = 300
        self.src = rng.integers(0, self.n, 4000) ** 2 % self.n
        self.g = tiergraph.from_edges(self.src, rng.integers(0, self.n, 4000), num_vertices=self.n)
        self.rng = rng

    def deal(self, order, gpu, peer, peers):
        """Row -> 'gpu', ('peer', device) or 'host', as the plan deals them."""
        g, p = int(np.floor(gpu * self.n)), int(np.floor(peer * self.n)) if peers else 0
        place = {int(r): "gpu" for r in order[:g]}
        for k, r in enumerate(order[g:g + p]):
            place[int(r)] = ("peer", peers[k % len(peers)])
        return place

    def check(self, features, store, gpu, peer, peers, score="degree"):
        ids = self.rng.integers(0, self.n, 2000)
        ids[::7] = self.n - 1
        for batch in np.split(ids, 4):
            np.testing.assert_array_equal(as_numpy(store[batch]), features[batch])
        order = tiergraph.order_by_score(tiergraph.tier_scores(self.g, score=score))
        place = self.deal(order, gpu, peer, peers)
        tiers = [place.get(int(i), "host") for i in ids]
        gpu_hits = sum(t == "gpu" for t in tiers)
        peer_hits = sum(isinstance(t, tuple) for t in tiers)
        stats = store.stats()
        self.assertEqual(stats["peers"], list(peers))
        self.assertEqual(stats["hits"], {"gpu": gpu_hits, "peer": peer_hits, "host": len(ids) - gpu_hits - peer_hits})
        row_bytes = features.shape[1] * features.dtype.itemsize
        self.assertEqual(stats["bytes"]["peer"], peer_hits * row_bytes)
        self.assertAlmostEqual(stats["peer_hit_ratio"], peer_hits / len(ids))
        self.assertAlmostEqual(stats["hit_ratio"], gpu_hits / len(ids))
        self.assertEqual(sum(stats["rows"].values()), self.n)
        return stats

    def features(self, dtype, cols):
        if np.issubdtype(dtype, np.integer):
            return self.rng.integers(-100, 100, (self.n, cols)).astype(dtype)
        return self.rng.standard_normal((self.n, cols)).astype(dtype)

    def test_planned_and_counted_on_the_cpu(self):
        for dtype in (np.float32, np.float16, np.int32, np.int8):
            for cols in (1, 3, 37, 128):
                features = self.features(dtype, cols)
                for peers in ([1], [2, 3], [3, 1, 2]):
                    store = tiergraph.FeatureStore(features, self.g, gpu_fraction=0.1, peer_fraction=0.3,
                                                   peers=peers, use_gpu=False)
                    self.assertEqual(store.peers, peers)
                    stats = self.check(features, store, 0.1, 0.3, peers)
                    self.assertEqual(stats["rows"], {"gpu": 30, "peer": 90, "host": 180})
                    self.assertIn("90 interleaved over peer GPU", repr(store))

    def test_each_score_deals_its_own_order(self):
        for score in ("degree", "reverse-pagerank", "weighted-reverse-pagerank"):
            features = self.features(np.float32, 5)
            store = tiergraph.FeatureStore(features, self.g, gpu_fraction=0.05, peer_fraction=0.5, peers=[1, 2],
                                           score=score, use_gpu=False)
            self.check(features, store, 0.05, 0.5, [1, 2], score)

    def test_a_peer_fraction_without_peers_leaves_its_rows_in_host_memory(self):
        # On the CPU unset peers are none; on a one-GPU machine there is none
        # to find: either way not an error, and said once in repr().
        features = self.features(np.float32, 37)
        store = tiergraph.FeatureStore(features, self.g, gpu_fraction=0.1, peer_fraction=0.4,
                                       use_gpu=None if gpus_that_read_each_other() is None else False)
        self.assertEqual(store.peers, [])
        stats = self.check(features, store, 0.1, 0.4, [])
        self.assertEqual(stats["rows"], {"gpu": 30, "peer": 0, "host": 270})
        self.assertIn("peer_fraction 0.4 has no peer GPU", repr(store))
        explicit = tiergraph.FeatureStore(features, self.g, gpu_fraction=0.1, peer_fraction=0.4, peers=[])
        self.assertIn("peers=[] given", repr(explicit))
        self.check(features, explicit, 0.1, 0.4, [])

    def test_refusals_name_the_argument(self):
        f = np.zeros((10, 3), dtype=np.float32)
        for fraction in (-0.1, 1.5, float("nan")):
            with self.assertRaisesRegex(ValueError, "peer_fraction"):
                tiergraph.FeatureStore(f, peer_fraction=fraction)
        with self.assertRaisesRegex(ValueError, r"gpu_fraction 0.6 \+ peer_fraction 0.5 is above 1"):
            tiergraph.FeatureStore(f, gpu_fraction=0.6, peer_fraction=0.5, use_gpu=False)
        for bad, words in (([-1], "peers: device -1 is negative"), ([1, 1], "listed twice"),
                           ([0], "the store's own device"), ("1", "peers must be None or a list"),
                           ([1.5], "peers must be None or a list"), ([True], "peers must be None or a list"),
                           (3, "peers must be None or a list")):
            with self.assertRaisesRegex(ValueError, words):
                tiergraph.FeatureStore(f, peer_fraction=0.5, peers=bad, use_gpu=False)
        self.assertEqual(tiergraph.FeatureStore(f, peer_fraction=0.5, peers=np.array([2, 1]), use_gpu=False).peers,
                         [2, 1])
        # No peer fraction: no peers looked for (nor their access enabled).
        self.assertEqual(tiergraph.FeatureStore(f, peers=[2, 1], use_gpu=False).peers, [])

    @unittest.skipIf(torch is None or not torch.cuda.is_available(), "no CUDA torch")
    def test_peers_that_do_not_exist_on_a_gpu(self):
        f = np.zeros((10, 3), dtype=np.float32)
        with self.assertRaisesRegex(ValueError, "peers: device 1000 does not exist"):
            tiergraph.FeatureStore(f, peer_fraction=0.5, peers=[1000])

    @unittest.skipIf(gpus_that_read_each_other() is None, "needs two GPUs, GPU 0 able to read GPU 1")
    def test_rows_from_the_peer_gpus_memory(self):
        for dtype in (np.float32, np.float16, np.int64, np.int8):
            for cols in (1, 3, 37, 128, 1000):
                features = self.features(dtype, cols)
                store = tiergraph.FeatureStore(features, self.g, gpu_fraction=0.1, peer_fraction=0.5)
                self.assertTrue(store.on_gpu)
                peers = store.peers
                self.assertIn(1, peers)
                got = store[[0, 1, 2]]
                self.assertTrue(got.is_cuda)
                store.reset_stats()
                stats = self.check(features, store, 0.1, 0.5, peers)
                self.assertGreater(stats["hits"]["peer"], 0)
        # Everything on the peer, from the second GPU too.
        features = self.features(np.float32, 64)
        store = tiergraph.FeatureStore(features, gpu_fraction=0.0, peer_fraction=1.0, device=1, peers=[0])
        ids = self.rng.integers(0, self.n, 500)
        np.testing.assert_array_equal(as_numpy(store[ids]), features[ids])
        self.assertEqual(store.stats()["hits"]["peer"], 500)


class FeatureStoreRefusalsTest(unittest.TestCase):
    def setUp(self):
        self.features = np.zeros((10, 3), dtype=np.float32)
        self.store = tiergraph.FeatureStore(self.features)

    def refused(self, make, words):
        with self.assertRaises(ValueError) as caught:
            make()
        message = str(caught.exception)
        self.assertIn(words, message)
        self.assertNotIn("\n", message)

    def test_bad_features(self):
        self.refused(lambda: tiergraph.FeatureStore(np.zeros(10)), "must be 2-D")
        self.refused(lambda: tiergraph.FeatureStore(np.zeros((2, 3, 4))), "must be 2-D")
        self.refused(lambda: tiergraph.FeatureStore(np.zeros((10, 6))[:, ::2]), "C-contiguous")
        self.refused(lambda: tiergraph.FeatureStore(np.zeros((4, 6)).T), "C-contiguous")
        self.refused(lambda: tiergraph.FeatureStore(np.array([[object()]])), "must hold numbers")
        self.refused(lambda: tiergraph.FeatureStore(np.zeros((2, 2), dtype=">f4")), "byte order")

    @unittest.skipIf(torch is None, "no torch")
    def test_bad_tensors(self):
        self.refused(lambda: tiergraph.FeatureStore(torch.zeros(10)), "must be 2-D")
        self.refused(lambda: tiergraph.FeatureStore(torch.zeros(4, 6).t()), "contiguous")

    def test_bad_ids(self):
        self.refused(lambda: self.store[[10]], "ids[0] = 10 is out of range: the table has 10 rows")
        self.refused(lambda: self.store[[0, 1, -1]], "ids[2] = -1 is negative")
        self.refused(lambda: self.store[np.array([2**63 + 5], dtype=np.uint64)], "out of range")
        self.refused(lambda: self.store[np.zeros((2, 2), dtype=np.int64)], "one-dimensional")
        self.refused(lambda: self.store[[1.5]], "must be integers")
        self.refused(lambda: self.store[np.array([True, False])], "must be integers")
        self.assertEqual(self.store.stats()["gathers"], 0)  # refused gathers are not counted

    def test_bad_options(self):
        f = self.features
        for fraction in (-0.1, 1.5, float("nan")):
            self.refused(lambda: tiergraph.FeatureStore(f, gpu_fraction=fraction), "gpu_fraction")
        ring = tiergraph.from_edges(np.arange(10), (np.arange(10) + 1) % 10)
        self.refused(lambda: tiergraph.FeatureStore(f, ring, score="pagerank"), "score 'pagerank' is not a tier score")
        # Without a graph a score has nothing to rank: it was dropped unread.
        self.refused(lambda: tiergraph.FeatureStore(f, score="reverse-pagerank"), "score ranks a graph's vertices")
        small = tiergraph.from_edges([0], [1])
        self.refused(lambda: tiergraph.FeatureStore(f, small, gpu_fraction=0.5), "the graph has 2 vertices")
        self.refused(lambda: tiergraph.FeatureStore(f, device=-1), "device must be an integer from 0 to 1024, not -1")
        with self.assertRaisesRegex(TypeError, "device must be an integer, not str"):
            tiergraph.FeatureStore(f, device="cuda")
        with self.assertRaisesRegex(TypeError, "graph must be a tiergraph.Graph or None, not str"):
            tiergraph.FeatureStore(f, graph="kron:8")  # was pybind11's "Unable to cast Python instance"
        self.refused(lambda: tiergraph.FeatureStore(f, peer_fraction=0.5, peers=[2**70]),
                     "peers[0] must be an integer from")
        self.refused(lambda: tiergraph.FeatureStore(f, train_ids=[0]), "train_ids weigh the graph's tier scores")
        self.refused(lambda: tiergraph.FeatureStore(np.zeros((2, 3), np.float32), small, train_ids=[2]),
                     "train id 2 is not a row (2 rows)")  # checked with no GPU fraction too
        self.refused(lambda: tiergraph.FeatureStore(f, sm_fraction=0.0), "sm_fraction")
        for share in (1.5, -0.1, float("nan")):
            self.refused(lambda: tiergraph.FeatureStore(f, cpu_share=share), "cpu_share")
        for share in ("half", True, None, [0.5]):
            self.refused(lambda: tiergraph.FeatureStore(f, cpu_share=share), "cpu_share")
        for share in (0, 0.5, 1, "auto"):  # accepted everywhere; a CPU store gathers on the CPU anyway
            self.assertEqual(tiergraph.FeatureStore(f, cpu_share=share)[[3]].shape, (1, 3))
        with self.assertRaisesRegex(TypeError, "use_gpu must be None, True or False"):
            tiergraph.FeatureStore(f, use_gpu="yes")
        self.refused(lambda: tiergraph.FeatureStore(f, small, score="weighted-reverse-pagerank"),
                     "the graph has 2 vertices")

    def test_asking_for_a_gpu_where_there_is_none(self):
        if self.store.on_gpu:
            self.skipTest("this machine has a GPU")
        with self.assertRaises(RuntimeError):
            tiergraph.FeatureStore(self.features, use_gpu=True)


if __name__ == "__main__":
    unittest.main()
