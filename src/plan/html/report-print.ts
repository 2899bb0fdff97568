/// <reference lib="dom" />
/**
 * Printing the HTML report (or saving it as PDF, the copy kept as evidence). The list of
 * changes is built lazily as it scrolls into view and each change opens on a click, so a
 * printout used to hold the few hundred changes built so far, closed. Before a print
 * (`beforeprint`, and print media however it is asked for), every change the filters show
 * is built and opened, and every refusal, warning and unmanaged object listed; after it, the
 * changes opened for it close again. A plan beyond {@link DETAILS_LIMIT} changes prints each
 * change's line but the details of the first ones only. What a printout leaves out (changes
 * the filters hide, details beyond the limit) is said in a note, on screen and on paper. A
 * printer that renders print media without `beforeprint` (the browsers and Chromium's PDF
 * printing all send it) gets the page as built on screen, and a second note, shown in print
 * only while no preparation ran (the style sheet), says so.
 *
 * Runs in the browser: render-html.ts inlines this function's text next to the report's
 * script, which hands it {@link ReportApi}; it must be whole in itself (only type imports).
 */
import type { ReportApi } from './report-script.js';

export function reportPrint(api: ReportApi): void {
  /** Details opened for a print, at most: 5,000 changes print as about 2,000 pages. */
  const DETAILS_LIMIT = 5_000;
  const note = document.getElementById('print-note');
  const unprepared = document.getElementById('print-unprepared');
  const root = document.documentElement;
  let opened: HTMLDetailsElement[] = [];
  let printing = false;

  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

  /** The note: what printing now keeps and leaves out (the same words on screen and on paper). */
  function describe(): void {
    if (!note) return;
    const { total, shown } = api.counts();
    if (total === 0) {
      note.textContent = '';
      return;
    }
    const parts: string[] = [];
    if (shown === total)
      parts.push(`Printed (or saved as PDF), this report holds all ${plural(total, 'change')}, each opened.`);
    else {
      parts.push(
        `Printed now, this report holds ${shown} of the plan's ${plural(total, 'change')}: ` +
          `the filters leave ${total - shown} out. Use "Show everything" before printing to keep every change.`,
      );
    }
    if (shown > DETAILS_LIMIT) {
      parts.push(
        `Only the first ${DETAILS_LIMIT} are printed with their details (fields, patch, requests); the other ` +
          `${shown - DETAILS_LIMIT} print as one line each (action, address, kind, id). The plan file (JSON) holds every detail.`,
      );
    }
    note.textContent = parts.join(' ');
    note.classList.toggle('partial', shown < total || shown > DETAILS_LIMIT);
    if (unprepared) {
      unprepared.textContent =
        `This printout was made without the report's preparation for printing: it holds only the changes ` +
        `the page had built on screen, closed, not necessarily all ${plural(total, 'change')} of the plan. ` +
        `Print from a browser's Print command (or save as PDF there) to keep every change.`;
    }
  }

  function prepare(): void {
    if (printing) return;
    printing = true;
    root.setAttribute('data-print-ready', '');
    api.renderAll();
    const nodes = Array.from(document.querySelectorAll<HTMLDetailsElement>('#change-list details.change'));
    for (const node of nodes.slice(0, DETAILS_LIMIT)) {
      if (node.open) continue;
      api.open(node);
      opened.push(node);
    }
    describe();
  }

  function restore(): void {
    if (!printing) return;
    printing = false;
    root.removeAttribute('data-print-ready');
    for (const node of opened) node.open = false;
    opened = [];
  }

  window.addEventListener('beforeprint', prepare);
  window.addEventListener('afterprint', restore);
  api.onRefresh(describe);
  describe();
}
