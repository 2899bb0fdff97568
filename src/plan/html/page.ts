/**
 * What every self-contained HTML page of switchboard shares (the plan report, compare's
 * report, coverage's page): at most one inline script and one inline style, allowed by their
 * hashes and nothing else (no network, no other script, no form), and the head that says so.
 */
import { createHash } from 'node:crypto';
import { escapeHtml, escapeMarkup } from './escape.js';

export interface PageAssets {
  /** The inline script, checked by {@link inlineScript}; none: the page runs no script at all. */
  script?: string;
  style: string;
}

/** A script that can sit inside `<script>`: it must not close the element or open a comment. */
export function inlineScript(source: string, what: string): string {
  if (/<\/script|<!--/i.test(source)) throw new Error(`${what} must not contain </script or <!--`);
  return source;
}

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page's Content-Security-Policy: its own script and style, by hash, and nothing else. */
function contentSecurityPolicy({ script, style }: PageAssets): string {
  return [
    "default-src 'none'",
    ...(script === undefined ? [] : [`script-src ${hash(script)}`]),
    `style-src ${hash(style)}`,
    'img-src data:', // the empty icon, so that the browser asks for no /favicon.ico
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** `<!DOCTYPE html>` to `</head>`: the page's title, its policy and its style. */
export function pageHead(assets: PageAssets, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(assets))}">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${assets.style}</style>
</head>`;
}

/** One filter group: a legend and its checkboxes (`name=value`, each with its count), all checked at first. */
export interface FilterGroup {
  legend: string;
  name: string;
  choices: { value: string; label: string; count: number }[];
}

/**
 * The filter form above a report's list: checkbox groups, a search box (its hint says what
 * it searches) and a reset button. The page's script reads it by these ids and names.
 */
export function filterForm(label: string, groups: FilterGroup[], searchHint: string): string {
  const fieldsets = groups.map(
    (g) => `<fieldset><legend>${escapeHtml(g.legend)}</legend><div class="choices">
${g.choices.map((c) => checkbox(g.name, c.value, c.label, c.count)).join('\n')}
</div></fieldset>`,
  );
  return `<form id="filters" class="filters" role="search" aria-label="${escapeHtml(label)}">
${fieldsets.join('\n')}
<div class="search"><label for="search">Search</label>
<input type="search" id="search" name="q" autocomplete="off" spellcheck="false" aria-describedby="search-hint">
<span class="hint" id="search-hint">${escapeHtml(searchHint)}</span>
</div>
<div><button type="reset">Show everything</button></div>
</form>`;
}

function checkbox(name: string, value: string, label: string, count: number): string {
  return `<label><input type="checkbox" name="${name}" value="${escapeMarkup(value)}" checked> ${escapeHtml(label)} <span class="count">(${count})</span></label>`;
}
