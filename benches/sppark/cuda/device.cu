// The CUDA device as the driver sees it, page-locked host memory, and sppark's table of usable GPUs
// (select_gpu, gpu_props, ...: util/all_gpus.cpp, which the Pippenger code calls into; compiled once
// here for every curve's translation unit).
#include <cuda.h>
#include <cstdio>
#include <cstring>

#include <util/all_gpus.cpp>

static void put_message(char* msg, size_t cap, const char* text)
{
    if (msg != nullptr && cap > 0)
        snprintf(msg, cap, "%s", text);
}

extern "C" {

struct fastmsm_sppark_device_info {
    char name[256];
    int driver_version;   // cudaDriverGetVersion: the newest CUDA the driver supports (13000 = 13.0)
    int runtime_version;  // the statically linked runtime's
    int major, minor;     // compute capability
    int sm_count;
    size_t global_memory;
};

// Device 0's properties; non-zero (with a message) when no CUDA device can be used, including when
// the driver library libcuda.so.1 is missing: the static runtime loads it at first use and then
// reports cudaErrorInsufficientDriver.
int fastmsm_sppark_device(fastmsm_sppark_device_info* info, char* msg, size_t cap)
{
    memset(info, 0, sizeof *info);
    cudaRuntimeGetVersion(&info->runtime_version);
    cudaDriverGetVersion(&info->driver_version);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaSuccess && count == 0)
        e = cudaErrorNoDevice;
    cudaDeviceProp prop;
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(&prop, 0);
    if (e != cudaSuccess) {
        put_message(msg, cap, cudaGetErrorString(e));
        return (int)e;
    }
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->major = prop.major;
    info->minor = prop.minor;
    info->sm_count = prop.multiProcessorCount;
    info->global_memory = prop.totalGlobalMem;
    return 0;
}

// For the "pinned" rows: the inputs copied into page-locked memory before timing.
int fastmsm_sppark_host_alloc(size_t bytes, void** ptr, char* msg, size_t cap)
{
    cudaError_t e = cudaMallocHost(ptr, bytes);
    if (e != cudaSuccess) {
        *ptr = nullptr;
        put_message(msg, cap, cudaGetErrorString(e));
    }
    return (int)e;
}

void fastmsm_sppark_host_free(void* ptr)
{
    if (ptr != nullptr)
        cudaFreeHost(ptr);
}

} // extern "C"
