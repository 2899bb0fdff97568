import type { ServerResponse } from 'node:http';
import { sendEmpty, sendJson, type SimRequest } from '../http.js';
import type { SimEngine } from './engine.js';
import { asQuery, hasFilters, parseQueryParam, selectIds } from './query.js';
import type { SimTable } from './table.js';
import { SimHttpError, type SimRow } from './types.js';

/** Which table and which sub-resource a request addresses (Doc3 §4 base path). */
export interface RoutePath {
  service: string;
  version: string;
  table: string;
  /** `undefined` for the collection, a record id, or `_bulk`. */
  item?: string;
}

/**
 * Splits `/<service>/<version>/<table>[/<id>|/_bulk]`. `null` for the paths the engine does
 * not own (`/api/…`, `/_sim/…`, on the shared server); `unknown` for the engine's own paths
 * that name no table (another shape, a version other than `active`/`standby`, a malformed
 * escape), which it answers with its own 404 (Doc3 §7).
 */
export function parseRoutePath(pathname: string): RoutePath | 'unknown' | null {
  const first = pathname.split('/').find((p) => p !== '');
  if (first === 'api' || first === '_sim') return null;
  let parts: string[];
  try {
    parts = pathname
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent);
  } catch {
    return 'unknown';
  }
  if (parts.length < 3 || parts.length > 4) return 'unknown';
  const [service, version, table, item] = parts as [string, string, string, string | undefined];
  if (version !== 'active' && version !== 'standby') return 'unknown';
  return { service, version, table, ...(item === undefined ? {} : { item }) };
}

/** Answers one authenticated request for a table; throws SimHttpError for error answers. */
export function dispatch(engine: SimEngine, path: RoutePath, req: SimRequest, res: ServerResponse): void {
  const table = engine.table(path.service, path.version, path.table);
  if (!table) throw notFound(req);
  const method = req.method.toUpperCase();
  if (method === 'OPTIONS') return allowed(engine, path, req, res);
  if (path.item === '_bulk') {
    if (method !== 'POST') throw notAllowed(method);
    return bulkCreate(engine, table, req, res);
  }
  if (path.item !== undefined) return item(table, path.item, method, req, res);
  switch (method) {
    case 'GET':
      return list(engine, table, req, res);
    case 'POST':
      return sendJson(res, 201, table.insert([body(req)], false)[0]);
    case 'PATCH':
    case 'PUT':
      return updateMany(engine, table, req, res);
    default:
      throw notAllowed(method);
  }
}

/** The methods of each route, as `OPTIONS` lists them (`Allow`, RFC 9110 §10.2.1). */
const COLLECTION_METHODS = 'GET, POST, PUT, PATCH, OPTIONS';
const RECORD_METHODS = 'GET, PUT, PATCH, DELETE, OPTIONS';

/**
 * `OPTIONS`: not shown in Document 3, answered as a Flask engine answers it, with the route's
 * methods in `Allow` (and no body). An engine without `_bulk` (the seed's quirk) answers as
 * such an engine would: 404 when nothing serves the path, or the record route's methods (no
 * POST) when `_bulk` is taken for a record id, which is where its 405 to a POST comes from.
 */
function allowed(engine: SimEngine, path: RoutePath, req: SimRequest, res: ServerResponse): void {
  let methods = path.item === undefined ? COLLECTION_METHODS : RECORD_METHODS;
  if (path.item === '_bulk') {
    if (engine.quirks.bulkStatus === 404) throw notFound(req);
    if (engine.quirks.bulkStatus === undefined) methods = 'POST, OPTIONS';
  }
  res.writeHead(200, { allow: methods, 'content-length': 0 });
  res.end();
}

function list(engine: SimEngine, table: SimTable, req: SimRequest, res: ServerResponse): void {
  const q = parseQueryParam(req.url.searchParams.get('q'));
  const page = positiveInt(req.url.searchParams.get('page'), 1, 'page');
  const perPage = Math.min(
    positiveInt(req.url.searchParams.get('results_per_page'), 10, 'results_per_page'),
    engine.maxResultsPerPage,
  );
  const ids = selectIds(table, q);
  // Doc3 §4.2: a search that matches nothing is 404, and so is a list of a table holding no
  // record ("404 when data not found"), unless the seed's quirks make them 200.
  const emptyStatus = hasFilters(q) ? engine.quirks.emptySearchStatus : engine.quirks.emptyListStatus;
  if (ids.length === 0 && emptyStatus !== 200) throw notFound(req);
  const start = (page - 1) * perPage;
  const objects: SimRow[] = [];
  for (let i = start; i < Math.min(start + perPage, ids.length); i++)
    objects.push(table.rows.get(ids[i] as number) as SimRow);
  sendJson(res, 200, { num_results: ids.length, page, total_pages: Math.ceil(ids.length / perPage), objects });
}

function bulkCreate(engine: SimEngine, table: SimTable, req: SimRequest, res: ServerResponse): void {
  if (engine.quirks.bulkStatus)
    throw new SimHttpError(
      engine.quirks.bulkStatus,
      engine.quirks.bulkStatus === 404
        ? `The requested URL ${req.url.pathname} was not found on the server.`
        : 'The method is not allowed for the requested URL.',
    );
  const records = body(req);
  if (!Array.isArray(records))
    throw new SimHttpError(400, 'Unable to decode data: "_bulk" expects a JSON array of records');
  const rows = table.insert(records, true);
  sendJson(res, 201, { inserted: rows.length });
}

function item(table: SimTable, rawId: string, method: string, req: SimRequest, res: ServerResponse): void {
  const id = /^\d+$/.test(rawId) ? Number(rawId) : NaN;
  if (!table.rows.has(id)) throw notFound(req);
  switch (method) {
    case 'GET':
      return sendJson(res, 200, table.rows.get(id));
    case 'PUT':
    case 'PATCH':
      return sendJson(res, 200, table.update([id], body(req))[0]);
    case 'DELETE':
      table.remove(id);
      return sendEmpty(res, 204);
    default:
      throw notAllowed(method);
  }
}

/** Doc3 §4.1/§4.2: the filter comes from the URL or the body's `q`, never both (400). */
function updateMany(engine: SimEngine, table: SimTable, req: SimRequest, res: ServerResponse): void {
  const payload = body(req);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new SimHttpError(400, 'Unable to decode data: the body must be a JSON object');
  }
  const { q: bodyQ, ...changes } = payload as Record<string, unknown>;
  const urlQ = req.url.searchParams.get('q');
  if (urlQ !== null && bodyQ !== undefined)
    throw new SimHttpError(400, 'Filter given twice: use either the "q" URL parameter or the "q" key of the body');
  if (Object.keys(changes).length === 0) throw new SimHttpError(400, 'Nothing to update: the body names no field');
  const q =
    bodyQ !== undefined ? asQuery(bodyQ) : engine.quirks.ignoreUrlFilterOnWrite ? undefined : parseQueryParam(urlQ);
  const ids = selectIds(table, q ? { filters: q.filters } : undefined);
  if (ids.length > 0) table.update([...ids], changes);
  sendJson(res, 200, { num_modified: ids.length });
}

function body(req: SimRequest): unknown {
  if (req.body.length === 0) throw new SimHttpError(400, 'Unable to decode data: empty body');
  try {
    return JSON.parse(req.body.toString('utf8')) as unknown;
  } catch {
    throw new SimHttpError(400, 'Unable to decode data: the body is not valid JSON');
  }
}

function positiveInt(raw: string | null, fallback: number, name: string): number {
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new SimHttpError(400, `Invalid "${name}": ${raw}`);
  return n;
}

export function notFound(req: SimRequest): SimHttpError {
  return new SimHttpError(404, `The requested URL ${req.url.pathname} was not found on the server.`);
}

function notAllowed(method: string): SimHttpError {
  return new SimHttpError(405, `The method ${method} is not allowed for the requested URL.`);
}

export function sendError(res: ServerResponse, error: SimHttpError): void {
  const headers: Record<string, string> =
    error.status === 401 ? { 'www-authenticate': 'Basic realm="routing-engine"' } : {};
  sendJson(res, error.status, { code: String(error.status), message: error.message, ...error.extra }, headers);
}
