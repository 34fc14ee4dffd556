"""tiergraph.tier_scores, order_by_score and relabel from Python, against
NumPy references: out-degrees, the dissertation's Algorithm 2 (weighted
reverse PageRank), reverse PageRank's fixed point, and a relabelled graph whose
BFS depths are the original's permuted."""

import unittest

import numpy as np

import tiergraph


class TieringTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(11)
        self.n = 300
        self.src = rng.integers(0, self.n, 4000)
        self.dst = rng.integers(0, self.n, 4000)
        self.g = tiergraph.from_edges(self.src, self.dst, num_vertices=self.n)

    def weighted_rpr(self, train, iterations, d=0.85):
        n = self.n
        in_degree = np.bincount(self.dst, minlength=n).astype(float)
        score = np.full(n, 1.0 / n)
        if len(train):
            score[train] *= n / len(train)
        for _ in range(iterations):
            share = np.divide(score, in_degree, out=np.zeros(n), where=in_degree > 0)
            score = (1 - d) / n + d * np.bincount(self.src, weights=share[self.dst], minlength=n)
        return score

    def test_degree_is_out_degree(self):
        np.testing.assert_array_equal(tiergraph.tier_scores(self.g), np.bincount(self.src, minlength=self.n))

    def test_weighted_reverse_pagerank_is_algorithm_2(self):
        train = np.arange(0, self.n, 7)
        got = tiergraph.tier_scores(self.g, score="weighted-reverse-pagerank", train_ids=train)
        np.testing.assert_allclose(got, self.weighted_rpr(train, 5), rtol=1e-12)

    def test_reverse_pagerank_is_the_fixed_point(self):
        # Every vertex with an in-edge: no dangling mass in the reversed graph to spread.
        got = tiergraph.tier_scores(self.g, score="reverse-pagerank")
        self.assertTrue(np.all(np.bincount(self.dst, minlength=self.n) > 0))
        np.testing.assert_allclose(got, self.weighted_rpr([], 300), atol=1e-7)
        self.assertAlmostEqual(float(got.sum()), 1.0, places=6)

    def test_order_and_relabel(self):
        scores = tiergraph.tier_scores(self.g)
        order = tiergraph.order_by_score(scores)
        self.assertEqual(order.dtype, np.int64)
        self.assertTrue(np.all(np.diff(scores[order]) <= 0))
        h = tiergraph.relabel(self.g, order)
        self.assertEqual(h.num_edges, self.g.num_edges)
        source = int(self.src[0])
        new_id = np.empty(self.n, dtype=np.int64)
        new_id[order] = np.arange(self.n)
        d_old, _ = tiergraph.run("bfs", self.g, source=source, engine="cpu")
        d_new, _ = tiergraph.run("bfs", h, source=int(new_id[source]), engine="cpu")
        np.testing.assert_array_equal(d_new, d_old[order])

    def test_bad_arguments_raise_value_error(self):
        for call in [lambda: tiergraph.tier_scores(self.g, score="pagerank"),
                     lambda: tiergraph.tier_scores(self.g, score="weighted-reverse-pagerank", train_ids=[self.n]),
                     lambda: tiergraph.tier_scores(self.g, iterations=0),
                     lambda: tiergraph.relabel(self.g, [0] * self.n),
                     lambda: tiergraph.relabel(self.g, [0, 1]),
                     lambda: tiergraph.order_by_score(np.zeros((2, 2)))]:
            with self.assertRaises(ValueError) as e:
                call()
            self.assertNotIn("\n", str(e.exception))


if __name__ == "__main__":
    unittest.main()
