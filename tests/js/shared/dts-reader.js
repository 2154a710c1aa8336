// A reader for the subset of TypeScript that web/lib/index.d.ts is written in, enough for tests to compare the
// declarations with the JS layer's tables: interfaces and their members, object-type aliases, the World class's
// methods (overloads included) and their parameters. Not a TypeScript parser: it splits at the top level of brackets.

const OPEN = '({[';
const CLOSE = ')}]';

/** text split at `separator` characters outside brackets, trimmed, empty pieces dropped. */
function splitTopLevel(text, separator) {
  const parts = [];
  let depth = 0, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth--;
    else if (c === separator && depth === 0) { parts.push(text.slice(start, i)); start = i + 1; }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** The text between the bracket at `open` and its match. */
function bracketBody(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (OPEN.includes(text[i])) depth++;
    else if (CLOSE.includes(text[i]) && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`dts-reader: unbalanced bracket at ${open}`);
}

/** `name?: type` members of an object type's body (methods excluded). */
function members(body) {
  const out = [];
  for (const part of splitTopLevel(body, ';')) {
    const m = /^(?:readonly\s+)?(\w+)(\?)?\s*:\s*([\s\S]*)$/.exec(part);
    if (m) out.push({ name: m[1], optional: !!m[2], type: m[3].trim() });
  }
  return out;
}

/** Parameters of a signature's parameter list. */
function parameters(list) {
  return splitTopLevel(list, ',').map((p) => {
    const m = /^(\w+)(\?)?\s*:\s*([\s\S]*)$/.exec(p);
    if (!m) throw new Error(`dts-reader: cannot read parameter '${p}'`);
    return { name: m[1], optional: !!m[2], type: m[3].trim() };
  });
}

/**
 * { types: Map(name → { members, extends } for interfaces and for aliases of object-literal unions),
 *   aliases: Set of other type alias names, worldMethods: Map(name → [parameter lists, one per overload]) }.
 */
export function readDeclarations(source) {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const types = new Map();
  const aliases = new Set();
  for (const m of text.matchAll(/export\s+interface\s+(\w+)(?:<[^>]*>)?\s*(?:extends\s+([\w\s,]+?))?\s*\{/g)) {
    const open = m.index + m[0].length - 1;
    types.set(m[1], { members: members(bracketBody(text, open)),
      extends: m[2] ? m[2].split(',').map((s) => s.trim()) : [] });
  }
  for (const m of text.matchAll(/export\s+type\s+(\w+)\s*=\s*([\s\S]*?);\s*(?=export|$)/g)) {
    const union = splitTopLevel(m[2], '|');
    if (union.every((t) => t.startsWith('{'))) {
      types.set(m[1], { members: union.flatMap((t) => members(t.slice(1, -1))), extends: [] });
    } else aliases.add(m[1]);
  }
  const worldMethods = new Map();
  const world = /export\s+declare\s+class\s+World\s*\{/.exec(text);
  for (const part of splitTopLevel(bracketBody(text, world.index + world[0].length - 1), ';')) {
    const m = /^(\w+)\s*\(/.exec(part);
    if (!m || m[1] === 'constructor') continue;
    const list = bracketBody(part, m[0].length - 1);
    if (!worldMethods.has(m[1])) worldMethods.set(m[1], []);
    worldMethods.get(m[1]).push(parameters(list));
  }
  return { types, aliases, worldMethods, text };
}

/** Every member of an object type, its `extends` included. */
export function allMembers(types, name) {
  const type = types.get(name);
  return [...type.extends.flatMap((base) => allMembers(types, base)), ...type.members];
}

/** Names of every member, property or method, of the class or interface `name` that `source` exports. */
export function memberNames(source, name) {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const head = new RegExp(`export\\s+(?:declare\\s+class|interface)\\s+${name}\\b[^{]*\\{`).exec(text);
  if (!head) throw new Error(`dts-reader: no exported class or interface ${name}`);
  const names = new Set();
  for (const part of splitTopLevel(bracketBody(text, head.index + head[0].length - 1), ';')) {
    const m = /^(?:(?:readonly|static|get)\s+)?(\w+)\s*[?(:<]/.exec(part);
    if (m && m[1] !== 'constructor') names.add(m[1]);
  }
  return names;
}
