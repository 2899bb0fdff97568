/**
 * The HTML report's style sheet, inlined in its <style> element (the page's Content
 * Security Policy allows exactly this text, by its hash). Light and dark themes follow the
 * system; a narrow screen (a phone) stacks the filters and wraps long addresses. Actions
 * are told apart by their word, not by colour alone. Table headers wrap between words
 * only: a cell may break a long value anywhere, and a squeezed table then took the
 * columns down to one letter ("declare d"). Printed (html/report-print.ts has opened every
 * change), the controls go, nothing scrolls sideways or is clipped, and a change's line
 * stays with its details.
 */
export const REPORT_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa; --focus: #0969da;
  --create: #1a7f37; --update: #9a6700; --replace: #8250df; --delete: #cf222e; --warn: #9a6700;
  --create-bg: #dafbe1; --update-bg: #fff8c5; --replace-bg: #fbefff; --delete-bg: #ffebe9;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #30363d; --panel: #161b22; --focus: #4493f8;
    --create: #3fb950; --update: #d29922; --replace: #bc8cff; --delete: #f85149; --warn: #d29922;
    --create-bg: #12261e; --update-bg: #272115; --replace-bg: #231a33; --delete-bg: #2d1517;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg); line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
}
code, pre, .addr, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
code, .addr { font-size: 0.92em; overflow-wrap: anywhere; }
a { color: var(--focus); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -10000px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: 0.5rem; z-index: 2; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header, main, footer { max-width: 78rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.5rem; margin: 0.5rem 0; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 0.25rem; overflow-wrap: anywhere; }
h4 { font-size: 0.98rem; margin: 0.75rem 0 0.25rem 0.75rem; overflow-wrap: anywhere; }
h5 { font-size: 0.9rem; margin: 0.5rem 0 0.25rem 1.5rem; color: var(--muted); }
.count { color: var(--muted); font-weight: normal; }
.summary { font-size: 1.1rem; font-weight: 600; margin: 0.25rem 0; }
.meta { color: var(--muted); margin: 0.25rem 0; overflow-wrap: anywhere; }
.digest code { font-size: 0.85em; }
.verdict { padding: 0.6rem 0.8rem; border-radius: 6px; border: 1px solid var(--line); font-weight: 600; }
.verdict.refused { border-color: var(--delete); background: var(--delete-bg); }
.verdict.passed { border-color: var(--create); background: var(--create-bg); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0.5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
ul.messages { list-style: none; padding: 0; margin: 0.25rem 0; }
ul.messages li { border-left: 4px solid var(--line); padding: 0.35rem 0.6rem; margin: 0.3rem 0; background: var(--panel); overflow-wrap: anywhere; }
ul.messages.errors li { border-left-color: var(--delete); }
ul.messages.warnings li { border-left-color: var(--warn); }
.code { font-weight: 600; }
.more { margin: 0.5rem 0; }
button, input, select { font: inherit; }
button { padding: 0.3rem 0.8rem; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); cursor: pointer; }
form.filters { display: flex; flex-wrap: wrap; gap: 0.75rem 1.5rem; align-items: flex-start; padding: 0.75rem; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
form.filters fieldset { border: 0; padding: 0; margin: 0; min-width: 0; }
form.filters legend { font-weight: 600; padding: 0; margin-bottom: 0.2rem; }
form.filters .choices { display: flex; flex-wrap: wrap; gap: 0.2rem 0.9rem; max-height: 9rem; overflow-y: auto; }
form.filters label { white-space: nowrap; }
.search { display: flex; flex-direction: column; flex: 1 1 16rem; min-width: 12rem; }
.search label { font-weight: 600; margin-bottom: 0.2rem; }
.search input { width: 100%; padding: 0.35rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
.hint { color: var(--muted); font-size: 0.85em; }
#change-status { margin: 0.6rem 0; color: var(--muted); }
.print-note { margin: 0.3rem 0 0.6rem; color: var(--muted); font-size: 0.9em; }
.print-note:empty { display: none; }
.print-unprepared { display: none; }
a.refused { display: inline-block; margin-left: 0.3rem; padding: 0 0.4rem; border: 1px solid var(--delete); border-radius: 4px; color: var(--delete); font-size: 0.85em; font-weight: 600; text-decoration: none; }
a.refused:hover, a.refused:focus-visible { background: var(--delete-bg); }
ul.messages li:target, ul.messages li:focus { outline: 3px solid var(--focus); outline-offset: 1px; }
details.change { border: 1px solid var(--line); border-left-width: 5px; border-radius: 4px; margin: 0.25rem 0 0.25rem 1.5rem; background: var(--bg); }
details.change > summary { padding: 0.3rem 0.6rem; cursor: pointer; overflow-wrap: anywhere; }
details.change[open] > summary { border-bottom: 1px solid var(--line); }
details.change .body { padding: 0.5rem 0.75rem; overflow-x: auto; }
.chunk { content-visibility: auto; contain-intrinsic-size: auto 6000px; }
.badge { display: inline-block; min-width: 4.6rem; font-weight: 700; font-size: 0.85em; text-transform: uppercase; letter-spacing: 0.02em; }
.a-create { border-left-color: var(--create); } .a-create .badge { color: var(--create); }
.a-update { border-left-color: var(--update); } .a-update .badge { color: var(--update); }
.a-replace { border-left-color: var(--replace); background: var(--replace-bg); } .a-replace .badge { color: var(--replace); }
.a-delete { border-left-color: var(--delete); background: var(--delete-bg); } .a-delete .badge { color: var(--delete); }
.kind, .id { color: var(--muted); font-size: 0.9em; }
.why { display: block; color: var(--muted); font-size: 0.9em; margin-left: 4.9rem; }
table { border-collapse: collapse; margin: 0.4rem 0; font-size: 0.9em; }
th, td { border: 1px solid var(--line); padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--panel); }
th, th code { overflow-wrap: normal; word-break: normal; hyphens: manual; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.changed td { background: var(--update-bg); }
tr.negative td { background: var(--delete-bg); }
.table-wrap { overflow-x: auto; max-width: 100%; }
.body h6 { font-size: 0.85rem; margin: 0.6rem 0 0.2rem; }
.body ul, .body ol { margin: 0.2rem 0; padding-left: 1.4rem; }
.value { white-space: pre-wrap; }
footer { border-top: 1px solid var(--line); margin-top: 2rem; padding-top: 0.75rem; padding-bottom: 2rem; color: var(--muted); font-size: 0.9em; overflow-wrap: anywhere; }
@media print {
  :root { --bg: #ffffff; --fg: #000000; --muted: #444c56; --panel: #f6f8fa; }
  body { font-size: 10pt; background: #ffffff; color: #000000; }
  header, main, footer { max-width: none; padding: 0; }
  .skip, form.filters, button.more, .sentinel, #change-status, noscript { display: none; }
  .print-note { display: block; color: var(--fg); font-weight: 600; font-size: 1em; border: 1px solid var(--line); padding: 0.4rem 0.6rem; }
  .print-note.partial { border: 2px solid var(--delete); }
  html:not([data-print-ready]) .print-unprepared:not(:empty) { display: block; font-weight: 600; border: 2px solid var(--delete); padding: 0.4rem 0.6rem; }
  html:not([data-print-ready]) .print-note { display: none; }
  .chunk { content-visibility: visible; contain-intrinsic-size: none; }
  details.change { margin-left: 0; break-inside: auto; }
  details.change > summary { break-inside: avoid; break-after: avoid; }
  details.change .body, .table-wrap { overflow: visible; }
  h2, h3, h4, h5, h6 { break-after: avoid; }
  tr, dl.facts > * { break-inside: avoid; }
  thead { display: table-header-group; }
  a { color: inherit; }
}
@media (max-width: 40rem) {
  body { font-size: 14px; }
  header, main, footer { padding: 0 0.6rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 0.3rem; }
  details.change, h4, h5 { margin-left: 0; }
  .why { margin-left: 0; }
  form.filters { flex-direction: column; }
  .search { flex-basis: auto; width: 100%; }
}
`;
