// solvers/ldlt_solve.h: the three-column solve gives, column by column, the bits of Eigen's SimplicialLDLT solve
// (the per-axis path Projective Dynamics used before), on random sparse SPD systems, with exact zeros and negative
// zeros in the right-hand side (Eigen's forward sweep skips a zero entry; so must the fused one).
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <cstring>
#include <random>
#include <vector>

#include "solvers/ldlt_solve.h"

using namespace pbd;

namespace {

/// An n x n SPD matrix with a grid-cloth-like pattern: diagonal plus random symmetric couplings to near neighbours.
Eigen::SparseMatrix<double> randomSpd(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.1, 1.0);
  std::vector<Eigen::Triplet<double>> t;
  std::vector<double> rowSum(size_t(n), 0.0);
  for (int i = 0; i < n; ++i) {
    for (int step : {1, 7, 8, 15}) {
      const int j = i + step;
      if (j >= n || u(rng) < 0.3) continue;
      const double v = -u(rng);
      t.emplace_back(i, j, v), t.emplace_back(j, i, v);
      rowSum[size_t(i)] -= v, rowSum[size_t(j)] -= v;
    }
  }
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, rowSum[size_t(i)] + u(rng));  // diagonally dominant
  Eigen::SparseMatrix<double> A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

}  // namespace

TEST(LdltSolve, ThreeColumnsAtOnceGiveEigensBitsPerColumn) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int n : {1, 2, 57, 400}) {
    const Eigen::SparseMatrix<double> A = randomSpd(n, rng);
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> ldlt(A);
    ASSERT_EQ(ldlt.info(), Eigen::Success);
    std::vector<double> y(3 * size_t(n));
    Eigen::VectorXd column[3];
    for (int a = 0; a < 3; ++a) {
      column[a].resize(n);
      for (int i = 0; i < n; ++i) {
        // Every fifth entry 0 and every seventh -0 on some axes: the forward sweep's skip path.
        const double v = (i + a) % 5 == 0 ? 0.0 : (i + 2 * a) % 7 == 0 ? -0.0 : u(rng);
        column[a][i] = v, y[3 * size_t(i) + size_t(a)] = v;
      }
    }
    const Eigen::VectorXd b0 = column[0];
    // Eigen's path, per column, in the factor's ordering (as the Projective Dynamics solve works on it).
    for (int a = 0; a < 3; ++a) {
      ldlt.matrixL().solveInPlace(column[a]);
      column[a].array() /= ldlt.vectorD().array();
      ldlt.matrixU().solveInPlace(column[a]);
    }
    solveLdltThreeColumns(ldlt.matrixL().nestedExpression(), ldlt.vectorD(), y.data());
    for (int a = 0; a < 3; ++a) {
      for (int i = 0; i < n; ++i) {
        const double fused = y[3 * size_t(i) + size_t(a)];
        ASSERT_EQ(0, std::memcmp(&fused, &column[a][i], sizeof fused)) << "n " << n << ", axis " << a << ", row " << i;
      }
    }
    // And it solves the system, permuted as the Projective Dynamics solve does ((P b)[perm[i]] = b[i]): A x = b.
    const auto& perm = ldlt.permutationP().indices();
    std::vector<double> z(3 * size_t(n));
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < 3; ++a) z[3 * size_t(perm[i]) + size_t(a)] = b0[i];
    solveLdltThreeColumns(ldlt.matrixL().nestedExpression(), ldlt.vectorD(), z.data());
    Eigen::VectorXd x(n);
    for (int i = 0; i < n; ++i) x[i] = z[3 * size_t(perm[i]) + 2];
    EXPECT_LT((A * x - b0).norm(), 1e-12 * (1 + b0.norm())) << "n " << n;
    if (n > 1) EXPECT_GT(x.norm(), 0);  // (n = 1: its only entry is one of the zeros)
  }
}
