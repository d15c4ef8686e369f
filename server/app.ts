import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type {} from './augment.js';
import type { Config } from './config.js';
import { createDb, type Db } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { installZodMessages } from './lib/zod-messages.js';
import { humanCheckInUse } from './modules/recaptcha/human-check.js';
import { seed } from './modules/setup/seeder.js';
import { authenticate } from './plugins/authenticate.js';
import { LOCALE_COOKIE } from './modules/localizations/locale-cookie.js';
import { errorHandler } from './plugins/error-handler.js';
import { applyMethodOverride } from './plugins/method-override.js';
import { parseRequestContext } from './plugins/request-context.js';
import { installRequestLog, QuietRequestLog } from './plugins/request-log.js';
import { isApiPath, pathOf, registerWeb } from './plugins/web.js';
import { withSeo } from './modules/custom-pages/seo.js';
import { loadPageRenderer } from './plugins/page-render.js';
import { storeOrigins } from './storage/disks.js';
import { checkTokenScope } from './plugins/token-scope.js';
import { checkXsrf, ensureXsrfCookie } from './plugins/xsrf.js';
import { createServices, type Services } from './services.js';
import { logContextOptions } from './observability/log-context.js';
import { RequestObservation } from './observability/request-observation.js';
import { installObservability } from './observability/index.js';
import { responseSerializerCompiler } from './lib/response-serializer.js';
import { DAV_METHODS } from './modules/webdav/routes.js';
import { DAV_PREFIX } from './modules/webdav/request.js';

/**
 * The document's schemas in name order: zod registers them as their modules are first imported, and the committed
 * document (src/api/openapi.json) must not change because the composition root imports modules in another order.
 */
function sortedComponents<T extends object>(document: T): T {
  if (!('components' in document) || !document.components || typeof document.components !== 'object') return document;
  const components = document.components as { schemas?: Record<string, unknown> };
  if (!components.schemas) return document;
  const schemas = Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...document, components: { ...components, schemas } };
}

const built = new WeakMap<FastifyInstance, Services>();

/**
 * The services an app was built with, for start-up work (main.ts), benches and tests. Routes never use this:
 * each module's routes are registered with the dependencies its index.ts gave them.
 */
export function servicesOf(app: FastifyInstance): Services {
  const services = built.get(app);
  if (!services) throw new Error('This app was not made by buildApp.');
  return services;
}

export interface BuildOptions {
  config: Config;
  /** Use this database instead of opening the configured one (tests). The app still closes it. */
  db?: Db;
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
}

/**
 * Builds the whole server without listening (Fastify's factory habit), so
 * tests drive it in-process with `app.inject()`.
 */
export async function buildApp({ config, db: givenDb, logger }: BuildOptions): Promise<FastifyInstance> {
  installZodMessages();
  const db = givenDb ?? createDb(config.database);
  await migrateToLatest(db.kysely);
  await seed(db.kysely);

  const app = Fastify({
    ...logContextOptions(logger ?? { level: config.logLevel }),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    rewriteUrl: applyMethodOverride,
    // One line per request from request-log.ts, at debug unless slow or failed.
    logController: new QuietRequestLog(),
    // Query strings like `?with=a&with=b` arrive as arrays; keep the default parser.
  }).withTypeProvider<ZodTypeProvider>();

  for (const method of DAV_METHODS) app.addHttpMethod(method, { hasBody: true });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checked: config.env !== 'production' }));
  app.setErrorHandler(errorHandler);
  // First: its onRequest opens the async context (request id, trace) every later hook and handler runs in.
  const requests = new RequestObservation();
  requests.install(app);
  installRequestLog(app);
  const services = createServices(db, config, app.log);
  built.set(app, services);
  // Who is calling: a session or a personal access token of a user (plugins/authenticate.ts).
  const callers = {
    sessions: services.auth.sessions,
    accessTokens: services.auth.accessTokens,
    users: services.users,
    twoFactor: services.auth.twoFactor,
  };
  app.decorate('appKey', () => services.settings.appKey());
  app.decorate('linesSource', { localizations: services.localizations, settings: services.settings });
  installObservability(
    app,
    config.observability,
    {
      ...services,
      uploadsInProgress: () => services.drive.quota.inProgressByKind(),
    },
    requests,
  );
  app.decorateRequest('ctx', null as never);
  app.decorateRequest('actor', null as never);
  app.decorateRequest('user', null);
  app.decorateRequest('authVia', null);
  app.decorateRequest('sessionToken', null);
  app.decorateRequest('sessionCookieId', null);
  app.decorateRequest('tokenScopes', null);
  app.decorateRequest('signedInAt', null);
  app.decorateRequest('impersonatorId', null);
  app.decorateRequest('twoFactorSetupPending', false);
  services.jobs.start();
  // Jobs running here (deliveries, thumbnails) finish before the database closes; Redis connections close too.
  app.addHook('onClose', async () => {
    await services.shared.close();
    await db.destroy();
  });

  await app.register(fastifyCookie);
  // @fastify/multipart is registered by the few routes that take a multipart body (plugins/multipart.ts).
  await app.register(fastifyCompress, { global: true, threshold: 1024 });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Drive API', version: '1.0.0', description: 'REST API of the drive (spec §7).' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'drive_session' },
          token: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => sortedComponents(jsonSchemaTransformObject(input)),
  });

  app.addHook('onRequest', async function identifyCaller(request, reply) {
    const url = pathOf(request.url);
    // WebDAV clients sign in with Basic (a token) on every request and keep no cookies: a fresh XSRF cookie on
    // each of their answers was a random token and a Set-Cookie for nobody.
    if (url === DAV_PREFIX || url.startsWith(`${DAV_PREFIX}/`)) return;
    // Each of the XSRF steps answers a promise only when it has to wait (the app key, a bound token not yet known):
    // an await of nothing is still a microtask turn, on nearly every request (issue 38 §3).
    const cookie = ensureXsrfCookie(request, reply);
    if (cookie) await cookie;
    if (!isApiPath(url)) return;
    request.ctx = parseRequestContext(request);
    await authenticate(request, callers);
    const checked = checkXsrf(request);
    if (checked) await checked;
    checkTokenScope(request);
  });

  for (const routes of services.routes) await app.register(routes.plugin, { prefix: routes.prefix });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await registerWeb(app, config.webDistDir, () => humanCheckInUse(services), {
    bootstrapFor: async (request) => {
      await authenticate(request, callers);
      // Serialised as GET bootstrap-data answers: only what the contract lists leaves.
      const { bootstrap, bootstrapJson } = services.bootstrap;
      return bootstrapJson.serialize(
        await bootstrap.build(request.user, request.cookies[LOCALE_COOKIE] ?? null, request.impersonatorId, request.twoFactorSetupPending),
      );
    },
    storeOrigins: storeOrigins(config.storage),
    renderPage: await loadPageRenderer(config.webSsrEntry),
    transforms: {
      // A public custom page answered directly carries its title and meta tags, for link previews and search
      // engines; a signed-in-only page's tags are set by the app once it has loaded it.
      '/pages/:slug': async (request, html) => {
        const { slug } = request.params as { slug: string };
        const seo = await services.customPages.customPages.headFor(slug);
        return seo ? withSeo(html, seo) : html;
      },
    },
  });
  return app;
}
