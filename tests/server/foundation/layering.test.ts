import fs from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules hold in lint (eslint.config.js): these prove the rules
 * bite, by linting code that breaks them as if it sat in the tree.
 */
describe('layering lint', () => {
  const eslint = new ESLint();
  const problems = async (code: string, filePath: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.map((m) => m.ruleId);
  };

  it.each([
    [
      'a module importing the composition root',
      "import type { Services } from '../../services.js';\nexport type S = Services;\n",
      'server/modules/drive/probe.ts',
    ],
    ['a plugin importing the app', "import { buildApp } from '../app.js';\nexport const b = buildApp;\n", 'server/plugins/probe.ts'],
    ['db/ importing a module', "import { ROOT_HASH } from '../modules/access/require.js';\nexport const r = ROOT_HASH;\n", 'server/db/probe.ts'],
    ['the worker importing a screen feature', "import { makeEntry } from '../src/features/drive/probe.js';\nexport const m = makeEntry;\n", 'sw/probe.ts'],
    ['shared UI importing a feature', "import { x } from '../features/drive/probe';\nexport const y = x;\n", 'src/ui/Probe.ts'],
    ['the page importing the server', "import { x } from '../../server/probe.js';\nexport const y = x;\n", 'src/api/probe.ts'],
  ])('refuses %s', async (_name, code, filePath) => {
    expect(await problems(code, filePath)).toContain('no-restricted-imports');
  });

  it('refuses an import cycle (the drive repository importing the service that imports it)', async () => {
    const repository = fs.readFileSync('server/modules/drive/repository.ts', 'utf8');
    expect(await problems(repository, 'server/modules/drive/repository.ts')).not.toContain('import-x/no-cycle');
    expect(await problems(`${repository}\nimport './service.js';\n`, 'server/modules/drive/repository.ts')).toContain('import-x/no-cycle');
  });

  it.each([
    [
      'a route file reading app.services',
      'export const f = (app: { services: { drive: object } }) => app.services.drive;\n',
      'server/modules/drive/probe-routes.ts',
    ],
    [
      'a plugin reading request.server.services',
      'export const f = (request: { server: { services: object } }) => request.server.services;\n',
      'server/plugins/probe.ts',
    ],
    [
      'a job destructuring the services',
      'export const f = (app: { services: { db: object } }) => {\n  const { db } = app.services;\n  return db;\n};\n',
      'server/jobs/probe.ts',
    ],
  ])('refuses %s (issue 31.2: routes get their deps as plugin options)', async (_name, code, filePath) => {
    expect(await problems(code, filePath)).toContain('no-restricted-syntax');
    expect(await problems(code.replaceAll('services', 'deps'), filePath)).not.toContain('no-restricted-syntax');
  });

  it.each([
    ['a template literal', "export const f = (html: string, data: string) => html.replace('</head>', `${data}</head>`);\n"],
    ['a variable', "export const f = (html: string, block: string) => html.replaceAll('</head>', block);\n"],
  ])('refuses data written into a template by String.replace through %s (issue 30 finding 6)', async (_name, code) => {
    expect(await problems(code, 'server/plugins/probe.ts')).toContain('no-restricted-syntax');
    expect(
      await problems("export const f = (html: string, data: string) => html.replace('</head>', () => `${data}</head>`);\n", 'server/plugins/probe.ts'),
    ).not.toContain('no-restricted-syntax');
  });
});
