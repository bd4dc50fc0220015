// sppark's MSM on BN254 G1, which sppark names alt_bn128 (see msm.cuh).
#include <ff/alt_bn128.hpp>
using namespace alt_bn128;
#define CURVE bn254
#include "msm.cuh"
