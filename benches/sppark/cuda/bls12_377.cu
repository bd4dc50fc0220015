// sppark's MSM on BLS12-377 G1 (see msm.cuh).
#include <ff/bls12-377.hpp>
using namespace bls12_377;
#define CURVE bls12_377
#include "msm.cuh"
