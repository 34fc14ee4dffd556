"""Every function and class of the module called with arguments drawn at random
from a pool of wrong and right values (a fixed seed, so a failure reproduces):
each call returns or raises one of TypeError, ValueError, MemoryError,
RuntimeError or OverflowError with a one-line message naming what is wrong;
never another exception, a crash or pybind11's many-line signature listing.
Such a run found a sampler that allocated past the host's memory until the
kernel killed it, and messages that printed whole arrays."""
import random
import unittest

import numpy as np

import tiergraph

ALLOWED = (TypeError, ValueError, MemoryError, RuntimeError, OverflowError)


def pool(graph, weighted):
    return [None, True, False, 0, 1, -1, 2, 63, 64, 2**31 - 1, 2**31, 2**63, 2**64, -2**63, 0.5, float("nan"),
            float("inf"), 1e300, "", "x", "kron:6", "auto", "cpu", "gpu", "degree", b"b", [], [0], [0, 1], [-1],
            [2**64], [0.5], ["a"], [[0]], (1, 2), {}, {1: 2}, np.int64(3), np.uint64(2**63), np.float32(0.5),
            np.bool_(True), np.array([]), np.array([0, 1]), np.array([[0, 1]]), np.array([0.5]), np.array([-1]),
            np.array([0, 1], dtype=np.uint8), np.array(["a"]), np.zeros((4, 2), np.float32),
            np.zeros((64, 3), np.float16), np.zeros((64, 0), np.float32), np.zeros(0), object(), graph, weighted,
            len, np.array([1, 2], dtype=object), np.arange(64), np.arange(64)[::2],
            np.zeros((64, 4), np.float32)[:, ::2]]


class RandomArguments(unittest.TestCase):
    def test_every_call_returns_or_raises_one_line(self):
        rnd = random.Random(20261205)
        g = tiergraph.generate("kron:6")
        gw = tiergraph.generate("kron:6", weights="1:9")
        values = pool(g, gw)
        functions = {
            "run": (tiergraph.run, ["algorithm", "graph"],
                    ["source", "sources", "engine", "placement", "threads", "verify", "tolerance", "max_iters",
                     "damping", "delta", "gpu_memory_budget", "device", "gpus", "push_only", "vertex_order",
                     "cc_method", "pr_contributions", "edge_cache", "profile"]),
            "generate": (tiergraph.generate, ["spec"], ["weights", "edge_factor", "seed", "ids64", "lists_by_weight"]),
            "from_edges": (tiergraph.from_edges, ["src", "dst"],
                           ["weights", "num_vertices", "undirected", "simplify", "random_weights", "ids64",
                            "lists_by_weight"]),
            "sample_neighbors": (tiergraph.sample_neighbors, ["graph", "seeds", "fanouts"], ["replace", "seed"]),
            "tier_scores": (tiergraph.tier_scores, ["graph"], ["score", "train_ids", "iterations", "damping"]),
            "relabel": (tiergraph.relabel, ["graph", "order"], []),
            "order_by_score": (tiergraph.order_by_score, ["scores"], []),
            "NeighborSampler": (tiergraph.NeighborSampler, ["graph", "fanouts"],
                                ["replace", "seed", "use_gpu", "zero_copy", "device", "edge_devices"]),
            "FeatureStore": (tiergraph.FeatureStore, ["features"],
                             ["graph", "gpu_fraction", "score", "device", "use_gpu", "sm_fraction", "train_ids",
                              "peer_fraction", "peers", "cpu_share"]),
        }
        calls = 0

        def call(what, f, *args, **kwargs):
            nonlocal calls
            calls += 1
            try:
                return f(*args, **kwargs)
            except ALLOWED as e:
                message = str(e)
                self.assertNotIn("incompatible function arguments", message, what)
                self.assertNotIn("\n", message, what)
                self.assertTrue(message, what)
            except Exception as e:  # noqa: BLE001 -- the point: nothing else may come out
                self.fail("%s raised %s: %s" % (what, type(e).__name__, e))
            return None

        for _ in range(3000):
            name = rnd.choice(sorted(functions))
            f, positional, keywords = functions[name]
            args = [rnd.choice(values) for _ in positional]
            # Right values often enough that calls get past the first check.
            if name == "generate" and rnd.random() < 0.7:
                args[0] = rnd.choice(["kron:4", "urand:5", "kron:-1", "kron:99", "kron:6:x", "urand:"])
            if name == "run" and rnd.random() < 0.7:
                args[0] = rnd.choice(tiergraph.algorithms())
            if name == "run" and rnd.random() < 0.7:
                args[1] = rnd.choice([g, gw])
            if name == "FeatureStore" and rnd.random() < 0.8:
                args[0] = rnd.choice([np.zeros((64, 3), np.float32), np.ones((64, 5), np.int8)])
            if name in ("NeighborSampler", "sample_neighbors", "tier_scores", "relabel") and rnd.random() < 0.8:
                args[0] = rnd.choice([g, gw])
            if name in ("NeighborSampler", "sample_neighbors") and rnd.random() < 0.6:
                args[-1] = rnd.choice([[2], [3, 2], [-1], [0], [2**31 - 1]])
            kwargs = {k: rnd.choice(values) for k in keywords if rnd.random() < 0.3}
            if name == "generate" and isinstance(kwargs.get("edge_factor"), int) and kwargs["edge_factor"] > 64:
                kwargs["edge_factor"] = 4
            what = "%s(%.200r, %.300r)" % (name, args, kwargs)
            made = call(what, f, *args, **kwargs)
            if name == "NeighborSampler" and made is not None:
                for _ in range(3):
                    seeds = rnd.choice([rnd.choice(values), [0], np.arange(8), [64], [0, 0]])
                    call(what + ".sample", made.sample, seeds)
                repr(made)
            if name == "FeatureStore" and made is not None:
                for _ in range(3):
                    ids = rnd.choice([rnd.choice(values), [0, 1], np.arange(5), 63, -1, 64, np.array([2**40])])
                    call(what + "[ids]", made.__getitem__, ids)
                    call(what + ".gather", made.gather, rnd.choice([rnd.choice(values), [0, 1]]),
                         out=rnd.choice([None, rnd.choice(values)]))
                made.stats()
                repr(made)
        self.assertGreater(calls, 3000)


if __name__ == "__main__":
    unittest.main()
