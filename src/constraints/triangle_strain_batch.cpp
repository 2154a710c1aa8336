#include "constraints/padded_vertices.h"
#include "constraints/triangle_strain.h"

namespace pbd {

void projectTriangleStrainPadded(const TriangleStrainConstraint& c, uint32_t k, Real* lambda, Real* xyzw, bool xpbd,
                                 Real invH2) {
  const uint32_t particles[4] = {c.p[0], c.p[1], c.p[2], c.p[2]};
  Vec3* ps[4];
  Real ws[4];
  paddedVertices(xyzw, particles, ps, ws);
  const Real kPrime[2] = {c.stretchKPrime, c.shearKPrime};
  const Real alphaTilde[2] = {c.stretchCompliance * invH2, c.shearCompliance * invH2};
  projectTriangleStrain(ps, ws, c.restInverse, xpbd, kPrime, alphaTilde, lambda + 3 * size_t(k));
}

void projectTriangleStrainsBatched(const TriangleStrainConstraint* cs, const uint32_t* order, size_t begin,
                                   size_t end, Real* lambda, Real* xyzw, bool xpbd, Real invH2) {
  const Float4 h2 = Float4::splat(invH2);
  for (size_t n = begin; n < end; n += 4) {
    uint32_t k[4];
    batchOfFour(order, n, end, k);
    const TriangleStrainConstraint *a = &cs[k[0]], *b = &cs[k[1]], *c = &cs[k[2]], *d = &cs[k[3]];
    PaddedLanes v[3];
    TriangleStrainLanes<Float4> l;
    for (int q = 0; q < 3; ++q) {
      v[q] = loadPaddedLanes(xyzw, a->p[q], b->p[q], c->p[q], d->p[q]);
      l.x[q] = {v[q].x, v[q].y, v[q].z}, l.w[q] = v[q].w;
    }
    for (int r = 0; r < 2; ++r)
      for (int col = 0; col < 2; ++col)
        l.restInverse[r][col] = Float4::make(a->restInverse(r, col), b->restInverse(r, col), c->restInverse(r, col),
                                             d->restInverse(r, col));
    l.kPrime[0] = Float4::make(a->stretchKPrime, b->stretchKPrime, c->stretchKPrime, d->stretchKPrime);
    l.kPrime[1] = Float4::make(a->shearKPrime, b->shearKPrime, c->shearKPrime, d->shearKPrime);
    l.alphaTilde[0] =
        Float4::make(a->stretchCompliance, b->stretchCompliance, c->stretchCompliance, d->stretchCompliance) * h2;
    l.alphaTilde[1] = Float4::make(a->shearCompliance, b->shearCompliance, c->shearCompliance, d->shearCompliance) * h2;
    Real* lambdas[4] = {lambda + 3 * size_t(k[0]), lambda + 3 * size_t(k[1]), lambda + 3 * size_t(k[2]),
                        lambda + 3 * size_t(k[3])};
    for (int s = 0; s < 3; ++s)
      l.lambda[s] = Float4::gather(lambdas[0] + s, lambdas[1] + s, lambdas[2] + s, lambdas[3] + s);
    projectTriangleStrainLanes(l, xpbd);
    // The four triangles share no particle (or are one triangle repeated), so the store order does not matter.
    for (int q = 0; q < 3; ++q) storePaddedLanes(v[q], l.x[q].x, l.x[q].y, l.x[q].z);
    for (int s = 0; s < 3; ++s) l.lambda[s].scatter(lambdas[0] + s, lambdas[1] + s, lambdas[2] + s, lambdas[3] + s);
  }
}

}  // namespace pbd
