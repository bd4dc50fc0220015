// One curve's C interface to sppark's Pippenger MSM, for the Rust driver (src/sppark.rs). Included
// by bls12_377.cu, bls12_381.cu and bn254.cu, each after defining CURVE (the suffix of the exported
// names) and the sppark field types fp_t and fr_t. sppark's kernels declare their dynamic shared
// memory with one type per curve, so each curve needs a translation unit of its own.
//
// Data contract (checked on the CPU by `fastmsm_sppark_host_msm_*` against arkworks, src/selfcheck.rs):
//   points:  n affine points, x then y, each coordinate little-endian 64-bit limbs in Montgomery
//            form with R = 2^(64*limbs): the in-memory form of arkworks' Fq for every curve;
//   scalars: n canonical (not Montgomery) little-endian 4 x 64-bit words, each below r;
//   result:  a Jacobian point X, Y, Z in the same Montgomery form, Z = 0 for the identity.

#include <cuda.h>
#include <cstdint>
#include <cstring>
#include <cstdio>

#include <ec/jacobian_t.hpp>
#include <ec/xyzz_t.hpp>

typedef jacobian_t<fp_t> point_t;   // what mult_pippenger returns
typedef xyzz_t<fp_t> bucket_t;      // sppark's bucket form, the one its own harness uses
typedef bucket_t::affine_t affine_t;
typedef fr_t scalar_t;

#define FASTMSM_JOIN2(a, b) a##b
#define FASTMSM_JOIN(a, b) FASTMSM_JOIN2(a, b)
#define FASTMSM_NAME(stem) FASTMSM_JOIN(stem, CURVE)

// sppark's digit-sorting kernels (msm/sort.cuh) are plain functions, not templates: every curve's
// objects would define them. Each curve gets its own copy in a namespace of its own, included here
// after what pippenger.cuh includes before it; pippenger.cuh's own include of it is then skipped.
#include <cooperative_groups.h>
#include <cassert>
#include <util/vec2d_t.hpp>
#include <util/slice_t.hpp>
namespace FASTMSM_NAME(sppark_sort_) {
#include <msm/sort.cuh>
}
using namespace FASTMSM_NAME(sppark_sort_);

#include <msm/pippenger.cuh>

// The Rust side lays the arrays out from these sizes: a mismatch would misread every point.
static_assert(sizeof(affine_t) == 2 * sizeof(fp_t) && sizeof(point_t) == 3 * sizeof(fp_t), "point layout");
static_assert(sizeof(scalar_t) == 32, "scalar layout");

#ifndef __CUDA_ARCH__
extern "C" {

size_t FASTMSM_NAME(fastmsm_sppark_field_bytes_)()
{   return sizeof(fp_t);   }

int FASTMSM_NAME(fastmsm_sppark_msm_)(void* out, const void* points, size_t n,
                                      const void* scalars, char* msg, size_t cap)
{
    point_t result;
    // mont = false: the scalars are canonical integers, as arkworks' into_bigint() gives them.
    RustError err = mult_pippenger<bucket_t>(&result, static_cast<const affine_t*>(points), n,
                                             static_cast<const scalar_t*>(scalars), false);
    if (err.code != 0) {
        if (msg != nullptr && cap > 0)
            snprintf(msg, cap, "%s", err.message != nullptr
                                     ? err.message : cudaGetErrorString((cudaError_t)err.code));
        free(err.message);
        return err.code;
    }
    memcpy(out, &result, sizeof result);
    return 0;
}

// Bases resident on the GPU: sppark's msm_t uploads the points once, then each MSM sends only the
// scalars. The handle is an msm_t; every call returns 0 or a CUDA error code with its message.
typedef msm_t<bucket_t, point_t, affine_t, scalar_t> resident_t;

int FASTMSM_NAME(fastmsm_sppark_bases_new_)(const void* points, size_t n, void** handle,
                                           char* msg, size_t cap)
{
    *handle = nullptr;
    try {
        auto* bases = new resident_t(static_cast<const affine_t*>(points), n);
        // msm_t copies the points on a stream of its own (non-blocking) and does not wait for it:
        // wait here, so that the upload is complete (and timed) before the first MSM.
        CUDA_OK(cudaDeviceSynchronize());
        *handle = bases;
        return 0;
    } catch (const cuda_error& e) {
        if (msg != nullptr && cap > 0)
            snprintf(msg, cap, "%s", e.what());
        return e.code() != 0 ? e.code() : -1;
    }
}

int FASTMSM_NAME(fastmsm_sppark_bases_msm_)(void* handle, void* out, size_t n, const void* scalars,
                                           char* msg, size_t cap)
{
    point_t result;
    // A null point array selects the resident points (msm_t::invoke).
    RustError err = static_cast<resident_t*>(handle)->invoke(
        result, static_cast<const affine_t*>(nullptr), n, static_cast<const scalar_t*>(scalars), false);
    if (err.code != 0) {
        if (msg != nullptr && cap > 0)
            snprintf(msg, cap, "%s", err.message != nullptr
                                     ? err.message : cudaGetErrorString((cudaError_t)err.code));
        free(err.message);
        return err.code;
    }
    memcpy(out, &result, sizeof result);
    return 0;
}

void FASTMSM_NAME(fastmsm_sppark_bases_free_)(void* handle)
{
    delete static_cast<resident_t*>(handle);
}

// The same sum on the CPU with sppark's host-side point arithmetic, most significant bit first: a
// doubling per scalar bit and an addition per set bit, so only for a few points. It lets a machine
// without a GPU check the data contract above against arkworks.
void FASTMSM_NAME(fastmsm_sppark_host_msm_)(void* out, const void* points, size_t n,
                                            const void* scalars)
{
    const auto* p = static_cast<const affine_t*>(points);
    const auto* k = static_cast<const uint64_t*>(scalars);
    point_t acc;
    acc.inf();
    for (int bit = 255; bit >= 0; bit--) {
        acc.dbl();
        for (size_t i = 0; i < n; i++)
            if ((k[4 * i + bit / 64] >> (bit % 64)) & 1)
                acc.add(p[i]);
    }
    memcpy(out, &acc, sizeof acc);
}

} // extern "C"
#endif
