/**
 * `switchboard compare A B`: two manifest trees compared by address, with no server and no
 * credentials (docs/compare.md).
 */
export { compareTrees, type CompareOptions } from './compare.js';
export { loadTree, type LoadedTree } from './load.js';
export { renderCompareCsv } from './render-csv.js';
export { renderCompareHtml } from './render-html.js';
export { renderCompareJson } from './render-json.js';
export { renderCompareMarkdown } from './render-markdown.js';
export { renderCompareText } from './render-text.js';
export * from './types.js';
