/**
 * @jest-environment node
 */
/**
 * Features import each other through their index.ts, and web/vite.config.mts tells the bundler those files have no
 * side effects, so a page importing one name through an index loads only the module that defines it. That holds
 * while each index only re-exports: no statement of its own, no import run for its effects.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const FEATURES = path.resolve(__dirname, '..', '..', 'web', 'src', 'features');
const indexes = fs
  .readdirSync(FEATURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(FEATURES, d.name, 'index.ts')))
  .map((d) => `${d.name}/index.ts`);

describe("the features' index files", () => {
  it('exist for the features others import', () => {
    expect(indexes).toEqual(expect.arrayContaining(['auth/index.ts', 'credits/index.ts', 'generation/index.ts', 'legal/index.ts', 'marketing/index.ts', 'payments/index.ts']));
  });

  it.each(indexes)('%s only re-exports', (file) => {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(FEATURES, file), 'utf8'), ts.ScriptTarget.ES2022);
    const other = source.statements.filter((s) => !(ts.isExportDeclaration(s) && s.moduleSpecifier)).map((s) => s.getText(source));
    expect(other).toEqual([]);
  });
});
