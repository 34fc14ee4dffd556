/* GAP .sg/.wsg (32-bit ids) -> Subway's binary CSR, streamed (fixed buffers, one pass over the input).
   Subway (AutomataLab/Subway tools/converter.cpp, shared/graph.cu ReadGraph) reads, native byte order:
     uint32 num_nodes, uint32 num_edges, uint32 nodePointer[num_nodes] (no end entry),
     then num_edges edges: .bcsr {uint32 end}, .bwcsr {uint32 end; uint32 w8}.
   A .wsg's neighbour array is already {int32 v; int32 w} pairs, the .bwcsr edge layout; .bcsr from a .wsg drops
   the weights. The output kind follows OUT's extension. A directed graph's in-edges (after the out-edges) are not
   read. Subway keeps counts and offsets in 32 bits: more than 2^32-1 edges is refused.
   gcc -O2 -static -o .data/peers/sg2subway scripts/peers/sg2subway.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char* s, const char* suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int die(const char* what, const char* path) {
  fprintf(stderr, "sg2subway: %s%s%s\n", what, path ? ": " : "", path ? path : "");
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: sg2subway G.sg|G.wsg OUT.bcsr|OUT.bwcsr\n");
    return 2;
  }
  const char *inp = argv[1], *outp = argv[2];
  int in_w = ends_with(inp, ".wsg"), out_w = ends_with(outp, ".bwcsr");
  if (!in_w && !ends_with(inp, ".sg")) return die("input must end in .sg or .wsg", inp);
  if (!out_w && !ends_with(outp, ".bcsr")) return die("output must end in .bcsr or .bwcsr (Subway goes by extension)", outp);
  if (out_w && !in_w) return die(".bwcsr needs weights, and a .sg has none", inp);

  FILE* in = fopen(inp, "rb");
  if (!in) { perror(inp); return 1; }
  uint8_t directed;
  int64_t m, n;
  if (fread(&directed, 1, 1, in) != 1 || fread(&m, 8, 1, in) != 1 || fread(&n, 8, 1, in) != 1)
    return die("short header", inp);
  if (n <= 0 || m < 0) return die("bad header (vertex or edge count)", inp);
  if ((uint64_t)n > UINT32_MAX || (uint64_t)m > UINT32_MAX)
    return die("more than 2^32-1 vertices or edges: Subway's 32-bit counts cannot hold them", inp);

  FILE* out = fopen(outp, "wb");
  if (!out) { perror(outp); return 1; }
  uint32_t h[2] = {(uint32_t)n, (uint32_t)m};
  if (fwrite(h, 4, 2, out) != 2) return die("write failed", outp);

  const size_t chunk = (size_t)1 << 22;
  int64_t* off = malloc(chunk * 8);
  int32_t* buf = malloc(chunk * 8);
  uint32_t* o32 = malloc(chunk * 8);
  if (!off || !buf || !o32) return die("out of memory", NULL);

  /* offsets[0..n]: the first n go out as uint32 (Subway sets nodePointer[n] = num_edges itself). */
  int64_t prev = 0;
  for (int64_t i = 0; i < n + 1;) {
    size_t k = (size_t)((n + 1 - i) < (int64_t)chunk ? (n + 1 - i) : (int64_t)chunk);
    if (fread(off, 8, k, in) != k) return die("short offsets", inp);
    for (size_t j = 0; j < k; ++j) {
      if ((i + (int64_t)j == 0 && off[j] != 0) || off[j] < prev || off[j] > m) return die("bad offsets", inp);
      prev = off[j];
      o32[j] = (uint32_t)off[j];
    }
    size_t keep = (i + (int64_t)k == n + 1) ? k - 1 : k; /* drop offsets[n] */
    if (fwrite(o32, 4, keep, out) != keep) return die("write failed", outp);
    i += (int64_t)k;
  }
  if (prev != m) return die("offsets[n] is not the edge count", inp);

  /* neighbours: ids (and weights), checked, copied or with the weights dropped. */
  int per = in_w ? 2 : 1;
  for (int64_t i = 0; i < m;) {
    size_t k = (size_t)((m - i) < (int64_t)chunk ? (m - i) : (int64_t)chunk);
    if (fread(buf, 4 * (size_t)per, k, in) != k) return die("short neighbours", inp);
    for (size_t j = 0; j < k; ++j) {
      int32_t v = buf[j * per];
      if (v < 0 || (int64_t)v >= n) return die("neighbour id out of range", inp);
      if (out_w && buf[j * 2 + 1] < 0) return die("negative weight (Subway's weights are unsigned)", inp);
      if (!out_w) o32[j] = (uint32_t)v;
    }
    const void* src = out_w ? (const void*)buf : (const void*)o32;
    size_t esz = out_w ? 8 : 4;
    if (fwrite(src, esz, k, out) != k) return die("write failed", outp);
    i += (int64_t)k;
  }
  fclose(in);
  if (fclose(out)) return die("close failed", outp);
  printf("%s: %lld vertices, %lld edges%s -> %s\n", inp, (long long)n, (long long)m, directed ? " (directed: out-edges only)" : "",
         outp);
  return 0;
}
