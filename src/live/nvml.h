/* nvml.h — GPU evidence from NVIDIA's NVML, loaded at run time (dlopen),
 * so ddx neither links nor needs the driver.  For `ddx proc`: how much
 * memory each inspected process holds on which GPU, how busy each GPU
 * is, and, where the driver keeps per-process samples, how busy each
 * process keeps it.  A GPU at full utilisation while the log stands still
 * is a kernel spinning, often on a peer that never joined. */
#ifndef DDX_NVML_H
#define DDX_NVML_H

#include <stddef.h>

/* What one process uses of one GPU. */
struct nvml_use {
	int pid;
	unsigned gpu;         /* NVML's index */
	long mib;             /* memory; -1 when the driver does not say */
	int util_pct;         /* SM utilisation from the latest sample; -1 none */
};

/* One GPU. */
struct nvml_gpu {
	unsigned index;
	int util_pct;         /* over the driver's last sample period; -1 unknown */
	long mem_used_mib, mem_total_mib;  /* -1 unknown */
};

/* Every compute process on every GPU, one entry per (GPU, process), and
 * every GPU; both malloc'd (NULL when none).  Returns NULL, or why NVML
 * could not be asked ("no NVIDIA driver (libnvidia-ml not found)", ...)
 * with nothing filled. */
const char *nvml_read(struct nvml_use **use, size_t *nuse, struct nvml_gpu **gpus, size_t *ngpus);

#endif
