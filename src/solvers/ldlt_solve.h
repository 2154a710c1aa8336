// The solve of a sparse L D Lᵀ factorization for the three coordinates at once.
//
//   L D Lᵀ x = b:   L z = b (forward),   y = z / D,   Lᵀ x = y (backward)
//
// Eigen's SimplicialLDLT solves one right-hand side at a time, each a pass over all of L twice. Projective Dynamics
// solves x, y and z with the same factor every iteration; one pass over L's indices and values can serve the three
// columns. Each column gets exactly the operations, in the same order, of Eigen's sparse triangular solves
// (SparseCore/TriangularSolver.h, column-major forward and row-major backward substitution), so the bits are Eigen's.
#pragma once

#include <Eigen/SparseCore>

namespace pbd {

/// In place on y (row-major n × 3: y[3 i + axis]), already in the factor's ordering: y ← (L D Lᵀ)⁻¹ y, with L the unit
/// lower factor as SimplicialLDLT stores it (column-major, compressed; a stored diagonal is skipped as Eigen does)
/// and D its diagonal.
void solveLdltThreeColumns(const Eigen::SparseMatrix<double>& L, const Eigen::VectorXd& D, double* y);

}  // namespace pbd
