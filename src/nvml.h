/* nvml.h — GPU memory per process, from NVIDIA's NVML, loaded at run
 * time (dlopen), so ddx neither links nor needs the driver.  For
 * `ddx proc`: how much GPU memory each inspected process holds. */
#ifndef DDX_NVML_H
#define DDX_NVML_H

#include <stddef.h>

/* The memory one process uses on one GPU. */
struct nvml_use {
	int pid;
	long mib;
};

/* Every compute process on every GPU, one entry per (GPU, process);
 * *out is malloc'd (NULL when none).  Returns NULL, or why NVML could
 * not be asked ("no NVIDIA driver (libnvidia-ml not found)", ...) with
 * *n = 0. */
const char *nvml_gpu_memory(struct nvml_use **out, size_t *n);

#endif
