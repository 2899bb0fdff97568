/**
 * The platform API's router: method + path pattern → handler, each route declaring the
 * role (api_rule `name`, Document 1 §1.6) that guards it.
 *
 * ## Adding a route module
 *
 * 1. Create `src/sim/platform/routes/<resource>.ts` exporting a {@link RouteModule}:
 *
 *    ```ts
 *    export const registerAddressRoutes: RouteModule = (router, store) => {
 *      const addresses = store.table<AddressRow>({ name: 'addresses', key: (a) => String(a.id) });
 *      router.add({
 *        method: 'GET', path: `${T}/addresses`, role: 'tenants.instance.subscriptions.instance.addresses.list',
 *        handler: (ctx) => ok({ addresses: … }),
 *      });
 *    };
 *    ```
 * 2. Add it to `routeModules` in `src/sim/platform/routes/index.ts`.
 *
 * Paths use `:name` parameters and the shorthands {@link P}, {@link G}, {@link T}. Every
 * route is authenticated with an access token unless `token` says otherwise, and is
 * refused with 403 (naming `role`) unless an api_rule of the caller allows the method and
 * path (`access: 'rule'`, the default). Handlers return an {@link ApiResponse} or throw an
 * `ApiError`; hierarchy checks live in `visibility.ts`, pagination in `pagination.ts`,
 * events in `events.ts`, mails in `mail.ts`. The `:instance` parameter is checked by the
 * router (404 for another instance). The seed preset rules `all` and `read` grant every
 * registered route automatically, so a new module needs no seed change.
 */
import type { SimRequest } from '../http.js';
import { badRequest, notFound } from './errors.js';
import type { InventedEndpoint, PlatformStore } from './store/store.js';
import type { SessionRow, UserRow } from './store/types.js';
import type { AnswerForms } from './variants.js';

/** `P` of Document 1 §1.1. */
export const P = '/api/v01/draas/:instance';
/** `G` of Document 2: a group. */
export const G = `${P}/groups/:uuid`;
/** `T` of Document 2: a subscription of a tenant. */
export const T = `${P}/tenants/:uuid/subscriptions/:subscription_id`;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * How a route is authorised: `rule` needs an api_rule (the default; Document 1 §1.6),
 * `authenticated` any valid token (reference data, Document 1 §4.5; the profile),
 * `public` nothing (login, 2FA, logout).
 */
export type RouteAccess = 'rule' | 'authenticated' | 'public';

export interface ApiResponse {
  status: number;
  body?: unknown;
  /** A non-JSON body (file downloads); sent as is with `headers['content-type']`. */
  text?: string;
  headers?: Record<string, string>;
}

/** What a handler receives. */
export interface RequestContext {
  req: SimRequest;
  store: PlatformStore;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (400 when malformed); `{}` when there is none. */
  body: Record<string, unknown>;
  /** The caller; set on every route whose access is not `public`. */
  user: UserRow | undefined;
  session: SessionRow | undefined;
  route: Route;
  /** The forms of this answer's loosely typed fields (variant mode; ./variants.ts). */
  forms: AnswerForms;
}

export type Handler = (ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;

export interface RouteDefinition {
  method: HttpMethod;
  /** Path pattern, e.g. `${P}/groups/:uuid`. */
  path: string;
  /** api_rule name guarding the route. */
  role: string;
  access?: RouteAccess;
  /** Which bearer the route expects: the access token (default) or the refresh token. */
  token?: 'access' | 'refresh';
  /**
   * A billable change whatever its body (Document 1 §1.5): refused to tenant
   * administrators, and left out of the `tenant` rules preset.
   */
  billable?: boolean;
  handler: Handler;
}

export interface Route extends Required<Omit<RouteDefinition, 'token' | 'billable'>> {
  token: 'access' | 'refresh';
  billable: boolean;
  segments: string[];
  /** The regular expression an api_rule uses for this route (`[^/]+` per parameter). */
  urlRegex: string;
  literalCount: number;
}

/** A route module registers its routes (and any store tables it needs). */
export type RouteModule = (router: Router, store: PlatformStore) => void;

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export class Router {
  private readonly routes: Route[] = [];

  add(def: RouteDefinition): void {
    const segments = def.path.split('/').filter((s) => s !== '');
    if (this.routes.some((r) => r.method === def.method && r.path === def.path)) {
      throw new Error(`route ${def.method} ${def.path} registered twice`);
    }
    const urlRegex = `^/${segments.map((s) => (s.startsWith(':') ? '[^/]+' : escapeRegex(s))).join('/')}$`;
    this.routes.push({
      access: 'rule',
      ...def,
      token: def.token ?? 'access',
      billable: def.billable ?? false,
      segments,
      urlRegex,
      literalCount: segments.filter((s) => !s.startsWith(':')).length,
    });
  }

  all(): readonly Route[] {
    return this.routes;
  }

  /**
   * The route for a method and path; the most literal pattern wins. `methodMismatch` is
   * true when the path matches some route with another method.
   */
  match(method: string, path: string): { match?: RouteMatch; methodMismatch: boolean } {
    const parts = path.split('/').filter((s) => s !== '');
    let best: RouteMatch | undefined;
    let methodMismatch = false;
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      if (!best || route.literalCount > best.route.literalCount) best = { route, params };
    }
    return best ? { match: best, methodMismatch } : { methodMismatch };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const v = parts[i] as string;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(v);
      } catch {
        throw badRequest('bad_path', `path segment ${v} is not valid percent-encoding`);
      }
    } else if (p !== v) return undefined;
  }
  return params;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * An endpoint the documents do not show, switched off by the seed (`inventedEndpoints`):
 * it answers the 404 of a path the platform does not have.
 */
export function assertInvented(ctx: RequestContext, endpoint: InventedEndpoint): void {
  if (ctx.store.settings.withoutEndpoints?.includes(endpoint))
    throw notFound(`no endpoint ${ctx.req.method} ${ctx.req.url.pathname}`);
}

export const ok = (body: unknown, headers?: Record<string, string>): ApiResponse => ({
  status: 200,
  body,
  ...(headers ? { headers } : {}),
});
export const noContent = (): ApiResponse => ({ status: 204 });
