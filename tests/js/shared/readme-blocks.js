// The README's code blocks, read and made runnable: shared by tests/js/node/readme.test.js and
// tests/js/browser/readme.test.js (which of them runs a block is the marker above its fence).

export const RUNNERS = ['node', 'browser'];
export const JS_LANGUAGES = ['js', 'javascript', 'mjs', 'jsx', 'ts', 'typescript'];

/** The README's fenced code blocks: language, code, 1-based line of the fence, and the runner marker above it. */
export function readmeBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\S*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    const marker = /^<!-- readme-test: (\S+) (\S+)(?: after=(\S+))? -->$/.exec(lines[i - 1] ?? '');
    blocks.push({ lang: fence[1], code: lines.slice(i + 1, end).join('\n'), line: i + 1,
      runner: marker?.[1], id: marker?.[2], after: marker?.[3] });
    i = end;
  }
  return blocks;
}

/** The code a block runs: the blocks it comes after (its `after` chain), then its own. */
export function programOf(block, blocks) {
  const chain = [block];
  while (chain[0].after) {
    const previous = blocks.find((b) => b.id === chain[0].after);
    if (!previous || chain.includes(previous)) {
      throw new Error(`README block "${chain[0].id}": after=${chain[0].after} names no other block`);
    }
    chain.unshift(previous);
  }
  return chain.map((b) => b.code).join('\n');
}

/** A block's code as an async function body: imports looked up, top-level bindings (and export default) returned. */
export function asFunctionBody(code) {
  const body = code.replace(
    /^import\s+(?:\*\s+as\s+([\w$]+)|\{([^}]*)\}|([\w$]+))\s+from\s+'([^']+)';?[ \t]*(?:\/\/.*)?$/gm,
    (_, namespace, named, defaultName, specifier) => {
      const from = `__import(${JSON.stringify(specifier)})`;
      if (namespace) return `const ${namespace} = ${from};`;
      if (defaultName) return `const ${defaultName} = ${from}.default;`;
      return `const { ${named.replace(/\bas\b/g, ':')} } = ${from};`;
    }).replace(/^export default /m, 'const __default = ');
  const left = /^\s*(import|export)\b.*$/m.exec(body);
  if (left) throw new Error(`a statement the README test cannot run: ${left[0]}`);
  const names = new Set(['__default']);
  for (const line of body.split('\n')) {
    const declaration = /^(?:const|let|var)\s/.test(line) ? line : '';
    for (const m of declaration.matchAll(/(?:^(?:const|let|var)\s+|,\s*)([A-Za-z_$][\w$]*)\s*=/g)) names.add(m[1]);
    const named = /^(?:async\s+)?(?:function\*?|class)\s+([A-Za-z_$][\w$]*)/.exec(line);
    if (named) names.add(named[1]);
  }
  // typeof: a name the scan picked up by mistake reads as undefined instead of throwing.
  const fields = [...names].map((n) => `${n === '__default' ? 'default' : n}: ` +
    `typeof ${n} === 'undefined' ? undefined : ${n}`);
  return `${body}\nreturn { ${fields.join(', ')} };`;
}

const AsyncFunction = (async () => {}).constructor;

/**
 * Runs a block (after the blocks it continues) with `modules` as what its imports resolve to, and `console` in place
 * of the global one. Returns its top-level bindings.
 */
export async function runBlock(block, blocks, modules, console = globalThis.console) {
  const run = new AsyncFunction('__import', 'console', asFunctionBody(programOf(block, blocks)));
  const importer = (specifier) => {
    if (!(specifier in modules)) throw new Error(`imports '${specifier}', which the README test does not provide`);
    return modules[specifier];
  };
  try {
    return await run(importer, console);
  } catch (error) {
    error.message = `README.md block "${block.id}" (line ${block.line}): ${error.message}`;
    throw error;
  }
}
