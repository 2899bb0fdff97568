/**
 * What a run has read so far, for its progress line: list pages (platform lists and
 * routing-table pages) and the objects (items, rows) they held. The clients count into
 * it; the run layer shows it (src/run/read-progress.ts).
 */
export class ReadMeter {
  pages = 0;
  objects = 0;

  page(objects: number): void {
    this.pages += 1;
    this.objects += objects;
  }
}
