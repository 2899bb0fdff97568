/// <reference lib="dom" />
/**
 * The HTML report's script. It runs in the browser, not in Node: render-html.ts inlines
 * the text of {@link reportMain} as `(function …)()`, so the function must be whole in
 * itself (no module variables, no helpers from outside its body; only type imports, which
 * leave nothing behind). It reads the plan from the page's <script type="application/json">
 * block and builds the lists from it lazily (a chunk of entries at a time, as they scroll into view), so a plan of 100,000
 * changes opens at once. It only ever sets text (textContent, never markup), so a value
 * from the plan cannot become HTML. (The `dom` library referenced above types this file;
 * the Node code around it uses none of it.)
 */
import type { ChangeGroup } from './groups.js';
import type { SourceLinks } from './source-links.js';

/** What the report's script hands to the printing part (html/report-print.ts). */
export interface ReportApi {
  /** Builds every entry the filters show (and every item of the refusal, warning and unmanaged lists). */
  renderAll(): void;
  /** Opens a built change, its details built first (a print starts at once, before any toggle event). */
  open(node: HTMLDetailsElement): void;
  /** How many changes the plan has, and how many the filters show now. */
  counts(): { total: number; shown: number };
  /** Called after each change of the filters. */
  onRefresh(listener: () => void): void;
}

/**
 * `extend`: the printing part; `visible`: what a text shows, its invisible characters
 * escaped (html/visible.ts, handed over by render-html.ts).
 */
export function reportMain(extend: ((api: ReportApi) => void) | undefined, visible: (text: string) => string): void {
  type Action = 'create' | 'update' | 'replace' | 'delete';
  interface ChangeData {
    address: string;
    kind: string;
    action: Action;
    id?: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    patch: { op: string; path: string; value?: unknown; from?: string }[];
    reason: string;
    dependsOn: string[];
    requests: { method: string; path: string; role?: string }[];
    source?: string;
    previousAddress?: string;
    fieldSources?: Record<string, { from: string; path: string; source?: string; baseline?: string; reason?: string }>;
    [field: string]: unknown;
  }
  interface MessageData {
    code: string;
    message: string;
    address?: string;
    [field: string]: unknown;
  }
  interface ReportData {
    plan: {
      changes: ChangeData[];
      unmanaged: { address: string; kind: string; id?: string }[];
      warnings: MessageData[];
      errors: MessageData[];
    };
    groups: ChangeGroup[];
    fieldOrder: Record<string, string[]>;
    links: SourceLinks | null;
  }
  type Entry = { t: 'h'; level: 3 | 4 | 5; text: string; count: number } | { t: 'c'; i: number };

  const CHUNK = 200;
  const SHOWN_FIELDS = ['address', 'kind', 'provider', 'action', 'id', 'before', 'after', 'patch', 'reason'];
  const DETAIL_FIELDS = new Set([
    ...SHOWN_FIELDS,
    'liveDigest',
    'dependsOn',
    'requests',
    'sensitiveDigests',
    'source',
    'previousAddress',
    'reasonCode',
    'replacedBy',
    'fieldSources',
  ]);
  const MESSAGE_FIELDS = new Set(['code', 'message', 'address', 'role', 'rule', 'source']);

  const dataNode = document.getElementById('plan-data');
  const data = JSON.parse(dataNode?.textContent ?? 'null') as ReportData;
  const changes = data.plan.changes;
  // A refusal names its change by address: a badge on the change links to the refusal, and back.
  const changeByAddress = new Map<string, number>();
  changes.forEach((c, i) => void (changeByAddress.has(c.address) || changeByAddress.set(c.address, i)));
  const refusalsOf = new Map<string, number[]>();
  data.plan.errors.forEach((m, n) => {
    if (m.address !== undefined && changeByAddress.has(m.address))
      refusalsOf.set(m.address, [...(refusalsOf.get(m.address) ?? []), n]);
  });
  const messagesByAddress = new Map<string, { severity: string; message: MessageData }[]>();
  for (const [severity, list] of [
    ['refusal', data.plan.errors],
    ['warning', data.plan.warnings],
  ] as const) {
    for (const message of list) {
      if (!message.address) continue;
      const known = messagesByAddress.get(message.address) ?? [];
      known.push({ severity, message });
      messagesByAddress.set(message.address, known);
    }
  }

  /** `root` with every text below it made {@link visible}: each list's items pass here before they are shown. */
  function reveal<T extends Node>(root: T): T {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node as Text;
      const shown = visible(text.data);
      if (shown !== text.data) text.data = shown;
    }
    return root;
  }

  /** An element with attributes and children (strings become text, never markup). */
  function el(tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs))
      node.setAttribute(name, name === 'title' ? visible(value) : value);
    for (const child of children) node.append(child);
    return node;
  }

  function byId(id: string): HTMLElement | null {
    return document.getElementById(id);
  }

  /** A value as the text plan shows it: the markers bare, anything else as compact JSON. */
  function show(value: unknown): string {
    if (value === '(sensitive)' || value === '(write-only)') return value;
    return value === undefined ? '' : (JSON.stringify(value) ?? 'null');
  }

  /** Text as it is, anything else as {@link show} writes it. */
  function text(value: unknown): string {
    return typeof value === 'string' ? value : show(value);
  }

  /** A link to a manifest position (`file:line[:col]`) at the planned commit, or the position as text. */
  function position(source: string): Node {
    const match = /^(.*?):(\d+)(?::\d+)?$/.exec(source);
    const links = data.links;
    if (!match || !links) return el('code', {}, source);
    let file = match[1] ?? '';
    if (file.startsWith(links.workspace)) file = file.slice(links.workspace.length);
    else if (file.startsWith('/')) return el('code', {}, source);
    else file = links.prefix + file;
    const parts: string[] = [];
    for (const part of file.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (parts.length === 0) return el('code', {}, source);
        parts.pop();
      } else parts.push(part);
    }
    const href = `${links.base}${parts.map(encodeURIComponent).join('/')}#L${match[2] ?? '1'}`;
    return el('a', { href, rel: 'noreferrer' }, el('code', {}, source));
  }

  function messageItem(message: MessageData): HTMLElement {
    const item = el('li', {}, el('span', { class: 'code' }, message.code));
    if (message.address) item.append(' ', el('code', {}, message.address));
    item.append(': ', message.message);
    for (const [key, value] of Object.entries(message)) {
      if (key === 'code' || key === 'message' || key === 'address' || value === undefined) continue;
      const label = key === 'rule' ? 'policy rule' : key === 'source' ? 'declared at' : key;
      const shown = key === 'source' && typeof value === 'string' ? position(value) : el('code', {}, text(value));
      item.append(' ', el('span', { class: 'hint' }, `(${label} `, shown, ')'));
      if (!MESSAGE_FIELDS.has(key)) item.setAttribute('data-extra', key);
    }
    return item;
  }

  /**
   * Appends `render(items[i])` to `list`, `CHUNK` at a time behind a "show more" button.
   * Returns a function that builds the items up to an index (Infinity: all of them).
   */
  function limitedList<T>(
    list: HTMLElement,
    items: T[],
    render: (item: T, index: number) => Node,
    noun: string,
  ): (upTo: number) => void {
    let shown = 0;
    const more = el('button', { type: 'button', class: 'more' });
    const next = (upTo = shown + CHUNK - 1): void => {
      const end = Math.min(items.length, Math.max(upTo + 1, shown));
      const fragment = document.createDocumentFragment();
      for (; shown < end; shown++) fragment.append(render(items[shown] as T, shown));
      list.append(reveal(fragment));
      if (shown >= items.length) more.remove();
      else
        more.textContent = `Show ${Math.min(CHUNK, items.length - shown)} more ${noun} (${items.length - shown} left)`;
    };
    more.addEventListener('click', () => next());
    list.after(more);
    next();
    return next;
  }

  /** A refusal of the list: an anchor for its change's badge, and a link back to the change. */
  function refusalItem(message: MessageData, n: number): HTMLElement {
    const item = messageItem(message);
    item.id = `refusal-${n}`;
    item.tabIndex = -1;
    const i = message.address === undefined ? undefined : changeByAddress.get(message.address);
    if (i !== undefined) {
      const back = el('a', { href: `#change-${i}`, class: 'to-change' }, 'the refused change');
      back.addEventListener('click', (event) => {
        event.preventDefault();
        showChange(i);
      });
      item.append(' ', el('span', { class: 'hint' }, '(', back, ')'));
    }
    return item;
  }

  const lists: ((upTo: number) => void)[] = [];
  let showRefusals: ((upTo: number) => void) | undefined;
  const refusalNode = byId('refusal-list');
  if (refusalNode) lists.push((showRefusals = limitedList(refusalNode, data.plan.errors, refusalItem, 'refusals')));
  const warningNode = byId('warning-list');
  if (warningNode) lists.push(limitedList(warningNode, data.plan.warnings, (m) => messageItem(m), 'warnings'));
  const unmanagedNode = byId('unmanaged-list');
  if (unmanagedNode) {
    lists.push(
      limitedList(
        unmanagedNode,
        data.plan.unmanaged,
        (u) =>
          el(
            'li',
            {},
            el('code', {}, u.address),
            ' ',
            el('span', { class: 'kind' }, u.kind),
            u.id ? ` id ${u.id}` : '',
          ),
        'objects',
      ),
    );
  }

  function section(title: string, ...content: Node[]): Node[] {
    return [el('h6', {}, title), ...content];
  }

  function fieldTable(change: ChangeData): Node[] {
    const before = change.before ?? {};
    const after = change.after ?? {};
    const token = (path: string): string => (path.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
    const touched = new Set(change.patch.map((op) => token(op.path)));
    const order = data.fieldOrder[change.kind] ?? [];
    const place = (name: string): number => (order.includes(name) ? order.indexOf(name) : order.length);
    const names = [...new Set([...Object.keys(after), ...Object.keys(before)])].sort(
      (a, b) => place(a) - place(b) || (a < b ? -1 : a > b ? 1 : 0),
    );
    if (names.length === 0) return [];
    const rows = names.map((name) => {
      const inBefore = change.before !== null && Object.hasOwn(before, name);
      const inAfter = change.after !== null && Object.hasOwn(after, name);
      const differs = show(before[name]) !== show(after[name]) || touched.has(name) || inBefore !== inAfter;
      const changed = change.action !== 'create' && change.action !== 'delete' && differs;
      const mark = changed ? el('span', { class: 'sr-only' }, ' (changed)') : '';
      return el(
        'tr',
        changed ? { class: 'changed' } : {},
        el('th', { scope: 'row' }, el('code', {}, name), mark),
        el('td', { class: 'value mono' }, inBefore ? show(before[name]) : '—'),
        el('td', { class: 'value mono' }, inAfter ? show(after[name]) : '—'),
      );
    });
    const head = el('tr', {}, el('th', { scope: 'col' }, 'field'), el('th', { scope: 'col' }, 'before'));
    head.append(el('th', { scope: 'col' }, 'after'));
    const table = el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows));
    return section('Before and after', el('div', { class: 'table-wrap' }, table));
  }

  function changeBody(change: ChangeData): HTMLElement {
    const body = el('div', { class: 'body' });
    const facts = el('dl', { class: 'facts' });
    const fact = (term: string, value: Node | string): void =>
      void facts.append(el('dt', {}, term), el('dd', {}, value));
    if (change.reason) fact('Why', change.reason);
    if (typeof change.reasonCode === 'string') fact('Reason code', el('code', {}, change.reasonCode));
    if (Array.isArray(change.replacedBy)) fact('Forces replacement', el('code', {}, change.replacedBy.join(', ')));
    if (change.previousAddress) fact('Renamed from', el('code', {}, change.previousAddress));
    if (change.provider !== undefined) fact('Provider', String(change.provider));
    if (change.id) fact('Live id', el('code', {}, change.id));
    if (change.source) fact('Declared at', position(change.source));
    if (typeof change.liveDigest === 'string') fact('Live digest', el('code', {}, change.liveDigest));
    body.append(facts);
    const notes = messagesByAddress.get(change.address) ?? [];
    if (notes.length > 0) {
      const list = el('ul', { class: 'messages' });
      for (const note of notes) {
        const item = messageItem(note.message);
        item.prepend(el('strong', {}, note.severity === 'refusal' ? 'Refused: ' : 'Warning: '));
        list.append(item);
      }
      body.append(...section('Refusals and warnings for this change', list));
    }
    body.append(...fieldTable(change));
    if (change.patch.length > 0) {
      const ops = change.patch.map((op) => {
        const item = el('li', {}, el('code', {}, `${op.op} ${op.path === '' ? '(whole object)' : op.path}`));
        if (op.from !== undefined) item.append(' from ', el('code', {}, op.from));
        if ('value' in op) item.append(' = ', el('code', { class: 'value' }, show(op.value)));
        return item;
      });
      body.append(...section('Patch (RFC 6902)', el('ol', {}, ...ops)));
    }
    if (change.requests.length > 0) {
      const requests = change.requests.map((r) =>
        el('li', {}, el('code', {}, `${r.method} ${r.path}`), r.role ? ` (role ${r.role})` : ''),
      );
      body.append(...section('Requests', el('ul', {}, ...requests)));
    }
    if (change.dependsOn.length > 0) {
      const after = change.dependsOn.map((a) => el('li', {}, el('code', {}, a)));
      body.append(...section('Applied after', el('ul', {}, ...after)));
    }
    if (change.fieldSources) {
      const items = Object.entries(change.fieldSources).map(([field, origin]) => {
        const item = el('li', {}, el('code', {}, field), ': ');
        if (origin.from === 'baseline') item.append(`baseline ${origin.baseline ?? ''}`);
        else if (origin.from === 'override')
          item.append(`this document's override of baseline ${origin.baseline ?? ''}: ${origin.reason ?? ''}`);
        else item.append('this document');
        if (origin.source) item.append(' ', position(origin.source));
        return item;
      });
      body.append(...section('Where the values come from', el('ul', {}, ...items)));
    }
    const digests = change.sensitiveDigests;
    if (digests && typeof digests === 'object') {
      const items = Object.entries(digests).map(([k, v]) =>
        el('li', {}, el('code', {}, k), ': ', el('code', {}, show(v))),
      );
      body.append(...section('Sensitive values (digests only)', el('ul', {}, ...items)));
    }
    const extras = Object.keys(change).filter((k) => !DETAIL_FIELDS.has(k) && change[k] !== undefined);
    if (extras.length > 0) {
      const items = extras.map((k) =>
        el('li', { 'data-extra': k }, el('code', {}, k), ': ', el('code', {}, show(change[k]))),
      );
      body.append(...section('Other', el('ul', {}, ...items)));
    }
    return reveal(body);
  }

  function changeEntry(i: number): HTMLElement {
    const change = changes[i] as ChangeData;
    const summary = el('summary', {}, el('span', { class: 'badge' }, change.action), ' ');
    summary.append(el('span', { class: 'addr' }, change.address), ' ', el('span', { class: 'kind' }, change.kind));
    if (change.id) summary.append(' ', el('span', { class: 'id' }, `id ${change.id}`));
    if (change.previousAddress)
      summary.append(' ', el('span', { class: 'id' }, `renamed from ${change.previousAddress}`));
    for (const n of refusalsOf.get(change.address) ?? []) {
      const refusal = data.plan.errors[n] as MessageData;
      const badge = el('a', { href: `#refusal-${n}`, class: 'refused', title: refusal.message }, 'refused');
      badge.append(' ', el('span', { class: 'code' }, refusal.code));
      badge.addEventListener('click', (event) => {
        // The link's own action, not the summary's toggle.
        event.preventDefault();
        event.stopPropagation();
        showRefusals?.(n);
        const target = byId(`refusal-${n}`);
        target?.scrollIntoView({ block: 'center' });
        target?.focus();
      });
      summary.append(' ', badge);
    }
    const baselines = new Set<string>();
    for (const origin of Object.values(change.fieldSources ?? {}))
      if (origin.from === 'baseline' && origin.baseline) baselines.add(origin.baseline);
    if (baselines.size > 0) summary.append(' ', el('span', { class: 'id' }, `baseline ${[...baselines].join(', ')}`));
    if ((change.action === 'delete' || change.action === 'replace') && change.reason) {
      summary.append(el('span', { class: 'why' }, change.reason));
    }
    const node = el('details', { class: `change a-${change.action}`, id: `change-${i}`, 'data-index': String(i) });
    node.append(summary);
    node.addEventListener('toggle', () => {
      if ((node as HTMLDetailsElement).open && node.childElementCount === 1) node.append(changeBody(change));
    });
    return node;
  }

  /** Opens a built change, its details built first. */
  function openChange(node: HTMLDetailsElement): void {
    const change = changes[Number(node.getAttribute('data-index'))];
    if (change && node.childElementCount === 1) node.append(changeBody(change));
    node.open = true;
  }

  /** Shows change `i` from a refusal's link: every filter cleared if they hide it, built, opened, in view. */
  function showChange(i: number): void {
    if (!visibleFilter()(i)) {
      for (const box of Array.from(form?.querySelectorAll<HTMLInputElement>('input[type=checkbox]') ?? []))
        box.checked = true;
      if (search) search.value = '';
      refresh();
    }
    let node = byId(`change-${i}`);
    while (!node && rendered < entries.length) {
      renderChunk();
      node = byId(`change-${i}`);
    }
    if (!(node instanceof HTMLDetailsElement)) return;
    openChange(node);
    node.scrollIntoView({ block: 'start' });
    node.querySelector('summary')?.focus();
  }

  // ---- filtering ----
  const form = byId('filters') as HTMLFormElement | null;
  const search = byId('search') as HTMLInputElement | null;
  const status = byId('change-status');
  const list = byId('change-list');
  let haystacks: string[] | undefined;

  function haystack(i: number): string {
    haystacks ??= changes.map((c) =>
      [c.address, c.kind, c.id ?? '', c.reason, c.source ?? '', c.previousAddress ?? '', show(c.before), show(c.after)]
        .join('\n')
        .toLowerCase(),
    );
    return haystacks[i] ?? '';
  }

  function checkedValues(name: string): Set<string> {
    const boxes = form ? Array.from(form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`)) : [];
    return new Set(boxes.filter((b) => b.checked).map((b) => b.value));
  }

  function visibleFilter(): (i: number) => boolean {
    const actions = checkedValues('action');
    const kinds = checkedValues('kind');
    const terms = (search?.value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    return (i) => {
      const change = changes[i] as ChangeData;
      if (!actions.has(change.action) || !kinds.has(change.kind)) return false;
      if (terms.length === 0) return true;
      const text = haystack(i);
      return terms.every((t) => text.includes(t));
    };
  }

  function entriesFor(visible: (i: number) => boolean): { entries: Entry[]; shown: number } {
    const kept = data.groups.map((g) => g.items.filter(visible));
    const perTop = new Map<string, number>();
    const perSub = new Map<string, number>();
    data.groups.forEach((g, n) => {
      const count = kept[n]?.length ?? 0;
      perTop.set(g.top, (perTop.get(g.top) ?? 0) + count);
      if (g.sub !== null) perSub.set(g.sub, (perSub.get(g.sub) ?? 0) + count);
    });
    const entries: Entry[] = [];
    let top: string | undefined;
    let sub: string | null | undefined;
    let shown = 0;
    data.groups.forEach((g, n) => {
      const items = kept[n] ?? [];
      if (items.length === 0) return;
      if (g.top !== top) {
        entries.push({ t: 'h', level: 3, text: g.top, count: perTop.get(g.top) ?? 0 });
        top = g.top;
        sub = null;
      }
      if (g.sub !== null && g.sub !== sub) {
        entries.push({ t: 'h', level: 4, text: g.sub, count: perSub.get(g.sub) ?? 0 });
        sub = g.sub;
      }
      if (!g.self) {
        const where = g.parent === (g.sub ?? g.top) ? '' : ` in ${g.parent}`;
        entries.push({ t: 'h', level: 5, text: `${g.kind}${where}`, count: items.length });
      }
      for (const i of items) entries.push({ t: 'c', i });
      shown += items.length;
    });
    return { entries, shown };
  }

  let entries: Entry[] = [];
  let rendered = 0;
  const sentinel = el('div', { class: 'sentinel', 'aria-hidden': 'true' });
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (seen) => {
            if (seen.some((s) => s.isIntersecting)) renderChunk();
          },
          { rootMargin: '1200px 0px' },
        )
      : undefined;

  function renderChunk(): void {
    if (!list || rendered >= entries.length) return;
    const chunk = el('div', { class: 'chunk' });
    const end = Math.min(entries.length, rendered + CHUNK);
    for (; rendered < end; rendered++) {
      const entry = entries[rendered] as Entry;
      if (entry.t === 'c') chunk.append(changeEntry(entry.i));
      else chunk.append(el(`h${entry.level}`, {}, entry.text, ' ', el('span', { class: 'count' }, `(${entry.count})`)));
    }
    list.append(reveal(chunk));
    list.append(sentinel);
    if (!observer) {
      if (rendered < entries.length) renderChunk();
      return;
    }
    // Observed again, so a sentinel still in view after this chunk asks for the next one.
    observer.unobserve(sentinel);
    observer.observe(sentinel);
  }

  let shownCount = changes.length;
  const refreshed: (() => void)[] = [];

  function refresh(): void {
    if (!list) return;
    const result = entriesFor(visibleFilter());
    entries = result.entries;
    shownCount = result.shown;
    rendered = 0;
    list.replaceChildren();
    renderChunk();
    for (const listener of refreshed) listener();
    if (status) {
      const total = changes.length;
      status.textContent =
        result.shown === total
          ? `Showing all ${total} ${total === 1 ? 'change' : 'changes'}.`
          : `Showing ${result.shown} of ${total} changes (filtered).`;
    }
  }

  let pending: number | undefined;
  const later = (): void => {
    window.clearTimeout(pending);
    pending = window.setTimeout(refresh, 120);
  };
  form?.addEventListener('change', refresh);
  form?.addEventListener('input', (event) => (event.target === search ? later() : undefined));
  form?.addEventListener('submit', (event) => event.preventDefault());
  form?.addEventListener('reset', () => window.setTimeout(refresh, 0));
  search?.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && search.value !== '') {
      search.value = '';
      refresh();
    }
  });
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement | null;
    const typing = target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);
    if (event.key === '/' && !typing && search) {
      event.preventDefault();
      search.focus();
    }
  });
  refresh();
  extend?.({
    renderAll() {
      for (const showAll of lists) showAll(Infinity);
      while (list && rendered < entries.length) renderChunk();
    },
    open: openChange,
    counts: () => ({ total: changes.length, shown: shownCount }),
    onRefresh: (listener) => void refreshed.push(listener),
  });
  document.documentElement.setAttribute('data-ready', String(Math.round(performance.now())));
}
