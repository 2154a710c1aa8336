// The GoogleTest files compile as a unity build (tests/CMakeLists.txt: batches of 8 files in one translation unit),
// so two files' file-local functions of one name would meet in a batch. With the same parameters that is a compile
// error; with other parameters they become overloads, and a call can silently take the other file's function (it
// happened: tetrahedralize_test's expectRejected({}, {}, {}, ...) called mesh_weld_test's). So no two test files
// define a function of the same name: shared helpers live in tests/scenes/ or tests/native/*.h.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const NATIVE = new URL('../../native/', import.meta.url).pathname;

/** The names of the functions `source` defines at column 0 (our style for file-local helpers), overloads once. */
export function definedFunctions(source) {
  const names = new Set();
  const keywords = 'TEST|TYPED_TEST|namespace|using|return|template|struct|class|enum|static_assert';
  const start = new RegExp(`^(?!(?:${keywords})\\b)[A-Za-z_][\\w:<>,\\s*&]*?[\\s*&]([A-Za-z_]\\w*)\\(`, 'gm');
  for (const m of source.matchAll(start)) {
    // A definition if a '{' comes before any ';' once the parameter list is closed.
    let depth = 0;
    for (let i = m.index + m[0].length - 1; i < source.length; i++) {
      const c = source[i];
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (depth === 0 && (c === ';' || c === '{' || c === '=')) {
        if (c === '{') names.add(m[1]);
        break;
      }
    }
  }
  return names;
}

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name))
    : e.name.endsWith('.cpp') ? [join(dir, e.name)] : []));
}

describe('the native test files', () => {
  it('the check finds column-0 definitions, overloads and templates, and not calls or declarations', () => {
    const source = ['Vec3 at(const World& w, uint32_t i) {', '  return x.at(i);', '}',
      'template <typename T>', 'std::vector<T> samples(int n,', '                        int m) {', '}',
      'void expectRejected(const Surface& s);', 'Real project(Vec3 x[3]) { return 0; }',
      'Real project(Vec3 x[4], Real w) { return 1; }', 'TEST(Suite, Name) {', '  run(world);', '}'].join('\n');
    expect([...definedFunctions(source)].sort()).toEqual(['at', 'project', 'samples']);
  });

  it('define no function of a name that another test file defines', () => {
    const files = new Map();
    for (const file of testFiles(NATIVE)) {
      for (const name of definedFunctions(readFileSync(file, 'utf8'))) {
        files.set(name, [...(files.get(name) ?? []), relative(NATIVE, file)]);
      }
    }
    const shared = [...files].filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(shared).toEqual([]);
  });
});
