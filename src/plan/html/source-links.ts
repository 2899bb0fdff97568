/**
 * Links from a change's manifest position to the file at the planned commit, when the
 * report is made in GitHub Actions: `GITHUB_SERVER_URL`, `GITHUB_REPOSITORY` and
 * `GITHUB_SHA` name the commit, `GITHUB_WORKSPACE` where its checkout is (positions are
 * relative to the folder switchboard ran in). Anything malformed means no links, never a
 * link somewhere else.
 */
import { relative, sep } from 'node:path';
import { relativeLeadsInside } from '../../core/path-inside.js';

/** What the report's script needs to turn `file:line` into a link. */
export interface SourceLinks {
  /** `https://github.com/owner/repo/blob/<sha>/`. */
  base: string;
  /** The folder switchboard ran in, relative to the checkout ('' or ending with `/`). */
  prefix: string;
  /** The checkout's absolute path, ending with `/`: absolute positions under it are linked too. */
  workspace: string;
}

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The links for this environment, or undefined outside GitHub Actions (or with a value that does not fit). */
export function sourceLinksFrom(env: NodeJS.ProcessEnv, cwd: string): SourceLinks | undefined {
  const server = env['GITHUB_SERVER_URL'];
  const repository = env['GITHUB_REPOSITORY'];
  const sha = env['GITHUB_SHA'];
  if (!server || !repository || !sha || !REPOSITORY.test(repository) || !COMMIT.test(sha)) return undefined;
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash || url.username)
    return undefined;
  const workspace = env['GITHUB_WORKSPACE'] || cwd;
  const inside = relative(workspace, cwd);
  if (!relativeLeadsInside(inside)) return undefined;
  const prefix = inside === '' ? '' : `${inside.split(sep).join('/')}/`;
  const base = `${url.href.replace(/\/+$/, '')}/${repository}/blob/${sha}/`;
  return { base, prefix, workspace: `${workspace.replace(/[\\/]+$/, '')}/` };
}
