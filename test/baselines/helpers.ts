import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadManifests, type LoadResult } from '../../src/manifest/index.js';
import type { Diagnostic } from '../../src/core/errors.js';

/** A temporary folder for one test file's cases; `done` removes it. */
export async function scratch(prefix: string): Promise<{ dir: string; done: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `sb-${prefix}-`));
  return { dir, done: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes the files (relative names, folders made) into a fresh case folder and loads it. */
export async function loadCase(
  root: string,
  files: Record<string, string>,
  env: Record<string, string> = {},
): Promise<LoadResult & { dir: string }> {
  const dir = await mkdtemp(path.join(root, 'case-'));
  await writeFiles(dir, files);
  return { ...(await loadManifests([dir], { cwd: dir, env })), dir };
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
}

/** `file:line:col: severity CODE: message` of each diagnostic. */
export function said(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map(
    (d) => `${d.source?.file}:${d.source?.line}:${d.source?.column}: ${d.severity} ${d.code}: ${d.message}`,
  );
}

/** A Tenant document (block YAML) of reseller `reseller`, with `metadata` and `spec` lines as given. */
export function tenant(name: string, spec: string, metadata = '', reseller = 'north'): string {
  return [
    'apiVersion: switchboard/v1',
    'kind: Tenant',
    'metadata:',
    `  name: ${name}`,
    `  reseller: ${reseller}`,
    ...(metadata
      ? metadata
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `  ${l}`)
      : []),
    'spec:',
    ...spec
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `  ${l}`),
  ].join('\n');
}

/** A Baseline document. */
export function baseline(name: string, selector: string, values: string): string {
  return [
    'apiVersion: switchboard/v1',
    'kind: Baseline',
    `metadata: { name: ${name} }`,
    'spec:',
    `  selector: ${selector}`,
    '  values:',
    ...values
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `    ${l}`),
  ].join('\n');
}
