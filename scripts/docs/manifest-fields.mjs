/**
 * The field reference of docs/manifests.md, rendered from the JSON Schemas in schemas/
 * (what `validate` and editors check with, themselves generated from the kind table by
 * `npm run schemas:generate`): one table per kind's `metadata` and `spec` and per nested
 * object, with each field's type, traits and description, and the fields that are refused
 * with the reason.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** References shown as a value form rather than as an object of their own. */
const VALUE_FORMS = { uuidRef: '`{uuid: …}`', nameOrUuidRef: 'name or `{uuid: …}`' };
const TITLES = { record: 'Routing record' };

/** The document kinds, in the page's order, by schema file: those of manifest.schema.json. */
function documentKinds(schemas) {
  return (schemas['manifest.schema.json']?.allOf ?? []).map((entry) => ({
    kind: entry.if.properties.kind.const,
    file: entry.then.$ref,
  }));
}

/** @param {string} dir */
export async function loadSchemas(dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.schema.json'));
  return Object.fromEntries(
    await Promise.all(files.map(async (f) => [f, JSON.parse(await readFile(join(dir, f), 'utf8'))])),
  );
}

/** Prose of a description for a table cell: documents named in full, `<`, `|` and line ends escaped. */
function prose(text) {
  return (text ?? '')
    .replace(/\bDoc\s?([123])\b/g, 'Document $1')
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;')))
    .join('')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
}

const title = (name) =>
  TITLES[name] ?? `${name[0].toUpperCase()}${name.slice(1).replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`;
const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
const or = (words) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

export function renderFields(schemas) {
  const sections = [];
  const queued = new Map(); // "file#def" → { file, name, schema }
  const pending = [];

  /** `#/$defs/x` or `other.schema.json#/$defs/x`, from `file`. */
  const resolve = (ref, file) => {
    const [target, pointer = ''] = ref.split('#');
    const at = target || file;
    const name = pointer.replace('/$defs/', '');
    return { file: at, name, schema: schemas[at]?.$defs?.[name] ?? {} };
  };

  const objectLink = (def) => {
    const key = `${def.file}#${def.name}`;
    // A definition of that name from another file (a baseline's partial copy of an item) links to the first one.
    const known = [...queued.values()].some((d) => d.name === def.name);
    if (!queued.has(key) && !known) {
      queued.set(key, def);
      pending.push(def);
    }
    return `[${title(def.name).toLowerCase()}](#${slug(title(def.name))})`;
  };

  /** The type cell; `own` is the property's schema, `file` where it was written. */
  const typeOf = (own, file) => {
    if (own.$ref) {
      const def = resolve(own.$ref, file);
      if (VALUE_FORMS[def.name]) return VALUE_FORMS[def.name];
      if (def.schema.properties || def.schema.additionalProperties) return objectLink(def);
      return typeOf({ ...def.schema, ...own, $ref: undefined }, def.file);
    }
    if (own.const !== undefined) return `\`${own.const}\``;
    if (own.enum) return or(own.enum.map((v) => `\`${v}\``));
    if (own.type === 'array') return `list of ${own.items ? typeOf(own.items, file) : 'values'}`;
    if (own.type === 'object' && own.additionalProperties && typeof own.additionalProperties === 'object') {
      const names = own.propertyNames;
      const key = names?.title ?? (names?.$ref ? 'field name' : names?.pattern ? 'E.164 number' : 'name');
      return `map of ${key} → ${typeOf(own.additionalProperties, file)}`;
    }
    const types = [own.type ?? []].flat().map((t) => (t === 'null' ? '`null`' : t));
    let text = or(types) || 'any';
    if (own.format === 'email') text += ' (e-mail)';
    if (own.minimum !== undefined) text += ` ≥ ${own.minimum}`;
    return text;
  };

  const descriptionOf = (own, file) => {
    if (own.examples)
      return `${descriptionOf({ ...own, examples: undefined }, file)} Example: ${own.examples.map((v) => `\`${v}\``).join(', ')}.`;
    if (own.description || !own.$ref) return own.description ?? '';
    const def = resolve(own.$ref, file);
    return descriptionOf(def.schema, def.file);
  };

  /** Rows of an object's properties (inline objects as dotted rows), and its refused fields. */
  const rows = (object, file, prefix = '') => {
    const out = { table: [], refused: [] };
    const required = new Set(object.required ?? []);
    for (const [name, own] of Object.entries(object.properties ?? {})) {
      const field = `${prefix}${name}`;
      if (own['x-ignored'] || (own.not && Object.keys(own.not).length === 0)) {
        out.refused.push(`\`${field}\`: ${prose(own['x-ignored'] ?? own.description)}`);
        continue;
      }
      const traits = [
        required.has(name) ? 'required' : '',
        own['x-immutable'] ? 'replaces on change' : '',
        own.writeOnly ? 'write-only' : '',
      ]
        .filter(Boolean)
        .join(', ');
      const inline = own.type === 'object' && own.properties && !own.$ref;
      out.table.push(
        `| \`${field}\` | ${inline ? 'object' : typeOf(own, file)} | ${traits} | ${prose(descriptionOf(own, file))} |`,
      );
      if (inline) {
        const nested = rows(own, file, `${field}.`);
        out.table.push(...nested.table);
        out.refused.push(...nested.refused);
      }
    }
    return out;
  };

  const table = (object, file, caption) => {
    const { table: lines, refused } = rows(object, file);
    const parts = [];
    if (caption) parts.push(caption, '');
    parts.push('| field | type | notes | description |', '|---|---|---|---|', ...lines);
    if (refused.length > 0) {
      parts.push(
        '',
        'Refused (`SB_IGNORED_FIELD`, with the reason `validate` gives):',
        '',
        ...refused.map((r) => `- ${r}`),
      );
    }
    return parts.join('\n');
  };

  for (const { file, kind } of documentKinds(schemas)) {
    const schema = schemas[file];
    if (!schema) continue;
    const spec = schema.properties?.spec;
    sections.push(
      [
        `### ${kind} documents`,
        '',
        prose(schema.description),
        '',
        table(
          schema.properties?.metadata ?? {},
          file,
          `\`metadata\`: ${prose(schema.properties?.metadata?.description)}`,
        ),
        '',
        spec ? table(spec, file, `\`spec\`: ${prose(spec.description)}`) : '',
      ].join('\n'),
    );
    while (pending.length > 0) {
      const def = pending.shift();
      sections.push([`### ${title(def.name)}`, '', prose(def.schema.description), '', defTable(def)].join('\n'));
    }
  }
  return sections.join('\n\n');

  function defTable(def) {
    if (def.schema.properties) return table(def.schema, def.file);
    return `Any field name of the table (letters, digits, \`_\`) → ${typeOf(def.schema.additionalProperties ?? {}, def.file)}.`;
  }
}
