// sppark's MSM on BLS12-381 G1 (see msm.cuh).
#include <ff/bls12-381.hpp>
using namespace bls12_381;
#define CURVE bls12_381
#include "msm.cuh"
