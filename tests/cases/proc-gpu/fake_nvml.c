/* fake_nvml.c — a stand-in libnvidia-ml.so.1 for the proc-gpu case: two
 * GPUs, each running the process $FAKE_NVML_PID with 1234 MiB, so ddx's
 * run-time NVML loading is tested on machines without a GPU. */
#include <stdlib.h>

struct info {
	unsigned pid;
	unsigned long long used;
	unsigned gi, ci;
};

int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }

int nvmlDeviceGetCount_v2(unsigned *n)
{
	*n = 2;
	return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **dev)
{
	*dev = (void *)(size_t)(i + 1);
	return 0;
}

int nvmlDeviceGetComputeRunningProcesses_v3(void *dev, unsigned *n, struct info *out)
{
	(void)dev;
	const char *pid = getenv("FAKE_NVML_PID");
	if (*n < 1)
		return 7;   /* NVML_ERROR_INSUFFICIENT_SIZE */
	*n = 1;
	out[0].pid = pid ? (unsigned)atoi(pid) : 0;
	out[0].used = 1234ULL << 20;
	out[0].gi = out[0].ci = 0xFFFFFFFF;
	return 0;
}
