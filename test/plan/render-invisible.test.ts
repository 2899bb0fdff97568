/**
 * Names that display as another but for an invisible character (tag characters, a Hangul
 * filler, a soft hyphen, an Arabic letter mark, a variation selector, a combining grapheme
 * joiner) are printed escaped by every renderer: the text plan, the markdown comment and the
 * HTML report's server-side parts (the browser part: test/e2e/html-report.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/plan/render-html.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import { INVISIBLE_NAMES, invisiblePlan } from '../fixtures/plans/sample-plan.js';

/** Characters that display as nothing, or reorder the text around them. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

const ESCAPED = [
  'tenant/acme-corp\\udb40\\udc20\\udb40\\udc41',
  'tenant/globex\\u3164',
  'tenant/glo\\u00adbex',
  'tenant/x\\u061cy',
  'tenant/acme\\ufe0f-corp',
  'tenant/acme-c\\u034forp',
];

describe('invisible characters in names, as rendered', () => {
  it('the text plan shows each escaped, in its change and in its warning', () => {
    const text = renderText(invisiblePlan(), { color: false });
    expect(text).not.toMatch(INVISIBLE);
    for (const shown of ESCAPED) {
      expect(text).toContain(`${shown} (`);
      expect(text).toContain(`created next to the live ${shown}`);
    }
  });

  it('the markdown comment shows each escaped', () => {
    const markdown = renderMarkdown(invisiblePlan());
    // Its own ⚠️ carries a variation selector: the names are what must not come out raw.
    for (const name of INVISIBLE_NAMES) expect(markdown).not.toContain(name.slice('tenant/'.length));
    for (const shown of ESCAPED) expect(markdown).toContain(shown.replace(/\\/g, '&#92;'));
  });

  it('the HTML report escapes them in what Node renders; its data keeps the plan exact', () => {
    const plan = invisiblePlan();
    plan.target.instance = `prod${INVISIBLE_NAMES[2]}`;
    const html = renderHtml(plan);
    expect(html).toContain('instance <code>prodtenant/glo\\u00adbex</code>');
    const data = /<script type="application\/json" id="plan-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const addresses = (JSON.parse(data) as { plan: { changes: { address: string }[] } }).plan.changes.map(
      (c) => c.address,
    );
    expect(addresses.slice(0, INVISIBLE_NAMES.length)).toEqual(INVISIBLE_NAMES);
  });
});
