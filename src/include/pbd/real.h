// Scalar and small-vector types shared by the whole library.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

namespace pbd {

/// The scalar type of every simulated quantity. float: positions are handed to WebGL as-is.
using Real = float;

/// A 3-vector for storage and small math. DontAlign: safe inside std::vector and packed wasm buffers.
using Vec3 = Eigen::Matrix<Real, 3, 1, Eigen::DontAlign>;

/// A 3x3 matrix for small dense math (inertia tensors).
using Mat3 = Eigen::Matrix<Real, 3, 3, Eigen::DontAlign>;

}  // namespace pbd
