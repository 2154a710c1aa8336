#include "solvers/ldlt_solve.h"

namespace pbd {

void solveLdltThreeColumns(const Eigen::SparseMatrix<double>& L, const Eigen::VectorXd& D, double* y) {
  const Eigen::Index n = L.cols();
  const int* outer = L.outerIndexPtr();
  const int* counts = L.innerNonZeroPtr();  // null when compressed
  const int* inner = L.innerIndexPtr();
  const double* value = L.valuePtr();
  // Column j's entries below the diagonal: [begin, end). Eigen walks past indices <= j the same way.
  auto below = [&](Eigen::Index j, int& begin, int& end) {
    begin = outer[j], end = counts ? outer[j] + counts[j] : outer[j + 1];
    while (begin < end && inner[begin] <= j) ++begin;
  };
  // Forward, column by column: y_i -= y_j L_ij. Eigen skips a column whose y_j is 0 (which also keeps a -0 in y_i),
  // per right-hand side; so does this, per axis.
  for (Eigen::Index j = 0; j < n; ++j) {
    int begin, end;
    below(j, begin, end);
    const double t0 = y[3 * j], t1 = y[3 * j + 1], t2 = y[3 * j + 2];
    if (t0 != 0 && t1 != 0 && t2 != 0) {
      for (int k = begin; k < end; ++k) {
        double* yi = y + 3 * inner[k];
        const double v = value[k];
        yi[0] -= t0 * v, yi[1] -= t1 * v, yi[2] -= t2 * v;
      }
    } else {
      for (int k = begin; k < end; ++k) {
        double* yi = y + 3 * inner[k];
        const double v = value[k];
        if (t0 != 0) yi[0] -= t0 * v;
        if (t1 != 0) yi[1] -= t1 * v;
        if (t2 != 0) yi[2] -= t2 * v;
      }
    }
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) y[3 * i + a] /= D[i];
  }
  // Backward, row i of Lᵀ (column i of L): y_i -= Σ L_ki y_k in the column's order, from the last row up.
  for (Eigen::Index i = n - 1; i >= 0; --i) {
    int begin, end;
    below(i, begin, end);
    double s0 = y[3 * i], s1 = y[3 * i + 1], s2 = y[3 * i + 2];
    for (int k = begin; k < end; ++k) {
      const double* yk = y + 3 * inner[k];
      const double v = value[k];
      s0 -= v * yk[0], s1 -= v * yk[1], s2 -= v * yk[2];
    }
    y[3 * i] = s0, y[3 * i + 1] = s1, y[3 * i + 2] = s2;
  }
}

}  // namespace pbd
