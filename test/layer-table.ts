/**
 * The layer table of docs/architecture.md "Layers", read as data, and what the architecture
 * test checks against it: which folder of src/ may import which folders or modules, and the
 * import cycles among modules. Pure functions over paths (`src/...`, forward slashes).
 */

export interface LayerRow {
  /** `api/`: the folder under src/. */
  folder: string;
  /** The cell as written, for messages. */
  cell: string;
  /** What the row may import: folders (`core/`) and single modules (`api/errors.ts`), under src/. */
  allowed: string[];
}

/** A module and the modules it imports (resolved `src/...ts` paths, relative imports only). */
export interface ModuleImports {
  path: string;
  imports: string[];
}

const ROW = /^\|\s*`([a-z-]+\/)`\s*\|[^|]*\|\s*(.+?)\s*\|\s*$/;
const NAMED = /`([a-z-]+\/(?:[a-z0-9-]+\/)*(?:[a-z0-9-]+\.ts)?)`/g;

/**
 * The rows of the table under the `## Layers` heading. A cell is `nothing`, a list of
 * backticked folders and modules (text between them is commentary), `everything above`
 * (every folder of the rows before it) with an optional `but` and the folders left out.
 * A cell in any other form is an error naming the row: the table is the rule, so a rule the
 * test cannot read must not pass silently.
 */
export function parseLayerTable(markdown: string): LayerRow[] {
  const start = markdown.indexOf('\n## Layers\n');
  if (start < 0) throw new Error('docs/architecture.md has no "## Layers" section');
  const section = markdown.slice(start + 1).split(/\n## /)[0] ?? '';
  const rows: LayerRow[] = [];
  for (const line of section.split('\n')) {
    const match = ROW.exec(line);
    if (!match) continue;
    const [, folder = '', cell = ''] = match;
    const named = [...cell.matchAll(NAMED)].map((m) => m[1] ?? '');
    let allowed: string[];
    if (/^nothing\b/.test(cell)) allowed = [];
    else if (/^everything above\b/.test(cell)) {
      const but = /\bbut\b(.*)$/.exec(cell)?.[1] ?? '';
      const left = [...but.matchAll(NAMED)].map((m) => m[1]);
      allowed = rows.map((r) => r.folder).filter((f) => !left.includes(f));
    } else if (named.length > 0 && /^`/.test(cell)) allowed = named;
    else throw new Error(`the "may import" cell of ${folder} cannot be read: ${cell}`);
    rows.push({ folder, cell, allowed });
  }
  if (rows.length === 0) throw new Error('the "## Layers" section has no table rows');
  return rows;
}

/** The folder under src/ a module belongs to (`src/api/errors.ts` → `api/`). */
export function folderOf(path: string): string {
  return `${path.split('/')[1] ?? ''}/`;
}

/** Whether `row` may import the module `target` (`src/...ts`): its own folder, a listed folder, or a listed module. */
function mayImport(row: LayerRow, target: string): boolean {
  const inSrc = target.slice('src/'.length);
  if (!target.startsWith('src/') || inSrc.startsWith(row.folder)) return true;
  return row.allowed.some((a) => (a.endsWith('/') ? inSrc.startsWith(a) : inSrc === a));
}

/** `file imports target` for every import of a module in `row.folder` that the row does not allow. */
export function violations(row: LayerRow, modules: readonly ModuleImports[]): string[] {
  return modules
    .filter((m) => folderOf(m.path) === row.folder)
    .flatMap((m) => m.imports.filter((t) => !mayImport(row, t)).map((t) => `${m.path} imports ${t}`));
}

/**
 * The import cycles among modules: each strongly connected component of more than one
 * module (or a module importing itself), as its sorted paths. Tarjan's algorithm.
 */
export function importCycles(modules: readonly ModuleImports[]): string[][] {
  const graph = new Map(modules.map((m) => [m.path, m.imports]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const path of graph.keys()) if (!index.has(path)) visit(path);
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/**
 * Modules `row` may not import, one of each sort, for the mutation tests: one of a folder the
 * row does not name at all, and one of each folder it names only some modules of.
 */
export function forbiddenTargets(row: LayerRow, modules: readonly string[]): string[] {
  const named = (m: string) => row.allowed.some((a) => a.startsWith(folderOf(m)));
  const targets = modules.filter((m) => folderOf(m) !== row.folder && !mayImport(row, m));
  const unnamedFolder = targets.find((m) => !named(m));
  const partial = [...new Set(targets.filter(named).map(folderOf))].map((f) => targets.find((m) => folderOf(m) === f));
  return [unnamedFolder, ...partial].filter((m): m is string => m !== undefined);
}
