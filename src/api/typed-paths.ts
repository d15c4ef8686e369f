import type { paths } from './schema';

// The generated OpenAPI paths as the client names them: '/api/v1/users/{id}'
// is 'users/{id}', '/auth/login' is 'auth/login' (the base client rules add
// the prefix back). A call names its path; its parameters, body and answer
// follow from the document, so a path paired with the wrong type does not compile.
export type Method = 'get' | 'post' | 'put' | 'delete';

type Short<P> = P extends `/api/v1/${infer R}` ? R : P extends `/${infer R}` ? R : never;

/** Paths that have an operation for this method. */
export type ApiPath<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? Short<P> : never;
}[keyof paths];

type Full<S extends string> = Extract<keyof paths, `/api/v1/${S}` | `/${S}`>;
type Operation<S extends string, M extends Method> = NonNullable<paths[Full<S>][M]>;

/** The 200 JSON answer; calls without one answer nothing. */
export type ApiResponse<S extends string, M extends Method> =
  Operation<S, M> extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : void;

export type ApiBody<S extends string, M extends Method> = Operation<S, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

type Declared<T> = [T] extends [never] ? object : [T] extends [undefined] ? object : NonNullable<T>;

/** `{id}`-style parameters of the path. */
export type ApiPathParams<S extends string, M extends Method> = Declared<Operation<S, M> extends { parameters: { path?: infer P } } ? P : never>;

/** The query the route declares, and `with` (relations), which every call may carry. */
export type ApiQuery<S extends string, M extends Method> = Declared<Operation<S, M> extends { parameters: { query?: infer Q } } ? Q : never> & {
  with?: readonly string[];
};

export interface CallOptions<S extends string, M extends Method> {
  path?: ApiPathParams<S, M>;
  query?: ApiQuery<S, M>;
  signal?: AbortSignal;
}

/** 'users/{id}' with { id: 'me' } → 'users/me'. */
export function fillPath(template: string, params: object | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}
