// dm_sharing_probe.c — what filling 256 slices' DMs with a broadcast operand costs: copied into every slice on huge pages (tcpi today) or written once and mapped copy-on-write into each slice.
//
// The 1024³ GEMM's DMA of A writes 2 MiB of data into each of 32 slices that share its rows: 8 classes
// of 32 identical slices, 256 KiB per slice (benchmarks/README.md, "What the 1024³ launch's memory is").
// Modes:
//   huge   the chip's DM region on transparent huge pages, populated (MADV_POPULATE_WRITE), A copied
//          into every slice (what tcpi does; `prefaultDm` in interp/device/DeviceDmaReplay.cpp)
//   small  the same on 4 KiB pages
//   cow    A written once into a memfd, mapped MAP_PRIVATE | MAP_FIXED over each slice's 256 KiB
//          (copy-on-write: a later write into one slice copies only that page), MADV_POPULATE_READ
// Each mode then reads A back in every slice (the contraction's reads) and writes 256 KiB into every
// eighth slice outside A (B's DMA). Build and run: benchmarks/probes/run_dm_sharing_probe.sh.
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { kSlices = 256, kClasses = 8 };
static const size_t kDm = 512u << 10, kPart = 256u << 10, kHuge = 2u << 20;

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
static double cpu(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return r.ru_utime.tv_sec + r.ru_utime.tv_usec * 1e-6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec * 1e-6;
}

struct Phase { double wall, cpu; };
static struct Phase since(double w0, double c0) { struct Phase p = {(wall() - w0) * 1e3, (cpu() - c0) * 1e3}; return p; }

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "huge") && strcmp(argv[1], "small") && strcmp(argv[1], "cow"))) {
    fprintf(stderr, "usage: %s huge|small|cow\n", argv[0]);
    return 2;
  }
  const char *mode = argv[1];
  const size_t bytes = kDm * kSlices;
  uint8_t *a = malloc(kClasses * kPart);
  if (!a) return 1;
  for (size_t i = 0; i < kClasses * kPart; ++i) a[i] = (uint8_t)(i * 7 + 1);
  uint8_t *raw = mmap(0, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) { perror("mmap"); return 1; }
  uint8_t *dm = (uint8_t *)(((uintptr_t)raw + kHuge - 1) & ~(uintptr_t)(kHuge - 1));
  if (!strcmp(mode, "huge")) madvise(dm, bytes, MADV_HUGEPAGE);

  double w0 = wall(), c0 = cpu();
  if (strcmp(mode, "cow")) {
    madvise(dm, bytes, MADV_POPULATE_WRITE);
    for (int s = 0; s < kSlices; ++s) memcpy(dm + s * kDm, a + (s % kClasses) * kPart, kPart);
  } else {
    int fd = memfd_create("dm", 0);
    if (fd < 0 || ftruncate(fd, kClasses * kPart)) { perror("memfd"); return 1; }
    uint8_t *w = mmap(0, kClasses * kPart, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (w == MAP_FAILED) { perror("mmap memfd"); return 1; }
    memcpy(w, a, kClasses * kPart);
    for (int s = 0; s < kSlices; ++s) {
      void *q = mmap(dm + s * kDm, kPart, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, (off_t)(s % kClasses) * kPart);
      if (q == MAP_FAILED) { perror("mmap slice"); return 1; }
      madvise(q, kPart, MADV_POPULATE_READ);
    }
  }
  struct Phase fill = since(w0, c0);

  w0 = wall(), c0 = cpu();
  uint64_t sum = 0;
  for (int s = 0; s < kSlices; ++s) {
    const uint64_t *q = (const uint64_t *)(dm + s * kDm);
    for (size_t i = 0; i < kPart / 8; i += 8) sum += q[i];
  }
  struct Phase read = since(w0, c0);

  w0 = wall(), c0 = cpu();
  for (int s = 0; s < kSlices; s += kClasses) memset(dm + s * kDm + kPart, 1, kPart);
  struct Phase writeB = since(w0, c0);

  printf("%-5s fill %6.1f ms (cpu %6.1f)  read %5.1f ms (cpu %5.1f)  write B %5.1f ms (cpu %5.1f)  total %6.1f ms  [%llx]\n",
         mode, fill.wall, fill.cpu, read.wall, read.cpu, writeB.wall, writeB.cpu, fill.wall + read.wall + writeB.wall,
         (unsigned long long)sum);
  return 0;
}
