/* nvml.c — GPU memory and utilisation through NVML.  See nvml.h.  The
 * functions are looked up by their versioned names (the _v2/_v3 ABI of
 * the driver's libnvidia-ml.so.1), with the structures NVML fills
 * (nvml.h of the CUDA toolkit). */
#include "nvml.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "util.h"

struct nvml_proc {
	unsigned pid;
	unsigned long long used;
	unsigned gi, ci;
};

struct nvml_psample {
	unsigned pid;
	unsigned long long ts;   /* microseconds */
	unsigned sm, mem, enc, dec;
};

struct nvml_mem {
	unsigned long long total, free, used;
};

struct nvml_util {
	unsigned gpu, memory;
};

#define NVML_ERROR_INSUFFICIENT_SIZE 7

/* The SM utilisation the driver last sampled of each process on dev,
 * into the entries of use[from..n) on that GPU. */
static void process_util(void *dev, int (*putil)(void *, struct nvml_psample *, unsigned *, unsigned long long),
			 struct nvml_use *use, size_t from, size_t n)
{
	unsigned k = 0;
	if (!putil || putil(dev, NULL, &k, 0) != NVML_ERROR_INSUFFICIENT_SIZE || k == 0 || k > 4096)
		return;
	struct nvml_psample *s = xcalloc(k, sizeof(*s));
	if (putil(dev, s, &k, 0) == 0) {
		for (size_t i = from; i < n; i++) {
			unsigned long long best = 0;
			for (unsigned j = 0; j < k; j++)
				if ((int)s[j].pid == use[i].pid && s[j].ts >= best) {
					best = s[j].ts;
					use[i].util_pct = s[j].sm > 100 ? 100 : (int)s[j].sm;
				}
		}
	}
	free(s);
}

const char *nvml_read(struct nvml_use **use, size_t *n, struct nvml_gpu **gpus, size_t *ngpus)
{
	*use = NULL;
	*n = 0;
	*gpus = NULL;
	*ngpus = 0;
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
	/* Optional: without them, memory per process is still told. */
	int (*util)(void *, struct nvml_util *) = (int (*)(void *, struct nvml_util *))dlsym(h, "nvmlDeviceGetUtilizationRates");
	int (*meminfo)(void *, struct nvml_mem *) = (int (*)(void *, struct nvml_mem *))dlsym(h, "nvmlDeviceGetMemoryInfo");
	int (*putil)(void *, struct nvml_psample *, unsigned *, unsigned long long) =
		(int (*)(void *, struct nvml_psample *, unsigned *, unsigned long long))dlsym(h, "nvmlDeviceGetProcessUtilization");
	const char *why = NULL;
	unsigned ndev = 0;
	size_t cap = 0;
	if (!init || !shut || !count || !handle || !procs) {
		why = "libnvidia-ml is too old for per-process GPU memory";
	} else if (init() != 0) {
		why = "NVML did not initialise (driver not loaded?)";
	} else {
		if (count(&ndev) == 0 && ndev > 0 && ndev <= 1024) {
			*gpus = xcalloc(ndev, sizeof(**gpus));
			for (unsigned d = 0; d < ndev; d++) {
				void *dev;
				struct nvml_gpu *g = &(*gpus)[(*ngpus)++];
				*g = (struct nvml_gpu){ d, -1, -1, -1 };
				if (handle(d, &dev) != 0)
					continue;
				struct nvml_util u;
				if (util && util(dev, &u) == 0)
					g->util_pct = (int)u.gpu;
				struct nvml_mem m;
				if (meminfo && meminfo(dev, &m) == 0) {
					g->mem_used_mib = (long)(m.used >> 20);
					g->mem_total_mib = (long)(m.total >> 20);
				}
				struct nvml_proc info[256];
				unsigned k = 256;
				if (procs(dev, &k, info) != 0)
					continue;
				size_t from = *n;
				for (unsigned i = 0; i < k; i++) {
					GROW(*use, cap, *n + 1);
					(*use)[(*n)++] = (struct nvml_use){
						(int)info[i].pid, d,
						info[i].used == ~0ULL ? -1 : (long)(info[i].used >> 20), -1 };
				}
				process_util(dev, putil, *use, from, *n);
			}
		}
		shut();
	}
	dlclose(h);
	return why;
}
