// [w]×, the matrix of u → w × u (the dihedral energy's and the rod kernels' Jacobians are written with it).
#pragma once

#include <Eigen/Dense>

namespace pbd {

inline Eigen::Matrix3d crossMatrix(const Eigen::Vector3d& w) {
  Eigen::Matrix3d m;
  m << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
  return m;
}

}  // namespace pbd
