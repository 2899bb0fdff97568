/**
 * Events of Document 1 §6.1: create, update and delete of resellers, tenants and
 * subscriptions. Event names and payloads are "not shown"; the simulator records
 * `{event: "tenant.create", objectType, action, objectId, object, occurredOn}` in the
 * `events` table (`GET /_sim/events`) and, when the seed sets `webhook.url`, POSTs the same
 * JSON there without waiting (delivery status is written back on the event).
 */
import type { PlatformStore } from './store/store.js';
import type { EventAction, EventObjectType, EventRow } from './store/types.js';

/**
 * Records an event. Route modules call it after the change is stored, e.g.
 * `recordEvent(store, 'subscription', 'create', String(sub.id), subscriptionView(sub))`.
 */
export function recordEvent(
  store: PlatformStore,
  objectType: EventObjectType,
  action: EventAction,
  objectId: string,
  object: Record<string, unknown>,
): EventRow {
  const row = store.events.insert({
    id: store.nextId('events'),
    event: `${objectType}.${action}`,
    objectType,
    action,
    objectId,
    object: structuredClone(object),
    occurredOn: store.clock.isoNow(),
  });
  const url = store.settings.webhookUrl;
  if (url) void deliver(store, row, url);
  return row;
}

async function deliver(store: PlatformStore, row: EventRow, url: string): Promise<void> {
  const { webhook: _omit, ...payload } = row;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(5000),
    });
    await res.arrayBuffer();
    store.events.update(row.id, { webhook: { url, status: res.status } });
  } catch (error) {
    store.events.update(row.id, { webhook: { url, error: error instanceof Error ? error.message : String(error) } });
  }
}
