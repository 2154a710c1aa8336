// Bodies as handles with a stable identity: the record each add-body call returns (addCloth, addRope, addRod,
// addSoftBody, addTriangleMesh) is remembered per world, and world.removeBody updates every remembered record in place, so that
// a record (and the three.js objects holding it) names the same body after others were removed: `body`,
// `firstParticle`, a mesh body's `renderToParticle` and the constraint ranges (and `firstSkinned`, where a
// PbdSkinnedCloth set it) move down as BodyRemoval says, and the removed body's record gets
// `removed: true`.
import { InvalidArgumentError, describeValue as describe } from './errors.js';

const ADD_BODY = ['addCloth', 'addRope', 'addRod', 'addSoftBody', 'addTriangleMesh'];
const records = new WeakMap();   // world → the records its add-body calls returned, live ones only

/** How far a constraint index `first` moves down past the removed runs ([begin, end) pairs of old indices). */
function shiftPast(runs, first) {
  let shift = 0;
  for (let k = 0; k + 1 < runs.length && runs[k + 1] <= first; k += 2) shift += runs[k + 1] - runs[k];
  return shift;
}

/** The body index `body` names: a number, or a record an add-body call returned. */
function bodyIndex(world, body) {
  if (typeof body === 'number') return body;
  if (body !== null && typeof body === 'object' && Number.isInteger(body.body)) {
    if (body.removed) throw new InvalidArgumentError(`removeBody: body ${body.body} was removed already`);
    if (!records.get(world)?.includes(body)) {
      throw new InvalidArgumentError('removeBody: body is not a record this world returned (pass its index instead)');
    }
    return body.body;
  }
  throw new InvalidArgumentError(`removeBody: body must be a body index or a body's record (got ${describe(body)})`);
}

/** Adds the records' bookkeeping to the add-body methods and World.prototype.removeBody (over the binding's). */
export function addBodyHandles(World) {
  const proto = World.prototype;
  for (const name of ADD_BODY) {
    const add = proto[name];
    if (typeof add !== 'function') continue;
    proto[name] = function addBody(...args) {
      const record = add.apply(this, args);
      if (!records.has(this)) records.set(this, []);
      records.get(this).push(record);
      return record;
    };
  }
  const remove = proto.removeBody;
  if (typeof remove !== 'function') return;
  proto.removeBody = function removeBody(body) {
    const removal = remove.call(this, bodyIndex(this, body));
    const kept = [];
    for (const r of records.get(this) ?? []) {
      if (r.body === removal.body) {
        r.removed = true;
        continue;
      }
      if (r.body > removal.body) {
        r.body -= 1;
        r.firstParticle -= removal.particleCount;
        // A mesh body's particle per render vertex (absolute indices) moves down with it.
        if (r.renderToParticle) r.renderToParticle.forEach((p, v, map) => { map[v] = p - removal.particleCount; });
      }
      r.firstConstraint -= shiftPast(removal.distanceRuns, r.firstConstraint);
      r.firstDihedral -= shiftPast(removal.dihedralRuns, r.firstDihedral);
      r.firstVolume -= shiftPast(removal.volumeRuns, r.firstVolume);
      r.firstSegment -= shiftPast(removal.segmentRuns, r.firstSegment);
      if (r.firstSkinned !== undefined) r.firstSkinned -= shiftPast(removal.skinnedRuns, r.firstSkinned);
      kept.push(r);
    }
    records.set(this, kept);
    return removal;
  };
}
