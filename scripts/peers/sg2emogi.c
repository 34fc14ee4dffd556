/* GAP .sg/.wsg (32-bit ids) -> EMOGI .col/.dst[/.val], as ../shared/peers/sg2emogi.py does, without NumPy:
   each file a 16-byte header (element count, 0), then uint64 offsets / uint64 ids / uint32 weights. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
static void header(FILE* f, uint64_t count) { uint64_t h[2] = {count, 0}; fwrite(h, 8, 2, f); }
int main(int argc, char** argv) {
  if (argc != 3) { fprintf(stderr, "usage: sg2emogi G.sg|G.wsg OUT\n"); return 2; }
  FILE* in = fopen(argv[1], "rb");
  if (!in) { perror(argv[1]); return 1; }
  int weighted = strlen(argv[1]) > 4 && strcmp(argv[1] + strlen(argv[1]) - 4, ".wsg") == 0;
  uint8_t dir; int64_t m, n;
  if (fread(&dir, 1, 1, in) != 1 || fread(&m, 8, 1, in) != 1 || fread(&n, 8, 1, in) != 1) { fprintf(stderr, "short header\n"); return 1; }
  char p[4096];
  snprintf(p, sizeof p, "%s.col", argv[2]); FILE* col = fopen(p, "wb");
  snprintf(p, sizeof p, "%s.dst", argv[2]); FILE* dst = fopen(p, "wb");
  FILE* val = NULL;
  if (weighted) { snprintf(p, sizeof p, "%s.val", argv[2]); val = fopen(p, "wb"); }
  if (!col || !dst || (weighted && !val)) { perror("open output"); return 1; }
  header(col, n + 1); header(dst, m); if (val) header(val, m);
  const size_t chunk = 1 << 24;
  int64_t* off = malloc(chunk * 8);
  for (int64_t i = 0; i < n + 1;) {
    size_t k = (size_t)((n + 1 - i) < (int64_t)chunk ? (n + 1 - i) : (int64_t)chunk);
    if (fread(off, 8, k, in) != k) { fprintf(stderr, "short offsets\n"); return 1; }
    fwrite(off, 8, k, col); i += k;
  }
  int32_t* buf = malloc(chunk * 8); uint64_t* d = malloc(chunk * 8); uint32_t* w = malloc(chunk * 4);
  if (!off || !buf || !d || !w) { fprintf(stderr, "out of memory\n"); return 1; }
  int per = weighted ? 2 : 1;
  for (int64_t i = 0; i < m;) {
    size_t k = (size_t)((m - i) < (int64_t)chunk ? (m - i) : (int64_t)chunk);
    if (fread(buf, 4 * per, k, in) != k) { fprintf(stderr, "short neighbours\n"); return 1; }
    for (size_t j = 0; j < k; ++j) { d[j] = (uint64_t)(uint32_t)buf[j * per]; if (weighted) w[j] = (uint32_t)buf[j * 2 + 1]; }
    fwrite(d, 8, k, dst); if (val) fwrite(w, 4, k, val); i += k;
  }
  if (fclose(col) || fclose(dst) || (val && fclose(val))) { perror("close"); return 1; }
  printf("%s: %lld vertices, %lld edges -> %s.col/.dst%s\n", argv[1], (long long)n, (long long)m, argv[2], weighted ? "/.val" : "");
  return 0;
}
