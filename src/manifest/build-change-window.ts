import { kinds } from '../kinds/index.js';
import { changeWindowKind } from '../kinds/change-window.js';
import { routingTableKind } from '../kinds/routing-table.js';
import type { ChangeWindow } from './assurance-types.js';
import type { DocumentBuilder, Json } from './build-context.js';
import { isTimeZone, parseFreeze, parseWindow, type Freeze, type WeeklyWindow } from './change-window-schedule.js';
import { Codes } from './codes.js';
import { didYouMean } from './suggest.js';

/**
 * ChangeWindow documents (docs/assurance.md "Change windows"): a scope (address patterns,
 * kinds, routing tables) and when it may change (weekly windows in a named time zone,
 * freezes). Every mistake is reported at its position and the document left out, as an
 * invalid document is: a window that reads wrong must not let changes through.
 */
export const changeWindowDocument: DocumentBuilder = {
  address: (metadata) => changeWindowKind.address(String(metadata['name'])),
  build: (ctx, metadata, spec) => {
    let ok = true;
    const error = (message: string, path: (string | number)[]) => {
      ok = false;
      ctx.out.reporter.error(Codes.changeWindow, message, { file: ctx.file, doc: ctx.doc, path: ['spec', ...path] });
    };
    const timeZone = String(spec['timeZone']);
    if (!isTimeZone(timeZone)) {
      error(`"${timeZone}" is not a time zone the runtime knows (an IANA name such as Europe/Brussels)`, ['timeZone']);
      return;
    }
    const windows: WeeklyWindow[] = [];
    ((spec['windows'] as string[] | undefined) ?? []).forEach((text, i) => {
      const parsed = parseWindow(text, timeZone);
      if (typeof parsed === 'string') error(parsed, ['windows', i]);
      else windows.push(parsed);
    });
    const freezes: Freeze[] = [];
    ((spec['freezes'] as Json[] | undefined) ?? []).forEach((raw, i) => {
      const reason = typeof raw['reason'] === 'string' ? raw['reason'] : undefined;
      const parsed = parseFreeze(String(raw['from']), String(raw['to']), timeZone, reason);
      if (typeof parsed === 'string') error(parsed, ['freezes', i]);
      else freezes.push(parsed);
    });
    if (spec['windows'] === undefined && spec['freezes'] === undefined)
      error('a change window without windows or freezes restricts nothing: give one of them', []);
    const scope = readScope((spec['scope'] as Json | undefined) ?? {}, error);
    if (!ok) return;
    const at = ctx.out.reporter.resolve({ file: ctx.file, doc: ctx.doc, path: [] });
    const window: ChangeWindow = {
      name: String(metadata['name']),
      timeZone,
      scope,
      windows,
      freezes,
      source: `${at.file}:${at.line}:${at.column}`,
    };
    ctx.out.changeWindows.push(window);
  },
};

function readScope(raw: Json, error: (message: string, path: (string | number)[]) => void): ChangeWindow['scope'] {
  const known = [...kinds.map((k) => k.kind), routingTableKind.rowKind];
  const kindNames = (raw['kinds'] as string[] | undefined) ?? [];
  kindNames.forEach((kind, i) => {
    if (!known.includes(kind))
      error(`unknown kind "${kind}"; expected one of ${known.join(', ')}${didYouMean(kind, known)}`, [
        'scope',
        'kinds',
        i,
      ]);
  });
  const tables = ((raw['tables'] as string[] | undefined) ?? []).map((text) => {
    const [service = '', version = '', name = ''] = text.split('/');
    return routingTableKind.address(service, version, name);
  });
  return { addresses: (raw['addresses'] as string[] | undefined) ?? [], kinds: kindNames, tables };
}
