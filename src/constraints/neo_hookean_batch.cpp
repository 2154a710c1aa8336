#include "constraints/neo_hookean.h"
#include "constraints/padded_vertices.h"

namespace pbd {

namespace {

uint32_t placeOrSelf(const uint32_t* placeOf, uint32_t i) { return placeOf ? placeOf[i] : i; }

}  // namespace

void projectNeoHookeanPadded(const NeoHookeanTet& t, uint32_t k, Real* lambda, Real* xyzw, bool xpbd, Real invH2,
                             const uint32_t* placeOf) {
  const uint32_t places[4] = {placeOrSelf(placeOf, t.p[0]), placeOrSelf(placeOf, t.p[1]),
                              placeOrSelf(placeOf, t.p[2]), placeOrSelf(placeOf, t.p[3])};
  Vec3* ps[4];
  Real ws[4];
  paddedVertices(xyzw, places, ps, ws);
  const Real kPrime[2] = {t.deviatoricKPrime, t.hydrostaticKPrime};
  const Real alphaTilde[2] = {t.deviatoricCompliance * invH2, t.hydrostaticCompliance * invH2};
  projectNeoHookean(ps, ws, t.restInverse, t.gamma, xpbd, kPrime, alphaTilde, lambda + 2 * size_t(k));
}

void projectNeoHookeansBatched(const NeoHookeanTet* tets, const uint32_t* order, size_t begin, size_t end,
                               Real* lambda, Real* xyzw, bool xpbd, Real invH2, const uint32_t* placeOf) {
  for (size_t n = begin; n < end; n += 4) {
    uint32_t k[4];
    batchOfFour(order, n, end, k);
    // A lane repeats the one before it only in a short batch's tail: one projection of it is enough.
    auto alone = [&](int q) {
      if (q == 0 || k[q] != k[q - 1]) projectNeoHookeanPadded(tets[k[q]], k[q], lambda, xyzw, xpbd, invH2, placeOf);
    };
    if (!xpbd) {
      for (int q = 0; q < 4; ++q) alone(q);
      continue;
    }
    const NeoHookeanTet* t[4] = {&tets[k[0]], &tets[k[1]], &tets[k[2]], &tets[k[3]]};
    PaddedLanes v[4];
    NeoHookeanLanes<Float4> l;
    for (int q = 0; q < 4; ++q) {
      v[q] = loadPaddedLanes(xyzw, placeOrSelf(placeOf, t[0]->p[q]), placeOrSelf(placeOf, t[1]->p[q]),
                             placeOrSelf(placeOf, t[2]->p[q]), placeOrSelf(placeOf, t[3]->p[q]));
      l.x[q] = {v[q].x, v[q].y, v[q].z}, l.w[q] = v[q].w;
    }
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        l.restInverse[r][c] = Float4::make(t[0]->restInverse(r, c), t[1]->restInverse(r, c),
                                           t[2]->restInverse(r, c), t[3]->restInverse(r, c));
    l.gamma = Float4::make(t[0]->gamma, t[1]->gamma, t[2]->gamma, t[3]->gamma);
    const Float4 h2 = Float4::splat(invH2);
    l.alphaTilde[0] = Float4::make(t[0]->deviatoricCompliance, t[1]->deviatoricCompliance,
                                   t[2]->deviatoricCompliance, t[3]->deviatoricCompliance) * h2;
    l.alphaTilde[1] = Float4::make(t[0]->hydrostaticCompliance, t[1]->hydrostaticCompliance,
                                   t[2]->hydrostaticCompliance, t[3]->hydrostaticCompliance) * h2;
    Real* lambdas[4] = {lambda + 2 * size_t(k[0]), lambda + 2 * size_t(k[1]), lambda + 2 * size_t(k[2]),
                        lambda + 2 * size_t(k[3])};
    for (int c = 0; c < 2; ++c)
      l.lambda[c] = Float4::gather(lambdas[0] + c, lambdas[1] + c, lambdas[2] + c, lambdas[3] + c);
    const Mask4 done = projectNeoHookeanLanes(l);
    // The four tets share no particle (or are one tet repeated), so the store order does not matter; a lane not
    // projected stores what it loaded.
    for (int q = 0; q < 4; ++q) storePaddedLanes(v[q], l.x[q].x, l.x[q].y, l.x[q].z);
    for (int c = 0; c < 2; ++c) l.lambda[c].scatter(lambdas[0] + c, lambdas[1] + c, lambdas[2] + c, lambdas[3] + c);
    if (all(done)) continue;
    const Float4 one = Float4::splat(1), projected = select(done, one, Float4::splat(0));
    float flags[4];
    projected.store(flags);
    for (int q = 0; q < 4; ++q)
      if (flags[q] == 0) alone(q);  // from the start: projectNeoHookean's fast path declines it the same way
  }
}

}  // namespace pbd
