/** Request counters for `GET /_sim/stats`: by method and route pattern. */
export class RequestStats {
  private counts = new Map<string, { method: string; route: string; count: number }>();
  private faults = new Map<string, number>();
  private rateLimited = { platform: 0, routingEngine: 0 };
  /** Arrival times (epoch ms) of the first and last platform or routing-engine request: the rate a run reached. */
  private firstAt: number | undefined;
  private lastAt: number | undefined;
  total = 0;

  /** Every platform or routing-engine request, answered or refused, as it arrives. */
  arrived(): void {
    const now = Date.now();
    this.firstAt ??= now;
    this.lastAt = now;
  }

  record(method: string, route: string): void {
    const key = `${method} ${route}`;
    const entry = this.counts.get(key);
    if (entry) entry.count++;
    else this.counts.set(key, { method, route, count: 1 });
    this.total++;
  }

  recordFault(kind: string): void {
    this.faults.set(kind, (this.faults.get(kind) ?? 0) + 1);
  }

  /** A request answered 429 by the rate limit (./rate-limit.ts): not handled, so not in `total`. */
  recordRateLimited(api: 'platform' | 'routingEngine'): void {
    this.rateLimited[api]++;
  }

  reset(): void {
    this.counts = new Map();
    this.faults = new Map();
    this.rateLimited = { platform: 0, routingEngine: 0 };
    this.firstAt = undefined;
    this.lastAt = undefined;
    this.total = 0;
  }

  toJSON(): Record<string, unknown> {
    const routes = [...this.counts.values()].sort((a, b) => b.count - a.count);
    return {
      total: this.total,
      byRoute: Object.fromEntries(routes.map((r) => [`${r.method} ${r.route}`, r.count])),
      routes,
      faults: Object.fromEntries(this.faults),
      rateLimited: { ...this.rateLimited },
      firstRequestAt: this.firstAt ?? null,
      lastRequestAt: this.lastAt ?? null,
    };
  }
}
