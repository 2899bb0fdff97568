/// <reference lib="dom" />
/**
 * The compare report's script. It runs in the browser, not in Node: render-html.ts inlines
 * the text of {@link compareMain} as `(function …)()`, so the function must be whole in
 * itself (no module variables or helpers from outside its body). It reads the differences
 * from the page's <script type="application/json"> block, filters them by type, kind and a
 * text search, and lists the matching ones a chunk at a time. It only ever sets text
 * (textContent, never markup), so a value from a manifest cannot become HTML.
 */
/**
 * `visible`: what a text shows, its invisible characters escaped (plan/html/visible.ts, handed
 * over by render-html.ts).
 */
export function compareMain(visible: (text: string) => string): void {
  interface FieldRow {
    field: string;
    a: string | null;
    b: string | null;
  }
  interface Entry {
    type: 'added' | 'removed' | 'renamed' | 'changed';
    address: string;
    kind: string;
    rename: string;
    fields: FieldRow[];
    sourceA: string;
    sourceB: string;
  }
  const CHUNK = 200;
  const ACTION = { added: 'a-create', removed: 'a-delete', renamed: 'a-replace', changed: 'a-update' } as const;

  /** An element with attributes and children (strings become text, never markup, made {@link visible}). */
  function el(tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs))
      node.setAttribute(name, name === 'title' ? visible(value) : value);
    for (const child of children) node.append(typeof child === 'string' ? visible(child) : child);
    return node;
  }

  const entries = JSON.parse(document.getElementById('compare-data')?.textContent ?? '[]') as Entry[];
  const list = document.getElementById('difference-list');
  const status = document.getElementById('difference-status');
  const form = document.getElementById('filters') as HTMLFormElement | null;
  if (!list || !status) return;
  const haystacks = entries.map((e) =>
    [
      e.type,
      e.address,
      e.kind,
      e.rename,
      e.sourceA,
      e.sourceB,
      ...e.fields.flatMap((f) => [f.field, f.a ?? '', f.b ?? '']),
    ]
      .join('\n')
      .toLowerCase(),
  );

  function card(e: Entry): HTMLElement {
    const summary = el(
      'summary',
      {},
      el('span', { class: 'badge' }, e.type),
      ' ',
      el('code', { class: 'addr' }, e.address),
      ' ',
      el('span', { class: 'kind' }, e.kind),
    );
    if (e.rename) summary.append(el('span', { class: 'why' }, e.rename));
    const body = el('div', { class: 'body' });
    if (e.fields.length > 0) {
      const rows = e.fields.map((f) =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, el('code', {}, f.field)),
          el('td', { class: 'value mono' }, f.a ?? '—'),
          el('td', { class: 'value mono' }, f.b ?? '—'),
        ),
      );
      const head = el(
        'tr',
        {},
        el('th', { scope: 'col' }, 'field'),
        el('th', { scope: 'col' }, 'A'),
        el('th', { scope: 'col' }, 'B'),
      );
      body.append(el('div', { class: 'table-wrap' }, el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows))));
    }
    for (const [label, at] of [
      ['In A at ', e.sourceA],
      ['In B at ', e.sourceB],
    ] as const) {
      if (at) body.append(el('p', { class: 'hint' }, label, el('code', {}, at)));
    }
    return el('details', { class: `change ${ACTION[e.type]}` }, summary, body);
  }

  let matching: number[] = [];
  let shown = 0;
  const more = el('button', { type: 'button', class: 'more' });
  more.addEventListener('click', () => showMore());
  list.after(more);

  function showMore(): void {
    const end = Math.min(matching.length, shown + CHUNK);
    const fragment = document.createDocumentFragment();
    for (; shown < end; shown++) fragment.append(card(entries[matching[shown] as number] as Entry));
    list?.append(fragment);
    more.hidden = shown >= matching.length;
    more.textContent = `Show ${Math.min(CHUNK, matching.length - shown)} more (${matching.length - shown} left)`;
  }

  function apply(): void {
    const checked = (name: string) =>
      new Set(
        Array.from(document.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`))
          .filter((i) => i.checked)
          .map((i) => i.value),
      );
    const types = checked('type');
    const kinds = checked('kind');
    const search = document.getElementById('search') as HTMLInputElement | null;
    const words = (search?.value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    matching = [];
    entries.forEach((e, i) => {
      if (types.has(e.type) && kinds.has(e.kind) && words.every((w) => haystacks[i]?.includes(w))) matching.push(i);
    });
    list?.replaceChildren();
    shown = 0;
    if (status) status.textContent = `${matching.length} of ${entries.length} objects shown.`;
    showMore();
  }

  form?.addEventListener('input', apply);
  form?.addEventListener('reset', () => setTimeout(apply, 0));
  document.addEventListener('keydown', (event) => {
    const search = document.getElementById('search') as HTMLInputElement | null;
    if (!search) return;
    if (event.key === '/' && document.activeElement !== search) {
      event.preventDefault();
      search.focus();
    } else if (event.key === 'Escape' && document.activeElement === search) {
      search.value = '';
      apply();
    }
  });
  apply();
}
