// Bodies as handles with a stable identity: the record each add-body call returns (addCloth, addRope, addRod,
// addSoftBody, addTriangleMesh) is remembered per world, and world.removeBody updates every remembered record in place, so that
// a record (and the three.js objects holding it) names the same body after others were removed: `body`,
// `firstParticle`, a mesh body's `renderToParticle` and the constraint ranges (and `firstSkinned`, where a
// PbdSkinnedCloth set it) move down as BodyRemoval says, and the removed body's record gets
// `removed: true`. A tear (world.tearEdges, or a step that tore: lastTears) grows the torn body's record and moves
// the later ones up as its TearReport says.
import { InvalidArgumentError, describeValue as describe } from './errors.js';

const ADD_BODY = ['addCloth', 'addRope', 'addRod', 'addSoftBody', 'addTriangleMesh'];
const records = new WeakMap();   // world → the records its add-body calls returned, live ones only

/** How far a constraint index `first` moves down past the removed runs ([begin, end) pairs of old indices). */
function shiftPast(runs, first) {
  let shift = 0;
  for (let k = 0; k + 1 < runs.length && runs[k + 1] <= first; k += 2) shift += runs[k + 1] - runs[k];
  return shift;
}

/** A range [first, first + count) of constraints after a tear's edits ((old index, new count) pairs). */
function editedRange(edits, first, count) {
  let shift = 0;
  let grow = 0;
  for (let k = 0; k + 1 < edits.length; k += 2) {
    if (edits[k] < first) shift += edits[k + 1] - 1;
    else if (edits[k] < first + count) grow += edits[k + 1] - 1;
  }
  return [first + shift, count + grow];
}

/** Moves the records as a TearReport says. */
function followTear(world, tear) {
  for (const r of records.get(world) ?? []) {
    if (r.body === tear.body) {
      r.tornFrom = [...(r.tornFrom ?? []), ...Array.from(tear.sourceParticles, (p) => p - r.firstParticle)];
      r.particleCount += tear.particleCount;
      for (let k = 1; k < tear.tetherEdits.length; k += 2) r.tetherCount += tear.tetherEdits[k] - 1;
    } else if (r.body > tear.body) {
      r.firstParticle += tear.particleCount;
      if (r.renderToParticle) r.renderToParticle.forEach((p, v, map) => { map[v] = p + tear.particleCount; });
    }
    [r.firstConstraint, r.constraintCount] = editedRange(tear.distanceEdits, r.firstConstraint, r.constraintCount);
    [r.firstDihedral, r.dihedralCount] = editedRange(tear.dihedralEdits, r.firstDihedral, r.dihedralCount);
  }
}

/** The body index `body` names: a number, or a record an add-body call returned. */
function bodyIndex(fn, world, body) {
  if (typeof body === 'number') return body;
  if (body !== null && typeof body === 'object' && Number.isInteger(body.body)) {
    if (body.removed) throw new InvalidArgumentError(`${fn}: body ${body.body} was removed already`);
    if (!records.get(world)?.includes(body)) {
      throw new InvalidArgumentError(`${fn}: body is not a record this world returned (pass its index instead)`);
    }
    return body.body;
  }
  throw new InvalidArgumentError(`${fn}: body must be a body index or a body's record (got ${describe(body)})`);
}

/**
 * Adds the records' bookkeeping to the add-body methods, and to World.prototype.removeBody, tearEdges and step (over
 * the binding's); bodyTriangles takes a record too.
 */
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
  const { tearEdges, step, bodyTriangles } = proto;
  if (typeof tearEdges === 'function') {
    proto.tearEdges = function tearEdges_(body, edges) {
      const tear = tearEdges.call(this, bodyIndex('tearEdges', this, body), edges);
      followTear(this, tear);
      return tear;
    };
    proto.step = function step_(...args) {   // as given: Embind names a missing dt itself
      step.apply(this, args);
      if (this.lastTearCount() > 0) for (const tear of this.lastTears()) followTear(this, tear);
    };
    proto.bodyTriangles = function bodyTriangles_(body) {
      return bodyTriangles.call(this, bodyIndex('bodyTriangles', this, body));
    };
  }
  const remove = proto.removeBody;
  if (typeof remove !== 'function') return;
  proto.removeBody = function removeBody(body) {
    const removal = remove.call(this, bodyIndex('removeBody', this, body));
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
