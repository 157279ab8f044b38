/* nvml.c — GPU memory per process through NVML.  See nvml.h.  The
 * functions are looked up by their versioned names (the _v2/_v3 ABI of
 * the driver's libnvidia-ml.so.1), with the structure NVML fills. */
#include "nvml.h"

#include <dlfcn.h>

#include "util.h"

struct nvml_proc {
	unsigned pid;
	unsigned long long used;
	unsigned gi, ci;
};

const char *nvml_gpu_memory(struct nvml_use **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return "no NVIDIA driver (libnvidia-ml not found)";
	int (*init)(void) = (int (*)(void))dlsym(h, "nvmlInit_v2");
	int (*shut)(void) = (int (*)(void))dlsym(h, "nvmlShutdown");
	int (*count)(unsigned *) = (int (*)(unsigned *))dlsym(h, "nvmlDeviceGetCount_v2");
	int (*handle)(unsigned, void **) = (int (*)(unsigned, void **))dlsym(h, "nvmlDeviceGetHandleByIndex_v2");
	int (*procs)(void *, unsigned *, struct nvml_proc *) =
		(int (*)(void *, unsigned *, struct nvml_proc *))dlsym(h, "nvmlDeviceGetComputeRunningProcesses_v3");
	if (!procs)
		procs = (int (*)(void *, unsigned *, struct nvml_proc *))dlsym(h, "nvmlDeviceGetComputeRunningProcesses_v2");
	const char *why = NULL;
	unsigned ndev = 0;
	size_t cap = 0;
	if (!init || !shut || !count || !handle || !procs) {
		why = "libnvidia-ml is too old for per-process GPU memory";
	} else if (init() != 0) {
		why = "NVML did not initialise (driver not loaded?)";
	} else {
		if (count(&ndev) == 0)
			for (unsigned d = 0; d < ndev; d++) {
				void *dev;
				struct nvml_proc info[256];
				unsigned k = 256;
				if (handle(d, &dev) != 0 || procs(dev, &k, info) != 0)
					continue;
				for (unsigned i = 0; i < k; i++) {
					if (info[i].used == ~0ULL)   /* not available */
						continue;
					GROW(*out, cap, *n + 1);
					(*out)[(*n)++] = (struct nvml_use){ (int)info[i].pid,
									    (long)(info[i].used >> 20) };
				}
			}
		shut();
	}
	dlclose(h);
	return why;
}
