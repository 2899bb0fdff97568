import { ApiError } from '../api/errors.js';
import type { RequestSpec } from '../kinds/types.js';
import type { Journal, JournalEntry } from './journal.js';
import type { ApplyClient } from './types.js';

/**
 * Sends the executor's requests: each one's intent is written to the journal before it
 * goes out, and its outcome after it comes back. Bodies are never journalled. Retries
 * (a POST answered 429 included) are the client's, under the one retry policy of src/api.
 */
export class Sender {
  /** Requests sent so far. */
  count = 0;

  constructor(
    private readonly client: ApplyClient,
    private readonly journal: Journal | undefined,
  ) {}

  async send<T = unknown>(
    request: RequestSpec,
    address: string,
    purpose: string,
    extra: { okStatuses?: readonly number[] } = {},
  ): Promise<{ status: number; body: T }> {
    return this.once<T>(request, address, purpose, extra);
  }

  /** Journals a change's outcome (a journal that failed takes it without throwing: see Journal). */
  journalChange(entry: Extract<JournalEntry, { type: 'change' }>): void {
    this.recordAfter(entry);
  }

  /**
   * Waits until every journalled line is on disk. A journal that failed meanwhile is not this
   * run's error: the run stopped starting changes then, and reports it with what it applied.
   */
  async flushed(): Promise<void> {
    await this.journal?.sync().catch((error: unknown) => {
      if (!this.journal?.error) throw error;
    });
  }

  /** Journals what happened after a request: a line that cannot be written must not undo the request's outcome. */
  private recordAfter(entry: JournalEntry): void {
    this.journal?.append(entry);
  }

  /**
   * The client for the executor's reads (finding an object by its identity, a bulk job by
   * its name): journalled like every other request, against `address`. A paged list is one
   * intent and one outcome.
   */
  lookupClient(address: string, purpose: string): ApplyClient {
    return {
      request: <T>(options: Parameters<ApplyClient['request']>[0]) =>
        this.journalled(options.method, options.path, address, purpose, () => this.client.request<T>(options)),
      listPages: async <T>(options: Parameters<ApplyClient['listPages']>[0]) => {
        const all = await this.journalled('GET', options.path, address, `${purpose} (every page)`, async () => ({
          status: 200,
          body: await this.client.listPages<T>(options),
        }));
        return all.body;
      },
    };
  }

  private once<T>(
    request: RequestSpec,
    address: string,
    purpose: string,
    extra: { okStatuses?: readonly number[] },
  ): Promise<{ status: number; body: T }> {
    return this.journalled(request.method, request.path, address, purpose, () =>
      this.client.request<T>({
        method: request.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
        path: request.path,
        ...(request.query ? { query: request.query } : {}),
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.role ? { role: request.role } : {}),
        ...(request.creates ? { creates: true as const } : {}),
        ...(extra.okStatuses ? { okStatuses: extra.okStatuses } : {}),
      }),
    );
  }

  /** Runs one request (or one paged list) between its intent and its outcome in the journal. */
  private async journalled<R extends { status: number; body: unknown }>(
    method: string,
    path: string,
    address: string,
    purpose: string,
    call: () => Promise<R>,
  ): Promise<R> {
    const seq = this.journal?.nextSeq() ?? 0;
    // Written before the request leaves; a journal that cannot take it stops the request.
    this.journal?.append({ type: 'intent', seq, address, method, path, purpose });
    const begin = performance.now();
    this.count++;
    try {
      const response = await call();
      const id = idIn(response.body);
      this.recordAfter({
        type: 'outcome',
        seq,
        address,
        ok: true,
        status: response.status,
        ...(id ? { id } : {}),
        ms: Math.round(performance.now() - begin),
      });
      return response;
    } catch (error) {
      const status = error instanceof ApiError ? error.status : undefined;
      const code = error instanceof ApiError ? error.code : 'SB_APPLY_INTERNAL';
      const message =
        error instanceof ApiError
          ? (error.platformMessage ?? error.detail)
          : error instanceof Error
            ? error.message
            : String(error);
      this.recordAfter({
        type: 'outcome',
        seq,
        address,
        ok: false,
        ...(status === undefined ? {} : { status }),
        code,
        message,
        ms: Math.round(performance.now() - begin),
      });
      throw error;
    }
  }
}

/** The id a create answered with, for the journal (never anything else of the body). */
function idIn(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['uuid', 'id']) {
    const value = record[key];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
}
