import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The page's one queue client (src/offline/queues/client.ts) is the only code
 * in the page that posts to the service worker (issue 31 item 4): a fourth
 * way of talking to the queue host cannot grow beside it. The check reads
 * types, not text, so a worker reached through a variable, a registration or
 * a Workbox helper is found as surely as `controller.postMessage`.
 */
const ROOT = path.resolve(__dirname, '../../..');
const QUEUE_CLIENT = 'src/offline/queues/client.ts';
/**
 * The update prompt's handshake goes to the *waiting* worker (a new version
 * asking to take over), never to the active one that hosts the queues.
 */
const ALLOWED: Record<string, string[]> = {
  [QUEUE_CLIENT]: ['ServiceWorker.postMessage'],
  'src/offline/sw-registration.ts': ['Workbox.messageSkipWaiting'],
};
const WORKER_TYPES = new Set(['ServiceWorker', 'Workbox']);
const WORKER_CALLS = new Set(['postMessage', 'messageSW', 'messageSkipWaiting']);

function loadProgram(extra: Record<string, string> = {}): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const host = ts.createCompilerHost(config.options);
  const probes = new Map(Object.entries(extra).map(([file, text]) => [path.join(ROOT, file), text]));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    const probe = probes.get(path.resolve(fileName));
    return probe === undefined ? getSourceFile(fileName, language, ...rest) : ts.createSourceFile(fileName, probe, language, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => probes.has(path.resolve(fileName)) || fileExists(fileName);
  return ts.createProgram({ rootNames: [...config.fileNames, ...probes.keys()], options: config.options, host });
}

/** Every call in the page that sends a message to a service worker, as `file:line: Type.method`. */
function workerPosts(program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    const file = path.relative(ROOT, source.fileName);
    if (!file.startsWith('src/') || file.endsWith('.d.ts')) continue;
    // Only files that name such a method can call it: the checker is asked about those alone.
    if (![...WORKER_CALLS].some((name) => source.text.includes(name))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && WORKER_CALLS.has(node.expression.name.text)) {
        // Where the called method is declared: the ServiceWorker interface (DOM lib) or Workbox's class,
        // whatever type the receiver was given on the way (a Pick, an alias, a registration's field).
        const method = checker.getSymbolAtLocation(node.expression.name);
        const owner = (method?.declarations ?? [])
          .map((declaration) => declaration.parent)
          .find((parent) => (ts.isInterfaceDeclaration(parent) || ts.isClassDeclaration(parent)) && WORKER_TYPES.has(parent.name?.text ?? ''));
        if (owner && (ts.isInterfaceDeclaration(owner) || ts.isClassDeclaration(owner))) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          found.push(`${file}:${line}: ${owner.name?.text}.${node.expression.name.text}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort();
}

function unexpected(posts: string[]): string[] {
  return posts.filter((post) => {
    const [where, call] = post.split(': ') as [string, string];
    return !ALLOWED[where.replace(/:\d+$/, '')]?.includes(call);
  });
}

describe('messages to the service worker', () => {
  it('come from the queue client alone (and the update prompt, to the waiting worker)', () => {
    const posts = workerPosts(loadProgram());
    expect(unexpected(posts)).toEqual([]);
    // The scan sees the client's own posts: it is looking at the right thing.
    expect(posts.filter((post) => post.startsWith(`${QUEUE_CLIENT}:`)).length).toBeGreaterThan(0);
  }, 120_000);

  it('are found however a feature reaches the worker', () => {
    const probe = `export async function kick() {
        navigator.serviceWorker.controller?.postMessage({ type: 'uploads:kick' });
        const registration = await navigator.serviceWorker.ready;
        const worker: Pick<ServiceWorker, 'postMessage'> | null = registration.active;
        worker?.postMessage({ type: 'saves:kick' });
      }`;
    const posts = workerPosts(loadProgram({ 'src/features/drive/probe.ts': probe }));
    expect(unexpected(posts)).toEqual(['src/features/drive/probe.ts:2: ServiceWorker.postMessage', 'src/features/drive/probe.ts:5: ServiceWorker.postMessage']);
  }, 120_000);
});
