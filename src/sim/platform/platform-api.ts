/**
 * The platform API as a {@link SimHandler}: every request under `/api/` goes through
 * route match → authentication (401) → `:instance` check (404) → api_rules (403 naming the
 * role) → handler. Handlers return values or throw ApiError; anything else is a 500.
 */
import type { ServerResponse } from 'node:http';
import { sendEmpty, sendJson, sendText, type SimHandler, type SimRequest } from '../http.js';
import { enforceApiRules } from './api-rules.js';
import { authenticate, type Caller } from './auth/authenticate.js';
import { ApiError, badRequest, forbidden, notFound } from './errors.js';
import type { ApiResponse, RequestContext, Router } from './router.js';
import type { PlatformStore } from './store/store.js';
import { VariantSource } from './variants.js';

/** Called once per request with the matched route pattern (or `unmatched`), for `/_sim/stats`. */
export type RouteObserver = (method: string, pattern: string) => void;

export class PlatformApi implements SimHandler {
  /** Variant mode's source of answer forms (off unless a seed is set). */
  variants = new VariantSource(undefined);

  constructor(
    private readonly store: PlatformStore,
    private readonly router: Router,
    private readonly observe: RouteObserver = () => {},
  ) {}

  async handle(req: SimRequest, res: ServerResponse): Promise<boolean> {
    if (!req.url.pathname.startsWith('/api/')) return false;
    let response: ApiResponse;
    try {
      response = await this.dispatch(req);
    } catch (error) {
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, 'internal', `uncaught simulator error: ${(error as Error).message}`);
      response = { status: apiError.status, body: apiError.body(), headers: apiError.headers };
    }
    if (response.text !== undefined)
      sendText(
        res,
        response.status,
        response.text,
        response.headers?.['content-type'] ?? 'text/plain; charset=utf-8',
        response.headers,
      );
    else if (response.body === undefined) sendEmpty(res, response.status);
    else sendJson(res, response.status, response.body, response.headers);
    return true;
  }

  private async dispatch(req: SimRequest): Promise<ApiResponse> {
    const path = req.url.pathname;
    const { match, methodMismatch } = this.router.match(req.method, path);
    if (!match) {
      this.observe(req.method, 'unmatched');
      if (methodMismatch) throw new ApiError(405, 'method_not_allowed', `${req.method} is not supported on ${path}`);
      throw notFound(`no endpoint ${req.method} ${path}`);
    }
    const { route, params } = match;
    this.observe(req.method, route.path);
    let caller: Caller | undefined;
    if (route.access !== 'public') caller = authenticate(this.store, req, route.token);
    if (params['instance'] !== undefined && params['instance'] !== this.store.instance) {
      throw notFound(`instance ${params['instance']} not found (this platform serves ${this.store.instance})`);
    }
    if (caller) enforceApiRules(caller.user, this.router, route, req.method, path);
    if (route.billable && caller?.user.adminOf.level === 'tenant') {
      throw forbidden(
        `${req.method} ${path} is a billable change, which tenant administrators may not make (Document 1 §1.5)`,
      );
    }
    const ctx: RequestContext = {
      req,
      store: this.store,
      params,
      query: req.url.searchParams,
      body: parseBody(req),
      user: caller?.user,
      session: caller?.session,
      route,
      forms: this.variants.forAnswer(),
    };
    return route.handler(ctx);
  }
}

function parseBody(req: SimRequest): Record<string, unknown> {
  if (req.body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(req.body.toString('utf8'));
  } catch {
    throw badRequest('bad_json', 'the request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('bad_body', 'the request body must be a JSON object');
  return value as Record<string, unknown>;
}
